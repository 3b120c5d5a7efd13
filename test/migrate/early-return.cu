// An early return of whole blocks before the loop, 'if (m0 >= M || n0 >= N)
// return;': the blocks that return store nothing, which every store's
// bounds check makes them do without the return too, so the return is
// dropped. Refused: a return that depends on the thread (a thread leaving
// before the barriers), one whose blocks a store does not skip without it
// (a row compared with N, a store without a check of M), and a condition
// other than comparisons with an extent. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include "Inputs/blocked-64.h"

#define STORE                                                                  \
  EACH {                                                                       \
    AT C[r * N + c] = alpha * acc[i][j];                                       \
  }
#define ARGS                                                                   \
  const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha

// Blocks past M or N return.
// CHECK-LABEL: __global__ void both_axes_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void both_axes(ARGS) {
  BODY
  if (rowBase >= M || colBase >= N)
    return;
#pragma tawa tile
  LOOP
  STORE
}

// One axis, written 'M <= blockIdx.y * 64', before the tiles.
// CHECK-LABEL: __global__ void rows_only_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void rows_only(ARGS) {
  if (M <= blockIdx.y * 64)
    return;
  BODY
#pragma tawa tile
  LOOP
  STORE
}

// A thread past M returns before the barriers.
// DIAG: early-return.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern
__global__ void per_thread(ARGS) {
  BODY
  if (rowBase + ty >= M)
    return;
#pragma tawa tile
  LOOP
  STORE
}

// The block's first row compared with N.
// DIAG: early-return.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern
__global__ void wrong_extent(ARGS) {
  BODY
  if (rowBase >= N)
    return;
#pragma tawa tile
  LOOP
  STORE
}

// Stores that check N only: a block past M would store without the return.
// DIAG: early-return.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern
__global__ void unchecked_rows(ARGS) {
  BODY
  if (rowBase >= M)
    return;
#pragma tawa tile
  LOOP
  EACH {
    const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
    if (c < N)
      C[r * N + c] = alpha * acc[i][j];
  }
}

// Blocks past M + 64 return: no extent.
// DIAG: early-return.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern
__global__ void past_margin(ARGS) {
  BODY
  if (rowBase >= M + 64)
    return;
#pragma tawa tile
  LOOP
  STORE
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-4: warning: this loop does not match a liftable pattern
