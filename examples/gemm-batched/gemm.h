// The batched bf16 GEMM of examples/gemm-batched/gemm.cu.
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// C[z] = A[z] * B[z]^T for z < C.batches: A[z] is M x K, B[z] is N x K,
/// C[z] is M x N, row-major bf16, matrix z at z * batch_stride elements of
/// each Matrix; fp32 accumulation. Returns the launch's error.
cudaError_t gemm(tawa::Matrix<const __nv_bfloat16> A,
                 tawa::Matrix<const __nv_bfloat16> B,
                 tawa::Matrix<__nv_bfloat16> C, cudaStream_t stream);
