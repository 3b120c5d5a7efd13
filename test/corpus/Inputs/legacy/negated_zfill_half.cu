// A cp.async GEMM whose bounds checks are written negated: 'aOut' is
// 'row >= M || k >= K', the pipeline copy of A reads 'aOut ? A : &A[j]'
// and zero-fills 'aOut ? 16 : 0' bytes; the PTX copy of B reads
// '"r"(16 * bIn)' bytes. Any M; N and K multiples of 8, as 16-byte copies
// need.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    negated_zfill_gemm(const __half *A, const __half *B, __half *C, int M,
                       int N, int K) {
  __shared__ __align__(16) __half As[BM][BK];
  __shared__ __align__(16) __half Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool aOut = m0 + ar >= M || k0 + ac >= K;
    const bool bIn = k0 + br < K && n0 + bc < N;
    __pipeline_memcpy_async(&As[ar][ac], aOut ? A : &A[(m0 + ar) * K + k0 + ac],
                            16, aOut ? 16 : 0);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[br][bc]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bIn ? &B[(k0 + br) * N + n0 + bc] : B), "r"(16 * bIn));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half_rn(acc[i][j]);
    }
}

void negated_zfill_run(const __half *A, const __half *B, __half *C, int M,
                       int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  negated_zfill_gemm<<<grid, NT>>>(A, B, C, M, N, K);
}
