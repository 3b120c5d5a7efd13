// The rewrite renames blockIdx/gridDim in the code it copies; where they are
// read through a macro or inside a called function it cannot, and the kernel
// is left unchanged with a warning (else every tile would compute tile 0).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <tawa/tile.h>
#define ROW0 (blockIdx.y * 128)
__device__ int col0() { return blockIdx.x * 256; }
__device__ int col0_outer() { return col0(); }
__global__ void k1(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C) {
  // CHECK: hidden-builtins.cu:[[@LINE+1]]:18: warning: 'blockIdx' is used inside a macro, where the rewritten kernel cannot replace it with the coordinates of its tile walk; write it out [tawa-unsupported]
  const int m0 = ROW0, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
__global__ void k2(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B, tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    // CHECK: hidden-builtins.cu:[[@LINE+1]]:37: warning: 'col0_outer' reads 'blockIdx', which the rewritten kernel takes from its tile walk, not from the hardware; compute it in the kernel and pass it in [tawa-unsupported]
    auto b = tawa::load<256, 64>(B, col0_outer(), k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, col0(), acc);
}
