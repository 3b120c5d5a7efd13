// Shared-memory GEMM with thread coarsening over rows (after PMPP, 4th ed.,
// ch. 6, coarsened along the other axis): each thread computes two outputs
// 16 rows apart; per iteration B's 16 x 16 tile is staged once and A's once
// per output row block, between barriers. Zero-filled staging and checked
// stores: any M, N and K. bf16 in and out, float accumulation.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 16
#define COARSE 2

__global__ void coarse_rows_kernel(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                   __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * TILE + tx;
  const int rowStart = blockIdx.y * TILE * COARSE + ty;
  float acc[COARSE];
  for (int r = 0; r < COARSE; ++r)
    acc[r] = 0.0f;

#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col]
                                         : __float2bfloat16_rn(0.0f);
#pragma unroll
    for (int r = 0; r < COARSE; ++r) {
      const int row = rowStart + r * TILE;
      As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx]
                                           : __float2bfloat16_rn(0.0f);
      __syncthreads();
      for (int k = 0; k < TILE; ++k)
        acc[r] += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
      __syncthreads();
    }
  }

  for (int r = 0; r < COARSE; ++r) {
    const int row = rowStart + r * TILE;
    if (row < M && col < N)
      C[row * N + col] = __float2bfloat16_rn(acc[r]);
  }
}

void coarse_rows_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                      __nv_bfloat16 *C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE * COARSE - 1) / (TILE * COARSE));
  coarse_rows_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
