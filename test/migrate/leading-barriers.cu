// Barriers before the loop that only declarations precede, such as a
// `__syncthreads();` at the top of a kernel, order no access: no thread has
// written or read memory before them. They are passed over, in every front
// end, and the rest of the kernel is lifted as without them. A barrier
// after a statement that writes memory is still one the form must account
// for (test/migrate/leading-barriers-refusals.cu). (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define TILE 16

// A register-blocked kernel, single-buffered, a barrier at its top.
// CHECK-LABEL: __global__ void plain_bar_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void plain_bar(int M, int N, int K, const __nv_bfloat16 *A,
                          const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      As[e / BK][e % BK] = A[(row0 + e / BK) * K + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = __float2bfloat16_rn(acc[i][j]);
}

// Double-buffered: a barrier at the top and one after the first tiles.
// CHECK-LABEL: __global__ void two_bar_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void two_bar(int M, int N, int K, const __nv_bfloat16 *A,
                        const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  __syncthreads();
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(row0 + e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + col0 + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[(t + 1) % 2][e / BK][e % BK] = A[(row0 + e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[(t + 1) % 2][e / BN][e % BN] = B[((t + 1) * BK + e / BN) * N + col0 + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[t % 2][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[t % 2][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = __float2bfloat16_rn(acc[i][j]);
}

// The classic shared-memory kernel, two barriers among its declarations.
// CHECK-LABEL: __global__ void classic_bar_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void classic_bar(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C, int M, int N, int K) {
  __syncthreads();
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  __syncthreads();
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x]
                                       : __float2bfloat16_rn(0.0f);
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col]
                                       : __float2bfloat16_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}

void launch(int M, int N, int K, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  plain_bar<<<dim3(N / BN, M / BM), 256>>>(M, N, K, A, B, C);
  two_bar<<<dim3(N / BN, M / BM), 256>>>(M, N, K, A, B, C);
  classic_bar<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
