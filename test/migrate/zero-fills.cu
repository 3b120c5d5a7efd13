// Staging copies written as a zero store followed by a checked copy into the
// same place, `x = 0; ... if (ok) x = A[j];` (ZeroFills.h): read as the copy
// `x = ok ? A[j] : 0`. The classic form (both tiles cleared first, A stored
// K x M and staged transposed, unsigned indices), its double-buffered form
// (the pairs in the prefetch and before the loop), and the register-blocked
// form (pairs in loops of constant bounds, a register filled the same way).
// All are lifted. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_fp16.h>

#define TILE 16

// C = A^T * B, A stored K x M; a ragged K needs no condition: the fills
// give the zeros past K.
// CHECK-LABEL: __global__ void zero_then_copy_tiled(
// CHECK: tawa::mma(acc, tawa::transpose(a), b);
// CHECK-LABEL: static void zero_then_copy_migrated_launch(
// CHECK-NOT: K % 16
// CHECK: zero_then_copy_tiled<<<
__global__ void zero_then_copy(const __half *A, const __half *B, float *C,
                               unsigned M, unsigned N, unsigned K) {
  __shared__ __half sAt[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const unsigned aCol = blockIdx.y * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (unsigned k0 = 0; k0 < K; k0 += TILE) {
    sAt[ty][tx] = __float2half_rn(0.0f);
    sB[ty][tx] = __float2half_rn(0.0f);
    if (k0 + ty < K && aCol < M)
      sAt[ty][tx] = A[(k0 + ty) * M + aCol];
    if (k0 + ty < K && col < N)
      sB[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (unsigned kk = 0; kk < TILE; ++kk)
      acc += __half2float(sAt[kk][ty]) * __half2float(sB[kk][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// CHECK-LABEL: __global__ void zero_then_copy_buffered_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void zero_then_copy_buffered(const __half *A, const __half *B,
                                        float *C, int M, int N, int K) {
  __shared__ __half As[2][TILE][TILE], Bs[2][TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  As[0][ty][tx] = __half();
  if (row < M && tx < K)
    As[0][ty][tx] = A[row * K + tx];
  Bs[0][ty][tx] = __half();
  if (ty < K && col < N)
    Bs[0][ty][tx] = B[ty * N + col];
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    const int cur = (t / TILE) % 2;
    if (t + TILE < K) {
      As[1 - cur][ty][tx] = __half();
      Bs[1 - cur][ty][tx] = __half();
      if (row < M && t + TILE + tx < K)
        As[1 - cur][ty][tx] = A[row * K + t + TILE + tx];
      if (t + TILE + ty < K && col < N)
        Bs[1 - cur][ty][tx] = B[(t + TILE + ty) * N + col];
    }
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[cur][ty][k]) * __half2float(Bs[cur][k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// 64 x 64 x 16 tiles, 256 threads, 4 x 4 per thread; B's elements pass
// through a register declared zero and then filled.
// CHECK-LABEL: __global__ void blocked_zero_then_copy_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void blocked_zero_then_copy(const __half *A, const __half *B,
                                       float *C, int M, int N, int K) {
  __shared__ __half As[64][16];
  __shared__ __half Bs[16][64];
  const int tid = threadIdx.x;
  const int tr = tid / 16, tc = tid % 16;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  float acc[4][4] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = tid; i < 64 * 16; i += 256) {
      const int r = i / 16, c = i % 16;
      As[r][c] = __float2half_rn(0.0f);
      if (m0 + r < M && k0 + c < K)
        As[r][c] = A[(m0 + r) * K + k0 + c];
    }
    for (int i = tid; i < 16 * 64; i += 256) {
      const int r = i / 64, c = i % 64;
      __half b = __float2half_rn(0.0f);
      if (k0 + r < K && n0 + c < N)
        b = B[(k0 + r) * N + n0 + c];
      Bs[r][c] = b;
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[tr * 4 + i][k]) *
                       __half2float(Bs[k][tc * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = m0 + tr * 4 + i, c = n0 + tc * 4 + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
