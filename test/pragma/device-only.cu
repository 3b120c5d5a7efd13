// A `#pragma tawa` that only the device compilation sees (inside a region
// whose condition reads __CUDA_ARCH__, undefined on the host pass that
// tawa-rewrite parses) is reported at the pragma, never dropped silently; the
// file is left as written. --werror makes it an error (exit status 1).
// Regions skipped for other reasons (#if 0) are the user's to disable.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
// RUN: not %tawa-rewrite %s --werror -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=WERROR
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void guarded_body(tawa::Matrix<const bf16> A,
                             tawa::Matrix<const bf16> B,
                             tawa::Matrix<bf16> C) {
#if __CUDA_ARCH__ >= 800
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  // CHECK: device-only.cu:[[@LINE+2]]:1: warning: '#pragma tawa' in a region the host compilation skips ('#if __CUDA_ARCH__ >= 800' at line 16 reads __CUDA_ARCH__, which only the device compilation defines): tawa-rewrite reads the host compilation, so this loop is not rewritten. In the tile vocabulary, let the host see the region: '#if !defined(__CUDA_ARCH__) || (<condition>)'; a hand-written kernel is lifted only where the device compiles the text the host reads, so move it out of the conditional [tawa-unsupported]
  // WERROR: device-only.cu:[[@LINE+1]]:1: error: '#pragma tawa' in a region the host compilation skips
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
#endif
}

__global__ void ifdef_else(float *x) {
#ifndef __CUDA_ARCH__
  x[0] = 0;
#else
  // CHECK: device-only.cu:[[@LINE+1]]:3: warning: '#pragma tawa' in a region the host compilation skips ('#ifndef __CUDA_ARCH__' at line 32 reads
  #  pragma   tawa tile stages(3)
  for (int i = 0; i < 4; ++i)
    x[i] = 0;
#endif
}

__global__ void disabled(float *x) {
#if 0
#pragma tawa tile
  for (int i = 0; i < 4; ++i)
    x[i] = 0;
#endif
}
