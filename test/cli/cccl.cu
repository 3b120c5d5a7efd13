// CUDA 13 keeps the CCCL headers (<cuda/std/...>, <cuda/pipeline>, CUB,
// Thrust) in include/cccl, which nvcc adds itself: so does the tool (not
// under -nocudainc).
// REQUIRES: cccl
// RUN: %tawa-rewrite --print-command %s -- | FileCheck %s --check-prefix=CMD
// CMD: -isystem {{[^ ]*}}/include/cccl
// RUN: %tawa-rewrite --print-command %s -- %cuda-stub | FileCheck %s --check-prefix=STUB
// STUB-NOT: include/cccl
// RUN: %tawa-rewrite %s -o %t.cu --
// RUN: FileCheck %s --check-prefix=OUT < %t.cu
// OUT: #include <cuda/pipeline>
// OUT: __global__ void __launch_bounds__(384, 1)
#include <cuda/pipeline>
#include <cuda/std/array>
#include <tawa/tile.h>

__global__ void k(tawa::Matrix<const __nv_bfloat16> A,
                  tawa::Matrix<const __nv_bfloat16> B,
                  tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

cuda::std::array<int, 2> sizes() { return {1, 2}; }
