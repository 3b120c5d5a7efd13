// 2-D blocktiling (after siboehm's SGEMM kernel 5) on bf16, fused
// bias + ReLU epilogue: C = relu(A * B + bias), bf16 out. Tile sizes are
// namespace-scope constexpr. M, N, K must be multiples of BM, BN, BK.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

namespace cfg {
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int NUM_THREADS = (BM * BN) / (TM * TN); // 256
} // namespace cfg

using namespace cfg;

__global__ void __launch_bounds__(NUM_THREADS)
    gemm2DBlocktilingBiasRelu(int M, int N, int K, const bf16 *A,
                              const bf16 *B, const bf16 *bias, bf16 *C) {
  const uint cRow = blockIdx.y;
  const uint cCol = blockIdx.x;

  // BN/TN are the number of threads to span a column
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);

  __shared__ bf16 As[BM * BK];
  __shared__ bf16 Bs[BK * BN];

  // Move blocktile to beginning of A's row and B's column
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  // calculating the indices that this thread will load into SMEM
  const uint innerRowA = threadIdx.x / BK;
  const uint innerColA = threadIdx.x % BK;
  // how many rows of A are being loaded at each step
  const uint strideA = NUM_THREADS / BK;
  const uint innerRowB = threadIdx.x / BN;
  const uint innerColB = threadIdx.x % BN;
  const uint strideB = NUM_THREADS / BN;

  float threadResults[TM * TN] = {0.0};
  float regM[TM] = {0.0};
  float regN[TN] = {0.0};

#pragma tawa tile
  for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (uint loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
      As[(innerRowA + loadOffset) * BK + innerColA] =
          A[(innerRowA + loadOffset) * K + innerColA];
    }
    for (uint loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
      Bs[(innerRowB + loadOffset) * BN + innerColB] =
          B[(innerRowB + loadOffset) * N + innerColB];
    }
    __syncthreads();

    A += BK;     // move BK columns to right
    B += BK * N; // move BK rows down

    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
      // block into registers
      for (uint i = 0; i < TM; ++i)
        regM[i] = __bfloat162float(As[(threadRow * TM + i) * BK + dotIdx]);
      for (uint i = 0; i < TN; ++i)
        regN[i] = __bfloat162float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] +=
              regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }

  // write out the results: bias per output column, then ReLU
  for (uint resIdxM = 0; resIdxM < TM; ++resIdxM) {
    for (uint resIdxN = 0; resIdxN < TN; ++resIdxN) {
      const uint gcol = cCol * BN + threadCol * TN + resIdxN;
      float v = threadResults[resIdxM * TN + resIdxN] +
                __bfloat162float(bias[gcol]);
      C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN] =
          __float2bfloat16_rn(fmaxf(v, 0.0f));
    }
  }
}

void linear_bias_relu(int M, int N, int K, const bf16 *A, const bf16 *B,
                      const bf16 *bias, bf16 *C, cudaStream_t stream) {
  dim3 block(NUM_THREADS);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  gemm2DBlocktilingBiasRelu<<<grid, block, 0, stream>>>(M, N, K, A, B, bias, C);
}
