// Malformed shape clauses: each is an error at the token at fault, with the
// accepted form, and the tool exits 1.
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void k18(tawa::Matrix<const bf16> A) {
// CHECK: shape-errors.cu:[[@LINE+2]]:25: error: shape rows 96 are out of range; expected a multiple of 64 (the M of wgmma per warpgroup) from 64 to 256 [tawa-pragma]
// CHECK: shape-errors.cu:[[@LINE+1]]:29: error: shape columns 260 are out of range; expected a multiple of 8 (the N of wgmma) from 8 to 256 [tawa-pragma]
#pragma tawa tile shape(96, 260)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k19(tawa::Matrix<const bf16> A) {
// CHECK: shape-errors.cu:[[@LINE+1]]:25: error: expected 'auto' or 'BM, BN' in clause 'shape'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile shape(big)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k20(tawa::Matrix<const bf16> A) {
// CHECK: shape-errors.cu:[[@LINE+1]]:28: error: expected ',' in clause 'shape'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile shape(128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
