// A four-stage cp.async pipeline in PTX behind the usual __device__
// helpers (cp_async16 zero-fills where its predicate fails,
// cp_async_commit, cp_async_wait<N>), with ring indices kept in locals:
// each iteration waits for all groups but the STAGES - 2 most recent,
// meets at a barrier, multiplies the tile it reads, then stages the tile
// STAGES - 1 ahead and commits (an empty group in the last iterations).
// The epilogue writes alpha * acc + beta * C in fp32. Any M; N and K
// multiples of 8, as 16-byte copies need.
#include <cuda_fp16.h>
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

constexpr int BM = 64, BN = 128, BK = 32, TM = 8, TN = 4, STAGES = 4;
constexpr int NT = (BM / TM) * (BN / TN);

__global__ void __launch_bounds__(NT)
    ring_gemm(const __half *A, const __half *B, float *C, int M, int N, int K,
              float alpha, float beta) {
  __shared__ __align__(16) __half As[STAGES][BM][BK];
  __shared__ __align__(16) __half Bs[STAGES][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};
  for (int s = 0; s < STAGES - 1; ++s) {
    const int k = s * BK;
    const bool aIn = m0 + ar < M && k + ac < K;
    cp_async16(&As[s][ar][ac], aIn ? &A[(m0 + ar) * K + k + ac] : A, aIn);
    for (int i = 0; i < 2; ++i) {
      const int e = tid + i * NT, br = e / (BN / 8), bc = e % (BN / 8) * 8;
      const bool bIn = k + br < K && n0 + bc < N;
      cp_async16(&Bs[s][br][bc], bIn ? &B[(k + br) * N + n0 + bc] : B, bIn);
    }
    cp_async_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int rd = t % STAGES, wr = (t + STAGES - 1) % STAGES;
    cp_async_wait<STAGES - 2>();
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[rd][tRow * TM + i][kk]) *
                       __half2float(Bs[rd][kk][tCol * TN + j]);
    if (t + STAGES - 1 < tiles) {
      const int k = (t + STAGES - 1) * BK;
      const bool aIn = m0 + ar < M && k + ac < K;
      cp_async16(&As[wr][ar][ac], aIn ? &A[(m0 + ar) * K + k + ac] : A, aIn);
      for (int i = 0; i < 2; ++i) {
        const int e = tid + i * NT, br = e / (BN / 8), bc = e % (BN / 8) * 8;
        const bool bIn = k + br < K && n0 + bc < N;
        cp_async16(&Bs[wr][br][bc], bIn ? &B[(k + br) * N + n0 + bc] : B,
                   bIn);
      }
    }
    cp_async_commit();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
    }
}

void ring_gemm_run(const __half *A, const __half *B, float *C, int M, int N,
                   int K, float alpha, float beta) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  ring_gemm<<<grid, NT>>>(A, B, C, M, N, K, alpha, beta);
}
