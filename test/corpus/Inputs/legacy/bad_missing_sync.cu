// Refused: no __syncthreads between staging and the product
// (register-blocked, 1-D block).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define BM 64
#define BN 64
#define BK 8
#define TM 8
__global__ void racy_1d(int M, int N, int K, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C) {
  __shared__ __nv_bfloat16 As[BM * BK], Bs[BK * BN];
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float res[TM] = {0.0f};
#pragma tawa tile
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      float b = __bfloat162float(Bs[d * BN + threadCol]);
      for (int r = 0; r < TM; ++r)
        res[r] += __bfloat162float(As[(threadRow * TM + r) * BK + d]) * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r) C[(threadRow * TM + r) * N + threadCol] = res[r];
}
void racy_1d_run(int M, int N, int K, const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
  racy_1d<<<dim3(N / BN, M / BM), dim3(BM * BN / TM)>>>(M, N, K, A, B, C);
}
