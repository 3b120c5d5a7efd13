// schedule(pingpong) needs two consumers, the persistent walk and no
// cluster; a kernel that asks for more is left as it is, with a warning.
// --explain gives the schedule of each loop.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %tawa-rewrite --explain --check %s -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void three(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: schedule.cu:[[@LINE+1]]:38: warning: schedule(pingpong) alternates two consumer warpgroups; got consumers(3) [tawa-shape]
#pragma tawa tile schedule(pingpong) consumers(3)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

__global__ void not_persistent(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: schedule.cu:[[@LINE+1]]:19: warning: schedule(pingpong) alternates the tiles of the persistent walk, which is off here [tawa-unsupported]
#pragma tawa tile schedule(pingpong) persistent(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

__global__ void clustered(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: schedule.cu:[[@LINE+1]]:38: warning: cluster(2) is not supported with schedule(pingpong) [tawa-unsupported]
#pragma tawa tile schedule(pingpong) cluster(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

// 128 x 256 in one warpgroup: 256 accumulator registers.
__global__ void too_wide(In A, In B, Out C) {
  // CHECK: schedule.cu:[[@LINE+1]]:38: warning: each consumer warpgroup would hold 128 x 256 accumulators, 256 registers per thread, leaving fewer than 64 of its 240; ptxas would serialize wgmma (C7511) or spill. Use more consumers, a smaller tile, or a larger regs(P, C) [tawa-shape]
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile schedule(pingpong)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, acc);
}

__global__ void pingpong(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile schedule(pingpong)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

// EXPLAIN: kernel pingpong: tile loop at schedule.cu:63:3
// EXPLAIN-NEXT:   result: rewritten into a warp-specialized kernel
// EXPLAIN:   roles: producer warpgroup 0 (TMA loads), consumer warpgroups 1-2 (wgmma, whole tiles in turn), 384 threads -- two consumer warpgroups for schedule(pingpong)
// EXPLAIN:   schedule: pingpong -- schedule clause: the consumers take alternate tiles, each the whole tile, their main loops in turn
// EXPLAIN:   tail: whole -- schedule(pingpong) gives each consumer whole tiles

// tail(split) needs the cooperative persistent walk and the same K loop in
// every tile.
__global__ void split_pingpong(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: schedule.cu:[[@LINE+1]]:38: warning: tail(split) is not supported here: schedule(pingpong) gives each consumer whole tiles [tawa-unsupported]
#pragma tawa tile schedule(pingpong) tail(split)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

__global__ void split_ragged_k(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: schedule.cu:[[@LINE+1]]:19: warning: tail(split) is not supported here: the trip count of the tile loop depends on the block coordinates [tawa-unsupported]
#pragma tawa tile tail(split)
  for (int k0 = 0; k0 < (blockIdx.y + 1) * 128; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

// The same loop without the clause is rewritten, its tail kept whole.
__global__ void ragged_k(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < (blockIdx.y + 1) * 128; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}
// EXPLAIN: kernel ragged_k: tile loop at schedule.cu:[[@LINE-7]]:3
// EXPLAIN-NEXT:   result: rewritten into a warp-specialized kernel
// EXPLAIN:   tail: whole -- the trip count of the tile loop depends on the block coordinates
