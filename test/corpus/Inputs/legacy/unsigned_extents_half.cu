// A bounds-checked 32 x 32 tiled GEMM on fp16 data written with unsigned
// extents and indices throughout, as code that sizes matrices with
// `unsigned` does.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void hgemm_unsigned(const __half *A, const __half *B, float *C, unsigned M,
                               unsigned N, unsigned K) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * TILE + ty;
  const unsigned col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
#pragma tawa tile
  for (unsigned t = 0; t < K; t += TILE) {
    sA[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
    sB[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (unsigned k = 0; k < TILE; ++k)
      sum += __half2float(sA[ty][k]) * __half2float(sB[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

void hgemm_unsigned_launch(const __half *A, const __half *B, float *C, unsigned M, unsigned N,
                           unsigned K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hgemm_unsigned<<<grid, block>>>(A, B, C, M, N, K);
}
