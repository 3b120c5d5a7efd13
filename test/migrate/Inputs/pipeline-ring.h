// The tiles, copies, product and store of the cuda::pipeline kernels of
// cuda-pipeline.cu and cuda-pipeline-refusals.cu.
#pragma once
#include <cuda/pipeline>
#include <cuda_fp16.h>

// Rings of S 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD(S)                                                                \
  __shared__ __align__(16) __half As[S][32][16];                               \
  __shared__ __align__(16) __half Bs[S][16][32];                               \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define COPY_ASYNC(BUF, T, SIZE)                                               \
  cuda::memcpy_async(&As[BUF][tid / 2][tid % 2 * 8],                           \
                     &A[(row0 + tid / 2) * K + (T) * 16 + tid % 2 * 8], SIZE,  \
                     pipe);                                                    \
  cuda::memcpy_async(&Bs[BUF][tid / 4][tid % 4 * 8],                           \
                     &B[((T) * 16 + tid / 4) * N + col0 + tid % 4 * 8], SIZE,  \
                     pipe);
#define PRODUCT(BUF)                                                           \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[BUF][ty * 4 + i][k]) *                    \
                     __half2float(Bs[BUF][k][tx * 4 + j]);
#define STORE                                                                  \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)                                                \
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K
#define SIZE16 cuda::aligned_size_t<16>(16)
