//===- examples/gemm-epilogue/epilogue.h - GEMMs with fused epilogues -----===//
//
// C = epilogue(A * B^T): A is M x K, B is N x K (bf16, row-major, dense);
// fp32 accumulation; the epilogue is applied to each element before it is
// converted to C's type and stored. Each function returns
// cudaErrorInvalidValue for mismatched shapes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;

/// C = alpha * A B^T + beta * C, C: M x N fp32 (read and written).
cudaError_t gemm_alpha_beta(In A, In B, tawa::Matrix<float> C, float alpha,
                            float beta, cudaStream_t stream);

/// C = relu(A B^T + bias), bias: 1 x N bf16 (one per column), C: M x N bf16.
cudaError_t gemm_bias_relu(In A, In B, In bias, tawa::Matrix<bf16> C,
                           cudaStream_t stream);

/// C = gelu_tanh(A B^T + bias), bias: 1 x N bf16, C: M x N bf16.
cudaError_t gemm_bias_gelu(In A, In B, In bias, tawa::Matrix<bf16> C,
                           cudaStream_t stream);

/// C = silu(alpha * A B^T + bias), bias: M x 1 fp32 (one per row), C: M x N
/// fp16.
cudaError_t gemm_row_bias_silu(In A, In B, tawa::Matrix<const float> bias,
                               float alpha, tawa::Matrix<__half> C,
                               cudaStream_t stream);
