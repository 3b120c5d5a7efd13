// Classic shared-memory tiled GEMM, course-assignment style.
// C[M x N] (float) = A[M x K] (half, row-major) * B[K x N] (half, row-major)
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE_WIDTH 16
#define IDX(r, c, ld) ((r) * (ld) + (c))

__global__ void matmul_tiled(const __half *__restrict__ A, const __half *__restrict__ B,
                             float *__restrict__ C, int M, int N, int K) {
  __shared__ __half sA[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half sB[TILE_WIDTH][TILE_WIDTH];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;

  float sum = 0.0f;
  const int numTiles = (K + TILE_WIDTH - 1) / TILE_WIDTH;

#pragma tawa tile
  for (int ph = 0; ph < numTiles; ++ph) {
    // load A tile
    if (row < M && ph * TILE_WIDTH + tx < K)
      sA[ty][tx] = A[IDX(row, ph * TILE_WIDTH + tx, K)];
    else
      sA[ty][tx] = __float2half(0.0f);
    // load B tile
    if (ph * TILE_WIDTH + ty < K && col < N)
      sB[ty][tx] = B[IDX(ph * TILE_WIDTH + ty, col, N)];
    else
      sB[ty][tx] = __float2half(0.0f);
    __syncthreads();

#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k)
      sum += __half2float(sA[ty][k]) * __half2float(sB[k][tx]);
    __syncthreads();
  }

  if (row < M && col < N)
    C[IDX(row, col, N)] = sum;
}

void launch_matmul_tiled(const __half *A, const __half *B, float *C, int M, int N, int K,
                         cudaStream_t stream) {
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH);
  matmul_tiled<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
