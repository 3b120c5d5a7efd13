// WMMA kernels with several fragments per warp that differ from one that
// lifts (wmma_2x2 in wmma-fragments.cu) by one defect each: each is refused
// and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <mma.h>
using namespace nvcuda;

#define SETUP                                                                  \
  const int warp = threadIdx.x / 32;                                           \
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;                          \
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;                          \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];      \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];      \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];              \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::fill_fragment(acc[i][j], 0.0f);
#define LOADS(KA)                                                              \
  for (int i = 0; i < 2; ++i)                                                  \
    wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + (KA), K);           \
  for (int j = 0; j < 2; ++j)                                                  \
    wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);
#define PRODUCTS                                                               \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
#define STORES                                                                 \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,         \
                              acc[i][j], N, wmma::mem_row_major);

__global__ void a_one_step_ahead(const half *A, const half *B, float *C,
                                 int M, int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration (matched furthest as a block of 128 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k + 16)
    PRODUCTS
  }
  STORES
}
// CHECK: note: kernel 'a_one_step_ahead' is left unchanged

__global__ void swapped_store(const half *A, const half *B, float *C, int M,
                              int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration (matched furthest as a block of 128 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                              acc[j][i], N, wmma::mem_row_major);
}
// CHECK: note: kernel 'swapped_store' is left unchanged

__global__ void lane_dependent(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the lanes of a warp must load, multiply and store the same fragments (wmma calls are warp-collective) (matched furthest as a block of 128 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k + (threadIdx.x % 32) / 31 * 16)
    PRODUCTS
  }
  STORES
}
// CHECK: note: kernel 'lane_dependent' is left unchanged

__global__ void reset_in_loop(const half *A, const half *B, float *C, int M,
                              int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: expected accumulators set to 0 before the loop, 'wmma::fill_fragment(acc, 0.0f)' (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    wmma::fill_fragment(acc[0][0], 0.0f);
    LOADS(k)
    PRODUCTS
  }
  STORES
}
// CHECK: note: kernel 'reset_in_loop' is left unchanged

__global__ void other_accumulator(const half *A, const half *B, float *C,
                                  int M, int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: expected 'wmma::mma_sync(acc, a, b, acc)' between the barriers, a and b loaded in this iteration (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[j][i]);
  }
  STORES
}
// CHECK: note: kernel 'other_accumulator' is left unchanged

__global__ void overlapping_warps(const half *A, const half *B, float *C,
                                  int M, int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 16;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: two stores write the same element of C (matched furthest as a block of 128 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  STORES
}
// CHECK: note: kernel 'overlapping_warps' is left unchanged

__global__ void column_major_store(const half *A, const half *B, float *C,
                                   int M, int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: expected after the loop 'wmma::store_matrix_sync(C + offset, acc, ldc, wmma::mem_row_major)' of an accumulator set to 0 before it, without bounds checks or under 'if (row < M && col < N)' of the fragment's first row and column (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                              acc[i][j], N, wmma::mem_col_major);
}
// CHECK: note: kernel 'column_major_store' is left unchanged


// A scale of the fragments' elements after the loop: twice, by a constant,
// with another fragment's element, or of only some fragments.
__global__ void scaled_twice(const half *A, const half *B, float *C, int M,
                             int N, int K, float alpha) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = alpha * acc.x[e];' after the loop, outside any bounds check, once per accumulator fragment stored into C, alpha a float parameter (matched furthest as a block of {{[0-9]+}} threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] *= alpha;
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] *= alpha;
    }
  STORES
}
// CHECK: note: kernel 'scaled_twice' is left unchanged

__global__ void scaled_by_constant(const half *A, const half *B, float *C,
                                   int M, int N, int K) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = alpha * acc.x[e];'
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] = 0.5f * acc[i][j].x[e];
  STORES
}
// CHECK: note: kernel 'scaled_by_constant' is left unchanged

__global__ void scaled_from_other(const half *A, const half *B, float *C,
                                  int M, int N, int K, float alpha) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = alpha * acc.x[e];'
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] = alpha * acc[j][i].x[e];
  STORES
}
// CHECK: note: kernel 'scaled_from_other' is left unchanged

__global__ void some_scaled(const half *A, const half *B, float *C, int M,
                            int N, int K, float alpha) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected every store of C to compute the same expression of its accumulator (matched furthest as a block of {{[0-9]+}} threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int j = 0; j < 2; ++j)
    for (int e = 0; e < acc[0][j].num_elements; ++e)
      acc[0][j].x[e] *= alpha;
  STORES
}
// CHECK: note: kernel 'some_scaled' is left unchanged

// A scale under a bounds check: applied by some warps only.
__global__ void scaled_where(const half *A, const half *B, float *C, int M,
                             int N, int K, float alpha) {
  SETUP
#pragma tawa tile
  // CHECK: wmma-fragments-refusals.cu:[[@LINE+1]]:3: warning: this loop {{.*}} breaks it: expected 'for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = alpha * acc.x[e];' after the loop, outside any bounds check
  for (int k = 0; k < K; k += 16) {
    LOADS(k)
    PRODUCTS
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      if (row0 + i * 16 < M)
        for (int e = 0; e < acc[i][j].num_elements; ++e)
          acc[i][j].x[e] *= alpha;
  STORES
}
// CHECK: note: kernel 'scaled_where' is left unchanged
