// Shared-memory tiled GEMM, 32 x 32 tiles, one element of C per thread,
// with the K loop under a check of the block's tile: a block whose tile
// starts outside C skips the loop, and each thread stores its element under
// its own bounds check. Loads are bounds-checked and write 0 outside A and B,
// so any M, N, K works. A: M x K, B: K x N, C: M x N, all row-major bf16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void gemm_block_guard(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                 __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  const int row = m0 + ty, col = n0 + tx;
  float sum = 0.0f;
  if (m0 < M && n0 < N) {
#pragma tawa tile
    for (int t = 0; t < K; t += TILE) {
      As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx]
                                         : __float2bfloat16_rn(0.0f);
      Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col]
                                         : __float2bfloat16_rn(0.0f);
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        sum += __bfloat162float(As[ty][j]) * __bfloat162float(Bs[j][tx]);
      __syncthreads();
    }
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(sum);
}

void gemm_block_guard_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             __nv_bfloat16 *C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_block_guard<<<grid, block>>>(A, B, C, M, N, K);
}
