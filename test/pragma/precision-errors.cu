// Malformed 'precision' clauses: each is an error at the token at fault, with
// the accepted form, and the tool exits 1.
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tawa/tile.h>

__global__ void k19(tawa::Matrix<const float> A) {
// CHECK: precision-errors.cu:[[@LINE+1]]:29: error: expected 'tf32' or '3xtf32' in clause 'precision'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile precision(fp32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
  }
}

__global__ void k20(tawa::Matrix<const float> A) {
// CHECK: precision-errors.cu:[[@LINE+2]]:35: error: clause 'precision' given twice [tawa-pragma]
// CHECK: precision-errors.cu:[[@LINE+1]]:19: note: first given here
#pragma tawa tile precision(tf32) precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
  }
}
