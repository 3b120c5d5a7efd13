#include "gemm_fp8.h"

// Every kernel computes a 128 x 256 tile of C per block, in 128-wide steps of
// K (128 bytes of fp8: one row of the 128-byte swizzle), and scales the
// accumulator by the product of the per-tensor scales as it stores it.

__global__ void e4m3_bf16(tawa::Matrix<const e4m3> A,
                          tawa::Matrix<const e4m3> B,
                          tawa::Matrix<__nv_bfloat16> C, float scale) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<256, 128>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, scale * acc);
}

__global__ void e4m3_e5m2_f32(tawa::Matrix<const e4m3> A,
                              tawa::Matrix<const e5m2> B, tawa::Matrix<float> C,
                              float scale) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<256, 128>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, scale * acc);
}

__global__ void e5m2_f16(tawa::Matrix<const e5m2> A, tawa::Matrix<const e5m2> B,
                         tawa::Matrix<__half> C, float scale) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<256, 128>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, scale * acc);
}

namespace {

/// Whether A (M x K), B (N x K) and C (M x N) agree.
template <class TA, class TB, class TC>
bool shapes_match(tawa::Matrix<const TA> A, tawa::Matrix<const TB> B,
                  tawa::Matrix<TC> C) {
  return A.cols == B.cols && A.rows == C.rows && B.rows == C.cols;
}

dim3 grid_of(int rows, int cols) {
  return dim3(tawa::ceil_div(cols, 256), tawa::ceil_div(rows, 128));
}

} // namespace

cudaError_t gemm_e4m3_bf16(tawa::Matrix<const e4m3> A,
                           tawa::Matrix<const e4m3> B,
                           tawa::Matrix<__nv_bfloat16> C, float scale_a,
                           float scale_b, cudaStream_t stream) {
  if (!shapes_match(A, B, C))
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  e4m3_bf16<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, C,
                                                         scale_a * scale_b);
  return cudaGetLastError();
}

cudaError_t gemm_e4m3_e5m2_f32(tawa::Matrix<const e4m3> A,
                               tawa::Matrix<const e5m2> B,
                               tawa::Matrix<float> C, float scale_a,
                               float scale_b, cudaStream_t stream) {
  if (!shapes_match(A, B, C))
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  e4m3_e5m2_f32<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, C,
                                                             scale_a * scale_b);
  return cudaGetLastError();
}

cudaError_t gemm_e5m2_f16(tawa::Matrix<const e5m2> A,
                          tawa::Matrix<const e5m2> B, tawa::Matrix<__half> C,
                          float scale_a, float scale_b, cudaStream_t stream) {
  if (!shapes_match(A, B, C))
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  e5m2_f16<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, C,
                                                        scale_a * scale_b);
  return cudaGetLastError();
}
