// A double-buffered cp.async pipeline with one barrier per tile whose buffer
// is a variable toggled at the end of each iteration (`stage ^= 1;`): wait,
// '__syncthreads();', copies of the next tile into buffer stage ^ 1, the
// product over buffer stage. M and N multiples of 64, K a multiple of 32.
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

__global__ void __launch_bounds__(256)
    toggled_stage(int M, int N, int K, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 0;
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[stage ^ 1][ar][ac],
                              &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[stage ^ 1][br][bc],
                              &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[stage][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[stage][kk][tCol * TN + j]);
    stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

void toggled_stage_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                       int M, int N, int K) {
  toggled_stage<<<dim3(N / BN, M / BM), 256>>>(M, N, K, A, B, C);
}
