// In the style of an SGEMM tutorial's kernel 6 (vectorized), bf16 inputs: one float4 moves 8 bf16.
// Epilogue through float4 temporaries of C (float).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8

__global__ void sgemmVectorizeBf16(int M, int N, int K, float alpha,
                                   const __nv_bfloat16 *__restrict__ A,
                                   const __nv_bfloat16 *__restrict__ B, float beta,
                                   float *__restrict__ C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ __nv_bfloat16 As[BM * BK];
  __shared__ __nv_bfloat16 Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / (BK / 8);
  const int innerColA = threadIdx.x % (BK / 8);
  const int innerRowB = threadIdx.x / (BN / 8);
  const int innerColB = threadIdx.x % (BN / 8);
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    reinterpret_cast<float4 *>(&As[innerRowA * BK + innerColA * 8])[0] =
        reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 8])[0];
    reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 8])[0] =
        reinterpret_cast<const float4 *>(&B[innerRowB * N + innerColB * 8])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = __bfloat162float(As[(threadRow * TM + i) * BK + dotIdx]);
      for (int i = 0; i < TN; ++i)
        regN[i] = __bfloat162float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }
  for (int resIdxM = 0; resIdxM < TM; resIdxM += 1) {
    for (int resIdxN = 0; resIdxN < TN; resIdxN += 4) {
      float4 tmp = reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0];
      tmp.x = alpha * threadResults[resIdxM * TN + resIdxN] + beta * tmp.x;
      tmp.y = alpha * threadResults[resIdxM * TN + resIdxN + 1] + beta * tmp.y;
      tmp.z = alpha * threadResults[resIdxM * TN + resIdxN + 2] + beta * tmp.z;
      tmp.w = alpha * threadResults[resIdxM * TN + resIdxN + 3] + beta * tmp.w;
      reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0] = tmp;
    }
  }
}

void runSgemmVectorize(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float beta, float *C) {
  dim3 gridDim((N + BN - 1) / BN, (M + BM - 1) / BM);
  dim3 blockDim((BM * BN) / (TM * TN));
  sgemmVectorizeBf16<<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
