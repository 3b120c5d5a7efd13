// A register-blocked GEMM on bf16 that stages its tiles with the pipeline
// primitives of cuda_pipeline.h: each thread copies 16 bytes of A and of B
// per iteration, commits them and waits for them before the barrier. No
// bounds checks: M and N multiples of 64, K of 32.
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
    cp_async_tiles(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                   int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  // 256 threads, 8 elements (16 bytes) each.
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    __pipeline_memcpy_async(&As[ar][ac], &A[(m0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + n0 + bc], 16);
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
    for (int j = 0; j < TN; ++j)
      C[(m0 + tRow * TM + i) * N + n0 + tCol * TN + j] = acc[i][j];
}

void cp_async_tiles_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K) {
  dim3 grid(N / BN, M / BM);
  cp_async_tiles<<<grid, NT>>>(A, B, C, M, N, K);
}
