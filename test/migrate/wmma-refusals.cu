// WMMA GEMMs that are not the liftable form: each gets one verdict at its
// loop, naming the statement that breaks the pattern, and is left exactly
// as written, with --migrate too.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <mma.h>
using namespace nvcuda;

#define FRAGMENTS(T)                                                           \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;           \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb;           \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;

__global__ void per_thread_tile(const half *A, const half *B, float *C, int N,
                                int K) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) * 16; // not per warp
  int col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the tile's row and column must be the same for every k and every thread of the warp [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'per_thread_tile' is left unchanged

// A column-major store at a row-major place.
__global__ void column_major_store(const half *A, const half *B, float *C,
                                   int M, int N, int K) {
  int row = blockIdx.x * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the store must write C + row * ldc + col (mem_row_major) or C + row + col * ldc (mem_col_major), at the row of the A fragments and the column of the B fragments
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_col_major);
}
// CHECK: note: kernel 'column_major_store' is left unchanged

__global__ void one_axis(const half *A, const half *B, float *C, int N,
                         int K) {
  int row = blockIdx.x * 16, col = blockIdx.x * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the warp's tile must be at row 16 * r and column 16 * c, r and c each walking one axis of the grid
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'one_axis' is left unchanged

__global__ void starts_at_one(const half *A, const half *B, float *C, int N,
                              int K) {
  int row = blockIdx.x * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 1.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the accumulator must start at 0 ('wmma::fill_fragment(acc, 0.0f)')
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'starts_at_one' is left unchanged

__global__ void half_the_k(const half *A, const half *B, float *C, int N,
                           int K) {
  int row = blockIdx.x * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the fragments must have one shape, and the loop must step k by its K
  for (int k = 0; k < K; k += 32) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'half_the_k' is left unchanged

__global__ void unchecked_store(const half *A, const half *B, float *C, int M,
                                int N, int K) {
  int row = blockIdx.x * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the loads are bounds-checked, so the store must be too
  for (int k = 0; k < K; k += 16) {
    if (row < M && col < N) {
      wmma::load_matrix_sync(fa, A + row * K + k, K);
      wmma::load_matrix_sync(fb, B + k * N + col, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'unchecked_store' is left unchanged

__global__ void transposed_tile(const half *A, const half *B, float *C, int N,
                                int K) {
  int row = blockIdx.x * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the store must write C + row * ldc + col (mem_row_major) or C + row + col * ldc (mem_col_major), at the row of the A fragments and the column of the B fragments
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + col * N + row, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'transposed_tile' is left unchanged

// C's division truncates toward zero: for the first warp, (lane - 32) / 32
// is -1 for lane 0 and 0 for the others, so the warp's lanes disagree. The
// floor division that would make this warpM the warp's index is not what
// the kernel computes.
__global__ void truncated_warp_index(const half *A, const half *B, float *C,
                                     int N, int K) {
  int warpM = (int(blockIdx.x * blockDim.x + threadIdx.x) - 32) / warpSize + 1;
  int row = warpM * 16, col = blockIdx.y * 16;
  FRAGMENTS(half)
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  // CHECK: wmma-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: {{.*}}it uses the operator '/'
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'truncated_warp_index' is left unchanged
