#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[K,N] in fp32 under precision(3xtf32): B row-major
// K x N, as `C = A * B` in most CUDA code. wgmma reads tf32 operands K-major
// only, so the rewritten launcher reads B from a transposed copy.
__global__ void sgemm_3xtf32_nn(tawa::Matrix<const float> A,
                         tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(3xtf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<32, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream) {
  if (A.cols != B.rows || A.rows != C.rows || B.cols != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  sgemm_3xtf32_nn<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
