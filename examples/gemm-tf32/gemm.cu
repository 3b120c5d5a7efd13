#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[N,K]^T with fp32 operands, which the rewritten kernel
// multiplies as tf32 (precision(tf32): the tensor cores take no fp32 inputs).
// A K step of 32 fp32 elements is one 128-byte swizzle row, as 64 bf16 are.
__global__ void sgemm_nt(tawa::Matrix<const float> A,
                         tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
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
  sgemm_nt<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
