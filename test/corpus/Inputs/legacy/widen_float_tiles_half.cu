// A course's tiled product that widens the __half inputs to float as it
// stages them, so that the inner product runs in float, with padded tiles
// and a ReLU on the way out.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void widen_float_tiles(const __half *A, const __half *B, float *C,
                                  int M, int N, int K) {
  __shared__ float sa[TILE][TILE + 1];
  __shared__ float sb[TILE][TILE + 1];
  int ty = threadIdx.y, tx = threadIdx.x;
  int i = blockIdx.y * TILE + ty;
  int j = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    sa[ty][tx] = (i < M && k0 + tx < K) ? __half2float(A[i * K + k0 + tx]) : 0.0f;
    sb[ty][tx] = (k0 + ty < K && j < N) ? __half2float(B[(k0 + ty) * N + j]) : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += sa[ty][k] * sb[k][tx];
    __syncthreads();
  }
  if (i < M && j < N)
    C[i * N + j] = fmaxf(acc, 0.0f);
}

void widen_float_tiles_run(const __half *A, const __half *B, float *C, int M,
                           int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  widen_float_tiles<<<grid, block>>>(A, B, C, M, N, K);
}
