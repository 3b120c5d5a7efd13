#include "gemm.h"
#include <tawa/tile.h>

// C[M,N] = A[M,K] * B[N,K]^T   (bf16 in, fp32 accumulate, bf16 out)
__global__ void gemm_nt(tawa::Matrix<const __nv_bfloat16> A,
                        tawa::Matrix<const __nv_bfloat16> B,
                        tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  tawa::Accumulator<float, 64, 64> acc;
#pragma tawa tile stages(12) consumers(1) narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<64, 64>(A, m0, k0);
    auto b = tawa::load<64, 64>(B, n0, k0);
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
  dim3 grid(tawa::ceil_div(C.cols, 64), tawa::ceil_div(C.rows, 64));
  gemm_nt<<<grid, 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
