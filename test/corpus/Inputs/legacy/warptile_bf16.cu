// Warp tiling on bf16 data, as in the later SGEMM tutorial kernels: each warp
// owns a 64 x 64 part of the block's 128 x 128 tile, walked in 4 sub-columns
// of 8 x 4 register blocks per thread; A staged transposed; no bounds checks
// (extents multiples of the tiles); C = alpha * A * B + beta * C.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace wt {
constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, SUBS_N = 4, RM = 8, RN = 4;
constexpr int THREADS = 128;
constexpr int SUBS_M = (WM * WN) / (32 * RM * RN * SUBS_N);  // 1
constexpr int SUB_M = WM / SUBS_M, SUB_N = WN / SUBS_N;      // 64, 16
}  // namespace wt

__global__ void __launch_bounds__(wt::THREADS)
warptile_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
              float beta, float *C) {
  using namespace wt;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpCol = warp % (BN / WN), warpRow = warp / (BN / WN);
  const int laneCol = lane % (SUB_N / RN), laneRow = lane / (SUB_N / RN);
  __shared__ __nv_bfloat16 sA[BK * BM];  // transposed: sA[k * BM + m]
  __shared__ __nv_bfloat16 sB[BK * BN];
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += (blockIdx.y * BM + warpRow * WM) * N + blockIdx.x * BN + warpCol * WN;
  const int aRow = threadIdx.x / BK, aCol = threadIdx.x % BK, aStep = THREADS / BK;
  const int bRow = threadIdx.x / BN, bCol = threadIdx.x % BN, bStep = THREADS / BN;
  float acc[SUBS_M * RM * SUBS_N * RN] = {0.0f};
  float ra[SUBS_M * RM] = {0.0f};
  float rb[SUBS_N * RN] = {0.0f};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int o = 0; o < BM; o += aStep)
      sA[aCol * BM + aRow + o] = A[(aRow + o) * K + aCol];
    for (int o = 0; o < BK; o += bStep)
      sB[(bRow + o) * BN + bCol] = B[(bRow + o) * N + bCol];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      for (int sm = 0; sm < SUBS_M; ++sm)
        for (int i = 0; i < RM; ++i)
          ra[sm * RM + i] =
              __bfloat162float(sA[kk * BM + warpRow * WM + sm * SUB_M + laneRow * RM + i]);
      for (int sn = 0; sn < SUBS_N; ++sn)
        for (int j = 0; j < RN; ++j)
          rb[sn * RN + j] =
              __bfloat162float(sB[kk * BN + warpCol * WN + sn * SUB_N + laneCol * RN + j]);
      for (int sm = 0; sm < SUBS_M; ++sm)
        for (int sn = 0; sn < SUBS_N; ++sn)
          for (int i = 0; i < RM; ++i)
            for (int j = 0; j < RN; ++j)
              acc[(sm * RM + i) * (SUBS_N * RN) + sn * RN + j] += ra[sm * RM + i] * rb[sn * RN + j];
    }
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (int sm = 0; sm < SUBS_M; ++sm)
    for (int sn = 0; sn < SUBS_N; ++sn) {
      float *Csub = C + (sm * SUB_M) * N + sn * SUB_N;
      for (int i = 0; i < RM; ++i)
        for (int j = 0; j < RN; ++j) {
          float *out = &Csub[(laneRow * RM + i) * N + laneCol * RN + j];
          *out = alpha * acc[(sm * RM + i) * (SUBS_N * RN) + sn * RN + j] + beta * *out;
        }
    }
}

void warptile_run(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float beta, float *C) {
  dim3 grid(N / wt::BN, M / wt::BM);
  warptile_bf16<<<grid, wt::THREADS>>>(M, N, K, alpha, A, B, beta, C);
}
