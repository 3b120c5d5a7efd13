//===- examples/gemm-fp8/gemm_fp8.h - fp8 GEMMs with per-tensor scales ----===//
//
// C = scale_a * scale_b * (A * B^T): A is M x K, B is N x K (fp8, row-major,
// K-major as wgmma reads fp8), fp32 accumulation; the scales are the
// per-tensor dequantization factors of A and B. nn.cu defines the same
// functions for B stored K x N: C = scale_a * scale_b * (A * B). Each
// function returns cudaErrorInvalidValue for mismatched shapes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

/// A, B e4m3; C: M x N bf16.
cudaError_t gemm_e4m3_bf16(tawa::Matrix<const e4m3> A,
                           tawa::Matrix<const e4m3> B,
                           tawa::Matrix<__nv_bfloat16> C, float scale_a,
                           float scale_b, cudaStream_t stream);

/// A e4m3 (activations), B e5m2 (gradients); C: M x N fp32.
cudaError_t gemm_e4m3_e5m2_f32(tawa::Matrix<const e4m3> A,
                               tawa::Matrix<const e5m2> B,
                               tawa::Matrix<float> C, float scale_a,
                               float scale_b, cudaStream_t stream);

/// A, B e5m2; C: M x N fp16.
cudaError_t gemm_e5m2_f16(tawa::Matrix<const e5m2> A,
                          tawa::Matrix<const e5m2> B, tawa::Matrix<__half> C,
                          float scale_a, float scale_b, cudaStream_t stream);
