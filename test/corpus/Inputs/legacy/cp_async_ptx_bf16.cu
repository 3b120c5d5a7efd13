// cp.async double buffering written in PTX: `cp.async.cg.shared.global` to
// the shared address of a tile element, `cp.async.commit_group` and
// `cp.async.wait_group 1`, the next iteration's tiles in flight during the
// product. The epilogue computes alpha * acc + beta * C and writes it as
// make_float4 vectors. No bounds checks: M and N multiples of 64, K of 32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__device__ __forceinline__ void cp_async16(uint32_t smem, const void *gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem),
               "l"(gmem));
}

__global__ void __launch_bounds__(NT)
    cp_async_ptx(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                 int M, int N, int K, float alpha, float beta) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  {
    const uint32_t sa = __cvta_generic_to_shared(&As[0][ar][ac]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[0][br][bc]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa),
                 "l"(&A[(m0 + ar) * K + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sb),
                 "l"(&B[br * N + n0 + bc]));
  }
  asm volatile("cp.async.commit_group;\n" ::);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1, nxt = cur ^ 1;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      const uint32_t sa = __cvta_generic_to_shared(&As[nxt][ar][ac]);
      const uint32_t sb = __cvta_generic_to_shared(&Bs[nxt][br][bc]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa),
                   "l"(&A[(m0 + ar) * K + k1 + ac]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sb),
                   "l"(&B[(k1 + br) * N + n0 + bc]));
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int c = (m0 + tRow * TM + i) * N + n0 + tCol * TN;
    *reinterpret_cast<float4 *>(&C[c]) =
        make_float4(alpha * acc[i][0] + beta * C[c],
                    alpha * acc[i][1] + beta * C[c + 1],
                    alpha * acc[i][2] + beta * C[c + 2],
                    alpha * acc[i][3] + beta * C[c + 3]);
  }
}

void cp_async_ptx_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                      int M, int N, int K, float alpha, float beta) {
  dim3 grid(N / BN, M / BM);
  cp_async_ptx<<<grid, NT>>>(A, B, C, M, N, K, alpha, beta);
}
