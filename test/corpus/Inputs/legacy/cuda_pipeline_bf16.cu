// A three-stage pipeline on bf16 through libcu++'s cuda::pipeline of
// thread scope: the code before the loop stages the first STAGES - 1 tiles,
// one group each (a tile past K is skipped, its group left empty); each
// iteration waits for the oldest group (`consumer_wait`), meets at a
// barrier, stages the tile STAGES - 1 ahead into the buffer the last
// iteration read, and multiplies its own. A 16-byte chunk outside M or K is
// stored as zeros instead of copied: any M; N and K multiples of 8.
#include <cuda/pipeline>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 32
#define TM 8
#define TN 8
#define STAGES 3
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    pipeline_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[STAGES][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[STAGES][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};
  auto pipe = cuda::make_pipeline();
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      for (int i = 0; i < 2; ++i) {
        const int e = tid + i * NT;
        const int ar = e / (BK / 8), ac = e % (BK / 8) * 8;
        const int br = e / (BN / 8), bc = e % (BN / 8) * 8;
        const int k = s * BK;
        const bool aIn = m0 + ar < M && k + ac < K;
        const bool bIn = k + br < K && n0 + bc < N;
        if (aIn)
          cuda::memcpy_async(&As[s][ar][ac], &A[(m0 + ar) * K + k + ac],
                             cuda::aligned_size_t<16>(16), pipe);
        else
          *reinterpret_cast<uint4 *>(&As[s][ar][ac]) = make_uint4(0, 0, 0, 0);
        if (bIn)
          cuda::memcpy_async(&Bs[s][br][bc], &B[(k + br) * N + n0 + bc],
                             cuda::aligned_size_t<16>(16), pipe);
        else
          *reinterpret_cast<uint4 *>(&Bs[s][br][bc]) = make_uint4(0, 0, 0, 0);
      }
    }
    pipe.producer_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    const int f = t + STAGES - 1;
    if (f < tiles) {
      const int w = f % STAGES;
      for (int i = 0; i < 2; ++i) {
        const int e = tid + i * NT;
        const int ar = e / (BK / 8), ac = e % (BK / 8) * 8;
        const int br = e / (BN / 8), bc = e % (BN / 8) * 8;
        const int k = f * BK;
        const bool aIn = m0 + ar < M && k + ac < K;
        const bool bIn = k + br < K && n0 + bc < N;
        if (aIn)
          cuda::memcpy_async(&As[w][ar][ac], &A[(m0 + ar) * K + k + ac],
                             cuda::aligned_size_t<16>(16), pipe);
        else
          *reinterpret_cast<uint4 *>(&As[w][ar][ac]) = make_uint4(0, 0, 0, 0);
        if (bIn)
          cuda::memcpy_async(&Bs[w][br][bc], &B[(k + br) * N + n0 + bc],
                             cuda::aligned_size_t<16>(16), pipe);
        else
          *reinterpret_cast<uint4 *>(&Bs[w][br][bc]) = make_uint4(0, 0, 0, 0);
      }
    }
    pipe.producer_commit();
    const int r = t % STAGES;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[r][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[r][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int row = m0 + tRow * TM + i, col = n0 + tCol * TN + j;
      if (row < M && col < N)
        C[row * N + col] = __float2bfloat16(acc[i][j]);
    }
}

void pipeline_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  pipeline_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
