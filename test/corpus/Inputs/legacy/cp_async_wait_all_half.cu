// A double-buffered cp.async pipeline in inline PTX, as kernels written
// before the pipeline primitives are: 16-byte copies that zero-fill outside
// the matrix (the source-size operand), no explicit commit (each
// iteration's 'cp.async.wait_all' commits the copies in flight and waits
// for them), 'bar.sync 0' as the barrier, and the next tile staged while
// '(t + 1) * BK < K'. Any M; N and K multiples of 8, as 16-byte copies
// need.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    wait_all_gemm(const __half *A, const __half *B, __half *C, int M, int N,
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
    const uint32_t sa = __cvta_generic_to_shared(&As[0][ar][ac]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[0][br][bc]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                 "l"(aIn ? &A[(m0 + ar) * K + ac] : A), "r"(aIn ? 16 : 0));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bIn ? &B[br * N + n0 + bc] : B), "r"(bIn ? 16 : 0));
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    asm volatile("bar.sync 0;\n" ::: "memory");
    if ((t + 1) * BK < K) {
      const int k1 = (t + 1) * BK, nxt = (t + 1) & 1;
      const bool aIn = m0 + ar < M && k1 + ac < K;
      const bool bIn = k1 + br < K && n0 + bc < N;
      const uint32_t sa = __cvta_generic_to_shared(&As[nxt][ar][ac]);
      const uint32_t sb = __cvta_generic_to_shared(&Bs[nxt][br][bc]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                   "l"(aIn ? &A[(m0 + ar) * K + k1 + ac] : A),
                   "r"(aIn ? 16 : 0));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                   "l"(bIn ? &B[(k1 + br) * N + n0 + bc] : B),
                   "r"(bIn ? 16 : 0));
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

void wait_all_run(const __half *A, const __half *B, __half *C, int M, int N,
                  int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  wait_all_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
