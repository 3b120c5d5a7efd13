// 2-D block tiling with vectorized (16-byte) global loads and A transposed in shared
// memory (siboehm "kernel 6" style), bf16 in, bf16 out, bias + tanh-GELU epilogue.
// Assumes M, N multiples of 128 and K a multiple of 16; A, B 16-byte aligned.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define CEIL_DIV(a, b) (((a) + (b)-1) / (b))

namespace {
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 16;
constexpr int TM = 8;
constexpr int TN = 8;
constexpr int NUM_THREADS = (BM * BN) / (TM * TN);  // 256
}  // namespace

__device__ __forceinline__ float gelu_tanh(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

__global__ void __launch_bounds__(NUM_THREADS)
    gemm_vec_bias_gelu(int M, int N, int K, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, const __nv_bfloat16 *bias,
                       __nv_bfloat16 *C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;

  __shared__ __nv_bfloat16 As[BK * BM];  // transposed: As[k][m]
  __shared__ __nv_bfloat16 Bs[BK * BN];

  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);

  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  // each thread loads 8 bf16 (16 bytes) of A and of B per tile
  const int innerRowA = threadIdx.x / (BK / 8);
  const int innerColA = threadIdx.x % (BK / 8);
  const int innerRowB = threadIdx.x / (BN / 8);
  const int innerColB = threadIdx.x % (BN / 8);

  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};

#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    // A: load 8 consecutive k values of one row, scatter them transposed
    float4 tmp = reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 8])[0];
    const __nv_bfloat16 *vals = reinterpret_cast<const __nv_bfloat16 *>(&tmp);
#pragma unroll
    for (int i = 0; i < 8; ++i)
      As[(innerColA * 8 + i) * BM + innerRowA] = vals[i];

    // B: straight 16-byte copy
    reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 8])[0] =
        reinterpret_cast<const float4 *>(&B[innerRowB * N + innerColB * 8])[0];
    __syncthreads();

    A += BK;
    B += BK * N;

#pragma unroll
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
#pragma unroll
      for (int i = 0; i < TM; ++i)
        regM[i] = __bfloat162float(As[dotIdx * BM + threadRow * TM + i]);
#pragma unroll
      for (int i = 0; i < TN; ++i)
        regN[i] = __bfloat162float(Bs[dotIdx * BN + threadCol * TN + i]);
#pragma unroll
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
#pragma unroll
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }

#pragma unroll
  for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
#pragma unroll
    for (int resIdxN = 0; resIdxN < TN; ++resIdxN) {
      const int colInBlock = threadCol * TN + resIdxN;
      float v = threadResults[resIdxM * TN + resIdxN] +
                __bfloat162float(bias[cCol * BN + colInBlock]);
      C[(threadRow * TM + resIdxM) * N + colInBlock] = __float2bfloat16(gelu_tanh(v));
    }
  }
}

void launch_gemm_vec_bias_gelu(int M, int N, int K, const __nv_bfloat16 *A,
                               const __nv_bfloat16 *B, const __nv_bfloat16 *bias,
                               __nv_bfloat16 *C, cudaStream_t stream) {
  dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
  dim3 block(NUM_THREADS);
  gemm_vec_bias_gelu<<<grid, block, 0, stream>>>(M, N, K, A, B, bias, C);
}
