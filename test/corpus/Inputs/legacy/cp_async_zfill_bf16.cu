// Bounds-checked cp.async staging with the pipeline primitives: each thread
// copies 16 bytes of A and of B, filled with zeros where the copy's first
// element lies outside the matrix (`__pipeline_memcpy_async`'s zero fill).
// Any M; N and K multiples of 8, as 16-byte copies need.
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    cp_async_zfill(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                   int M, int N, int K, float alpha) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool aIn = m0 + ar < M && k0 + ac < K;
    const bool bIn = k0 + br < K && n0 + bc < N;
    // Out-of-bounds copies read nothing; their source is kept in the matrix.
    __pipeline_memcpy_async(&As[ar][ac], aIn ? &A[(m0 + ar) * K + k0 + ac] : A,
                            16, aIn ? 0 : 16);
    __pipeline_memcpy_async(&Bs[br][bc], bIn ? &B[(k0 + br) * N + n0 + bc] : B,
                            16, bIn ? 0 : 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = alpha * acc[i][j];
    }
}

void cp_async_zfill_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  cp_async_zfill<<<grid, NT>>>(A, B, C, M, N, K, alpha);
}
