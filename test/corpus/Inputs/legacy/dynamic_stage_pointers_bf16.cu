// A four-stage cp.async pipeline on bf16 in PTX, read and written through
// pointers to one buffer of each ring ('const __nv_bfloat16 *as = As + r * BM
// * BK;'), its rings carved out of
// dynamic shared memory (64 KiB, above the 48 KiB a launch gets without
// cudaFuncAttributeMaxDynamicSharedMemorySize): one extern byte array cast to
// bf16, A's ring first and B's after it, each indexed
// 'As[buffer * BM * BK + row * BK + k]'. The code before the loop stages the
// first STAGES - 1 tiles (one group each, a tile past K skipped), waits for
// the first and meets at a barrier; each iteration multiplies its own tile,
// stages the tile STAGES - 1 ahead into the buffer the last iteration read,
// commits, waits for all groups but the STAGES - 2 most recent, and ends at
// a barrier. Copies filled with zeros outside the matrices: any M; N and K
// multiples of 8, as 16-byte copies need.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 32
#define TM 8
#define TN 8
#define STAGES 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    stage_pointers_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        __nv_bfloat16 *C, int M, int N, int K) {
  extern __shared__ __align__(128) unsigned char smem[];
  __nv_bfloat16 *As = reinterpret_cast<__nv_bfloat16 *>(smem);
  __nv_bfloat16 *Bs = As + STAGES * BM * BK;
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      for (int i = 0; i < 2; ++i) {
        const int e = tid + i * NT;
        const int ar = e / (BK / 8), ac = e % (BK / 8) * 8;
        const int br = e / (BN / 8), bc = e % (BN / 8) * 8;
        const int k = s * BK;
        const bool aIn = m0 + ar < M && k + ac < K;
        const bool bIn = k + br < K && n0 + bc < N;
        const uint32_t sa =
            __cvta_generic_to_shared(As + s * BM * BK + ar * BK + ac);
        const uint32_t sb =
            __cvta_generic_to_shared(Bs + s * BK * BN + br * BN + bc);
        asm volatile(
            "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
            "l"(aIn ? &A[(m0 + ar) * K + k + ac] : A), "r"(aIn ? 16 : 0));
        asm volatile(
            "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
            "l"(bIn ? &B[(k + br) * N + n0 + bc] : B), "r"(bIn ? 16 : 0));
      }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  }
  asm volatile("cp.async.wait_group 2;\n" ::: "memory");
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int r = t % STAGES;
    const __nv_bfloat16 *as = As + r * BM * BK, *bs = Bs + r * BK * BN;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(as[(tRow * TM + i) * BK + kk]) *
                       __bfloat162float(bs[kk * BN + tCol * TN + j]);
    const int f = t + STAGES - 1;
    if (f < tiles) {
      const int w = f % STAGES;
      __nv_bfloat16 *aw = As + w * BM * BK, *bw = Bs + w * BK * BN;
      for (int i = 0; i < 2; ++i) {
        const int e = tid + i * NT;
        const int ar = e / (BK / 8), ac = e % (BK / 8) * 8;
        const int br = e / (BN / 8), bc = e % (BN / 8) * 8;
        const int k = f * BK;
        const bool aIn = m0 + ar < M && k + ac < K;
        const bool bIn = k + br < K && n0 + bc < N;
        const uint32_t sa = __cvta_generic_to_shared(&aw[ar * BK + ac]);
        const uint32_t sb = __cvta_generic_to_shared(&bw[br * BN + bc]);
        asm volatile(
            "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
            "l"(aIn ? &A[(m0 + ar) * K + k + ac] : A), "r"(aIn ? 16 : 0));
        asm volatile(
            "cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
            "l"(bIn ? &B[(k + br) * N + n0 + bc] : B), "r"(bIn ? 16 : 0));
      }
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 2;\n" ::: "memory");
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int row = m0 + tRow * TM + i, col = n0 + tCol * TN + j;
      if (row < M && col < N)
        C[row * N + col] = __float2bfloat16(acc[i][j]);
    }
}

void stage_pointers_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        __nv_bfloat16 *C, int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  const int bytes = STAGES * (BM * BK + BK * BN) * sizeof(__nv_bfloat16);
  cudaFuncSetAttribute(stage_pointers_gemm,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  stage_pointers_gemm<<<grid, NT, bytes>>>(A, B, C, M, N, K);
}
