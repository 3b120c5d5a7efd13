// narrow(N) runs CTA tiles of N columns, fewer than the tile's: where N
// divides them, as parts of each tile; where not, side by side across the
// launch's columns, which needs B's window and the store's column to move
// with blockIdx.x by the tile's columns. Either way the code before the loop
// must only declare values (a narrow kernel runs it once per CTA tile). A
// kernel whose clause cannot be met is left as it is, with a warning at the
// clause; without the clause, the kernel is rewritten without the narrow
// kernels it cannot have, and --explain says why.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %tawa-rewrite %s --explain -o /dev/null -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

// Blocks in pairs swapped: parts of a tile are fine, a walk across is not.
__global__ void swapped(In A, In B, Out C) {
  // CHECK: narrow.cu:[[@LINE+4]]:19: warning: narrow(96) runs CTA tiles of 96 columns across the launch's columns, but the origin of tile 'b' is not blockIdx.x * 256 plus a term without blockIdx.x [tawa-unsupported]
  // CHECK: narrow.cu:[[@LINE+6]]:37: note: this origin
  const int m0 = blockIdx.y * 128, n0 = (blockIdx.x ^ 1) * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(64, 96)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'swapped' is left unchanged

__global__ void swapped_quietly(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = (blockIdx.x ^ 1) * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// EXPLAIN-LABEL: kernel swapped_quietly:
// EXPLAIN:         narrow: 128 x 64 (4 parts of each tile), 128 x 128 (2 parts of each tile) -- default: further kernels; the launch runs the narrowest whose tiles fill at most one wave of the SMs, else, where the wide tiles fill at most half a wave, the widest; a launch of more than a wave, one of at least half the width whose waves are 15% shorter (tawa/runtime/schedule.cuh); those of 64 and 128 columns also as ping-pong kernels, which run where the stored matrix has more rows than half a tile, and as kernels of 64 x 64 (6 stages of 2 K steps), 64 x 128 (4 stages of 2 K steps) tiles with one consumer warpgroup, which run where every row stored lies in the first 64 rows of a tile, or, over every 64-row part of the tiles, where the last row of tiles stores few rows, where the narrowest twin's tiles over them fill at most a wave, or, in a launch of at most two rows of tiles, where the K loop is long (tawa::rt::choose_row_parts): their smaller tiles keep more of the stored rows' operands in flight, and a slot of several K steps reads each operand row in longer runs; the first also as cluster(2) kernels, whose two CTAs take the two row parts of a tile and share B's tile through a multicast, where its tiles over the row parts fill more than half a wave and at most one, in a launch of one row of tiles or whose last part stores more than half its rows (tawa::rt::choose_row_cluster); the first ping-pong kernel also as cluster(2) kernels, whose two CTAs take adjacent column tiles and share A's tile through a multicast, where its columns of tiles are even, its tiles fill more than half a wave and at most one, and an operand's rows are an odd number of 16 bytes apart or A holds at least 32 MiB (tawa::rt::choose_x_cluster); narrow(144) was refused: narrow(144) runs CTA tiles of 144 columns across the launch's columns, but the origin of tile 'b' is not blockIdx.x * 256 plus a term without blockIdx.x [tawa-unsupported]; narrow(192, 208) was refused too

__global__ void whole(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: narrow.cu:[[@LINE+1]]:19: warning: narrow(256): 256 columns are not fewer than the 256 columns of the tile [tawa-shape]
#pragma tawa tile narrow(256)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'whole' is left unchanged

// Each width of a list is checked: one that is not narrower than the tile
// leaves the kernel as it is.
__global__ void one_uneven(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: narrow.cu:[[@LINE+1]]:19: warning: narrow(128): 128 columns are not fewer than the 128 columns of the tile [tawa-shape]
#pragma tawa tile narrow(64, 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'one_uneven' is left unchanged

__device__ void count_block(int *blocks);

__global__ void counts_blocks(In A, In B, Out C, int *blocks) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  // CHECK: narrow.cu:[[@LINE+4]]:19: warning: narrow(64) cuts the 128 x 256 tiles into parts, but the code before the loop does more than declare values, and the new walk would not run it once per block [tawa-unsupported]
  // CHECK: narrow.cu:[[@LINE+1]]:3: note: this statement
  count_block(blocks);
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(64)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'counts_blocks' is left unchanged

// Without the clause: rewritten, with no narrow kernel.
__global__ void counts_quietly(In A, In B, Out C, int *blocks) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  count_block(blocks);
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// EXPLAIN-LABEL: kernel counts_quietly:
// EXPLAIN:         result: rewritten into a warp-specialized kernel
// EXPLAIN:         narrow: none -- narrow(64) was refused: narrow(64) cuts the 128 x 256 tiles into parts, but the code before the loop does more than declare values, and the new walk would not run it once per block [tawa-unsupported]; narrow(128, 144, 192, 208) was refused too
