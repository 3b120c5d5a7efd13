// Bounds-checked register prefetch for any M, N, K: a 16 x 16 block computes
// a 32 x 32 tile of C, 2 x 2 per thread; the next tiles are loaded (0 outside
// the matrices) after the product, stored after a barrier; bias per column
// and ReLU in the epilogue.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32
#define TK 16

__global__ void linear_relu_prefetch(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                                     const float *bias, float *Y, int M, int N, int K) {
  __shared__ __nv_bfloat16 Xs[TILE][TK];
  __shared__ __nv_bfloat16 Ws[TK][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  const __nv_bfloat16 zero = __float2bfloat16(0.0f);
  float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
  __nv_bfloat16 nx[2], nw[2];

  for (int i = 0; i < 2; ++i) {
    const int r = row0 + ty * 2 + i, c = col0 + tx + i * 16;
    Xs[ty * 2 + i][tx] = (r < M && tx < K) ? X[r * K + tx] : zero;
    Ws[ty][tx + i * 16] = (ty < K && c < N) ? W[ty * N + c] : zero;
  }
  __syncthreads();

  const int numTiles = (K + TK - 1) / TK;
#pragma tawa tile
  for (int t = 0; t < numTiles; ++t) {
    for (int k = 0; k < TK; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          acc[i][j] += __bfloat162float(Xs[ty * 2 + i][k]) *
                       __bfloat162float(Ws[k][tx * 2 + j]);
    if (t + 1 < numTiles) {
      const int k1 = (t + 1) * TK;
      for (int i = 0; i < 2; ++i) {
        const int r = row0 + ty * 2 + i, c = col0 + tx + i * 16;
        nx[i] = (r < M && k1 + tx < K) ? X[r * K + k1 + tx] : zero;
        nw[i] = (k1 + ty < K && c < N) ? W[(k1 + ty) * N + c] : zero;
      }
    }
    __syncthreads();
    if (t + 1 < numTiles) {
      for (int i = 0; i < 2; ++i) {
        Xs[ty * 2 + i][tx] = nx[i];
        Ws[ty][tx + i * 16] = nw[i];
      }
    }
    __syncthreads();
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int r = row0 + ty * 2 + i, c = col0 + tx * 2 + j;
      if (r < M && c < N)
        Y[r * N + c] = fmaxf(acc[i][j] + bias[c], 0.0f);
    }
}

void linear_relu_prefetch_launch(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                                 const float *bias, float *Y, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  linear_relu_prefetch<<<grid, block>>>(X, W, bias, Y, M, N, K);
}
