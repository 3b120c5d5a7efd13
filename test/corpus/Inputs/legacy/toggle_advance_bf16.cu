// A double-buffered register-blocked GEMM that walks pointers along K: the
// stage read is toggled at the end of the body ('stage = (stage + 1) % 2;'
// in a block of its own), the pointers advance after it, and the next tiles
// are staged into the other stage while 't + 1 != tiles'. M, N and K
// multiples of 64, 64 and 32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    toggle_advance_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const __nv_bfloat16 *a = A + m0 * K;
  const __nv_bfloat16 *b = B + n0;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 0;
  for (int e = tid; e < BM * BK; e += NT)
    As[0][e / BK][e % BK] = a[(e / BK) * K + e % BK];
  for (int e = tid; e < BK * BN; e += NT)
    Bs[0][e / BN][e % BN] = b[(e / BN) * N + e % BN];
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 != tiles) {
      for (int e = tid; e < BM * BK; e += NT)
        As[1 - stage][e / BK][e % BK] = a[(e / BK) * K + BK + e % BK];
      for (int e = tid; e < BK * BN; e += NT)
        Bs[1 - stage][e / BN][e % BN] = b[(BK + e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk) {
      float ra[TM], rb[TN];
      for (int i = 0; i < TM; ++i)
        ra[i] = __bfloat162float(As[stage][tRow * TM + i][kk]);
      for (int j = 0; j < TN; ++j)
        rb[j] = __bfloat162float(Bs[stage][kk][tCol * TN + j]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
    {
      stage = (stage + 1) % 2;
    }
    a += BK;
    b += BK * N;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(m0 + tRow * TM + i) * N + n0 + tCol * TN + j] = acc[i][j];
}

void toggle_advance_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K) {
  dim3 grid(N / BN, M / BM);
  toggle_advance_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
