// Barriers of cooperative groups: `block.sync()` of a `cg::thread_block`
// set to `cg::this_thread_block()`, `cg::sync(block)` and
// `cg::this_thread_block().sync()` are barriers of the whole block, as
// `__syncthreads()` is, and the loops around them are lifted. A warp tile's
// `sync()` orders one warp only: a loop whose barriers are those is refused.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cooperative_groups.h>
#include "Inputs/blocked-64.h"

namespace cg = cooperative_groups;
#define STORE                                                                  \
  EACH {                                                                       \
    AT C[r * N + c] = alpha * acc[i][j];                                       \
  }
#define ARGS                                                                   \
  const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha


// CHECK-LABEL: __global__ void block_sync_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void block_sync(ARGS) {
  cg::thread_block block = cg::this_thread_block();
  BODY
#pragma tawa tile
  LOOP_SYNC(block.sync())
  STORE
}

// CHECK-LABEL: __global__ void free_sync_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void free_sync(ARGS) {
  auto block = cg::this_thread_block();
  BODY
#pragma tawa tile
  LOOP_SYNC(cg::sync(block))
  STORE
}

// CHECK-LABEL: __global__ void temporary_sync_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void temporary_sync(ARGS) {
  BODY
#pragma tawa tile
  LOOP_SYNC(cg::this_thread_block().sync())
  STORE
}

// A warp tile's barrier: the warps of the block are not ordered.
// DIAG: cooperative-groups.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void warp_sync(ARGS) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  BODY
#pragma tawa tile
  LOOP_SYNC(warp.sync())
  STORE
}
