// A double-buffered half GEMM (64 x 64 tiles, 4 x 4 results per thread)
// that meets at a barrier at its top, before anything is written, as well as
// after staging its first tiles. Any M, N and K.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    hgemm_leading_sync(const __half *A, const __half *B, __half *C, int M,
                       int N, int K) {
  __syncthreads();
  __shared__ __half As[2][BM][BK];
  __shared__ __half Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int i = tid; i < BM * BK; i += NT) {
    const int r = i / BK, c = i % BK;
    As[0][r][c] = m0 + r < M && c < K ? A[(m0 + r) * K + c] : __float2half(0.0f);
  }
  for (int i = tid; i < BK * BN; i += NT) {
    const int r = i / BN, c = i % BN;
    Bs[0][r][c] = r < K && n0 + c < N ? B[r * N + n0 + c] : __float2half(0.0f);
  }
  __syncthreads();
  const int tiles = (K + BK - 1) / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      for (int i = tid; i < BM * BK; i += NT) {
        const int r = i / BK, c = i % BK;
        As[nxt][r][c] = m0 + r < M && k1 + c < K ? A[(m0 + r) * K + k1 + c]
                                                 : __float2half(0.0f);
      }
      for (int i = tid; i < BK * BN; i += NT) {
        const int r = i / BN, c = i % BN;
        Bs[nxt][r][c] = k1 + r < K && n0 + c < N ? B[(k1 + r) * N + n0 + c]
                                                 : __float2half(0.0f);
      }
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half(acc[i][j]);
    }
}

void hgemm_leading_sync_run(const __half *A, const __half *B, __half *C, int M,
                            int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_leading_sync<<<grid, NT>>>(A, B, C, M, N, K);
}
