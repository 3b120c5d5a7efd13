// In the style of an SGEMM tutorial's kernel 4 (1-D block tiling), bf16 inputs, float C.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <const int BM, const int BN, const int BK, const int TM>
__global__ void sgemm1DBlocktiling(int M, int N, int K, float alpha,
                                   const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                   float beta, float *C) {
  const unsigned int cRow = blockIdx.y;
  const unsigned int cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;
  __shared__ __nv_bfloat16 As[BM * BK];
  __shared__ __nv_bfloat16 Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const unsigned int innerColA = threadIdx.x % BK;
  const unsigned int innerRowA = threadIdx.x / BK;
  const unsigned int innerColB = threadIdx.x % BN;
  const unsigned int innerRowB = threadIdx.x / BN;
  float threadResults[TM] = {0.0f};
#pragma tawa tile
  for (unsigned int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = __bfloat162float(Bs[dotIdx * BN + threadCol]);
      for (unsigned int resIdx = 0; resIdx < TM; ++resIdx) {
        threadResults[resIdx] +=
            __bfloat162float(As[(threadRow * TM + resIdx) * BK + dotIdx]) * tmpB;
      }
    }
    __syncthreads();
  }
  for (unsigned int resIdx = 0; resIdx < TM; ++resIdx) {
    C[(threadRow * TM + resIdx) * N + threadCol] =
        alpha * threadResults[resIdx] +
        beta * C[(threadRow * TM + resIdx) * N + threadCol];
  }
}

void runSgemm1DBlocktiling(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                           const __nv_bfloat16 *B, float beta, float *C) {
  const unsigned int BM = 64, BN = 64, BK = 8, TM = 8;
  dim3 gridDim((N + BN - 1) / BN, (M + BM - 1) / BM);
  dim3 blockDim((BM * BN) / TM);
  sgemm1DBlocktiling<BM, BN, BK, TM><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
