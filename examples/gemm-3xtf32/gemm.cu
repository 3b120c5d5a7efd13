#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[N,K]^T in fp32. precision(3xtf32): the rewritten
// kernel splits each fp32 tile into tf32 high and low parts and sums three
// tf32 products per step (the low-by-low one dropped), about fp32's accuracy
// at the tf32 tensor cores' speed.
__global__ void sgemm_3xtf32(tawa::Matrix<const float> A,
                             tawa::Matrix<const float> B,
                             tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(3xtf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<256, 32>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream) {
  if (A.cols != B.cols || A.rows != C.rows || B.rows != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  sgemm_3xtf32<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
