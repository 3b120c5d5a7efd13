// A register-blocked fp16 GEMM, double-buffered with buffer indices that
// flip at the end of each iteration, whose tile loop counts from 1: the
// code before it stages tile 0, each iteration loads tile t into registers
// (zero outside the matrices), multiplies buffer `rd` and stores the
// registers into buffer `wr`, and the code after the loop multiplies
// buffer `rd` once more. 128 x 64 tiles of 8 x 4 results per thread, any
// M, N and K.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 128
#define BN 64
#define BK 16
#define TM 8
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    hgemm_from_one_toggle(const __half *A, const __half *B, __half *C, int M,
                          int N, int K) {
  __shared__ __half As[2][BK][BM];
  __shared__ __half Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int ty = tid / (BN / TN), tx = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // Each thread stages 8 elements of A (one row, 8 columns of K) and 4 of B.
  const int ar = tid / 2, ac = (tid % 2) * 8;
  const int br = tid / 16, bc = (tid % 16) * 4;
  __half ra[8], rb[4];
  float acc[TM][TN] = {};

  for (int i = 0; i < 8; ++i)
    As[0][ac + i][ar] = m0 + ar < M && ac + i < K ? A[(m0 + ar) * K + ac + i]
                                                  : __float2half(0.0f);
  for (int j = 0; j < 4; ++j)
    Bs[0][br][bc + j] = br < K && n0 + bc + j < N ? B[br * N + n0 + bc + j]
                                                  : __float2half(0.0f);
  __syncthreads();

  int rd = 0, wr = 1;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int k0 = t * BK;
    for (int i = 0; i < 8; ++i) {
      if (m0 + ar < M && k0 + ac + i < K)
        ra[i] = A[(m0 + ar) * K + k0 + ac + i];
      else
        ra[i] = __float2half(0.0f);
    }
    for (int j = 0; j < 4; ++j) {
      if (k0 + br < K && n0 + bc + j < N)
        rb[j] = B[(k0 + br) * N + n0 + bc + j];
      else
        rb[j] = __float2half(0.0f);
    }
    for (int kk = 0; kk < BK; ++kk) {
      float fa[TM], fb[TN];
      for (int i = 0; i < TM; ++i)
        fa[i] = __half2float(As[rd][kk][ty * TM + i]);
      for (int j = 0; j < TN; ++j)
        fb[j] = __half2float(Bs[rd][kk][tx * TN + j]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += fa[i] * fb[j];
    }
    for (int i = 0; i < 8; ++i)
      As[wr][ac + i][ar] = ra[i];
    for (int j = 0; j < 4; ++j)
      Bs[wr][br][bc + j] = rb[j];
    __syncthreads();
    rd ^= 1;
    wr ^= 1;
  }
  for (int kk = 0; kk < BK; ++kk) {
    float fa[TM], fb[TN];
    for (int i = 0; i < TM; ++i)
      fa[i] = __half2float(As[rd][kk][ty * TM + i]);
    for (int j = 0; j < TN; ++j)
      fb[j] = __half2float(Bs[rd][kk][tx * TN + j]);
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += fa[i] * fb[j];
  }

  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + ty * TM + i, c = n0 + tx * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half(acc[i][j]);
    }
}

void hgemm_from_one_toggle_run(const __half *A, const __half *B, __half *C,
                               int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_from_one_toggle<<<grid, NT>>>(A, B, C, M, N, K);
}
