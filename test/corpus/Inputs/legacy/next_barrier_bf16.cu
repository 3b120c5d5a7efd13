// A register-blocked bf16 GEMM whose barrier after the product is skipped on
// the last iteration, `if (k0 + BK < K) __syncthreads();`, as some kernels
// write it to save one barrier. Zero-filled edges, any M, N and K; the
// results are stored one by one as bf16 with an alpha scale.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    bgemm_next_barrier(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                       __nv_bfloat16 *C, int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NT) {
      const int r = i / BK, c = i % BK;
      As[r][c] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]
                                          : __float2bfloat16(0.0f);
    }
    for (int i = tid; i < BK * BN; i += NT) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]
                                          : __float2bfloat16(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    if (k0 + BK < K)
      __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2bfloat16(alpha * acc[i][j]);
    }
}

void bgemm_next_barrier_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C, int M, int N, int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  bgemm_next_barrier<<<grid, NT>>>(A, B, C, M, N, K, alpha);
}
