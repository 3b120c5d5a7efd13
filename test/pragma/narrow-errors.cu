// Malformed narrow clauses: each is an error at the token at fault, with the
// accepted form, and the tool exits 1.
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void k1(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:26: error: narrow columns 60 are out of range; expected a multiple of 8 (the N of wgmma) from 8 to 256 [tawa-pragma]
#pragma tawa tile narrow(60)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k2(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:26: error: expected 'auto', 'off' or column counts in clause 'narrow'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile narrow(on)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k3(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:30: error: narrow columns 64 are given twice [tawa-pragma]
#pragma tawa tile narrow(64, 64)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k5(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:29: error: expected ')' in clause 'narrow'; expected '#pragma tawa tile {{.*}}' [tawa-pragma]
#pragma tawa tile narrow(64 128)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k6(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:30: error: expected an integer constant in clause 'narrow'; expected '#pragma tawa tile {{.*}}' [tawa-pragma]
#pragma tawa tile narrow(64, off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k4(tawa::Matrix<const bf16> A) {
// CHECK: narrow-errors.cu:[[@LINE+1]]:31: error: clause 'narrow' given twice [tawa-pragma]
#pragma tawa tile narrow(off) narrow(64)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
