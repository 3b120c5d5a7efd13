// The narrow kernels: beside the 128 x 256 kernel, the same work in 128 x 64
// CTA tiles, four to a tile of the original launch, in 128 x 128, two to a
// tile, and in 128 x 144, 128 x 192 and 128 x 208, side by side across the
// launch's columns; the
// launcher runs the narrowest whose tiles fill at most one wave, else, where
// the wide tiles fill at most half a wave, the widest. Part p moves the
// window of B and the store's column by its columns times p (for 192, tile x
// is 0 and p the column tile); each ring keeps the bytes in flight of
// stages(4) (8 slots of 24 KB, 6 of 32 KB, 5 of 40 KB, for 4 of 48 KB).
// narrow(128) emits the one kernel, narrow(off) none; a tile of 128 columns
// has only 64, and one of 64 none. A store offset along x reaches the
// launcher's check of the walk across. The 64- and 128-column kernels also
// come as ping-pong twins (each consumer whole tiles), which the launcher runs
// where C has more than half a tile of rows, and as few-rows twins (the first
// 64 rows of each tile, one consumer, two K steps to a slot), which it runs
// where no other row is stored.
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v -e CHECK -e TWIN | FileCheck %s --check-prefix=TWIN
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

// The tiles start 64 columns in.
__global__ void shifted(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256 + 64;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(192)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// The same, the kernel that walks across the columns narrower than one that
// cuts the tiles into parts.
__global__ void shifted_first(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256 + 64;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(96, 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// Block y stores from row 128 y - 32: its rows past the first 64 of the tile
// start at 32, so the few-rows twin runs up to 32 stored rows and the
// cooperative kernel between that and the ping-pong twin.
__global__ void lowered(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128 - 32, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
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
  shifted<<<grid, 128>>>(A, B, C);
  shifted_first<<<grid, 128>>>(A, B, C);
  lowered<<<grid, 128>>>(A, B, C);
}

// The wide kernel first, then the narrow ones, narrowest first, each with
// its launcher, and the wide launcher, which chooses.
// CHECK-LABEL: __global__ void wide_reference(
// CHECK:       struct wide_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[256 * 64];
// CHECK:       wgmma m64n256k16
// The 64- and 128-column kernels come as few-rows twins of 64 x 64 and 64 x
// 128 tiles (each part in two parts of 64 rows, row_part moving A's window
// and the store's row; one consumer warpgroup, 12 and 8 slots: the bytes in
// flight of stages(4)); the cooperative kernels they and the ping-pong twins
// leave no launch are not written. The twins' 64-row boxes of A are loaded
// whole; the 64-column ping-pong twin's 128-row boxes in edge boxes only
// where 64 rows or more lie past A's end (min_past).
// CHECK-NOT:   wide_narrow64(
// CHECK:       inline cudaError_t wide_narrow64_pingpong_launch(
// CHECK:           maps = tawa::rt::make_edge_maps(&A_tensor_map_edge, A_aligned, 128, 64,
// CHECK-NEXT:                                      /*stored=*/C.rows, /*batched=*/false,
// CHECK-NEXT:                                      /*min_past=*/64);
// CHECK:       struct wide_narrow64_rows64_shared {
// CHECK:         alignas(1024) __nv_bfloat16 a[2 * 64 * 64];
// CHECK:         alignas(1024) __nv_bfloat16 b[2 * 64 * 64];
// CHECK:         a_b_slot a_b[6];
// CHECK:       /// Narrow tiles of few rows: each block's tile of the original launch is 4 CTA
// CHECK-NEXT:  /// tiles of 128 x 64, which this kernel computes in 2 parts of 64 rows
// CHECK-NEXT:  /// (row_part), for launches of at most 64 rows or whose last row of tiles
// CHECK-NEXT:  /// stores few.
// CHECK-NEXT:  __global__ void __launch_bounds__(256, 1)
// CHECK-NEXT:      wide_narrow64_rows64(In A, In B, Out C,
// CHECK-NOT:       _edge
// CHECK:             constexpr int kConsumers = 1;
// CHECK:               const int part = schedule.part(work.unit);
// CHECK-NEXT:          const int row_part = schedule.row_part(work.unit);
// CHECK-NEXT:          const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK:                 smem.a_b_aref.expect(a_b, sizeof(slot.a) / 2 + sizeof(slot.b) / 2);
// CHECK-NEXT:            tawa::rt::tma_load_2d(
// CHECK-NEXT:                slot.a + tawa_step * 64 * 64, &A_tensor_map,
// CHECK-NEXT:                smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                tawa::rt::box_row<64>(m0 + row_part * 64, A.rows, C.rows));
// CHECK-NEXT:            tawa::rt::tma_load_2d(slot.b + tawa_step * 64 * 64, &B_tensor_map,
// CHECK-NEXT:                                  smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                                  n0 + part * 64);
// CHECK:           tawa::rt::WgmmaAccumulator<1, 64> acc;
// The last row part's box is loaded from A's last 64 rows (box_row); the rows
// before the part's own are computed but not stored, so that tile is copied
// from the staged rows from its first row on.
// CHECK:             const int part = schedule.part(work.unit);
// CHECK-NEXT:        const int row_part = schedule.row_part(work.unit);
// CHECK-NEXT:        const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK-NEXT:        // acc's rows start where a's box was loaded: at a's last rows where the
// CHECK-NEXT:        // tile reaches past them (tawa::rt::box_row), whose rows before the
// CHECK-NEXT:        // tile's own are not stored.
// CHECK-NEXT:        const int tawa_box_row =
// CHECK-NEXT:            tawa::rt::box_row<64>(m0 + row_part * 64, A.rows, C.rows);
// CHECK:             if (tma_store && tawa_box_row == m0 + row_part * 64) {
// CHECK-NEXT:          tawa::rt::store_accumulator_tma<false>(
// CHECK-NEXT:              &C_store_map, smem.epilogue[consumer],
// CHECK-NEXT:              m0 + row_part * 64 + consumer * 64, n0 + part * 64, 0, acc,
// CHECK:                 tawa::rt::store_accumulator_staged(
// CHECK-NEXT:              C, smem.epilogue[consumer], tawa_box_row + consumer * 64,
// CHECK-NEXT:              n0 + part * 64, acc, /*zero=*/k_steps == 0,
// CHECK-NEXT:              /*barrier=*/1 + consumer, /*first_row=*/m0 + row_part * 64);
// CHECK:       /// Launches wide_narrow64_rows64 over the tiles of `grid` (the grid of the
// CHECK-NEXT:  /// original launch, one 128 x 256 output tile per block, in 4 narrow CTA tiles
// CHECK-NEXT:  /// of 64 x 64 each, each in parts of its rows)
// CHECK:       inline cudaError_t wide_narrow64_rows64_launch(
// CHECK-NOT:     make_edge_maps
// CHECK:         maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 64, 64);
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 64, 64);
// CHECK:           wide_reference<<<grid, block, shared, stream>>>(A, B, C);
// Only the parts that store anything are walked (narrow_x_units,
// row_part_units).
// CHECK:         const tawa::rt::TileSchedule schedule(
// CHECK-NEXT:        grid, /*group=*/8, /*along_y=*/true, /*cluster=*/1, /*merge_x=*/1,
// CHECK-NEXT:        /*merge_y=*/1, /*parts=*/4,
// CHECK-NEXT:        tawa::rt::narrow_x_units(grid, 1, 4, 64, C.cols, /*col_offset=*/0),
// CHECK-NEXT:        /*row_parts=*/2,
// CHECK-NEXT:        tawa::rt::row_part_units(grid, 2, 64, C.rows, /*row_offset=*/0));
// CHECK:           tawa::rt::split_tail_plan(ctas, 1, 64 * 64, stream, &split_tail);
// The 64-column twin's cluster twin: its two CTAs take the two row parts of a
// tile (the cluster rank) and share B, each loading half of its rows; no
// split tail.
// CHECK:       __global__ void __launch_bounds__(256, 1) wide_narrow64_rows64_cluster(
// CHECK:         constexpr int kCluster = 2;
// CHECK:             const int row_part = schedule.row_part(t, rank);
// CHECK:               tawa::rt::tma_load_2d(
// CHECK-NEXT:                slot.a + tawa_step * 64 * 64, &A_tensor_map,
// CHECK-NEXT:                smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                tawa::rt::box_row<64>(m0 + row_part * 64, A.rows, C.rows));
// CHECK:               tawa::rt::tma_load_2d_multicast(
// CHECK-NEXT:              slot.b + tawa_step * 64 * 64 + rank * 32 * 64, &B_tensor_map,
// CHECK-NEXT:              smem.a_b_aref.full_barrier(a_b), k0, n0 + part * 64 + rank * 32,
// CHECK-NEXT:              /*cta_mask=*/0b11);
// CHECK:           const int row_part = schedule.row_part(t, rank);
// CHECK:           smem.a_b_aref.consumed_in_cluster<kCluster>(a_b_release);
// CHECK:       inline cudaError_t wide_narrow64_rows64_cluster_launch(
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 32, 64);
// CHECK:         const tawa::rt::TileSchedule schedule(
// CHECK-NEXT:        grid, /*group=*/8, /*along_y=*/true, /*cluster=*/2, /*merge_x=*/1,
// CHECK-NOT:     split_tail
// CHECK:         return tawa::rt::launch_clustered(wide_narrow64_rows64_cluster, ctas, 256,
// CHECK-NOT:   wide_narrow128(
// CHECK:       struct wide_narrow128_rows64_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[2 * 128 * 64];
// CHECK:         a_b_slot a_b[4];
// CHECK:           wide_narrow128_rows64(
// CHECK:                                n0 + part * 128);
// CHECK:           tawa::rt::WgmmaAccumulator<1, 128> acc;
// CHECK:          n0 + part * 128, 0, acc,
// CHECK:       inline cudaError_t wide_narrow128_rows64_launch(
// CHECK:             /*merge_y=*/1, /*parts=*/2,
// CHECK-NEXT:        tawa::rt::narrow_x_units(grid, 1, 2, 128, C.cols, /*col_offset=*/0),
// CHECK-NEXT:        /*row_parts=*/2,
// CHECK-NEXT:        tawa::rt::row_part_units(grid, 2, 64, C.rows, /*row_offset=*/0));
// CHECK:       struct wide_narrow192_shared {
// CHECK:         alignas(1024) __nv_bfloat16 b[192 * 64];
// CHECK:         a_b_slot a_b[5];
// CHECK:       /// Narrow tiles: CTA tiles of 128 x 192 side by side across the columns of the
// CHECK-NEXT:  /// original launch, for launches of few tiles.
// CHECK:           wide_narrow192(
// CHECK:             // Tile (0, y, z), part c: the columns [192 c, 192 c + 192) from the
// CHECK:               const int part = schedule.part(work.unit);
// CHECK-NEXT:          const int m0 = tile.y * 128, n0 = tile.x * 256;
// CHECK:                                n0 + part * 192);
// CHECK:           tawa::rt::WgmmaAccumulator<1, 192> acc;
// CHECK:          n0 + part * 192, 0, acc,
// CHECK:       inline cudaError_t wide_narrow192_launch(
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 192, 64);
// CHECK:         const tawa::rt::TileSchedule schedule = tawa::rt::TileSchedule::across(
// CHECK-NEXT:        grid, /*group=*/8, /*along_y=*/true, /*cluster=*/1, /*merge_y=*/1,
// CHECK-NEXT:        /*block_cols=*/256, /*width=*/192,
// CHECK-NEXT:        tawa::rt::across_x_units(grid, 256, 192, C.cols, /*col_offset=*/0));
// CHECK:           tawa::rt::split_tail_plan(ctas, 2, 128 * 192, stream, &split_tail);
// CHECK:       inline cudaError_t wide_launch(dim3 grid, dim3 block, size_t shared,
// CHECK:         // The 64-column ping-pong kernel may run in clusters of two CTAs of adjacent
// CHECK-NEXT:    // column tiles, which share A's tile (tawa::rt::choose_x_cluster).
// CHECK-NEXT:    const bool x_cluster = tawa::rt::choose_x_cluster(
// CHECK-NEXT:        tawa::rt::TileSchedule(
// CHECK-NEXT:            grid, /*group=*/8, /*along_y=*/true, /*cluster=*/1, /*merge_x=*/1,
// CHECK-NEXT:            /*merge_y=*/1, /*parts=*/4,
// CHECK-NEXT:            tawa::rt::narrow_x_units(grid, 1, 4, 64, C.cols, /*col_offset=*/0)),
// CHECK-NEXT:        tawa::rt::odd_pitch(A) || tawa::rt::odd_pitch(B),
// CHECK-NEXT:        tawa::rt::matrix_bytes(A));
// CHECK-NEXT:    // The K loop's trips: where they are many, the few-rows twins run over row
// CHECK-NEXT:    // parts, and those of 128 columns split their tiles into more K ranges
// CHECK-NEXT:    // (tawa::rt::choose_row_parts, few_rows_choice).
// CHECK-NEXT:    int trips = 0;
// CHECK-NEXT:    for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:      ++trips;
// CHECK-NEXT:    }
// CHECK-NEXT:    // Launches of few tiles run as narrow CTA tiles: the narrowest kernel whose
// CHECK-NEXT:    // tiles fill at most one wave of the SMs, else, where the wide tiles fill at
// CHECK-NEXT:    // most half a wave, the widest; launches of more than a wave where the narrow
// CHECK-NEXT:    // tiles' waves are shorter (tawa/TileShape.h). Where the last row of tiles
// CHECK-NEXT:    // stores few rows, or the K loop is long (tawa::rt::choose_row_parts), the
// CHECK-NEXT:    // narrow kernels' few-rows twins run every 64-row part of the tiles that
// CHECK-NEXT:    // stores anything, in place of the ping-pong twins' whole tiles
// CHECK-NEXT:    // (tawa/TileShape.h). A launch whose 64-column tiles over row parts fill at
// CHECK-NEXT:    // most a wave of the SMs runs them too; with more than half a wave, in
// CHECK-NEXT:    // clusters where there are (tawa::rt::choose_row_cluster).
// CHECK-NEXT:    const tawa::rt::TileSchedule row_part_walk = tawa::rt::TileSchedule(
// CHECK-NEXT:        grid, /*group=*/8, /*along_y=*/true, /*cluster=*/1, /*merge_x=*/1,
// CHECK-NEXT:        /*merge_y=*/1, /*parts=*/4,
// CHECK-NEXT:        tawa::rt::narrow_x_units(grid, 1, 4, 64, C.cols, /*col_offset=*/0),
// CHECK-NEXT:        /*row_parts=*/2,
// CHECK-NEXT:        tawa::rt::row_part_units(grid, 2, 64, C.rows, /*row_offset=*/0));
// CHECK-NEXT:    bool row_parts = tawa::rt::choose_row_parts(
// CHECK-NEXT:        grid, /*tile_rows=*/128, /*part_rows=*/64, C.rows, /*row_offset=*/0,
// CHECK-NEXT:        trips, /*part_tiles=*/row_part_walk.count());
// CHECK-NEXT:    int narrow = -1;
// CHECK-NEXT:    if (cudaError_t e = tawa::rt::choose_narrow(
// CHECK-NEXT:            grid, /*merge_x=*/1, /*merge_y=*/1, /*block_cols=*/256,
// CHECK-NEXT:            {64, 128, 144, 192, 208}, C.cols, /*col_offset=*/0, &narrow,
// CHECK-NEXT:            /*few_rows=*/C.rows <= 64 ? C.rows : 0,
// CHECK-NEXT:            row_parts
// CHECK-NEXT:                ? tawa::rt::row_part_units(grid, 2, 64, C.rows, /*row_offset=*/0)
// CHECK-NEXT:                : 0,
// CHECK-NEXT:            /*row_part_kernels=*/3, &row_parts, trips,
// CHECK-NEXT:            /*a_bytes=*/tawa::rt::matrix_bytes(A), /*x_cluster=*/x_cluster);
// CHECK-NEXT:        e != cudaSuccess)
// CHECK-NEXT:      return e;
// CHECK-NEXT:    // Operand rows an odd number of 16 bytes apart make the launch L2-bound: the
// CHECK-NEXT:    // cluster twin of the kernel chosen runs it where there is one, two CTAs
// CHECK-NEXT:    // sharing B's tile, and reads them in place (tawa/TileShape.h).
// CHECK-NEXT:    const bool cluster_twin = tawa::rt::choose_cluster(
// CHECK-NEXT:        tawa::rt::odd_pitch(A) || tawa::rt::odd_pitch(B), grid, /*merge_y=*/1);
// CHECK-NEXT:    // Where C has more than 64 rows, each consumer takes whole tiles (ping-pong);
// CHECK-NEXT:    // where every row stored lies in the first 64 of a tile, or row_parts says
// CHECK-NEXT:    // so, one consumer takes 64-row tiles, whose smaller slots keep more of the
// CHECK-NEXT:    // operands in flight.
// CHECK-NEXT:    if (narrow == 0) {
// CHECK-NEXT:      if (row_parts) {
// CHECK-NEXT:        return (tawa::rt::choose_row_cluster(row_part_walk, C.rows,
// CHECK-NEXT:                                             /*row_offset=*/0, /*part_rows=*/64)
// CHECK-NEXT:                    ? wide_narrow64_rows64_cluster_launch
// CHECK-NEXT:                    : wide_narrow64_rows64_launch)(grid, block, shared, stream, A,
// CHECK-NEXT:                                                   B, C);
// CHECK-NEXT:      }
// CHECK-NEXT:      return (C.rows > 64 ? (x_cluster ? wide_narrow64_pingpong_cluster_launch
// CHECK-NEXT:                                       : wide_narrow64_pingpong_launch)
// CHECK-NEXT:                          : wide_narrow64_rows64_launch)(grid, block, shared,
// CHECK-NEXT:                                                         stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 1) {
// CHECK-NEXT:      if (row_parts) {
// CHECK-NEXT:        return wide_narrow128_rows64_launch(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:      }
// CHECK-NEXT:      return (C.rows > 64 ? wide_narrow128_pingpong_launch
// CHECK-NEXT:                          : wide_narrow128_rows64_launch)(grid, block, shared,
// CHECK-NEXT:                                                          stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 2) {
// CHECK-NEXT:      return (cluster_twin
// CHECK-NEXT:                  ? wide_narrow144_cluster_launch
// CHECK-NEXT:                  : wide_narrow144_launch)(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 3) {
// CHECK-NEXT:      return (cluster_twin
// CHECK-NEXT:                  ? wide_narrow192_cluster_launch
// CHECK-NEXT:                  : wide_narrow192_launch)(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 4) {
// CHECK-NEXT:      return (cluster_twin
// CHECK-NEXT:                  ? wide_narrow208_cluster_launch
// CHECK-NEXT:                  : wide_narrow208_launch)(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (cluster_twin) {
// CHECK-NEXT:      return wide_cluster_launch(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 256, 64);
// CHECK:         const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true);
// CHECK-NOT:   halves_narrow64
// CHECK:       halves_narrow128(
// CHECK:           tawa::rt::WgmmaAccumulator<1, 128> acc;
// CHECK:             /*merge_y=*/1, /*parts=*/2,
// CHECK-NEXT:        tawa::rt::narrow_x_units(grid, 1, 2, 128, C.cols, /*col_offset=*/0));
// CHECK:         // Launches of few tiles run as narrow CTA tiles where they fill at most one
// CHECK-NEXT:    // wave of the SMs, or where the wide tiles fill at most half a wave; launches
// CHECK-NEXT:    // of more than a wave where the narrow tiles' waves are shorter
// CHECK-NEXT:    // (tawa/TileShape.h).
// CHECK:                 grid, /*merge_x=*/1, /*merge_y=*/1, /*block_cols=*/256, {128}, C.cols,
// CHECK-NOT:   none_narrow
// CHECK:       inline cudaError_t none_launch(
// CHECK-NOT:   choose_narrow
// CHECK:       square_narrow64_rows64(
// CHECK-NOT:   square_narrow128
// CHECK:                 grid, /*merge_x=*/1, /*merge_y=*/1, /*block_cols=*/128, {64}, C.cols,
// CHECK:       inline cudaError_t thin_launch(
// CHECK-NOT:   choose_narrow
// CHECK:       __global__ void shifted_reference(
// CHECK:       shifted_narrow192(
// CHECK:             const int m0 = tile.y * 128, n0 = tile.x * 256 + 64;
// CHECK:         const tawa::rt::TileSchedule schedule = tawa::rt::TileSchedule::across(
// CHECK:       inline cudaError_t shifted_launch(
// CHECK:                 grid, /*merge_x=*/1, /*merge_y=*/1, /*block_cols=*/256, {192}, C.cols,
// CHECK-NEXT:            /*col_offset=*/64, &narrow, /*few_rows=*/0, /*row_units=*/0,
// CHECK-NEXT:            /*row_part_kernels=*/0, /*row_parts=*/nullptr, /*trips=*/0,
// CHECK-NEXT:            /*a_bytes=*/tawa::rt::matrix_bytes(A), /*x_cluster=*/false);
// CHECK:       inline cudaError_t shifted_first_launch(
// CHECK:                 grid, /*merge_x=*/1, /*merge_y=*/1, /*block_cols=*/256, {96, 128},
// CHECK-NEXT:            C.cols, /*col_offset=*/64, &narrow, /*few_rows=*/0, /*row_units=*/0,
// CHECK-NEXT:            /*row_part_kernels=*/0, /*row_parts=*/nullptr, /*trips=*/0,
// CHECK-NEXT:            /*a_bytes=*/tawa::rt::matrix_bytes(A), /*x_cluster=*/false);
// CHECK:       __global__ void __launch_bounds__(384, 1) lowered_narrow64(
// CHECK:       __global__ void __launch_bounds__(256, 1)
// CHECK-NEXT:      lowered_narrow64_rows64(
// CHECK:               const int m0 = tile.y * 128 - 32, n0 = tile.x * 256;
// Its 64- and 128-column kernels also run between the twins: the choice
// takes no few_rows. The row parts start 32 rows above the matrix.
// CHECK:       inline cudaError_t lowered_launch(
// CHECK:           int trips = 0;
// CHECK:           bool row_parts = tawa::rt::choose_row_parts(
// CHECK-NEXT:          grid, /*tile_rows=*/128, /*part_rows=*/64, C.rows, /*row_offset=*/-32,
// CHECK-NEXT:          trips, /*part_tiles=*/row_part_walk.count());
// CHECK:             {64, 128, 144, 192, 208}, C.cols, /*col_offset=*/0, &narrow,
// CHECK-NEXT:        /*few_rows=*/0,
// CHECK-NEXT:        row_parts ? tawa::rt::row_part_units(grid, 2, 64, C.rows,
// CHECK-NEXT:                                             /*row_offset=*/-32)
// CHECK:           if (narrow == 0) {
// CHECK-NEXT:        if (row_parts) {
// CHECK-NEXT:        return (tawa::rt::choose_row_cluster(row_part_walk, C.rows,
// CHECK-NEXT:                                             /*row_offset=*/-32, /*part_rows=*/64)
// CHECK-NEXT:                    ? lowered_narrow64_rows64_cluster_launch
// CHECK-NEXT:                    : lowered_narrow64_rows64_launch)(grid, block, shared, stream,
// CHECK-NEXT:                                                      A, B, C);
// CHECK-NEXT:        }
// CHECK-NEXT:        return (C.rows > 64 ? (x_cluster ? lowered_narrow64_pingpong_cluster_launch
// CHECK-NEXT:                                         : lowered_narrow64_pingpong_launch)
// CHECK-NEXT:                : C.rows <= 32 ? lowered_narrow64_rows64_launch
// CHECK-NEXT:                               : lowered_narrow64_launch)(grid, block, shared,
// CHECK:       void run(In A, In B, Out C) {

// EXPLAIN-LABEL: kernel wide:
// EXPLAIN:         narrow: 128 x 64 (4 parts of each tile), 128 x 128 (2 parts of each tile), 128 x 144 (across the launch's columns), 128 x 192 (across the launch's columns), 128 x 208 (across the launch's columns) -- default: further kernels; the launch runs the narrowest whose tiles fill at most one wave of the SMs, else, where the wide tiles fill at most half a wave, the widest; a launch of more than a wave, one of at least half the width whose waves are 15% shorter (tawa/runtime/schedule.cuh)
// EXPLAIN-SAME:    those of 64 and 128 columns also as ping-pong kernels, which run where the stored matrix has more rows than half a tile, and as kernels of 64 x 64 (6 stages of 2 K steps), 64 x 128 (4 stages of 2 K steps) tiles with one consumer warpgroup, which run where every row stored lies in the first 64 rows of a tile, or, over every 64-row part of the tiles, where the last row of tiles stores few rows, where the narrowest twin's tiles over them fill at most a wave, or, in a launch of at most two rows of tiles, where the K loop is long (tawa::rt::choose_row_parts)
// EXPLAIN-LABEL: kernel halves:
// EXPLAIN:         narrow: 128 x 128 (2 parts of each tile) -- narrow(128) at the clause: a second kernel; the launch runs the narrowest whose tiles fill at most one wave of the SMs, else, where the wide tiles fill at most half a wave, the widest; a launch of more than a wave, one of at least half the width whose waves are 15% shorter (tawa/runtime/schedule.cuh)
// EXPLAIN-LABEL: kernel none:
// EXPLAIN:         narrow: off -- narrow(off) at the clause
// EXPLAIN-LABEL: kernel square:
// EXPLAIN:         narrow: 128 x 64 (2 parts of each tile) -- default: a second kernel
// EXPLAIN-LABEL: kernel thin:
// EXPLAIN:         narrow: none -- the tile's 64 columns are not more than 64
// EXPLAIN-LABEL: kernel shifted:
// EXPLAIN:         narrow: 128 x 192 (across the launch's columns) -- narrow(192) at the clause

// TWIN:         wide_narrow64_pingpong(
// TWIN:         // Consumer warpgroups: they take alternate tiles, each the whole of acc,
// TWIN:         tawa::rt::WgmmaAccumulator<2, 64> acc;
// TWIN:         wide_narrow128_pingpong(
// TWIN:         tawa::rt::WgmmaAccumulator<2, 128> acc;
// TWIN-NOT:     wide_narrow192_pingpong
