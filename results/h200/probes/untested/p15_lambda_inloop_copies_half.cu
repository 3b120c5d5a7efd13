// A bounds-checked 32 x 32 tiled kernel whose staging lambda is declared in
// the K loop's body and copies the loop's counter ([=]: each iteration makes
// its own copy), beside a product lambda that captures the thread's indices
// by reference, which the staging lambda also copies.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_inloop_copies(const __half *A, const __half *B, float *C, int M,
                                     int N, int K) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  auto accumulate = [&]() {
    for (int k = 0; k < TILE; ++k)
      sum += __half2float(sA[ty][k]) * __half2float(sB[k][tx]);
  };
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    auto load_tile = [=]() {
      sA[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : __float2half(0.0f);
      sB[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : __float2half(0.0f);
    };
    load_tile();
    __syncthreads();
    accumulate();
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

void matmul_inloop_copies_launch(const __half *A, const __half *B, float *C, int M, int N,
                                 int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_inloop_copies<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
