// Barriers after the product under a condition that is not the loop's own at
// the next step ('next-iteration-barrier.cu'): one that skips other
// iterations, one that only some threads reach, and the loop's own where
// the code after the loop may write shared memory while a slower thread
// still reads the last tiles. Each is refused at the statement, and the file
// is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// The barrier skipped on the last two iterations.
// CHECK: next-iteration-barrier-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}the loop body has one '__syncthreads();' where the form has two{{.*}} [tawa-unsupported]
__global__ void skips_two(int M, int N, int K, const __half *A,
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
    if (k0 + 2 * BK < K)
      __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] =
          __float2half_rn(acc[i][j]);
}

// A barrier only the first 128 threads reach.
// CHECK: next-iteration-barrier-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}the loop body has one '__syncthreads();' where the form has two{{.*}} [tawa-unsupported]
__global__ void some_threads(int M, int N, int K, const __half *A,
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
    if (threadIdx.x < 128)
      __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] =
          __float2half_rn(acc[i][j]);
}

// The results staged through the tile As after the loop: a slower thread may
// still read As in the last product.
// CHECK: next-iteration-barrier-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}the loop's last iteration skips the barrier after the product, and the code after the loop may write shared memory{{.*}} [tawa-unsupported]
__global__ void staged_after(int M, int N, int K, const __half *A,
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
  As[tRow][tCol] = __float2half_rn(acc[0][0]);
  __syncthreads();
  C[(row0 + tRow) * N + col0 + tCol] = As[tCol % BM][tRow % BK];
}
