// The few-rows twins hold two K steps in each aref slot where the tile loop
// is `for (T v = init; v < bound; v += step)` (or `<=`) over parameters and
// constants: both roles step the loop by whole slots, counting slots for the
// split tail, and take a slot's steps in an unrolled inner loop that declares
// the loop's variable at each step and leaves at the loop's bound. The
// producer takes the slot once (acquire), adds each step's bytes before its
// copies (expect) and arrives after the last (commit); the consumer waits once
// per slot and releases it once. Other loop forms, and the kernels that are
// not few-rows twins, keep one step per slot.
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s --check-prefix=INCL
// RUN: %tawa-rewrite %s -- %cuda-stub | grep -v CHECK | FileCheck %s --check-prefix=ONE
// RUN: %tawa-rewrite %s --explain -o /dev/null -- %cuda-stub | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void stepped(In A, In B, Out C) {
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

__global__ void inclusive(In A, In B, Out C, int last) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (long k0 = 64; k0 <= last; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void assigned(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 = k0 + 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

void run(In A, In B, Out C, int last) {
  dim3 grid(tawa::ceil_div(C.cols, 256), tawa::ceil_div(C.rows, 128));
  stepped<<<grid, 128>>>(A, B, C);
  inclusive<<<grid, 128>>>(A, B, C, last);
  assigned<<<grid, 128>>>(A, B, C);
}

// The wide kernel and the ping-pong twins keep one step per slot.
// CHECK:       __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:      stepped(In A, In B, Out C,
// CHECK-NOT:   tawa_step
// CHECK:         smem.a_b_aref.put(a_b,
// CHECK:       /// Shared memory of stepped_narrow64_rows64: aref `a_b`, 6 stages of 2 K steps
// CHECK-NEXT:  /// of {a: 64 x 64, b: 64 x 64} (32768 bytes each).
// CHECK:           alignas(1024) __nv_bfloat16 a[2 * 64 * 64];
// CHECK-NEXT:      alignas(1024) __nv_bfloat16 b[2 * 64 * 64];
// CHECK:         a_b_slot a_b[6];
// CHECK:       __global__ void __launch_bounds__(256, 1)
// CHECK-NEXT:      stepped_narrow64_rows64(
// Producer: slots counted for the split tail, then filled step by step.
// CHECK:             for (int tawa_k = 0; tawa_k < A.cols; tawa_k += 2 * (64)) {
// CHECK-NEXT:          ++trips;
// CHECK:             const tawa::rt::SplitTailWalk<128> walk(split_tail, schedule.count());
// CHECK:             for (int tawa_k = 0; tawa_k < A.cols; tawa_k += 2 * (64)) {
// CHECK:               smem.a_b_aref.acquire(a_b);
// CHECK-NEXT:  #pragma unroll
// CHECK-NEXT:          for (int tawa_step = 0; tawa_step < 2; ++tawa_step) {
// CHECK-NEXT:            const int k0 = tawa_k + tawa_step * (64);
// CHECK-NEXT:            if (!(k0 < A.cols)) {
// CHECK-NEXT:              break;
// CHECK-NEXT:            }
// CHECK-NEXT:            smem.a_b_aref.expect(a_b, sizeof(slot.a) / 2 + sizeof(slot.b) / 2);
// CHECK-NEXT:            tawa::rt::tma_load_2d(
// CHECK-NEXT:                slot.a + tawa_step * 64 * 64, &A_tensor_map,
// CHECK-NEXT:                smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                tawa::rt::box_row<64>(m0 + row_part * 64, A.rows, C.rows));
// CHECK-NEXT:            tawa::rt::tma_load_2d(slot.b + tawa_step * 64 * 64, &B_tensor_map,
// CHECK-NEXT:                                  smem.a_b_aref.full_barrier(a_b), k0,
// CHECK-NEXT:                                  n0 + part * 64);
// CHECK-NEXT:          }
// CHECK-NEXT:          smem.a_b_aref.commit(a_b);
// CHECK-NEXT:          a_b.advance();
// Consumer: one wait and one release per slot; the wgmma groups of a slot's
// steps are one in flight.
// CHECK:             for (int tawa_k = 0; tawa_k < A.cols; tawa_k += 2 * (64)) {
// CHECK:               smem.a_b_aref.get(a_b);
// CHECK-NEXT:          const bool tawa_first_slot = k_steps == 0;
// CHECK-NEXT:  #pragma unroll
// CHECK-NEXT:          for (int tawa_step = 0; tawa_step < 2; ++tawa_step) {
// CHECK-NEXT:            const int k0 = tawa_k + tawa_step * (64);
// CHECK-NEXT:            if (!(k0 < A.cols)) {
// CHECK-NEXT:              break;
// CHECK-NEXT:            }
// CHECK-NEXT:            tawa::rt::wgmma_nt<64>(
// CHECK-NEXT:                acc, slot.a + tawa_step * 64 * 64 + consumer * 64 * 64,
// CHECK-NEXT:                slot.b + tawa_step * 64 * 64, /*accumulate=*/k_steps > 0);
// CHECK-NEXT:            ++k_steps;
// CHECK-NEXT:          }
// CHECK-NEXT:          tawa::rt::wgmma_wait<1>();
// CHECK-NEXT:          if (!tawa_first_slot) {
// CHECK-NEXT:            smem.a_b_aref.consumed(a_b_release);
// CHECK-NEXT:            a_b_release.advance();
// CHECK-NEXT:          }
// CHECK-NEXT:          a_b.advance();
// CHECK:       /// Shared memory of stepped_narrow128_rows64: aref `a_b`, 4 stages of 2 K steps
// CHECK:           tawa::rt::tma_load_2d(slot.b + tawa_step * 128 * 64, &B_tensor_map,

// `<=` and a `long` variable: the bound test leaves the slot's steps.
// INCL:        inclusive_narrow64_rows64(
// INCL:              for (long tawa_k = 64; tawa_k <= last; tawa_k += 2 * (64)) {
// INCL:                  const long k0 = tawa_k + tawa_step * (64);
// INCL-NEXT:             if (!(k0 <= last)) {

// `k0 = k0 + 64`: one step per slot, the loop as written.
// ONE:         /// Shared memory of assigned_narrow64_rows64: aref `a_b`, 12 stages of {a: 64 x
// ONE:         assigned_narrow64_rows64(
// ONE-NOT:     tawa_step
// ONE:               for (int k0 = 0; k0 < A.cols; k0 = k0 + 64) {
// ONE:                 smem.a_b_aref.put(a_b,
// ONE:         assigned_narrow64_rows64_launch(

// EXPLAIN:     kernel stepped:
// EXPLAIN:     64 x 64 (6 stages of 2 K steps), 64 x 128 (4 stages of 2 K steps) tiles with one consumer warpgroup
// EXPLAIN:     a slot of several K steps reads each operand row in longer runs
// EXPLAIN:     kernel assigned:
// EXPLAIN:     64 x 64 (12 stages), 64 x 128 (8 stages) tiles with one consumer warpgroup, which run where every row stored lies in the first 64 rows of a tile, or, over every 64-row part of the tiles, where the last row of tiles stores few rows, where the narrowest twin's tiles over them fill at most a wave, or, in a launch of at most two rows of tiles, where the K loop is long (tawa::rt::choose_row_parts): their smaller slots keep more of the stored rows' operands in flight; the first also as cluster(2) kernels, whose two CTAs take the two row parts of a tile and share B's tile through a multicast, where its tiles over the row parts fill more than half a wave and at most one, in a launch of one row of tiles or whose last part stores more than half its rows (tawa::rt::choose_row_cluster); the first ping-pong kernel also as cluster(2) kernels, whose two CTAs take adjacent column tiles and share A's tile through a multicast, where its columns of tiles are even, its tiles fill more than half a wave and at most one, and an operand's rows are an odd number of 16 bytes apart or A holds at least 32 MiB (tawa::rt::choose_x_cluster){{$}}
