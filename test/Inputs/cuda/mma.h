// Stand-in for <mma.h>: the nvcuda::wmma declarations the tests' kernels use
// (see cuda_runtime.h).
#pragma once
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class Layout = void>
struct fragment {
  static constexpr int num_elements = 8;
  T x[8];
};
template <class Use, int M, int N, int K, class T, class Layout>
__device__ void fill_fragment(fragment<Use, M, N, K, T, Layout> &, const T &);
template <class Use, int M, int N, int K, class T, class Layout>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, Layout> &,
                                 const T *, unsigned);
template <class Use, int M, int N, int K, class T>
__device__ void load_matrix_sync(fragment<Use, M, N, K, T, void> &, const T *,
                                 unsigned, layout_t);
template <int M, int N, int K, class T, class LA, class LB, class TC>
__device__ void mma_sync(fragment<accumulator, M, N, K, TC, void> &,
                         const fragment<matrix_a, M, N, K, T, LA> &,
                         const fragment<matrix_b, M, N, K, T, LB> &,
                         const fragment<accumulator, M, N, K, TC, void> &);
template <int M, int N, int K, class T>
__device__ void store_matrix_sync(T *, const fragment<accumulator, M, N, K, T, void> &,
                                  unsigned, layout_t);
} // namespace wmma
} // namespace nvcuda
