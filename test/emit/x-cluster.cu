// The cluster twin along x: the 64-column ping-pong kernel again in clusters
// of two CTAs that take adjacent column tiles of the same rows and share A's
// tile through a multicast (NarrowTiles::PingPongClusters). A K-major A goes
// to the CTAs in halves of its 128 rows, an M-major one as its two 64-column
// boxes, one each. The consumers' slots are released in both CTAs, a tile
// past the grid stores nothing, and the launcher runs the twin where
// tawa::rt::choose_x_cluster says.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: grep -v '^// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite --explain %s --check -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

// C[M,N] = A[M,K] * B[N,K]^T
__global__ void nt(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                   tawa::Matrix<bf16> C) {
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

// C[M,N] = A[K,M]^T * B[N,K]^T
__global__ void tt(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                   tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.rows; k0 += 64) {
    auto a = tawa::load<64, 128>(A, k0, m0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, tawa::transpose(a), tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// Only the 64-column ping-pong kernel has the twin.
// CHECK-NOT:   nt_narrow128_pingpong_cluster(
// CHECK:       __global__ void __launch_bounds__(384, 1) nt_narrow64_pingpong_cluster(
// CHECK:         constexpr int kCluster = 2;
// CHECK:         smem.a_b_aref.init(/*consumer_arrivals=*/kCluster);
// CHECK:         tawa::rt::cluster_sync();
// CHECK-NEXT:    const int rank = tawa::rt::cluster_ctarank();
// CHECK:         for (int t = blockIdx.x / kCluster; t < schedule.count();
// CHECK-NEXT:         t += gridDim.x / kCluster) {
// CHECK-NEXT:      const uint3 tile = schedule.tile(t, rank);
// CHECK-NEXT:      const int part = schedule.part(t, rank);
// Whole boxes: the edge boxes' byte count is not armed.
// CHECK:           smem.a_b_aref.put(a_b, sizeof(slot.a) + sizeof(slot.b));
// CHECK-NEXT:      // a is shared across the cluster: rank r loads rows [64 r, 64 r + 64)
// CHECK:           tawa::rt::tma_load_2d_multicast(slot.a + rank * 64 * 64,
// CHECK-NEXT:          &A_tensor_map,
// CHECK-NEXT:          smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:          m0 + rank * 64, /*cta_mask=*/0b11);
// CHECK-NEXT:      tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
// CHECK:         t += gridDim.x / kCluster, ++turn) {
// CHECK:           smem.a_b_aref.consumed_in_cluster<kCluster>(a_b_release);
// CHECK:         if (t + gridDim.x / kCluster < schedule.count()) {
// CHECK-NEXT:      tawa::rt::pass_turn(consumer);
// CHECK:         if (!schedule.in_grid(t, rank)) {
// CHECK-NEXT:      continue;
// CHECK:         tawa::rt::cluster_sync();
// CHECK-NEXT:  }
// CHECK:       inline cudaError_t nt_narrow64_pingpong_cluster_launch(
// CHECK:         maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 64, 64);
// CHECK:         /*row_parts=*/1, /*y_units=*/0, /*cluster_x=*/true);
// CHECK:         return tawa::rt::launch_clustered(nt_narrow64_pingpong_cluster, ctas,
// CHECK:       inline cudaError_t nt_launch(
// CHECK:         const bool x_cluster = tawa::rt::choose_x_cluster(
// CHECK:             tawa::rt::odd_pitch(A) || tawa::rt::odd_pitch(B),
// CHECK-NEXT:        tawa::rt::matrix_bytes(A));
// CHECK:         (x_cluster ? nt_narrow64_pingpong_cluster_launch
// CHECK-NEXT:                : nt_narrow64_pingpong_launch)

// CHECK:       __global__ void __launch_bounds__(384, 1) tt_narrow64_pingpong_cluster(
// CHECK:           tawa::rt::tma_load_boxes_multicast<2, 2, 64, false>(
// CHECK-NEXT:          slot.a, &A_tensor_map, smem.a_b_aref.full_barrier(a_b), m0, k0, 0,
// CHECK-NEXT:          rank, /*cta_mask=*/0b11);

// EXPLAIN: the first ping-pong kernel also as cluster(2) kernels, whose two CTAs take adjacent column tiles and share A's tile through a multicast, where its columns of tiles are even, its tiles fill more than half a wave and at most one, and an operand's rows are an odd number of 16 bytes apart or A holds at least 32 MiB (tawa::rt::choose_x_cluster)
