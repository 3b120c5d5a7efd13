// Register-blocked bf16 GEMM (64 x 64 x 16 tiles, 256 threads, 4 x 4 per
// thread) whose bounds checks clear the element first and copy it where it
// is inside the matrix: A's elements straight into the tile, B's through a
// register declared zero. bf16 output with a ReLU.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
#define THREADS ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(THREADS)
bgemm_zero_fill(const __nv_bfloat16 *__restrict__ A, const __nv_bfloat16 *__restrict__ B,
                __nv_bfloat16 *__restrict__ C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tr = tid / (BN / TN), tc = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += THREADS) {
      const int r = i / BK, c = i % BK;
      As[r][c] = __float2bfloat16(0.0f);
      if (m0 + r < M && k0 + c < K)
        As[r][c] = A[(m0 + r) * K + k0 + c];
    }
    for (int i = tid; i < BK * BN; i += THREADS) {
      const int r = i / BN, c = i % BN;
      __nv_bfloat16 v = __float2bfloat16(0.0f);
      if (k0 + r < K && n0 + c < N)
        v = B[(k0 + r) * N + n0 + c];
      Bs[r][c] = v;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tr * TM + i][k]) * __bfloat162float(Bs[k][tc * TN + j]);
    __syncthreads();
  }

  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tr * TM + i, c = n0 + tc * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2bfloat16(fmaxf(acc[i][j], 0.0f));
    }
}

void bgemm_zero_fill_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                         int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  bgemm_zero_fill<<<grid, THREADS>>>(A, B, C, M, N, K);
}
