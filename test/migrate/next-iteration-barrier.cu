// The barrier after the product under the loop's own condition at the next
// step, `if (k0 + BK < K) __syncthreads();`: every iteration a next one
// follows waits there before that iteration stages over the tiles, and the
// last, with no staging after it, skips it. The loop is lifted as if the
// barrier were unconditional. (The outputs are checked without this file's
// own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void next_barrier_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void next_barrier(int M, int N, int K, const __half *A,
                             const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    if (k0 + BK < K)
      __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half_rn(acc[i][j]);
    }
}

// The same in braces.
// CHECK-LABEL: __global__ void next_barrier_braced_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void next_barrier_braced(int M, int N, int K, const __half *A,
                                    const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    if (k0 + BK < K) {
      __syncthreads();
    }
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half_rn(acc[i][j]);
    }
}
