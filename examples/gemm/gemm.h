//===- examples/gemm/gemm.h - bf16 NT GEMM in the tile language -----------===//
//
// C = A * B^T with A: M x K, B: N x K, C: M x N, all row-major bf16, products
// accumulated in float. gemm.cu holds the kernel as written (the reference);
// tawa-rewrite turns it into a warp-specialized sm_90a kernel behind the same
// function.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// Enqueues C = A * B^T on `stream`. Shapes in elements: A is M x K, B is
/// N x K, C is M x N, any sizes (ragged edges included). Returns
/// cudaErrorInvalidValue when the shapes disagree, otherwise the launch's
/// error; the product itself completes asynchronously.
cudaError_t gemm(tawa::Matrix<const __nv_bfloat16> A,
                 tawa::Matrix<const __nv_bfloat16> B,
                 tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream);
