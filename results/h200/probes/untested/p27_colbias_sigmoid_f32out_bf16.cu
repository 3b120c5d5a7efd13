// Tiled GEMM for a "dense + sigmoid" gate written out by hand: y = sigmoid(alpha W x + b) where the bias
// is per output column (W is M x K, X is K x N with N the batch), bf16 in, fp32 out, fp32
// accumulation; 32 x 32 tiles, any M, N, K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void dense_sigmoid(const __nv_bfloat16 *W, const __nv_bfloat16 *X, const float *bias, float *Y, int M,
                           int N, int K, float alpha) {
  __shared__ __nv_bfloat16 Ws[TILE][TILE];
  __shared__ __nv_bfloat16 Xs[TILE][TILE];
  int r = blockIdx.y * TILE + threadIdx.y;
  int c = blockIdx.x * TILE + threadIdx.x;
  float s = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    Ws[threadIdx.y][threadIdx.x] =
        (r < M && k0 + threadIdx.x < K) ? W[r * K + k0 + threadIdx.x] : __float2bfloat16(0.0f);
    Xs[threadIdx.y][threadIdx.x] =
        (k0 + threadIdx.y < K && c < N) ? X[(k0 + threadIdx.y) * N + c] : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      s += __bfloat162float(Ws[threadIdx.y][k]) * __bfloat162float(Xs[k][threadIdx.x]);
    __syncthreads();
  }
  if (r < M && c < N) Y[r * N + c] = 1.0f / (1.0f + expf(-(alpha * s + bias[c])));
}

void dense_sigmoid_launch(const __nv_bfloat16 *W, const __nv_bfloat16 *X, const float *bias, float *Y, int M,
                       int N, int K, float alpha, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  dense_sigmoid<<<grid, block, 0, stream>>>(W, X, bias, Y, M, N, K, alpha);
}
