// A return of the threads outside C after the loop, 'if (row >= M || col
// >= N) return;' (or one return per bound, or '!(row < M && col < N)'),
// puts the store after it under the negated check, as 'if (row < M && col <
// N)' would: the threads have passed every barrier, and the store is all
// that is left. Both the one-element-per-thread and the register-blocked
// front ends read it. Refused: a check of other extents, one that leaves a
// bound of C unchecked, and a return before a barrier of the epilogue.
// Lifted under a condition: a check of a row that stands for others.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include "Inputs/blocked-64.h"
#include <mma.h>
using namespace nvcuda;

#define TILE 32
#define CLASSIC                                                                \
  __shared__ bf16 At[TILE][TILE];                                              \
  __shared__ bf16 Bt[TILE][TILE];                                              \
  int row = blockIdx.y * TILE + threadIdx.y;                                   \
  int col = blockIdx.x * TILE + threadIdx.x;                                   \
  float sum = 0.0f;
#define CLASSIC_LOOP                                                           \
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {                            \
    const int ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;        \
    At[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : bf16(); \
    Bt[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : bf16(); \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      sum += __bfloat162float(At[threadIdx.y][k]) *                            \
             __bfloat162float(Bt[k][threadIdx.x]);                             \
    __syncthreads();                                                           \
  }
#define ARGS                                                                   \
  const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha

// CHECK-LABEL: __global__ void either_bound_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void either_bound(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (row >= M || col >= N)
    return;
  C[row * N + col] = sum;
}

// One return per bound, in braces, with a scaled local between.
// CHECK-LABEL: __global__ void one_per_bound_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void one_per_bound(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (row >= M) {
    return;
  }
  const float v = alpha * sum;
  if (col > N - 1)
    return;
  C[row * N + col] = v;
}

// The negation of the bounds check.
// CHECK-LABEL: __global__ void negated_check_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void negated_check(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (!(row < M && col < N))
    return;
  C[row * N + col] = sum;
}

// The rows compared with N.
// DIAG: after-loop-returns.cu:[[@LINE+4]]:3: warning: this loop does not match a liftable pattern
__global__ void wrong_extents(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (row >= N || col >= N)
    return;
  C[row * N + col] = sum;
}

// The columns left unchecked.
// DIAG: after-loop-returns.cu:[[@LINE+4]]:3: warning: this loop does not match a liftable pattern
__global__ void rows_only(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (row >= M)
    return;
  C[row * N + col] = sum;
}

// A condition that is no bounds check.
// DIAG: after-loop-returns.cu:[[@LINE+4]]:3: warning: this loop does not match a liftable pattern
__global__ void other_condition(ARGS) {
  CLASSIC
#pragma tawa tile
  CLASSIC_LOOP
  if (row >= M || col >= N || sum == 0.0f)
    return;
  C[row * N + col] = sum;
}

// Register-blocked: the thread's first row and column checked by a return,
// each element's own by the stores.
// CHECK-LABEL: __global__ void blocked_return_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void blocked_return(ARGS) {
  BODY
#pragma tawa tile
  LOOP
  if (rowBase + ty >= M || colBase + tx >= N)
    return;
  EACH {
    AT C[r * N + c] = alpha * acc[i][j];
  }
}

// Register-blocked: the return checks the thread's first row, which leaves
// the rows 16, 32 and 48 below it unchecked. Those rows lie in the span of 64
// rows from a multiple of 64 that holds the checked row, so each is inside C
// exactly where the checked one is when M is a multiple of 64: the launcher
// runs the tiled form there, the kernel as written elsewhere.
// CHECK-LABEL: __global__ void blocked_first_row_tiled(
// CHECK-LABEL: static void blocked_first_row_migrated_launch(
// CHECK: M % 64 != 0
__global__ void blocked_first_row(ARGS) {
  BODY
#pragma tawa tile
  LOOP
  if (rowBase + ty >= M)
    return;
  EACH {
    const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
    if (c < N)
      C[r * N + c] = alpha * acc[i][j];
  }
}

// Register-blocked: a return before a barrier of the epilogue.
// DIAG: after-loop-returns.cu:[[@LINE+4]]:3: warning: this loop does not match a liftable pattern
__global__ void blocked_before_barrier(ARGS) {
  BODY
#pragma tawa tile
  LOOP
  if (rowBase + ty >= M || colBase + tx >= N)
    return;
  __syncthreads();
  EACH {
    AT C[r * N + c] = alpha * acc[i][j];
  }
}

#define WMMA_BODY                                                              \
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;              \
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;                     \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;        \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> bf;        \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;                    \
  wmma::fill_fragment(acc, 0.0f);
#define WMMA_LOOP                                                              \
  for (int k = 0; k < K; k += 16) {                                            \
    const int aRow = warpM * 16, bCol = warpN * 16;                            \
    if (aRow < M && k < K && k < K && bCol < N) {                              \
      wmma::load_matrix_sync(af, A + aRow * K + k, K);                         \
      wmma::load_matrix_sync(bf, B + k * N + bCol, N);                         \
      wmma::mma_sync(acc, af, bf, acc);                                        \
    }                                                                          \
  }
#define WMMA_ARGS const half *A, const half *B, float *C, int M, int N, int K

// WMMA: the warps whose tile starts outside C return before the store.
// CHECK-LABEL: __global__ void wmma_return_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void wmma_return(WMMA_ARGS) {
  WMMA_BODY
#pragma tawa tile
  WMMA_LOOP
  const int row = warpM * 16, col = warpN * 16;
  if (row >= M || col >= N)
    return;
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}

// WMMA: the return checks the rows only.
// DIAG: after-loop-returns.cu:[[@LINE+4]]:3: warning: this loop does not match a liftable pattern
__global__ void wmma_rows_only(WMMA_ARGS) {
  WMMA_BODY
#pragma tawa tile
  WMMA_LOOP
  const int row = warpM * 16, col = warpN * 16;
  if (row >= M)
    return;
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}

// DIAG2-COUNT-5: warning: this loop does not match a liftable pattern
