// A course-assignment tiled GEMM on fp16: 32 x 32 tiles, a ceil-div phase
// loop, bounds checks that write 0 into shared memory, and an inner product
// that reads both tiles through scalar registers declared in the loop.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE_WIDTH 32

__global__ void course_scalar_caches(const __half *A, const __half *B,
                                     __half *C, int M, int N, int K) {
  __shared__ __half sA[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half sB[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * TILE_WIDTH + ty;
  int col = bx * TILE_WIDTH + tx;
  float sum = 0.0f;
#pragma tawa tile
  for (int ph = 0; ph < (K + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    if (row < M && ph * TILE_WIDTH + tx < K)
      sA[ty][tx] = A[row * K + ph * TILE_WIDTH + tx];
    else
      sA[ty][tx] = __float2half(0.0f);
    if (col < N && ph * TILE_WIDTH + ty < K)
      sB[ty][tx] = B[(ph * TILE_WIDTH + ty) * N + col];
    else
      sB[ty][tx] = __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) {
      float a = __half2float(sA[ty][k]);
      float b = __half2float(sB[k][tx]);
      sum += a * b;
    }
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half(sum);
}

void course_scalar_caches_run(const __half *A, const __half *B, __half *C,
                              int M, int N, int K) {
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((N + TILE_WIDTH - 1) / TILE_WIDTH,
            (M + TILE_WIDTH - 1) / TILE_WIDTH);
  course_scalar_caches<<<grid, block>>>(A, B, C, M, N, K);
}
