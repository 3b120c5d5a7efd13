// Register prefetch into a double buffer selected by a toggled write stage,
// as SGEMM tutorials write it: `int write_stage = 1;`, the product over
// buffer write_stage ^ 1, the registers stored into buffer write_stage, a
// barrier, then `write_stage ^= 1;`. M and N multiples of 64, K a multiple
// of 32.
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
    write_stage_gemm(int M, int N, int K, const __nv_bfloat16 *A,
                     const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __nv_bfloat16 ra[8], rb[8];
  int write_stage = 1;
  for (int e = 0; e < 8; ++e) {
    const int x = threadIdx.x + e * 256;
    As[0][x / BK][x % BK] = A[(row0 + x / BK) * K + x % BK];
    Bs[0][x / BN][x % BN] = B[(x / BN) * N + col0 + x % BN];
  }
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      for (int e = 0; e < 8; ++e) {
        const int x = threadIdx.x + e * 256;
        ra[e] = A[(row0 + x / BK) * K + (t + 1) * BK + x % BK];
        rb[e] = B[((t + 1) * BK + x / BN) * N + col0 + x % BN];
      }
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] +=
              __bfloat162float(As[write_stage ^ 1][tRow * TM + i][kk]) *
              __bfloat162float(Bs[write_stage ^ 1][kk][tCol * TN + j]);
    if (t + 1 < tiles) {
      for (int e = 0; e < 8; ++e) {
        const int x = threadIdx.x + e * 256;
        As[write_stage][x / BK][x % BK] = ra[e];
        Bs[write_stage][x / BN][x % BN] = rb[e];
      }
    }
    __syncthreads();
    write_stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

void write_stage_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                     int M, int N, int K) {
  write_stage_gemm<<<dim3(N / BN, M / BM), 256>>>(M, N, K, A, B, C);
}
