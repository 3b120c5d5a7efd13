// WMMA loops with a bounds check around the loads and products of the loop
// body (body-guard.cu) that differ from ones that lift by one defect each:
// each is refused at the statement that breaks the pattern and the file is
// left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <mma.h>
using namespace nvcuda;
#define WMMA_PROLOGUE                                                          \
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;                  \
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;       \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;         \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;         \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;                    \
  wmma::fill_fragment(acc, 0.0f);
#define LOADS_AND_MMA                                                          \
  wmma::load_matrix_sync(a, A + row0 * K + k, K);                              \
  wmma::load_matrix_sync(b, B + k * N + col0, N);                              \
  wmma::mma_sync(acc, a, b, acc);
#define SCRATCH_STORES                                                         \
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);            \
  __syncwarp();                                                                \
  for (int e = lane; e < 16 * 16; e += 32) {                                   \
    const int r = row0 + e / 16, col = col0 + e % 16;                          \
    if (r < M && col < N)                                                      \
      C[r * N + col] = Cs[warp][e];                                            \
  }

// The stores check nothing: a warp outside C would store zeros there.
__global__ void unchecked_stores(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the warps this bounds check keeps from the products would store elements of C without them: expected each check 'u < X' of its condition to skip every store of the warp, each checking 'row < X' of a row (or column) at u or after it; the store at line {{[0-9]+}} is not (matched furthest as a block of 128 threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:5: note: the warps this bounds check
    if (row0 < M && col0 < N) {
      LOADS_AND_MMA
    }
  }
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32)
    C[(row0 + e / 16) * N + col0 + e % 16] = Cs[warp][e];
}
// CHECK: note: kernel 'unchecked_stores' is left unchanged

// 'k + 16 <= K' holds in every iteration only where K is a multiple of 16.
__global__ void k_past_the_first(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: expected, around the loads and products of a loop body without barriers, one bounds check of the warp's tile, 'if (row0 < M && col0 < N && k < K)': k the iteration's first element of K, the other checks the same in every iteration (no loop variable in them) (matched furthest as a block of {{[0-9]+}} threads) [tawa-unsupported]
  for (int k = 0; k < K; k += 16) {
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:9: note: expected, around the loads
    if (row0 < M && k + 16 <= K) {
      LOADS_AND_MMA
    }
  }
  SCRATCH_STORES
}
// CHECK: note: kernel 'k_past_the_first' is left unchanged

// Two checks, one around the loads and one around the product.
__global__ void two_checks(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: expected, around the loads and products of a loop body without barriers, one bounds check of the warp's tile{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
    }
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:5: note: expected, around the loads
    if (col0 < N)
      wmma::mma_sync(acc, a, b, acc);
  }
  SCRATCH_STORES
}
// CHECK: note: kernel 'two_checks' is left unchanged

// The value read from the scratch stored under the warp's check goes through
// a local, read outside any check.
__global__ void local_read(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: reads an element of 'Cs' that its store after the loop writes under a bounds check: expected the read in a store of C (not in a local) skipped wherever that check fails{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N) {
      LOADS_AND_MMA
    }
  }
  if (row0 < M && col0 < N)
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = row0 + e / 16, col = col0 + e % 16;
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:21: note: reads an element of 'Cs'
    const float v = Cs[warp][e];
    if (r < M && col < N)
      C[r * N + col] = v;
  }
}
// CHECK: note: kernel 'local_read' is left unchanged

// The check with the warp barrier in it differs between the lanes of a warp.
__global__ void lanes_differ(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: the lanes of a warp must pass a bounds check with a warp barrier in it alike ('__syncwarp();' waits for every lane): expected its condition the same for every lane{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N) {
      LOADS_AND_MMA
    }
  }
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:7: note: the lanes of a warp must pass
  if (row0 + lane % 2 < M && col0 < N) {
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 16 * 16; e += 32)
      C[(row0 + e / 16) * N + col0 + e % 16] = Cs[warp][e];
  }
}
// CHECK: note: kernel 'lanes_differ' is left unchanged

// A block barrier under the warp's check.
__global__ void block_barrier(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: a '__syncthreads();' under a condition after the tile loop: expected block barriers at the top level (a warp barrier, '__syncwarp();', may stand under a bounds check of the warp's tile){{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N) {
      LOADS_AND_MMA
    }
  }
  if (row0 < M && col0 < N) {
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:5: note: a '__syncthreads();' under a condition
    __syncthreads();
    for (int e = lane; e < 16 * 16; e += 32)
      C[(row0 + e / 16) * N + col0 + e % 16] = Cs[warp][e];
  }
}
// CHECK: note: kernel 'block_barrier' is left unchanged

// The branch changes what the check with the warp barrier in it reads: the
// kernel tests 'r0 < M' once, with r0 one tile further down, and skips the
// last band of rows, which the statements after 'r0 -= 16' would otherwise
// be proved under.
__global__ void check_changed(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: 'r0', which the condition of this 'if' reads, is changed inside it: expected a bounds check with a warp barrier in it whose variables keep their values there{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N && k < K) {
      LOADS_AND_MMA
    }
  }
  int r0 = row0 + 16;
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:7: note: 'r0', which the condition
  if (r0 < M && col0 < N) {
    r0 -= 16;
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 16 * 16; e += 32)
      C[(r0 + e / 16) * N + col0 + e % 16] = Cs[warp][e];
  }
}
// CHECK: note: kernel 'check_changed' is left unchanged

// The check around the loads and products differs between the lanes of a
// warp (the wmma calls are warp-collective).
__global__ void guard_lanes_differ(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: the lanes of a warp must pass the bounds check around the loads and products alike (wmma calls are warp-collective): expected its condition the same for every lane{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 + lane % 2 < M && col0 < N) {
      LOADS_AND_MMA
    }
  }
  SCRATCH_STORES
}
// CHECK: note: kernel 'guard_lanes_differ' is left unchanged

// An 'else' beside the branch with the warp barrier in it.
__global__ void barrier_with_else(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: body-guard-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}breaks it: expected a bounds check with a warp barrier in it after the tile loop, 'if (row0 < M && col0 < N) { ...; __syncwarp(); ... }', without an 'else'{{.*}}
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N && k < K) {
      LOADS_AND_MMA
    }
  }
  if (row0 < M && col0 < N) {
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 16 * 16; e += 32)
      C[(row0 + e / 16) * N + col0 + e % 16] = Cs[warp][e];
  } else {
    __syncwarp();
  }
}
// CHECK: note: kernel 'barrier_with_else' is left unchanged
