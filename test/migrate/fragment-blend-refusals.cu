// C-fragment epilogues of WMMA loops with several fragments per warp
// (fragment-blend.cu) that differ from ones that lift by one defect each:
// each is refused at the statement that breaks the pattern and the file is
// left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <mma.h>
using namespace nvcuda;
#define PROLOGUE                                                               \
  const int warp = threadIdx.x / 32;                                           \
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 32;       \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;         \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];      \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2], c;              \
  for (int j = 0; j < 2; ++j)                                                  \
    wmma::fill_fragment(acc[j], 0.0f);
#define LOOP                                                                   \
  for (int k = 0; k < K; k += 16) {                                            \
    wmma::load_matrix_sync(a, A + row0 * K + k, K);                            \
    for (int j = 0; j < 2; ++j) {                                              \
      wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);              \
      wmma::mma_sync(acc[j], a, b[j], acc[j]);                                 \
    }                                                                          \
  }

// C's fragment loaded from the neighbouring fragment's place.
__global__ void other_place(const half *A, const half *B, float *C, int M, int N, int K, float beta) {
  PROLOGUE
#pragma tawa tile
  // CHECK: fragment-blend-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: the C fragment must be loaded from where it is stored, with the same leading dimension and layout, under the same bounds checks{{.*}}
  LOOP
  for (int j = 0; j < 2; ++j) {
    wmma::load_matrix_sync(c, C + row0 * N + col0 + (1 - j) * 16, N, wmma::mem_row_major);
    for (int e = 0; e < c.num_elements; ++e)
      c.x[e] = acc[j].x[e] + beta * c.x[e];
    wmma::store_matrix_sync(C + row0 * N + col0 + j * 16, c, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'other_place' is left unchanged

// The blend outside the bounds check its load and store stand under.
__global__ void unchecked_blend(const half *A, const half *B, float *C, int M, int N, int K, float beta) {
  PROLOGUE
#pragma tawa tile
  // CHECK: fragment-blend-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < c.num_elements; ++e) c.x[e] = alpha * acc.x[e] + beta * c.x[e];' after the loop, c a fragment of acc's type loaded from C where it is stored, under the same bounds checks, alpha and beta float parameters{{.*}}
  LOOP
  for (int j = 0; j < 2; ++j) {
    if (row0 < M && col0 + j * 16 < N)
      wmma::load_matrix_sync(c, C + row0 * N + col0 + j * 16, N, wmma::mem_row_major);
    for (int e = 0; e < c.num_elements; ++e)
      c.x[e] = acc[j].x[e] + beta * c.x[e];
    if (row0 < M && col0 + j * 16 < N)
      wmma::store_matrix_sync(C + row0 * N + col0 + j * 16, c, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'unchecked_blend' is left unchanged

// C added without a beta.
__global__ void no_beta(const half *A, const half *B, float *C, int M, int N, int K) {
  PROLOGUE
#pragma tawa tile
  // CHECK: fragment-blend-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < c.num_elements; ++e) c.x[e] = alpha * acc.x[e] + beta * c.x[e];'{{.*}}
  LOOP
  for (int j = 0; j < 2; ++j) {
    wmma::load_matrix_sync(c, C + row0 * N + col0 + j * 16, N, wmma::mem_row_major);
    for (int e = 0; e < c.num_elements; ++e)
      c.x[e] = acc[j].x[e] + c.x[e];
    wmma::store_matrix_sync(C + row0 * N + col0 + j * 16, c, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'no_beta' is left unchanged

// C's fragment loaded column-major.
__global__ void column_major_c(const half *A, const half *B, float *C, int M, int N, int K, float beta) {
  PROLOGUE
#pragma tawa tile
  // CHECK: fragment-blend-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected after the loop 'wmma::load_matrix_sync(c, C + offset, ldc, wmma::mem_row_major)' of a fragment of the accumulator's type, from where it is stored{{.*}}
  LOOP
  for (int j = 0; j < 2; ++j) {
    wmma::load_matrix_sync(c, C + row0 * N + col0 + j * 16, N, wmma::mem_col_major);
    for (int e = 0; e < c.num_elements; ++e)
      c.x[e] = acc[j].x[e] + beta * c.x[e];
    wmma::store_matrix_sync(C + row0 * N + col0 + j * 16, c, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'column_major_c' is left unchanged
