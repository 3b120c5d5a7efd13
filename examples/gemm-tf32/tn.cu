#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[K,M]^T * B[K,N] with fp32 operands multiplied as tf32: both
// operands stored K x MN, each read from a transposed copy by the rewritten
// launcher (wgmma reads tf32 operands K-major only).
__global__ void sgemm_tn(tawa::Matrix<const float> A,
                         tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.rows; k0 += 32) {
    auto a = tawa::load<32, 128>(A, k0, m0);
    auto b = tawa::load<32, 256>(B, k0, n0);
    tawa::mma(acc, tawa::transpose(a), b);
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream) {
  if (A.rows != B.rows || A.cols != C.rows || B.cols != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  sgemm_tn<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
