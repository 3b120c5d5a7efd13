// A double-buffered cp.async pipeline with one barrier per tile, its PTX
// wrapped in the usual __device__ helpers: cp_async16(smem, gmem, pred)
// zero-fills where pred fails (the source size operand), cp_async_commit()
// and cp_async_wait<N>(). Any M; N and K multiples of 8, as 16-byte copies
// need.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem,
                                           bool pred) {
  const uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  const int bytes = pred ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s),
               "l"(gmem), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;" ::);
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    helpers_gemm(const __half *A, const __half *B, __half *C, int M, int N,
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
    cp_async16(&As[0][ar][ac], aIn ? &A[(m0 + ar) * K + ac] : A, aIn);
    cp_async16(&Bs[0][br][bc], bIn ? &B[br * N + n0 + bc] : B, bIn);
    cp_async_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<0>();
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK, nxt = (t + 1) & 1;
      const bool aIn = m0 + ar < M && k1 + ac < K;
      const bool bIn = k1 + br < K && n0 + bc < N;
      cp_async16(&As[nxt][ar][ac], aIn ? &A[(m0 + ar) * K + k1 + ac] : A,
                 aIn);
      cp_async16(&Bs[nxt][br][bc], bIn ? &B[(k1 + br) * N + n0 + bc] : B,
                 bIn);
    }
    cp_async_commit();
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

void helpers_run(const __half *A, const __half *B, __half *C, int M, int N,
                     int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  helpers_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
