// Where the file does not include <tawa/tile.h> itself, <tawa/runtime.cuh>
// goes after its last #include at file scope before the first rewritten
// kernel (not after one inside a namespace), once for all kernels. The result
// compiles for sm_90a.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: FileCheck %s --match-full-lines < %t.cu
// RUN: %if nvcc %{ %nvcc-sm90a -I%S -c %t.cu -o %t.o %}
#include "Inputs/includes.h"
namespace helpers {
#include "Inputs/includes-nested.h"
}

namespace kernels {
__global__ void gemm(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}
} // namespace kernels

namespace more {
__global__ void gemm(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, acc);
}
} // namespace more

// CHECK: #include "Inputs/includes.h"
// CHECK-NEXT: #include <tawa/runtime.cuh>
// CHECK-NEXT: namespace helpers {
// CHECK-NEXT: #include "Inputs/includes-nested.h"
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: namespace kernels {
// CHECK-NOT: #include <tawa/runtime.cuh>
// CHECK: inline cudaError_t gemm_launch(dim3 grid, dim3 block, size_t shared,
// CHECK-NOT: #include <tawa/runtime.cuh>
// CHECK: } // namespace more
