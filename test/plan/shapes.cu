// Tile shapes and budgets that Hopper cannot run are warnings at the op or
// clause at fault, with the numbers, before anything is emitted; each such
// kernel is left unchanged (here: all of them, so the output is the input).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
// --werror makes them errors: exit 1, nothing written.
// RUN: rm -f %t.werror.cu
// RUN: not %tawa-rewrite --werror %s -o %t.werror.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: not test -e %t.werror.cu
// WERROR: shapes.cu:{{[0-9]+}}:10: error: tile 'a' has K extent 32; {{.*}} [tawa-shape]
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void k_extent(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    // CHECK: shapes.cu:[[@LINE+1]]:10: warning: tile 'a' has K extent 32; expected 64 bf16 elements (128 bytes: one row of the 128-byte swizzle that TMA writes and wgmma reads) [tawa-shape]
    auto a = tawa::load<128, 32>(A, 0, k0);
    auto b = tawa::load<256, 32>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void wide_n(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 264> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    // CHECK: shapes.cu:[[@LINE+1]]:10: warning: tile 'b' has 264 rows, the N of wgmma; expected a multiple of 8 from 8 to 256 [tawa-shape]
    auto b = tawa::load<264, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void odd_m(In A, In B, Out C) {
  tawa::Accumulator<float, 96, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    // CHECK: shapes.cu:[[@LINE+1]]:10: warning: tile 'a' has 96 rows, the M of the mma; expected a multiple of 64 (the M of wgmma per warpgroup) up to 256 (the TMA box limit) [tawa-shape]
    auto a = tawa::load<96, 64>(A, 0, k0);
    auto b = tawa::load<128, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void split(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shapes.cu:[[@LINE+1]]:19: warning: 3 consumer warpgroups cannot split the 128 rows of 'acc' into 64-row wgmma tiles [tawa-shape]
#pragma tawa tile consumers(3)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<128, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void one_consumer(In A, In B, Out C) {
  // CHECK: shapes.cu:[[@LINE+1]]:38: warning: each consumer warpgroup would hold 128 x 256 accumulators, 256 registers per thread, leaving fewer than 64 of its 240; ptxas would serialize wgmma (C7511) or spill. Use more consumers, a smaller tile, or a larger regs(P, C) [tawa-shape]
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile consumers(1)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void deep(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: shapes.cu:[[@LINE+1]]:19: warning: 5 stages of 49152 bytes and 32768 bytes of epilogue staging need 280576 bytes of shared memory with barriers and alignment; a block may use 232448 (at most 4 stages fit) [tawa-budget]
#pragma tawa tile stages(5)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void greedy(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: shapes.cu:[[@LINE+1]]:19: warning: regs(56, 240) needs 128 x 56 + 256 x 240 = 68608 registers; an SM has 65536 (setmaxnreg.inc would block forever) [tawa-budget]
#pragma tawa tile regs(56, 240)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

// A K x N tile of B is read MN-major in 64-column swizzle atoms.
__global__ void narrow_kn(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 96> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    // CHECK: shapes.cu:[[@LINE+1]]:10: warning: tile 'b' has 96 columns, the N of wgmma; a K x N tile (B read MN-major) needs a multiple of 64 (one 128-byte swizzle atom) up to 256 [tawa-shape]
    auto b = tawa::load<64, 96>(B, k0, 0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, 0, 0, acc);
}
