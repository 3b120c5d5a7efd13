#include "gemm.h"
#include <tawa/tile.h>

// C[z] = A[z] * B[z] for each matrix z of the batches, fp32 operands
// multiplied as tf32, B stored K x N: the rewritten launcher transposes each
// matrix of B into one packed copy and reads it through a 3-D tensor map.
__global__ void sgemm_batched_nn(tawa::Matrix<const float> A,
                                 tawa::Matrix<const float> B,
                                 tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256, z = blockIdx.z;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A.batch(z), m0, k0);
    auto b = tawa::load<32, 256>(B.batch(z), k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C.batch(z), m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream) {
  if (A.cols != B.rows || A.rows != C.rows || B.cols != C.cols ||
      A.batches != C.batches || B.batches != C.batches)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0 || C.batches == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128),
            C.batches);
  sgemm_batched_nn<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
