// A register-blocked bf16 GEMM (128 x 128 tiles, 8 x 8 results per thread)
// whose epilogue makes each __nv_bfloat162 pair of scaled results before
// the bounds check and stores it alone under the check of its first column.
// Any M and K; N even, as the pairs need.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    bgemm_pair_apart(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                     __nv_bfloat16 *C, int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NT) {
      const int r = i / BK, c = i % BK;
      As[c][r] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]
                                          : __float2bfloat16_rn(0.0f);
    }
    for (int i = tid; i < BK * BN; i += NT) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]
                                          : __float2bfloat16_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
      for (int i = 0; i < TM; ++i)
        a[i] = __bfloat162float(As[kk][tRow * TM + i]);
      for (int j = 0; j < TN; ++j)
        b[j] = __bfloat162float(Bs[kk][tCol * TN + j]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      const __nv_bfloat162 v =
          __floats2bfloat162_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
      if (r < M && c < N)
        *reinterpret_cast<__nv_bfloat162 *>(&C[r * N + c]) = v;
    }
}

void bgemm_pair_apart_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          __nv_bfloat16 *C, int M, int N, int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  bgemm_pair_apart<<<grid, NT>>>(A, B, C, M, N, K, alpha);
}
