// A register-blocked bf16 GEMM, double-buffered, whose tile loop counts
// from 1: each iteration copies tile t straight into buffer t % 2, zero
// outside the matrices, while it multiplies tile t - 1 from the other
// buffer, and the code after the loop multiplies the last tile from buffer
// (num_tiles - 1) % 2. 64 x 64 tiles of 4 x 4 results per thread, any M, N
// and K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    bgemm_from_one_zfill(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                         __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int ty = tid / (BN / TN), tx = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int num_tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};

  for (int i = tid; i < BM * BK; i += NT) {
    const int r = i / BK, c = i % BK;
    As[0][r][c] = m0 + r < M && c < K ? A[(m0 + r) * K + c]
                                      : __float2bfloat16(0.0f);
  }
  for (int i = tid; i < BK * BN; i += NT) {
    const int r = i / BN, c = i % BN;
    Bs[0][r][c] = r < K && n0 + c < N ? B[r * N + n0 + c]
                                      : __float2bfloat16(0.0f);
  }
  __syncthreads();

#pragma tawa tile
  for (int t = 1; t < num_tiles; ++t) {
    const int cur = (t - 1) % 2, nxt = t % 2;
    const int k0 = t * BK;
    for (int i = tid; i < BM * BK; i += NT) {
      const int r = i / BK, c = i % BK;
      As[nxt][r][c] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]
                                               : __float2bfloat16(0.0f);
    }
    for (int i = tid; i < BK * BN; i += NT) {
      const int r = i / BN, c = i % BN;
      Bs[nxt][r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]
                                               : __float2bfloat16(0.0f);
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tx * TN + j]);
    __syncthreads();
  }
  const int last = (num_tiles - 1) % 2;
  for (int kk = 0; kk < BK; ++kk)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[last][ty * TM + i][kk]) *
                     __bfloat162float(Bs[last][kk][tx * TN + j]);

  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + ty * TM + i, c = n0 + tx * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2bfloat16(acc[i][j]);
    }
}

void bgemm_from_one_zfill_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                              __nv_bfloat16 *C, int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  bgemm_from_one_zfill<<<grid, NT>>>(A, B, C, M, N, K);
}
