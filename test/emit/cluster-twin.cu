// The cluster twins: a kernel whose pragma fixes neither the cluster nor the
// schedule also gets cluster(2) kernels of its wide tile and of each narrow
// tile without a ping-pong twin, and its launcher runs the twin of the kernel
// it chose where an operand's rows are an odd number of 16 bytes apart; a
// twin reads such operands in place, where the wide kernel would copy them
// to aligned rows. A K x N B is multicast in whole 64-column boxes, 3 boxes
// split 1 + 2, and one box in halves of its K rows.
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s
// RUN: %tawa-rewrite --explain --check %s -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void nt(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK-NOT:   nt_narrow64_cluster
// CHECK-NOT:   nt_narrow128_cluster
// CHECK:       nt_narrow192_cluster(
// CHECK:         constexpr int kCluster = 2;
// CHECK:         tawa::rt::tma_load_2d_multicast(
// CHECK-NEXT:        slot.b + rank * 96 * 64, &B_tensor_map,
// CHECK:       inline cudaError_t nt_narrow192_cluster_launch(
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 96, 64);
// CHECK:         const tawa::rt::TileSchedule schedule = tawa::rt::TileSchedule::across(
// CHECK-NEXT:        grid, /*group=*/8, /*along_y=*/true, /*cluster=*/2, /*merge_y=*/1,
// CHECK-NEXT:        /*block_cols=*/256, /*width=*/192,
// CHECK-NEXT:        tawa::rt::across_x_units(grid, 256, 192, C.cols, /*col_offset=*/0));
// CHECK:         return tawa::rt::launch_clustered(
// CHECK:       nt_cluster(
// CHECK:         constexpr int kCluster = 2;
// CHECK:         tawa::rt::tma_load_2d_multicast(slot.b + rank * 128 * 64,
// CHECK:       inline cudaError_t nt_cluster_launch(
// CHECK:         // Operands whose rows are an odd number of 16 bytes apart are read in place:
// CHECK-NOT:     pad_odd_pitch
// CHECK:         maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 128, 64);
// CHECK:       inline cudaError_t nt_launch(
// CHECK:         const bool cluster_twin = tawa::rt::choose_cluster(
// CHECK-NEXT:        tawa::rt::odd_pitch(A) || tawa::rt::odd_pitch(B), grid, /*merge_y=*/1);
// CHECK:         if (narrow == 2) {
// CHECK-NEXT:      return (cluster_twin ? nt_narrow144_cluster_launch : nt_narrow144_launch)(
// CHECK-NEXT:          grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 3) {
// CHECK-NEXT:      return (cluster_twin ? nt_narrow192_cluster_launch : nt_narrow192_launch)(
// CHECK-NEXT:          grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (narrow == 4) {
// CHECK-NEXT:      return (cluster_twin ? nt_narrow208_cluster_launch : nt_narrow208_launch)(
// CHECK-NEXT:          grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK-NEXT:    if (cluster_twin) {
// CHECK-NEXT:      return nt_cluster_launch(grid, block, shared, stream, A, B, C);
// CHECK-NEXT:    }
// CHECK:         copies.pad_odd_pitch = tawa::rt::odd_pitch_copy_pays(C.rows, C.cols);

__global__ void nn(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<64, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:       nn_narrow192_cluster(
// CHECK:           // b is shared across the cluster: rank r loads its 64-column boxes
// CHECK:           tawa::rt::tma_load_boxes_multicast<3, 2, 64, false>(
// CHECK:       nn_cluster(
// CHECK:           // b is shared across the cluster: rank r loads its 64-column boxes [4
// CHECK-NEXT:      // r / 2, 4 (r + 1) / 2) into every CTA.
// CHECK-NEXT:      tawa::rt::tma_load_boxes_multicast<4, 2, 64, false>(
// CHECK-NEXT:          slot.b, &B_tensor_map, smem.a_b_aref.full_barrier(a_b), n0, k0, 0,
// CHECK-NEXT:          rank, /*cta_mask=*/0b11);
// CHECK:       inline cudaError_t nn_launch(
// CHECK:         if (cluster_twin) {
// CHECK-NEXT:      return nn_cluster_launch(grid, block, shared, stream, A, B, C);

// A cluster clause, or a schedule clause, leaves no twin to choose.
__global__ void clause(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile cluster(1)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:       inline cudaError_t clause_launch(
// CHECK-NOT:     choose_cluster
// CHECK:         return cudaPeekAtLastError();

// One 64-column box of a K x N B: each CTA loads half of its K rows, whole
// 8-row swizzle atoms, into both.
__global__ void one_box(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 64;
  tawa::Accumulator<float, 128, 64> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<64, 64>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:       one_box_cluster(
// CHECK:         tawa::rt::tma_load_2d_multicast(slot.b + rank * 32 * 64,
// CHECK-NEXT:      &B_tensor_map,
// CHECK-NEXT:      smem.a_b_aref.full_barrier(a_b), n0,
// CHECK-NEXT:      k0 + rank * 32, /*cta_mask=*/0b11);
// CHECK:       inline cudaError_t one_box_cluster_launch(
// CHECK:         tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 32, 64);

// A prologue that does more than declare values gets no twin: a cluster's
// tile past the grid runs it again for the grid's last row.
__global__ void prologue_statement(In A, In B, Out C, int *count) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  *count += 1;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile persistent(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// B's window moving with blockIdx.y through a copy of blockIdx: its CTAs
// could not share B.
__global__ void b_by_row(In A, In B, Out C) {
  const auto b_idx = blockIdx;
  const int m0 = b_idx.y * 128, n0 = b_idx.y * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, 0, acc);
}

// EXPLAIN:      kernel nt: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: cluster(2) kernels of 256, 144, 192, 208 columns -- run instead of the kernel of the same tile where an operand's rows are an odd number of 16 bytes apart (L2-bound: five 32-byte sectors read for four); two CTAs share B's tile through a multicast (tawa/runtime/schedule.cuh, choose_cluster)
// EXPLAIN:      kernel nn: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: cluster(2) kernels of 256, 192 columns -- {{.*}}
// EXPLAIN:      kernel clause: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: none -- cluster(1) at the clause
// EXPLAIN:      kernel one_box: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: cluster(2) kernels of 64 columns -- {{.*}}
// EXPLAIN:      kernel prologue_statement: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: none -- cluster(2), but the code before the loop does more than declare values, and the new walk would not run it once per block
// EXPLAIN:      kernel b_by_row: tile loop at cluster-twin.cu:{{[0-9]+}}:3
// EXPLAIN:        cluster twin: none -- cluster(2) was refused: cluster(2) multicasts tile 'b' to the CTAs of vertically adjacent tiles, but its coordinates depend on blockIdx.y
