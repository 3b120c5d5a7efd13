// Classic tile with A staged transposed (As[k][m]), padded tiles, bias per
// column + ReLU, bf16 output, ?: bounds checks with bf16 zero.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE_DIM 32

__global__ void linear_relu(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                            const float *bias, __nv_bfloat16 *y, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE_DIM][TILE_DIM + 1];
  __shared__ __nv_bfloat16 Bs[TILE_DIM][TILE_DIM + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_DIM + ty;
  int col = blockIdx.x * TILE_DIM + tx;
  int loadRow = blockIdx.y * TILE_DIM + ty;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_DIM) {
    As[tx][ty] = (loadRow < M && k0 + tx < K) ? x[loadRow * K + k0 + tx]
                                              : __float2bfloat16(0.0f);
    Bs[ty][tx] = (k0 + ty < K && col < N) ? w[(k0 + ty) * N + col] : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE_DIM; ++k)
      acc = fmaf(__bfloat162float(As[k][ty]), __bfloat162float(Bs[k][tx]), acc);
    __syncthreads();
  }
  if (row < M && col < N)
    y[row * N + col] = __float2bfloat16(fmaxf(acc + bias[col], 0.0f));
}

void linear_relu_forward(const __nv_bfloat16 *x, const __nv_bfloat16 *w, const float *bias,
                         __nv_bfloat16 *y, int M, int N, int K) {
  dim3 threads(TILE_DIM, TILE_DIM);
  dim3 blocks((N + TILE_DIM - 1) / TILE_DIM, (M + TILE_DIM - 1) / TILE_DIM);
  linear_relu<<<blocks, threads>>>(x, w, bias, y, M, N, K);
}
