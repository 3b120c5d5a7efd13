// shape(auto) on a kernel written with 64 x 64 tiles: the rewritten kernel
// computes 128 x 256 CTA tiles, 2 x 4 of the kernel's, with the tensor-map
// boxes, accumulators and walk to match; the launcher runs the kernel as
// written where the grid stops inside C with a part of a merged tile.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s
// RUN: %tawa-rewrite %s --explain -o /dev/null -- %cuda-stub | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

__global__ void small_tiles(tawa::Matrix<const __nv_bfloat16> A,
                            tawa::Matrix<const __nv_bfloat16> B,
                            tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  tawa::Accumulator<float, 64, 64> acc;
#pragma tawa tile shape(auto)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<64, 64>(A, m0, k0);
    auto b = tawa::load<64, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// Tiles 256 rows and columns apart but 128 x 128: merging them would skip
// rows or columns, so shape(auto) keeps the kernel's tile and says why.
__global__ void spread(tawa::Matrix<const __nv_bfloat16> A,
                       tawa::Matrix<const __nv_bfloat16> B,
                       tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 256, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile shape(auto)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

void run(tawa::Matrix<const __nv_bfloat16> A,
         tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C) {
  dim3 grid(tawa::ceil_div(C.cols, 64), tawa::ceil_div(C.rows, 64));
  small_tiles<<<grid, 64>>>(A, B, C);
}

// CHECK:      __global__ void __launch_bounds__(384, 1)
// CHECK:          const int m0 = tile.y * 64, n0 = tile.x * 64;
// CHECK:        tawa::rt::WgmmaAccumulator<1, 256> acc;
// CHECK:  // Each CTA tile is 2 x 4 of the kernel's 64 x 64 tiles. Where the grid stops
// CHECK-NEXT:  // inside C with a part of one, run the kernel as written.
// CHECK-NEXT:  if (!tawa::rt::merged_walk_exact(grid, 4, 2, C.cols, C.rows, 64, 64, 0, 0)) {
// CHECK-NEXT:    static bool noted = false;
// CHECK-NEXT:    tawa::rt::note_partial_grid("small_tiles", noted);
// CHECK-NEXT:    small_tiles_reference<<<grid, block, shared, stream>>>(A, B, C);
// CHECK-NEXT:    return cudaPeekAtLastError();
// CHECK-NEXT:  }
// CHECK:        cudaError_t maps = tawa::rt::make_tensor_map(&A_tensor_map, A, 128, 64);
// CHECK:          maps = tawa::rt::make_tensor_map(&B_tensor_map, B, 256, 64);
// CHECK:        const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true,
// CHECK-NEXT:                                         /*cluster=*/1, /*merge_x=*/4,
// CHECK-NEXT:                                         /*merge_y=*/2);
// CHECK:          tawa::rt::split_tail_plan(ctas, 2, 128 * 256, stream, &split_tail);
// CHECK:        small_tiles_launch(grid, 64, 0, 0, A, B, C);

// EXPLAIN: kernel small_tiles:
// EXPLAIN: tile: 128 x 256 x 64 bf16 (BM x BN x BK, elements) -- shape(auto): 2 x 4 of the kernel's 64 x 64 tiles, the first of the shapes it tries (tawa/TileShape.h) that the planner accepts
// EXPLAIN: kernel spread:
// EXPLAIN: tile: 128 x 128 x 64 bf16 (BM x BN x BK, elements) -- shape(auto): the kernel's own tile; 128 x 256 was refused: shape(128, 256) merges the kernel's 128 x 128 tiles, but the origin of tile 'b' is not blockIdx.x * 128 plus a term without blockIdx.x [tawa-unsupported]
