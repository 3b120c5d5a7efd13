// schedule(pingpong): two consumer warpgroups take alternate tiles of the
// walk, each the whole accumulator; each slot is released by one consumer;
// the main loops pass a turn so that each consumer waits on the ring's
// barriers at most one phase behind; the rows are the tile's, unsplit.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void pingpong(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile schedule(pingpong)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:   tawa::rt::EpilogueStaging<__nv_bfloat16, 128, 2> epilogue[2];
// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK:     smem.a_b_aref.init(/*consumer_arrivals=*/1); // one consumer reads each slot
// CHECK:     tawa::rt::WgmmaAccumulator<2, 128> acc;
// CHECK:     int turn = 0;
// CHECK-NEXT:     for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x, ++turn) {
// CHECK-NEXT:       const uint3 tile = schedule.tile(t);
// CHECK-NEXT:       const int m0 = tile.y * 128, n0 = tile.x * 128;
// CHECK-NEXT:       if (turn % kConsumers != consumer) {
// CHECK-NEXT:         // The other consumer's tile: step over its slots.
// CHECK-NEXT:         for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT:           a_b.advance();
// CHECK-NEXT:           a_b_release.advance();
// CHECK-NEXT:         }
// CHECK-NEXT:         continue;
// CHECK-NEXT:       }
// CHECK-NEXT:       // Wait until the other consumer has taken its last slot.
// CHECK-NEXT:       if (turn > 0) {
// CHECK-NEXT:         tawa::rt::wait_turn(consumer);
// CHECK-NEXT:       }
// CHECK:             tawa::rt::wgmma_nt<64>(acc, slot.a, slot.b, /*accumulate=*/k_steps > 0);
// CHECK:       // All slots of this tile taken: the other consumer's turn.
// CHECK-NEXT:       if (t + gridDim.x < schedule.count()) {
// CHECK-NEXT:         tawa::rt::pass_turn(consumer);
// CHECK-NEXT:       }
// CHECK-NEXT:       tawa::rt::wgmma_wait<0>();
// CHECK:         tawa::rt::store_accumulator_tma<false>(
// CHECK-NEXT:             &C_store_map, smem.epilogue[consumer], m0, n0, 0, acc,
// CHECK:       tawa::rt::make_tensor_map(&C_store_map, C, 128, 64) == cudaSuccess;
