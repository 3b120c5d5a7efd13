// PMPP (4th ed., ch. 6) tiled matrix multiplication with thread coarsening:
// each thread computes COARSE_FACTOR outputs in one row, reusing its tile of M.
// Square width x width matrices, width a multiple of TILE_WIDTH * COARSE_FACTOR.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE_WIDTH 32
#define COARSE_FACTOR 4

__global__ void matrixMulKernel(const __half *M, const __half *N, float *P, int width) {
  __shared__ __half Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // Identify the row and the first column of the P elements to work on
  int row = by * TILE_WIDTH + ty;
  int colStart = bx * TILE_WIDTH * COARSE_FACTOR + tx;

  // Initialize Pvalue for all output elements
  float Pvalue[COARSE_FACTOR];
  for (int c = 0; c < COARSE_FACTOR; ++c) Pvalue[c] = 0.0f;

  // Loop over the M and N tiles required to compute P elements
#pragma tawa tile
  for (int ph = 0; ph < width / TILE_WIDTH; ++ph) {
    // Collaborative loading of M tile into shared memory
    Mds[ty][tx] = M[row * width + ph * TILE_WIDTH + tx];

    for (int c = 0; c < COARSE_FACTOR; ++c) {
      int col = colStart + c * TILE_WIDTH;
      // Collaborative loading of N tile into shared memory
      Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * width + col];
      __syncthreads();

      for (int k = 0; k < TILE_WIDTH; ++k)
        Pvalue[c] += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
      __syncthreads();
    }
  }

  for (int c = 0; c < COARSE_FACTOR; ++c) {
    int col = colStart + c * TILE_WIDTH;
    P[row * width + col] = Pvalue[c];
  }
}

void matrixMul(const __half *M_d, const __half *N_d, float *P_d, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / (TILE_WIDTH * COARSE_FACTOR), width / TILE_WIDTH);
  matrixMulKernel<<<dimGrid, dimBlock>>>(M_d, N_d, P_d, width);
}
