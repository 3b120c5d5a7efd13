// cluster(2) pairs the CTAs of vertically adjacent tiles, which share B and
// run in lockstep: B may not depend on blockIdx.y, nor may the trip count,
// and the prologue may not return.
// A kernel the tool cannot convert is left as it is, with a warning.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void b_follows_y(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128;
  const int n0 = m0 / 2;
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: cluster.cu:[[@LINE+1]]:19: warning: cluster(2) multicasts tile 'b' to the CTAs of vertically adjacent tiles, but its coordinates depend on blockIdx.y [tawa-unsupported]
#pragma tawa tile cluster(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    // CHECK: cluster.cu:[[@LINE+1]]:37: note: this coordinate depends on blockIdx.y
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, 0, acc);
}

__global__ void trip_follows_y(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: cluster.cu:[[@LINE+1]]:19: warning: cluster(2) runs the CTAs of vertically adjacent tiles in lockstep, but the trip count of the tile loop depends on blockIdx.y [tawa-unsupported]
#pragma tawa tile cluster(2)
  // CHECK: cluster.cu:[[@LINE+1]]:20: note: this depends on blockIdx.y
  for (int k0 = 0; k0 < blockIdx.y * 64; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, acc);
}

__global__ void leaves(In A, In B, Out C) {
  if (blockIdx.y * 128 >= C.rows)
    return;
  tawa::Accumulator<float, 128, 256> acc;
// CHECK: cluster.cu:[[@LINE+2]]:19: warning: cluster(2) needs a prologue without 'return': a CTA that leaves would stall its peer [tawa-unsupported]
// CHECK: cluster.cu:[[@LINE-3]]:5: note: the prologue returns here
#pragma tawa tile cluster(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, acc);
}
