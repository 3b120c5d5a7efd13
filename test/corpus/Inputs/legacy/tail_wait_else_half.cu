// A double-buffered fp16 GEMM whose wait depends on the iteration: while a
// next tile exists, each iteration stages it, commits and waits for all
// but that most recent group; in the last iteration an `else` waits for
// every group. The tiles are staged by a helper that takes one buffer of
// each, `As[(t + 1) % 2]`. 64 x 64 x 32 tiles, 256 threads of 4 x 4, C
// scaled by alpha. Copies filled with zeros outside the matrices: any M; N
// and K multiples of 8.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32

__device__ __forceinline__ void stage(__half (*As)[BK], __half (*Bs)[BN],
                                      const __half *A, const __half *B,
                                      int M, int N, int K, int m0, int n0,
                                      int k0) {
  const int tid = threadIdx.x;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  const bool aIn = m0 + ar < M && k0 + ac < K;
  const bool bIn = k0 + br < K && n0 + bc < N;
  __pipeline_memcpy_async(&As[ar][ac], aIn ? &A[(m0 + ar) * K + k0 + ac] : A,
                          16, aIn ? 0 : 16);
  __pipeline_memcpy_async(&Bs[br][bc], bIn ? &B[(k0 + br) * N + n0 + bc] : B,
                          16, bIn ? 0 : 16);
}

__global__ void __launch_bounds__(256)
    tail_wait_gemm(const __half *A, const __half *B, __half *C, int M, int N,
                   int K, float alpha) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / 16, tCol = threadIdx.x % 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int tiles = (K + BK - 1) / BK;
  float acc[4][4] = {};
  stage(As[0], Bs[0], A, B, M, N, K, m0, n0, 0);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      stage(As[(t + 1) % 2], Bs[(t + 1) % 2], A, B, M, N, K, m0, n0,
            (t + 1) * BK);
      __pipeline_commit();
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[t % 2][tRow * 4 + i][kk]) *
                       __half2float(Bs[t % 2][kk][tCol * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int row = m0 + tRow * 4 + i, col = n0 + tCol * 4 + j;
      if (row < M && col < N)
        C[row * N + col] = __float2half(alpha * acc[i][j]);
    }
}

void tail_wait_run(const __half *A, const __half *B, __half *C, int M, int N,
                   int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  tail_wait_gemm<<<grid, 256>>>(A, B, C, M, N, K, alpha);
}
