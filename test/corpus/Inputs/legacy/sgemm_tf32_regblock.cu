// fp32 register-blocked SGEMM with precision(tf32); B transposed staging
// into Bs[n][k]; bounds-checked with if/else.
#include <cuda_runtime.h>

#define SBM 64
#define SBN 64
#define SBK 16
#define STM 4
#define STN 4

__global__ void sgemm_rb_tf32(const float *__restrict__ A, const float *__restrict__ B,
                              float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[SBM][SBK + 1];
  __shared__ float Bs[SBN][SBK + 1];
  const int tid = threadIdx.x;                  // 256 threads
  const int tr = tid / (SBN / STN), tc = tid % (SBN / STN);
  const int m0 = blockIdx.y * SBM, n0 = blockIdx.x * SBN;
  float acc[STM * STN];
  for (int i = 0; i < STM * STN; ++i) acc[i] = 0.0f;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += SBK) {
    for (int e = tid; e < SBM * SBK; e += 256) {
      int i = e / SBK, j = e % SBK;
      if (m0 + i < M && k0 + j < K) As[i][j] = A[(m0 + i) * K + k0 + j];
      else As[i][j] = 0.0f;
    }
    for (int e = tid; e < SBK * SBN; e += 256) {
      int kk = e / SBN, n = e % SBN;
      if (k0 + kk < K && n0 + n < N) Bs[n][kk] = B[(k0 + kk) * N + n0 + n];
      else Bs[n][kk] = 0.0f;
    }
    __syncthreads();
    for (int kk = 0; kk < SBK; ++kk)
      for (int i = 0; i < STM; ++i)
        for (int j = 0; j < STN; ++j)
          acc[i * STN + j] += As[tr * STM + i][kk] * Bs[tc * STN + j][kk];
    __syncthreads();
  }
  for (int i = 0; i < STM; ++i)
    for (int j = 0; j < STN; ++j)
      if (m0 + tr * STM + i < M && n0 + tc * STN + j < N)
        C[(m0 + tr * STM + i) * N + n0 + tc * STN + j] = acc[i * STN + j];
}

void sgemm_rb_tf32_run(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 grid((N + SBN - 1) / SBN, (M + SBM - 1) / SBM);
  sgemm_rb_tf32<<<grid, 256>>>(A, B, C, M, N, K);
}
