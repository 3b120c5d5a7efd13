// cluster(2): barriers initialised for both CTAs' consumers and published
// with a cluster barrier; the walk takes pairs of vertically adjacent tiles;
// each rank multicasts half of B; consumers release slots in both CTAs, and
// those of a tile past the grid (the last cluster of an odd number of tile
// rows) keep that pace but issue no wgmma and store nothing; A's 128-row
// boxes are loaded at their tiles' rows (no box_row); the CTAs meet again
// before leaving; the launcher launches clusters of 2.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

__global__ void gemm_nt(tawa::Matrix<const __nv_bfloat16> A,
                        tawa::Matrix<const __nv_bfloat16> B,
                        tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile cluster(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:   constexpr int kCluster = 2;
// CHECK:     smem.a_b_aref.init(kConsumers * kCluster);
// CHECK-NEXT:   }
// CHECK-NEXT:   // Every CTA of the cluster has its barriers before any multicast.
// CHECK-NEXT:   tawa::rt::cluster_sync();
// CHECK-NEXT:   const int rank = tawa::rt::cluster_ctarank();
// CHECK:       for (int t = blockIdx.x / kCluster; t < schedule.count();
// CHECK-NEXT:            t += gridDim.x / kCluster) {
// CHECK-NEXT:         const uint3 tile = schedule.tile(t, rank);
// CHECK:           tawa::rt::tma_load_2d_multicast(slot.b + rank * 128 * 64,
// CHECK-NEXT:                                           &B_tensor_map,
// CHECK-NEXT:                                           smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                                           n0 + rank * 128, /*cta_mask=*/0b11);
// CHECK-NOT: tawa::rt::box_{{row}}<
// CHECK:           const bool idle =
// CHECK-NEXT:          m0 + consumer * 64 >= C.rows || !schedule.in_grid(t, rank);
// CHECK:             if (!idle) {
// CHECK:           smem.a_b_aref.consumed_in_cluster<kCluster>(a_b_release);
// CHECK:   // The peer multicasts into this CTA and arrives on its barriers until it is
// CHECK-NEXT:   // done.
// CHECK-NEXT:   tawa::rt::cluster_sync();
// CHECK-NEXT: }
// CHECK:     maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 128, 64);
// CHECK:   const tawa::rt::TileSchedule schedule(grid, /*group=*/8, /*along_y=*/true,
// CHECK-NEXT:                                         /*cluster=*/2);
// CHECK:   return tawa::rt::launch_clustered(
// CHECK-NEXT:       gemm_nt, ctas, 384, shared_bytes, stream, schedule.cluster, A, B, C,
// CHECK-NEXT:       A_tensor_map, B_tensor_map, C_store_map, tma_store, schedule);
