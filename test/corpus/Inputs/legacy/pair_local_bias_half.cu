// A register-blocked half GEMM whose epilogue makes a local __half2 of two
// scaled results plus a per-column bias with __floats2half2_rn, then stores
// it as one __half2, inside one bounds check of its first column. Any M and
// K; N even, as the pairs need.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    hgemm_pair_local(const __half *A, const __half *B, __half *C,
                     const float *bias, int M, int N, int K, float alpha) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += NT) {
      const int r = i / BK, c = i % BK;
      As[r][c] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]
                                          : __float2half(0.0f);
    }
    for (int i = tid; i < BK * BN; i += NT) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]
                                          : __float2half(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
      for (int i = 0; i < TM; ++i)
        a[i] = __half2float(As[tRow * TM + i][kk]);
      for (int j = 0; j < TN; ++j)
        b[j] = __half2float(Bs[kk][tCol * TN + j]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N) {
        const __half2 out = __floats2half2_rn(alpha * acc[i][j] + bias[c],
                                              alpha * acc[i][j + 1] + bias[c + 1]);
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = out;
      }
    }
}

void hgemm_pair_local_run(const __half *A, const __half *B, __half *C, const float *bias,
                          int M, int N, int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_pair_local<<<grid, NT>>>(A, B, C, bias, M, N, K, alpha);
}
