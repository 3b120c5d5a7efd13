#include "gemm_fp8.h"

// The GEMMs of gemm_fp8.cu with B stored K x N (row-major, as `C = A * B` in
// most CUDA code): C = scale_a * scale_b * (A * B). wgmma reads fp8 operands
// K-major only, so the rewritten launchers read B from a transposed copy
// made on the stream (tawa/runtime/operand_copy.cuh). Every kernel computes a
// 128 x 256 tile of C per block, in 128-wide steps of K.

__global__ void e4m3_bf16(tawa::Matrix<const e4m3> A,
                          tawa::Matrix<const e4m3> B,
                          tawa::Matrix<__nv_bfloat16> C, float scale) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<128, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
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
    auto b = tawa::load<128, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
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
    auto b = tawa::load<128, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, scale * acc);
}

namespace {

/// Whether A (M x K), B (K x N) and C (M x N) agree.
template <class TA, class TB, class TC>
bool shapes_match(tawa::Matrix<const TA> A, tawa::Matrix<const TB> B,
                  tawa::Matrix<TC> C) {
  return A.cols == B.rows && A.rows == C.rows && B.cols == C.cols;
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
