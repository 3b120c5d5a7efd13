// A double-buffered cp.async pipeline with one barrier per tile: wait for
// the tile in flight, '__syncthreads();', start the copies of the next tile
// into the other buffer, multiply. Copies outside the matrix are filled with
// zeros (the pipeline primitives' zero fill). Any M; N and K multiples of 8,
// as 16-byte copies need.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    one_barrier_gemm(const __half *A, const __half *B, __half *C, int M, int N,
                     int K) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  const int tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};
  {
    const bool aIn = m0 + ar < M && ac < K;
    const bool bIn = br < K && n0 + bc < N;
    __pipeline_memcpy_async(&As[0][ar][ac], aIn ? &A[(m0 + ar) * K + ac] : A,
                            16, aIn ? 0 : 16);
    __pipeline_memcpy_async(&Bs[0][br][bc], bIn ? &B[br * N + n0 + bc] : B, 16,
                            bIn ? 0 : 16);
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK, nxt = (t + 1) & 1;
      const bool aIn = m0 + ar < M && k1 + ac < K;
      const bool bIn = k1 + br < K && n0 + bc < N;
      __pipeline_memcpy_async(&As[nxt][ar][ac],
                              aIn ? &A[(m0 + ar) * K + k1 + ac] : A, 16,
                              aIn ? 0 : 16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc],
                              bIn ? &B[(k1 + br) * N + n0 + bc] : B, 16,
                              bIn ? 0 : 16);
      __pipeline_commit();
    }
    const int cur = t & 1;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half_rn(acc[i][j]);
    }
}

void one_barrier_run(const __half *A, const __half *B, __half *C, int M, int N,
                     int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  one_barrier_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
