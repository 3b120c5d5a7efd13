//===- examples/legacy/legacy.h - hand-written GEMMs, as found in projects
//-===//
//
// Two shared-memory tiled GEMMs in the style of CUDA tutorials, annotated
// with `#pragma tawa tile` on their K loop (legacy.cu). All matrices are
// row-major and dense; each function launches its kernel with 32 x 32
// blocks, one per 32 x 32 tile of C.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

/// C = A * B: A M x K, B K x N, C M x N, bf16, fp32 accumulation.
void smem_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
               int M, int N, int K, cudaStream_t stream);

/// C = alpha * A * B^T + beta * C: A M x K, B N x K (fp16), C M x N fp32.
void smem_gemm_nt(const __half *A, const __half *B, float *C, int M, int N,
                  int K, float alpha, float beta, cudaStream_t stream);
