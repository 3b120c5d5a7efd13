// Classic 32 x 32 shared-memory tiling with its staging and its product in lambdas
// (a style of modern tutorial code): bounds-checked copies that write zeros outside
// A and B, fp16 inputs, fp32 accumulation, half output with a bias per column.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul_lambda(const __half *__restrict__ A, const __half *__restrict__ B,
                              const __half *__restrict__ bias, __half *__restrict__ C, int M,
                              int N, int K) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;

  auto load_tile = [&](int k0) {
    sA[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : __float2half(0.0f);
    sB[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : __float2half(0.0f);
  };
  auto accumulate = [&]() {
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      sum += __half2float(sA[ty][k]) * __half2float(sB[k][tx]);
  };

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    load_tile(k0);
    __syncthreads();
    accumulate();
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half(sum + __half2float(bias[col]));
}

void matmul_lambda_launch(const __half *A, const __half *B, const __half *bias, __half *C,
                          int M, int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_lambda<<<grid, block, 0, stream>>>(A, B, bias, C, M, N, K);
}
