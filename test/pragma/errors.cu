// Malformed '#pragma tawa tile' lines: each is an error at the token at fault,
// with the accepted form, and the tool exits 1. (A clause of a later version
// is a warning: its kernel is left unchanged.)
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void k1(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:19: error: unknown clause 'depth' in '#pragma tawa tile'; accepted: stages(N), consumers(N), regs(P, C), persistent[(on|off)], raster(m|n[, G]), cluster(N), schedule(cooperative|pingpong), tail(split|whole), shape(auto|BM, BN), narrow(auto|off|N[, N]...), overlap(on|off), precision(tf32|3xtf32) [tawa-pragma]
#pragma tawa tile depth(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k2(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:26: error: stages value 1 is out of range; expected stages(N) with 2 <= N <= 16 [tawa-pragma]
#pragma tawa tile stages(1)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k3(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:29: error: consumers value 4 is out of range; expected consumers(N) with 1 <= N <= 3 [tawa-pragma]
#pragma tawa tile consumers(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k4(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+2]]:24: error: register count 20 is not a valid setmaxnreg value; expected a multiple of 8 in [24, 256] (PTX ISA, setmaxnreg) [tawa-pragma]
// CHECK: errors.cu:[[@LINE+1]]:28: error: register count 233 is not a valid setmaxnreg value; expected a multiple of 8 in [24, 256] (PTX ISA, setmaxnreg) [tawa-pragma]
#pragma tawa tile regs(20, 233)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k5(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:24: error: regs(P, C): the producer's 240 registers exceed the consumers' 40; registers move from the producer to the consumers [tawa-pragma]
#pragma tawa tile regs(240, 40)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k6(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:26: error: expected an integer constant in clause 'stages'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile stages(x)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k7(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:26: error: expected '(' in clause 'stages'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile stages 4
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k8(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+2]]:29: error: clause 'stages' given twice [tawa-pragma]
// CHECK: errors.cu:[[@LINE+1]]:19: note: first given here
#pragma tawa tile stages(3) stages(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k9(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:14: error: unknown '#pragma tawa' directive; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa loop stages(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k10(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:27: error: cluster value 4 is out of range; expected cluster(N) with 1 <= N <= 2 [tawa-pragma]
#pragma tawa tile cluster(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k11(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:19: error: expected a clause name; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile 4
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k12(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:30: error: expected 'on' or 'off' in clause 'persistent'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile persistent(maybe)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k13(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:26: error: expected 'm' or 'n' in clause 'raster'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile raster(k)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k14(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:29: error: raster group 0 is out of range; expected raster(m|n, G) with 1 <= G <= 64 [tawa-pragma]
#pragma tawa tile raster(n, 0)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k15(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:28: error: expected 'cooperative' or 'pingpong' in clause 'schedule'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile schedule(ping_pong)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k16(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:19: warning: clause 'tensor' is not supported by this version of tawa-rewrite [tawa-unsupported]
#pragma tawa tile tensor(a)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k17(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:24: error: expected 'split' or 'whole' in clause 'tail'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile tail(some)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}


__global__ void k18(tawa::Matrix<const bf16> A) {
// CHECK: errors.cu:[[@LINE+1]]:27: error: expected 'on' or 'off' in clause 'overlap'; expected '#pragma tawa tile [stages(N)] [consumers(N)] [regs(P, C)] [persistent[(on|off)]] [raster(m|n[, G])] [cluster(N)] [schedule(cooperative|pingpong)] [tail(split|whole)] [shape(auto|BM, BN)] [narrow(auto|off|N[, N]...)] [overlap(on|off)] [precision(tf32|3xtf32)]' [tawa-pragma]
#pragma tawa tile overlap(yes)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
