// In the style of an SGEMM tutorial's kernel 5 (2-D block tiling), __half inputs, regM/regN caches,
// #pragma unroll, strided staging loops, float C with alpha/beta.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    sgemm2DBlocktiling(int M, int N, int K, float alpha, const __half *A,
                       const __half *B, float beta, float *C) {
  const unsigned int cRow = blockIdx.y;
  const unsigned int cCol = blockIdx.x;
  const unsigned int totalResultsBlocktile = BM * BN;
  const unsigned int numThreadsBlocktile = totalResultsBlocktile / (TM * TN);
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ __half As[BM * BK];
  __shared__ __half Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const unsigned int innerRowA = threadIdx.x / BK;
  const unsigned int innerColA = threadIdx.x % BK;
  const unsigned int strideA = numThreadsBlocktile / BK;
  const unsigned int innerRowB = threadIdx.x / BN;
  const unsigned int innerColB = threadIdx.x % BN;
  const unsigned int strideB = numThreadsBlocktile / BN;
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
#pragma tawa tile
  for (unsigned int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (unsigned int loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
      As[(innerRowA + loadOffset) * BK + innerColA] =
          A[(innerRowA + loadOffset) * K + innerColA];
    }
    for (unsigned int loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
      Bs[(innerRowB + loadOffset) * BN + innerColB] =
          B[(innerRowB + loadOffset) * N + innerColB];
    }
    __syncthreads();
    A += BK;
    B += BK * N;
#pragma unroll
    for (unsigned int dotIdx = 0; dotIdx < BK; ++dotIdx) {
#pragma unroll
      for (unsigned int i = 0; i < TM; ++i)
        regM[i] = __half2float(As[(threadRow * TM + i) * BK + dotIdx]);
#pragma unroll
      for (unsigned int i = 0; i < TN; ++i)
        regN[i] = __half2float(Bs[dotIdx * BN + threadCol * TN + i]);
#pragma unroll
      for (unsigned int resIdxM = 0; resIdxM < TM; ++resIdxM)
#pragma unroll
        for (unsigned int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }
  for (unsigned int resIdxM = 0; resIdxM < TM; ++resIdxM) {
    for (unsigned int resIdxN = 0; resIdxN < TN; ++resIdxN) {
      C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN] =
          alpha * threadResults[resIdxM * TN + resIdxN] +
          beta * C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN];
    }
  }
}

void runSgemm2DBlocktiling(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, float beta, float *C) {
  const unsigned int BK = 8, TM = 8, TN = 8;
  const unsigned int BM = 128, BN = 128;
  dim3 gridDim((N + BN - 1) / BN, (M + BM - 1) / BM);
  dim3 blockDim((BM * BN) / (TM * TN));
  sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
