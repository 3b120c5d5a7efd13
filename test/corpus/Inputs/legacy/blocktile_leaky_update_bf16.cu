// SGEMM-tutorial kernel 4 (1-D block tiling, TM results of one column per
// thread) with a fused bias and LeakyReLU written as updates of a local:
// the bias added, then the activation applied in place, fmaxf(v, 0.1f * v).
// bf16 in and out; M, N multiples of 64, K a multiple of 8.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 8;
constexpr int TM = 8;
#define NEG_SLOPE 0.1f

__global__ void __launch_bounds__(BM * BN / TM)
    gemmBlocktilingLeaky(int M, int N, int K, const __nv_bfloat16 *A,
                         const __nv_bfloat16 *B, const float *bias,
                         __nv_bfloat16 *C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;
  __shared__ __nv_bfloat16 As[BM * BK];
  __shared__ __nv_bfloat16 Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerColA = threadIdx.x % BK;
  const int innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN;
  const int innerRowB = threadIdx.x / BN;
  float threadResults[TM] = {0.0f};
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = __bfloat162float(Bs[dotIdx * BN + threadCol]);
      for (int resIdx = 0; resIdx < TM; ++resIdx)
        threadResults[resIdx] +=
            __bfloat162float(As[(threadRow * TM + resIdx) * BK + dotIdx]) * tmpB;
    }
    __syncthreads();
  }
  for (int resIdx = 0; resIdx < TM; ++resIdx) {
    float v = threadResults[resIdx];
    v += bias[cCol * BN + threadCol];
    v = fmaxf(v, NEG_SLOPE * v);
    C[(threadRow * TM + resIdx) * N + threadCol] = __float2bfloat16(v);
  }
}

void runBlocktilingLeaky(int M, int N, int K, const __nv_bfloat16 *A,
                         const __nv_bfloat16 *B, const float *bias,
                         __nv_bfloat16 *C) {
  dim3 grid(N / BN, M / BM);
  dim3 block(BM * BN / TM);
  gemmBlocktilingLeaky<<<grid, block>>>(M, N, K, A, B, bias, C);
}
