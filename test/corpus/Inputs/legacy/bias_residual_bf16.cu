// A transformer output projection fused with bias and residual add:
// out = x W + b + residual, bf16 everywhere (float accumulation).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void proj_bias_residual(const __nv_bfloat16 *x, const __nv_bfloat16 *W,
                                   const __nv_bfloat16 *b, const __nv_bfloat16 *residual,
                                   __nv_bfloat16 *out, int M, int N, int K) {
  __shared__ __nv_bfloat16 xs[TILE][TILE];
  __shared__ __nv_bfloat16 ws[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    xs[threadIdx.y][threadIdx.x] =
        (row < M && t + threadIdx.x < K) ? x[row * K + t + threadIdx.x] : __nv_bfloat16();
    ws[threadIdx.y][threadIdx.x] =
        (t + threadIdx.y < K && col < N) ? W[(t + threadIdx.y) * N + col] : __nv_bfloat16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(xs[threadIdx.y][k]) * __bfloat162float(ws[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    out[row * N + col] = __float2bfloat16(acc + __bfloat162float(b[col]) +
                                          __bfloat162float(residual[row * N + col]));
}

void proj(const __nv_bfloat16 *x, const __nv_bfloat16 *W, const __nv_bfloat16 *b,
          const __nv_bfloat16 *residual, __nv_bfloat16 *out, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  proj_bias_residual<<<grid, block>>>(x, W, b, residual, out, M, N, K);
}
