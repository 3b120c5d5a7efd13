// A register-blocked half GEMM (64 x 64 tiles, 4 x 8 results per thread,
// 128 threads) whose epilogue stores each pair of results through C seen
// as __half2, at the first element's index halved:
// `((__half2 *)C)[(r * N + c) / 2]`, under the bounds check of its first
// column. Any M and K; N even, as the pairs need.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 8
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    hgemm_halved_pairs(const __half *A, const __half *B, __half *C, int M,
                       int N, int K) {
  __shared__ __half As[BM][BK + 2];
  __shared__ __half Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN];
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      acc[i][j] = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NT) {
      const int r = i / BK, c = i % BK;
      As[r][c] = (m0 + r < M && k0 + c < K) ? A[(m0 + r) * K + k0 + c]
                                            : __float2half(0.0f);
    }
    for (int i = tid; i < BK * BN; i += NT) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = (k0 + r < K && n0 + c < N) ? B[(k0 + r) * N + n0 + c]
                                            : __float2half(0.0f);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        ((__half2 *)C)[(r * N + c) / 2] =
            __floats2half2_rn(acc[i][j], acc[i][j + 1]);
    }
}

void hgemm_halved_pairs_run(const __half *A, const __half *B, __half *C, int M,
                            int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_halved_pairs<<<grid, NT>>>(A, B, C, M, N, K);
}
