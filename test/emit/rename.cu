// blockIdx/gridDim are renamed token by token: identifiers that contain them,
// string and raw-string literals, comments and digit separators are left
// alone. A parameter's default argument is not repeated in the rewritten
// kernel's signature, where tensor-map parameters follow it.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: FileCheck %s --match-full-lines < %t.cu
// RUN: %if nvcc %{ %nvcc-sm90a -c %t.cu -o %t.o %}
#include <tawa/tile.h>

__global__ void k(tawa::Matrix<const __nv_bfloat16> A,
                  tawa::Matrix<const __nv_bfloat16> B,
                  tawa::Matrix<__nv_bfloat16> C, int scale = 1) {
  const int myblockIdx = 0; // blockIdx in a comment
  const char *s = "blockIdx", *r = R"(gridDim)";
  const int m0 = blockIdx.y * 1'28, n0 = blockIdx.x * 2'56 + myblockIdx * scale;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols * (s[0] != r[0]); k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:     k(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B,
// CHECK-NEXT:       tawa::Matrix<__nv_bfloat16> C, int scale,
// CHECK:         const int myblockIdx = 0; // blockIdx in a comment
// CHECK-NEXT:         const char *s = "blockIdx", *r = R"(gridDim)";
// CHECK-NEXT:         const int m0 = tile.y * 1'28, n0 = tile.x * 2'56 + myblockIdx * scale;
