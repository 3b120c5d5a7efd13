#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[N,K]^T as a kernel template: the element type and the
// CTA tile are template parameters, and gemm() launches two instantiations.
template <typename T, int BM, int BN, int BK>
__global__ void gemm_nt(tawa::Matrix<const T> A, tawa::Matrix<const T> B,
                        tawa::Matrix<T> C) {
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  tawa::Accumulator<float, BM, BN> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += BK) {
    auto a = tawa::load<BM, BK>(A, m0, k0);
    auto b = tawa::load<BN, BK>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm(tawa::Matrix<const __nv_bfloat16> A,
                 tawa::Matrix<const __nv_bfloat16> B,
                 tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream) {
  if (A.cols != B.cols || A.rows != C.rows || B.rows != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  if (C.cols <= 1024) {
    dim3 grid(tawa::ceil_div(C.cols, 128), tawa::ceil_div(C.rows, 128));
    gemm_nt<__nv_bfloat16, 128, 128, 64><<<grid, 128, 0, stream>>>(A, B, C);
  } else {
    dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
    gemm_nt<__nv_bfloat16, 128, 256, 64><<<grid, 128, 0, stream>>>(A, B, C);
  }
  return cudaGetLastError();
}
