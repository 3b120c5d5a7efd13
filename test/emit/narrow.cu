// The narrow kernels: beside the 128 x 256 kernel, the same work in 128 x 64
// CTA tiles, four to a tile of the original launch, and in 128 x 128, two to
// a tile; where the wide tiles fill at most half a wave, the launcher runs
// the narrowest whose tiles fill one wave, else the widest. Part p moves the
// window of B and the store's column by its columns times p; each ring keeps
// the bytes in flight of stages(4) (8 slots of 24 KB, 6 of 32 KB, for 4 of 48
// KB). narrow(128) emits the one kernel, narrow(off) none; a tile of 128
// columns has only 64, and one of 64 none.
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s
// RUN: %tawa-rewrite %s --explain -o /dev/null -- %cuda-stub | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void wide(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void halves(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void none(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void square(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void thin(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 64;
  tawa::Accumulator<float, 128, 64> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<64, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

void run(In A, In B, Out C) {
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  wide<<<grid, 128>>>(A, B, C);
  halves<<<grid, 128>>>(A, B, C);
  none<<<grid, 128>>>(A, B, C);
  square<<<dim3(tawa::ceil_div(C.cols, 128), grid.y), 128>>>(A, B, C);
  thin<<<dim3(tawa::ceil_div(C.cols, 64), grid.y), 128>>>(A, B, C);
}

// The wide kernel first, then the narrow ones, narrowest first, each with
// its launcher, and the wide launcher, which chooses.
// CHECK-LABEL: __global__ void wide_reference(
// CHECK:       struct wide_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[256 * 64];
// CHECK:       wgmma m64n256k16
// CHECK:       struct wide_narrow64_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[64 * 64];
// CHECK:         a_b_slot a_b[8];
// CHECK:       /// Narrow tiles: each block's tile of the original launch is 4 CTA tiles of 128
// CHECK-NEXT:  /// x 64, for launches of few tiles.
// CHECK:           wide_narrow64(
// CHECK:               const int part = schedule.part(work.unit);
// CHECK-NEXT:          const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK:               tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
// CHECK-NEXT:                                smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                                n0 + part * 64);
// CHECK:           tawa::rt::WgmmaAccumulator<1, 64> acc;
// CHECK:             const int part = schedule.part(work.unit);
// CHECK:               &C_store_map, smem.epilogue[consumer], m0 + consumer * 64,
// CHECK-NEXT:          n0 + part * 64, 0, acc,
// CHECK:                 C, smem.epilogue[consumer], m0 + consumer * 64, n0 + part * 64,
// CHECK:       /// Launches wide_narrow64 over the tiles of `grid` (the grid of the original
// CHECK-NEXT:  /// launch, one 128 x 256 output tile per block, in 4 narrow CTA tiles of 128 x
// CHECK-NEXT:  /// 64 each)
// CHECK:       inline cudaError_t wide_narrow64_launch(dim3 grid, dim3 block, size_t shared,
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 64, 64);
// CHECK:           wide_reference<<<grid, block, shared, stream>>>(A, B, C);
// CHECK:         const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true,
// CHECK-NEXT:                                          /*cluster=*/1, /*merge_x=*/1,
// CHECK-NEXT:                                          /*merge_y=*/1, /*parts=*/4);
// CHECK:           tawa::rt::split_tail_plan(ctas, 2, 128 * 64, stream, &split_tail);
// CHECK:       struct wide_narrow128_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[128 * 64];
// CHECK:         a_b_slot a_b[6];
// CHECK:           wide_narrow128(
// CHECK:                                n0 + part * 128);
// CHECK:           tawa::rt::WgmmaAccumulator<1, 128> acc;
// CHECK:          n0 + part * 128, 0, acc,
// CHECK:       inline cudaError_t wide_narrow128_launch(
// CHECK:                                          /*merge_y=*/1, /*parts=*/2);
// CHECK:       inline cudaError_t wide_launch(dim3 grid, dim3 block, size_t shared,
// CHECK:         // Where the wide tiles fill at most half a wave of the SMs, they run as
// CHECK-NEXT:    // narrow CTA tiles: the narrowest kernel whose tiles fill one wave, else the
// CHECK-NEXT:    // widest (tawa/TileShape.h).
// CHECK-NEXT:    int narrow = -1;
// CHECK-NEXT:    if (cudaError_t e =
// CHECK-NEXT:            tawa::rt::choose_narrow(grid, 1, 1, 256, {64, 128}, &narrow);
// CHECK-NEXT:        e != cudaSuccess)
// CHECK-NEXT:      return e;
// CHECK-NEXT:    if (narrow == 0) {
// CHECK-NEXT:      return wide_narrow64_launch(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 1) {
// CHECK-NEXT:      return wide_narrow128_launch(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 256, 64);
// CHECK:         const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true);
// CHECK-NOT:   halves_narrow64
// CHECK:       halves_narrow128(
// CHECK:           tawa::rt::WgmmaAccumulator<1, 128> acc;
// CHECK:                                          /*merge_y=*/1, /*parts=*/2);
// CHECK:         // Where the wide tiles fill at most half a wave of the SMs, they run as
// CHECK-NEXT:    // narrow CTA tiles (tawa/TileShape.h).
// CHECK:         if (cudaError_t e = tawa::rt::choose_narrow(grid, 1, 1, 256, {128}, &narrow);
// CHECK-NOT:   none_narrow
// CHECK:       inline cudaError_t none_launch(
// CHECK-NOT:   choose_narrow
// CHECK:       square_narrow64(
// CHECK-NOT:   square_narrow128
// CHECK:         if (cudaError_t e = tawa::rt::choose_narrow(grid, 1, 1, 128, {64}, &narrow);
// CHECK:       inline cudaError_t thin_launch(
// CHECK-NOT:   narrow
// CHECK:       void run(In A, In B, Out C) {

// EXPLAIN-LABEL: kernel wide:
// EXPLAIN:         narrow: 128 x 64 (4 parts of each tile), 128 x 128 (2 parts of each tile) -- default: further kernels; where the wide tiles fill at most half a wave of the SMs, the launch runs the narrowest whose tiles fill one wave, else the widest (tawa/runtime/schedule.cuh)
// EXPLAIN-LABEL: kernel halves:
// EXPLAIN:         narrow: 128 x 128 (2 parts of each tile) -- narrow(128) at the clause: a second kernel, which the launch runs where the wide tiles fill at most half a wave of the SMs (tawa/runtime/schedule.cuh)
// EXPLAIN-LABEL: kernel none:
// EXPLAIN:         narrow: off -- narrow(off) at the clause
// EXPLAIN-LABEL: kernel square:
// EXPLAIN:         narrow: 128 x 64 (2 parts of each tile) -- default: a second kernel
// EXPLAIN-LABEL: kernel thin:
// EXPLAIN:         narrow: none -- the tile's 64 columns are fewer than two parts of 64
