#include "epilogue.h"

// Every kernel computes a 128 x 256 tile of C per block, in 64-wide steps of
// K, and applies its epilogue in the value it stores.

__global__ void alpha_beta(In A, In B, tawa::Matrix<float> C, float alpha,
                           float beta) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0,
              alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
}

__global__ void bias_relu(In A, In B, In bias, tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, tawa::relu(acc + tawa::load<1, 256>(bias, 0, n0)));
}

__global__ void bias_gelu(In A, In B, In bias, tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0,
              tawa::gelu_tanh(acc + tawa::load<1, 256>(bias, 0, n0)));
}

__global__ void row_bias_silu(In A, In B, tawa::Matrix<const float> bias,
                              float alpha, tawa::Matrix<__half> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0,
              tawa::silu(alpha * acc + tawa::load<128, 1>(bias, m0, 0)));
}

namespace {

bool shapes_match(In A, In B, int rows, int cols) {
  return A.cols == B.cols && A.rows == rows && B.rows == cols;
}

dim3 grid_of(int rows, int cols) {
  return dim3(tawa::ceil_div(cols, 256), tawa::ceil_div(rows, 128));
}

} // namespace

cudaError_t gemm_alpha_beta(In A, In B, tawa::Matrix<float> C, float alpha,
                            float beta, cudaStream_t stream) {
  if (!shapes_match(A, B, C.rows, C.cols))
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  alpha_beta<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, C, alpha,
                                                           beta);
  return cudaGetLastError();
}

cudaError_t gemm_bias_relu(In A, In B, In bias, tawa::Matrix<bf16> C,
                           cudaStream_t stream) {
  if (!shapes_match(A, B, C.rows, C.cols) || bias.cols != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  bias_relu<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, bias, C);
  return cudaGetLastError();
}

cudaError_t gemm_bias_gelu(In A, In B, In bias, tawa::Matrix<bf16> C,
                           cudaStream_t stream) {
  if (!shapes_match(A, B, C.rows, C.cols) || bias.cols != C.cols)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  bias_gelu<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, bias, C);
  return cudaGetLastError();
}

cudaError_t gemm_row_bias_silu(In A, In B, tawa::Matrix<const float> bias,
                               float alpha, tawa::Matrix<__half> C,
                               cudaStream_t stream) {
  if (!shapes_match(A, B, C.rows, C.cols) || bias.rows != C.rows)
    return cudaErrorInvalidValue;
  if (C.rows == 0 || C.cols == 0)
    return cudaSuccess;
  row_bias_silu<<<grid_of(C.rows, C.cols), 128, 0, stream>>>(A, B, bias,
                                                              alpha, C);
  return cudaGetLastError();
}
