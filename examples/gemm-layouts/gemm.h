//===- examples/gemm-layouts/gemm.h - GEMMs of every operand layout -------===//
//
// C = op(A) * op(B), C: M x N row-major, products accumulated in float, in
// three layouts beside the NT of examples/gemm (op is N: the matrix as
// stored, T: its transpose):
//   nn.cu  A: M x K, B: K x N (B row-major K x N, as `C = A * B` in most
//          CUDA code; wgmma reads B MN-major)
//   tn.cu  A: K x M, B: K x N (both read MN-major)
//   tt.cu  A: K x M, B: N x K (A read MN-major)
// Each file defines gemm() for its layout; link one. The element type is
// bf16, or fp16 with -DGEMM_ELEMENT=half (the flag examples/gemm/main.cu
// takes; `fp16` and `f16` are accepted too), for the rewrite as for the
// build.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

#define GEMM_LAYOUTS_HALF_half 1
#define GEMM_LAYOUTS_HALF_fp16 1
#define GEMM_LAYOUTS_HALF_f16 1
#define GEMM_LAYOUTS_CAT_(a, b) a##b
#define GEMM_LAYOUTS_CAT(a, b) GEMM_LAYOUTS_CAT_(a, b)
#if defined(GEMM_ELEMENT) && GEMM_LAYOUTS_CAT(GEMM_LAYOUTS_HALF_, GEMM_ELEMENT)
using gemm_element = __half;
#else
using gemm_element = __nv_bfloat16;
#endif

/// Enqueues C = op(A) * op(B) on `stream`, in the layout of the linked file.
/// Shapes in elements, any sizes (ragged edges included). Returns
/// cudaErrorInvalidValue when the shapes disagree, otherwise the launch's
/// error.
cudaError_t gemm(tawa::Matrix<const gemm_element> A,
                 tawa::Matrix<const gemm_element> B,
                 tawa::Matrix<gemm_element> C, cudaStream_t stream);
