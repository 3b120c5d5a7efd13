// Block tiling with a TM x TN register micro-tile per thread, every size a template
// parameter (launched with explicit template arguments). bf16 in, fp32 out, C = alpha * A*B.
// Row-major A (M x K), B (K x N), C (M x N); M, N multiples of BM, BN and K of BK (no bounds
// checks, as in most register-blocked kernels).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_regtile(int M, int N, int K, float alpha, const __nv_bfloat16 *__restrict__ A,
                 const __nv_bfloat16 *__restrict__ B, float *__restrict__ C) {
  constexpr int NT = (BM / TM) * (BN / TN);
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN);  // micro-tile row in the block
  const int tCol = tid % (BN / TN);
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float a_frag[TM], b_frag[TN];

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int idx = tid; idx < BM * BK; idx += NT) {
      const int r = idx / BK, c = idx % BK;
      As[r][c] = A[(blockRow + r) * K + k0 + c];
    }
    for (int idx = tid; idx < BK * BN; idx += NT) {
      const int r = idx / BN, c = idx % BN;
      Bs[r][c] = B[(k0 + r) * N + blockCol + c];
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; ++i) a_frag[i] = __bfloat162float(As[tRow * TM + i][kk]);
#pragma unroll
      for (int j = 0; j < TN; ++j) b_frag[j] = __bfloat162float(Bs[kk][tCol * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a_frag[i] * b_frag[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
      C[(blockRow + tRow * TM + i) * N + blockCol + tCol * TN + j] = alpha * acc[i][j];
}

void gemm_regtile_launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                         const __nv_bfloat16 *B, float *C, cudaStream_t stream) {
  constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid(N / BN, M / BM);
  gemm_regtile<BM, BN, BK, TM, TN><<<grid, block, 0, stream>>>(M, N, K, alpha, A, B, C);
}
