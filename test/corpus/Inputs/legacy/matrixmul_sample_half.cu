// CUDA samples matrixMul, __half inputs, two instantiations chosen at run time.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cstdio>

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const __half *A, const __half *B, int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ __half As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ __half Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      Csub += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    }
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

void MatrixMultiply(int block_size, const dim3 &dimsA, const dim3 &dimsB,
                    const __half *d_A, const __half *d_B, float *d_C) {
  dim3 threads(block_size, block_size);
  dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
  if (block_size == 16) {
    MatrixMulCUDA<16><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  } else {
    MatrixMulCUDA<32><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
  }
  printf("launched\n");
}
