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
#include <cuda_bf16.h>

namespace cg = cooperative_groups;
using bf16 = __nv_bfloat16;
// 64 x 64 tiles, 16 x 16 threads, 4 x 4 per thread strided by 16.
#define BODY                                                                   \
  __shared__ bf16 As[16][64];                                                  \
  __shared__ bf16 Bs[16][64];                                                  \
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;            \
  const int rowBase = blockIdx.y * 64, colBase = blockIdx.x * 64;              \
  float acc[4][4] = {};
#define LOOP(SYNC)                                                             \
  for (int k0 = 0; k0 < K; k0 += 16) {                                         \
    for (int e = tid; e < 1024; e += 256) {                                    \
      const int m = e / 16, kk = e % 16;                                       \
      As[kk][m] = rowBase + m < M && k0 + kk < K ? A[(rowBase + m) * K + k0 + kk] \
                                                 : bf16();                     \
      const int r = e / 64, n = e % 64;                                        \
      Bs[r][n] = k0 + r < K && colBase + n < N ? B[(k0 + r) * N + colBase + n] \
                                               : bf16();                       \
    }                                                                          \
    SYNC;                                                                      \
    for (int kk = 0; kk < 16; ++kk)                                            \
      for (int i = 0; i < 4; ++i)                                              \
        for (int j = 0; j < 4; ++j)                                            \
          acc[i][j] += __bfloat162float(As[kk][ty + i * 16]) *                 \
                       __bfloat162float(Bs[kk][tx + j * 16]);                  \
    SYNC;                                                                      \
  }
#define EACH                                                                   \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)
#define AT                                                                     \
  const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;              \
  if (r < M && c < N)

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
  LOOP(block.sync())
  STORE
}

// CHECK-LABEL: __global__ void free_sync_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void free_sync(ARGS) {
  auto block = cg::this_thread_block();
  BODY
#pragma tawa tile
  LOOP(cg::sync(block))
  STORE
}

// CHECK-LABEL: __global__ void temporary_sync_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void temporary_sync(ARGS) {
  BODY
#pragma tawa tile
  LOOP(cg::this_thread_block().sync())
  STORE
}

// A warp tile's barrier: the warps of the block are not ordered.
// DIAG: cooperative-groups.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void warp_sync(ARGS) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  BODY
#pragma tawa tile
  LOOP(warp.sync())
  STORE
}
