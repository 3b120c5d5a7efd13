// --migrate lifts WMMA loops that count tiles of the fragments' K: up to
// K / 16, whole tiles only (the kernel sums the first K / 16 * 16 elements
// of K, and the launcher gives the tiled form that K extent, for any K), or
// up to (K + 15) / 16 (then K must be a multiple of 16, as for 'k += 16').
// A count of another width than the fragments' is refused. (The outputs
// are checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=warning: --implicit-check-not=error:
#include <mma.h>
using namespace nvcuda;

#define FRAGMENTS                                                              \
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;        \
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;                     \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;        \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;        \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;                    \
  wmma::fill_fragment(acc, 0.0f);
#define STORE                                                                  \
  if (warpM * 16 < M && warpN * 16 < N)                                        \
    wmma::store_matrix_sync(c + warpM * 16 * N + warpN * 16, acc, N,           \
                            wmma::mem_row_major);

// CHECK-LABEL: __global__ void floor_count(
__global__ void floor_count(const half *a, const half *b, float *c, int M,
                            int N, int K) {
  FRAGMENTS
#pragma tawa tile
  for (int t = 0; t < K / 16; ++t) {
    if (warpM * 16 < M && warpN * 16 < N) {
      wmma::load_matrix_sync(fa, a + warpM * 16 * K + t * 16, K);
      wmma::load_matrix_sync(fb, b + t * 16 * N + warpN * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  STORE
}
// CHECK: __global__ void floor_count_tiled(
// CHECK: /// The kernel's K loop runs K / 16 whole tiles
// CHECK: static void floor_count_migrated_launch(
// CHECK: M % 16 != 0 || N % 16 != 0 ||{{$}}
// CHECK: tawa::Matrix<const __half>{a, M, (K / 16 * 16), K},
// CHECK-NEXT: tawa::Matrix<const __half>{b, (K / 16 * 16), N, N},

// CHECK-LABEL: __global__ void ceil_count(
__global__ void ceil_count(const half *a, const half *b, float *c, int M,
                           int N, int K) {
  FRAGMENTS
  const int tiles = (K + 15) / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; t++) {
    if (warpM * 16 < M && warpN * 16 < N) {
      wmma::load_matrix_sync(fa, a + warpM * 16 * K + t * 16, K);
      wmma::load_matrix_sync(fb, b + t * 16 * N + warpN * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  STORE
}
// CHECK: __global__ void ceil_count_tiled(
// CHECK: static void ceil_count_migrated_launch(
// CHECK: M % 16 != 0 || N % 16 != 0 ||
// CHECK-NEXT: K % 16 != 0 ||
// CHECK: tawa::Matrix<const __half>{a, M, K, K},

// A count of 32-wide tiles over 16-wide fragments: refused.
__global__ void other_width(const half *a, const half *b, float *c, int M,
                            int N, int K) {
  FRAGMENTS
#pragma tawa tile
  // DIAG: wmma-tile-count.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line [[@LINE+1]] breaks it: the fragments must have one shape, and the loop must step k by its K
  for (int t = 0; t < K / 32; ++t) {
    if (warpM * 16 < M && warpN * 16 < N) {
      wmma::load_matrix_sync(fa, a + warpM * 16 * K + t * 32, K);
      wmma::load_matrix_sync(fb, b + t * 32 * N + warpN * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  STORE
}
// DIAG: note: kernel 'other_width' is left unchanged
// DIAG2: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM
// DIAG2: note: kernel 'other_width' is left unchanged

void run(const half *a, const half *b, float *c, int M, int N, int K) {
  const dim3 grid((M + 63) / 64, (N + 63) / 64), block(128, 4);
  floor_count<<<grid, block>>>(a, b, c, M, N, K);
  ceil_count<<<grid, block>>>(a, b, c, M, N, K);
  other_width<<<grid, block>>>(a, b, c, M, N, K);
}
// CHECK-LABEL: void run(
// CHECK: floor_count_migrated_launch(grid, block, 0, 0, a, b, c, M, N, K);
// CHECK: ceil_count_migrated_launch(grid, block, 0, 0, a, b, c, M, N, K);
// CHECK: other_width<<<grid, block>>>(a, b, c, M, N, K);
