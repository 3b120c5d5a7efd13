// In the style of an SGEMM tutorial's kernel 3 (shared-memory cache blocking), __half inputs,
// templated BLOCKSIZE, 1-D block, rows of C along blockIdx.x.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

template <const int BLOCKSIZE>
__global__ void sgemm_shared_mem_block_h(int M, int N, int K, float alpha,
                                         const __half *A, const __half *B,
                                         float beta, float *C) {
  const unsigned int cRow = blockIdx.x;
  const unsigned int cCol = blockIdx.y;
  __shared__ __half As[BLOCKSIZE * BLOCKSIZE];
  __shared__ __half Bs[BLOCKSIZE * BLOCKSIZE];
  const unsigned int threadCol = threadIdx.x % BLOCKSIZE;
  const unsigned int threadRow = threadIdx.x / BLOCKSIZE;
  A += cRow * BLOCKSIZE * K;
  B += cCol * BLOCKSIZE;
  C += cRow * BLOCKSIZE * N + cCol * BLOCKSIZE;
  float tmp = 0.0f;
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
    As[threadRow * BLOCKSIZE + threadCol] = A[threadRow * K + threadCol];
    Bs[threadRow * BLOCKSIZE + threadCol] = B[threadRow * N + threadCol];
    __syncthreads();
    A += BLOCKSIZE;
    B += BLOCKSIZE * N;
    for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx) {
      tmp += __half2float(As[threadRow * BLOCKSIZE + dotIdx]) *
             __half2float(Bs[dotIdx * BLOCKSIZE + threadCol]);
    }
    __syncthreads();
  }
  C[threadRow * N + threadCol] = alpha * tmp + beta * C[threadRow * N + threadCol];
}

void run_sgemm_shared_mem_block(int M, int N, int K, float alpha, const __half *A,
                                const __half *B, float beta, float *C) {
  dim3 gridDim((M + 31) / 32, (N + 31) / 32);
  dim3 blockDim(32 * 32);
  sgemm_shared_mem_block_h<32><<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
