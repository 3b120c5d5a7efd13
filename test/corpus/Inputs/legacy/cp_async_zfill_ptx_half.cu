// cp.async double buffering in PTX with bounds checks: each copy of 16 bytes
// has a source size of 16 where its check holds and 0 where it does not
// (the rest of the 16 bytes filled with zeros), the next iteration's
// tiles in flight during the product (`cp.async.wait_group 1`). The
// epilogue checks its bounds and adds beta * C. Any M; N and K multiples of
// 8, as 16-byte copies need.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

#define CP_ASYNC16(smem, gmem, bytes)                                          \
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem),  \
               "l"(gmem), "r"(bytes))

__global__ void __launch_bounds__(NT)
    cp_async_zfill_ptx(const __half *A, const __half *B, float *C, int M,
                       int N, int K, float alpha, float beta) {
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
    const uint32_t sa = __cvta_generic_to_shared(&As[0][ar][ac]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[0][br][bc]);
    const int na = m0 + ar < M && ac < K ? 16 : 0;
    const int nb = br < K && n0 + bc < N ? 16 : 0;
    CP_ASYNC16(sa, &A[(m0 + ar) * K + ac], na);
    CP_ASYNC16(sb, &B[br * N + n0 + bc], nb);
  }
  asm volatile("cp.async.commit_group;\n" ::);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1, nxt = cur ^ 1;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      const uint32_t sa = __cvta_generic_to_shared(&As[nxt][ar][ac]);
      const uint32_t sb = __cvta_generic_to_shared(&Bs[nxt][br][bc]);
      const int na = m0 + ar < M && k1 + ac < K ? 16 : 0;
      const int nb = k1 + br < K && n0 + bc < N ? 16 : 0;
      CP_ASYNC16(sa, &A[(m0 + ar) * K + k1 + ac], na);
      CP_ASYNC16(sb, &B[(k1 + br) * N + n0 + bc], nb);
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
    }
}

void cp_async_zfill_ptx_run(const __half *A, const __half *B, float *C, int M,
                            int N, int K, float alpha, float beta) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  cp_async_zfill_ptx<<<grid, NT>>>(A, B, C, M, N, K, alpha, beta);
}
