// shape(BM, BN) merges the kernel's tiles into a larger CTA tile only where
// that computes the same products: a multiple of the kernel's tile, each
// window moving with the merged grid dimension at blockIdx * extent (the
// store's plus a constant), nothing else reading that coordinate or gridDim,
// no return before the loop, and nothing before the loop but declarations
// without side effects. A kernel the tool cannot convert is left as
// it is, with a warning at the clause and a note at the construct.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void not_a_multiple(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shape.cu:[[@LINE+1]]:19: warning: shape(128, 192) is not a multiple of the kernel's tile: 128 rows of 'a' by 128 rows of 'b' [tawa-shape]
#pragma tawa tile shape(128, 192)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'not_a_multiple' is left unchanged

__global__ void strided(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shape.cu:[[@LINE+1]]:19: warning: shape(128, 256) merges the kernel's 128 x 128 tiles, but the origin of tile 'b' is not blockIdx.x * 128 plus a term without blockIdx.x [tawa-unsupported]
#pragma tawa tile shape(128, 256)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    // CHECK: shape.cu:[[@LINE+1]]:37: note: this origin
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'strided' is left unchanged

__global__ void store_offset(In A, In B, Out C, int first) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shape.cu:[[@LINE+1]]:19: warning: shape(128, 256) merges the kernel's 128 x 128 tiles, but the origin of the store is not blockIdx.x * 128 plus a constant [tawa-unsupported]
#pragma tawa tile shape(128, 256)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  // CHECK: shape.cu:[[@LINE+1]]:22: note: this origin
  tawa::store(C, m0, first + n0, acc);
}
// CHECK: note: kernel 'store_offset' is left unchanged

__global__ void k_follows_x(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shape.cu:[[@LINE+1]]:19: warning: shape(128, 256) merges the kernel's 128 x 128 tiles, but this part of the tile loop reads blockIdx.x [tawa-unsupported]
#pragma tawa tile shape(128, 256)
  // CHECK: shape.cu:[[@LINE+1]]:25: note: blockIdx.x is read here
  for (int k0 = 0; k0 < blockIdx.x * 64; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'k_follows_x' is left unchanged

__global__ void reads_grid(In A, In B, Out C) {
  // CHECK: shape.cu:[[@LINE+4]]:19: warning: shape(256, 128) merges the kernel's 128 x 128 tiles, but the kernel reads gridDim, which the new walk changes [tawa-unsupported]
  // CHECK: shape.cu:[[@LINE+1]]:19: note: gridDim is read here
  const int m0 = (gridDim.y - 1 - blockIdx.y) * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile shape(256, 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'reads_grid' is left unchanged

__global__ void leaves(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  if (m0 >= C.rows)
    return;
  tawa::Accumulator<float, 128, 128> acc;
// CHECK: shape.cu:[[@LINE+1]]:19: warning: shape(256, 128) merges the kernel's 128 x 128 tiles, but the code before the loop may return, for one block of the original launch [tawa-unsupported]
#pragma tawa tile shape(256, 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'leaves' is left unchanged


__device__ void count_block(int *blocks);

__global__ void counts_blocks(In A, In B, Out C, int *blocks) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  // CHECK: shape.cu:[[@LINE+4]]:19: warning: shape(256, 128) merges the kernel's 128 x 128 tiles, but the code before the loop does more than declare values, and the new walk would not run it once per block [tawa-unsupported]
  // CHECK: shape.cu:[[@LINE+1]]:3: note: this statement
  count_block(blocks);
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile shape(256, 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'counts_blocks' is left unchanged
