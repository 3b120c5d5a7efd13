// The tile walk: block coordinates of the original launch are read from the
// walk's tile (blockIdx -> tile, gridDim -> schedule.tiles) in the prologue,
// the loop header and the op coordinates; persistent(off) launches one CTA
// per tile; raster(n, 4) groups along x; a prologue that returns keeps the
// launch non-persistent.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

using In = tawa::Matrix<const __half>;
using Out = tawa::Matrix<float>;

__global__ void walk(In A, In B, Out C) {
  const int last = gridDim.y - 1; // "blockIdx" in a literal stays
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile persistent(off) raster(n, 4)
  for (int k0 = 0; k0 < A.cols - 64 * (blockIdx.y == last); k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:     walk(In A, In B, Out C, const __grid_constant__ CUtensorMap A_tensor_map,
// CHECK:         const int last = schedule.tiles.y - 1; // "blockIdx" in a literal stays
// CHECK:         for (int k0 = 0; k0 < A.cols - 64 * (tile.y == last); k0 += 64) {
// CHECK:           tawa::rt::tma_load_rows<128, false>(
// CHECK-NEXT:               slot.a, &A_tensor_map, A_tensor_map_edge,
// CHECK-NEXT:               smem.a_b_aref.full_barrier(a_b), k0, tile.y * 128, 0);
// CHECK:         tawa::rt::store_accumulator_tma<false>(
// CHECK-NEXT:             &C_store_map, smem.epilogue[consumer],
// CHECK-NEXT:             (tile.y * 128) + consumer * 64, tile.x * 128, 0, acc,
// CHECK:   const tawa::rt::TileSchedule schedule(grid, /*group=*/4, /*along_y=*/false);
// CHECK-NEXT:   const int ctas = schedule.count() * schedule.cluster;

__global__ void early_exit(In A, In B, Out C) {
  if (blockIdx.y * 128 >= C.rows)
    return;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

// CHECK: inline cudaError_t early_exit_launch(dim3 grid, dim3 block, size_t shared,
// CHECK:   const int ctas = schedule.count() * schedule.cluster;
