// The tf32 GEMMs of examples/gemm-tf32: gemm.cu (A: M x K, B: N x K), nn.cu
// (B: K x N) and tn.cu (A: K x M, B: K x N), each defining gemm() for its
// layout (link one; examples/gemm/main.cu takes -DGEMM_LAYOUT=nt, nn or tn).
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// C = op(A) * op(B): C is M x N, all matrices row-major fp32. The
/// rewritten kernel multiplies the operands as tf32 (10-bit mantissas) with
/// fp32 accumulation; the kernel as written computes in fp32. Returns the
/// launch's error.
cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream);
