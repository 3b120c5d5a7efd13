// [tawa-unsupported] diagnostics of the tile-program extraction not covered
// by test/unsupported/: each kernel is left unchanged with a warning at the
// construct (docs/diagnostics.md).
// RUN: %tawa-rewrite %s --check -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void two_acc(In A, In B, Out C) {
  // CHECK: tile-program.cu:[[@LINE+3]]:38: warning: a tile loop of one 'tawa::mma' (a GEMM) has one accumulator [tawa-unsupported]
  // CHECK: tile-program.cu:[[@LINE+1]]:38: note: first accumulator declared here
  tawa::Accumulator<float, 128, 256> acc;
  tawa::Accumulator<float, 128, 256> acc2;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void no_acc(In A, In B, Out C) {
#pragma tawa tile
  // CHECK: tile-program.cu:[[@LINE+1]]:3: warning: no 'tawa::Accumulator<float, M, N>' is declared before the annotated loop [tawa-unsupported]
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::Accumulator<float, 128, 256> acc;
    tawa::mma(acc, a, tawa::transpose(b));
  }
}

__global__ void staged(In A, In B, Out C) {
  // CHECK: tile-program.cu:[[@LINE+1]]:20: warning: __shared__ variables are not supported in tile kernels [tawa-unsupported]
  __shared__ float buf[32];
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void foreign_operand(In A, In B, Out C, tawa::Tile<const bf16, 128, 64> t) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto b = tawa::load<256, 64>(B, 0, k0);
    // CHECK: tile-program.cu:[[@LINE+1]]:20: warning: the A operand of an mma is a tile loaded with 'tawa::load', 'tawa::transpose(tile)', or 'tawa::convert<T>(acc)' [tawa-unsupported]
    tawa::mma(acc, t, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void other_acc(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    // CHECK: tile-program.cu:[[@LINE+2]]:40: warning: a tile loop of one 'tawa::mma' (a GEMM) has one accumulator [tawa-unsupported]
    // CHECK: tile-program.cu:[[@LINE-6]]:38: note: first accumulator declared here
    tawa::Accumulator<float, 128, 256> tmp;
    tawa::mma(tmp, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void no_block(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64)
    // CHECK: tile-program.cu:[[@LINE+1]]:5: warning: the tile loop body must be a block { ... } [tawa-unsupported]
    tawa::mma(acc, tawa::load<128, 64>(A, 0, k0), tawa::transpose(tawa::load<256, 64>(B, 0, k0)));
  tawa::store(C, 0, 0, acc);
}

__global__ void no_mma(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  // CHECK: tile-program.cu:[[@LINE+1]]:3: warning: the tile loop has no 'tawa::mma' [tawa-unsupported]
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void two_mma(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    // CHECK: tile-program.cu:[[@LINE+1]]:5: warning: the first 'tawa::mma' of attention's tile loop computes the scores, 'tawa::mma(s, q, tawa::transpose(k))', into an accumulator declared in the loop, q loaded before the loop and k in it [tawa-unsupported]
    tawa::mma(acc, a, tawa::transpose(b));
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void tail(In A, In B, Out C, int *flag) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
  // CHECK: tile-program.cu:[[@LINE+1]]:3: warning: statement not supported after the tile loop; expected 'tawa::store(C, row0, col0, value)' calls [tawa-unsupported]
  *flag = 1;
}

__global__ void two_loops(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  // The second loop is also a statement after the first: the first fails.
// CHECK: tile-program.cu:[[@LINE+4]]:3: warning: statement not supported after the tile loop; {{.*}} [tawa-unsupported]
// CHECK: tile-program.cu:[[@LINE+2]]:14: warning: a second '#pragma tawa tile' in kernel 'two_loops'; one tile loop per kernel is supported [tawa-unsupported]
// CHECK: tile-program.cu:[[@LINE-9]]:14: note: the first '#pragma tawa tile' of 'two_loops' is here
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
  tawa::store(C, 0, 0, acc);
}
