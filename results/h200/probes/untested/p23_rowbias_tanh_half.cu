// Tiled GEMM for a "dense + tanh" layer written out by hand: y = tanh(W x + b) where the bias
// is per output row (W is M x K, X is K x N with N the batch), fp16 in and out, fp32
// accumulation; 32 x 32 tiles, any M, N, K.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void dense_tanh(const __half *W, const __half *X, const float *bias, __half *Y, int M,
                           int N, int K) {
  __shared__ __half Ws[TILE][TILE];
  __shared__ __half Xs[TILE][TILE];
  int r = blockIdx.y * TILE + threadIdx.y;
  int c = blockIdx.x * TILE + threadIdx.x;
  float s = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    Ws[threadIdx.y][threadIdx.x] =
        (r < M && k0 + threadIdx.x < K) ? W[r * K + k0 + threadIdx.x] : __float2half(0.0f);
    Xs[threadIdx.y][threadIdx.x] =
        (k0 + threadIdx.y < K && c < N) ? X[(k0 + threadIdx.y) * N + c] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      s += __half2float(Ws[threadIdx.y][k]) * __half2float(Xs[k][threadIdx.x]);
    __syncthreads();
  }
  if (r < M && c < N) Y[r * N + c] = __float2half(tanhf(s + bias[r]));
}

void dense_tanh_launch(const __half *W, const __half *X, const float *bias, __half *Y, int M,
                       int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  dense_tanh<<<grid, block, 0, stream>>>(W, X, bias, Y, M, N, K);
}
