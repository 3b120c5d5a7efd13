// An fp32 GEMM at about fp32's accuracy on the tf32 tensor cores
// (precision(3xtf32)): gemm.cu (A: M x K, B: N x K) and nn.cu (B: K x N,
// the layout of most SGEMMs), each defining gemm() for its layout (link one;
// examples/gemm/main.cu takes -DGEMM_ELEMENT=f32 and -DGEMM_LAYOUT=nt or nn).
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// C = op(A) * op(B): C is M x N, all matrices row-major fp32. The
/// rewritten kernel splits each operand into tf32 high and low parts and
/// sums three tf32 products per step with fp32 accumulation; the kernel as
/// written computes in fp32. Returns the launch's error.
cudaError_t gemm(tawa::Matrix<const float> A, tawa::Matrix<const float> B,
                 tawa::Matrix<float> C, cudaStream_t stream);
