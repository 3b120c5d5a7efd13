// "Pure fp16" tiled GEMM: the accumulator is a __half and every product is fused with
// __hfma (as in many older HGEMM samples), fp16 output. Any M, N, K (bounds-checked).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 16

__global__ void hgemm_hacc(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  __shared__ __half As[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ __half Bs[BLOCK_SIZE][BLOCK_SIZE];
  int row = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  __half acc = __float2half(0.0f);

#pragma tawa tile
  for (int t = 0; t < K; t += BLOCK_SIZE) {
    As[threadIdx.y][threadIdx.x] =
        (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : __float2half(0.0f);
    Bs[threadIdx.y][threadIdx.x] =
        (t + threadIdx.y < K && col < N) ? B[(t + threadIdx.y) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < BLOCK_SIZE; ++k)
      acc = __hfma(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

void hgemm_hacc_launch(const __half *A, const __half *B, __half *C, int M, int N, int K,
                       cudaStream_t stream) {
  dim3 block(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
  hgemm_hacc<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
