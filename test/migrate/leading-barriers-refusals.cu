// Barriers before the loop that a statement writing memory precedes are
// not passed over: the form must account for them, and these kernels are
// refused and left as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

__device__ int claim(int *counter) { return counter[0]++; }

// Shared memory written before the barrier.
// CHECK: leading-barriers-refusals.cu:[[@LINE+12]]:3: warning: {{.*}}expected, before the first barrier, staging copies{{.*}}[tawa-unsupported]
__global__ void zeroed_first(int M, int N, int K, const __nv_bfloat16 *A,
                          const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[e / BK][e % BK] = __float2bfloat16_rn(0.0f);
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

// A declaration whose value calls a function that writes memory.
// CHECK: leading-barriers-refusals.cu:[[@LINE+12]]:3: warning: {{.*}}the initializer of 'ticket' has side effects{{.*}}[tawa-unsupported]
__global__ void claimed_first(int M, int N, int K, int *counter, const __nv_bfloat16 *A,
                          const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  const int ticket = claim(counter);
  (void)ticket;
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

void launch(int M, int N, int K, int *counter, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  zeroed_first<<<dim3(N / BN, M / BM), 256>>>(M, N, K, A, B, C);
  claimed_first<<<dim3(N / BN, M / BM), 256>>>(M, N, K, counter, A, B, C);
}
