#include "gemm.h"

// C[M,N] = A[M,K] * B[K,N]: B row-major K x N, loaded as K x N windows.
__global__ void gemm_nn(tawa::Matrix<const gemm_element> A,
                        tawa::Matrix<const gemm_element> B,
                        tawa::Matrix<gemm_element> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<64, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const gemm_element> A,
                 tawa::Matrix<const gemm_element> B,
                 tawa::Matrix<gemm_element> C, cudaStream_t stream) {
  if (A.cols != B.rows || A.rows != C.rows || B.cols != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  gemm_nn<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
