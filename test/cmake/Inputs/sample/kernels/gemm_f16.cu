#include "launch.cuh"
#include <sample/gemm.h>

__global__ void gemm_f16_nt(tawa::Matrix<const __half> A,
                            tawa::Matrix<const __half> B,
                            tawa::Matrix<__half> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

cudaError_t gemm_f16(tawa::Matrix<const __half> A,
                     tawa::Matrix<const __half> B, tawa::Matrix<__half> C,
                     cudaStream_t stream) {
  if (!shapes_agree(A, B, C))
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  gemm_f16_nt<<<tile_grid(C.rows, C.cols), 128, 0, stream>>>(A, B, C);
  return cudaGetLastError();
}
