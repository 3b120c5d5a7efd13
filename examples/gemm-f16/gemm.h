// The fp16 GEMM of examples/gemm-f16/gemm.cu.
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// C = A * B^T: A is M x K, B is N x K, C is M x N, all row-major fp16;
/// fp32 accumulation. Returns the launch's error.
cudaError_t gemm(tawa::Matrix<const __half> A, tawa::Matrix<const __half> B,
                 tawa::Matrix<__half> C, cudaStream_t stream);
