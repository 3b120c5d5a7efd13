// Programming-guide style: no bounds checks, #define tile, K / TILE tile
// count, __ldg loads, 1-D thread block split into row/col, half output.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE_W 16

__global__ void MatMulKernel(const __half *A, const __half *B, __half *C, int M, int N,
                             int K) {
  __shared__ __half As[TILE_W][TILE_W];
  __shared__ __half Bs[TILE_W][TILE_W];
  int r = threadIdx.x / TILE_W;
  int c = threadIdx.x % TILE_W;
  int row = blockIdx.y * TILE_W + r;
  int col = blockIdx.x * TILE_W + c;
  float Cvalue = 0;
#pragma tawa tile
  for (int m = 0; m < K / TILE_W; ++m) {
    As[r][c] = __ldg(&A[row * K + m * TILE_W + c]);
    Bs[r][c] = __ldg(B + (m * TILE_W + r) * N + col);
    __syncthreads();
    for (int e = 0; e < TILE_W; ++e)
      Cvalue = Cvalue + __half2float(As[r][e]) * __half2float(Bs[e][c]);
    __syncthreads();
  }
  C[row * N + col] = __float2half_rn(Cvalue);
}

void MatMul(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  dim3 dimBlock(TILE_W * TILE_W);
  dim3 dimGrid(N / TILE_W, M / TILE_W);
  MatMulKernel<<<dimGrid, dimBlock>>>(A, B, C, M, N, K);
}
