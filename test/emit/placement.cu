// Kernels in a namespace, static kernels and kernels with their own
// __launch_bounds__: the replacement stays in place, keeps `static`, sets
// its own launch bounds, and launch sites call the launcher with the
// qualification they wrote. The result compiles for sm_90a.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: FileCheck %s --match-full-lines < %t.cu
// RUN: %if nvcc %{ %nvcc-sm90a -c %t.cu -o %t.o %}
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

namespace kernels {
__global__ void __launch_bounds__(128) gemm(In A, In B, Out C) {
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

static __global__ void local_gemm(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}

void run(In A, In B, Out C, cudaStream_t s) {
  dim3 grid(C.cols / 128, C.rows / 128);
  kernels::gemm<<<grid, 128, 0, s>>>(A, B, C);
  local_gemm<<<grid, dim3(64, 2)>>>(A, B, C);
}

// CHECK: namespace kernels {
// CHECK: __global__ void __launch_bounds__(128) gemm_reference(In A, In B, Out C) {
// CHECK: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT:     gemm(In A, In B, Out C, const __grid_constant__ CUtensorMap A_tensor_map,
// CHECK: inline cudaError_t gemm_launch(dim3 grid, dim3 block, size_t shared,
// CHECK: } // namespace kernels
// CHECK: static __global__ void local_gemm_reference(In A, In B, Out C) {
// CHECK: static __global__ void __launch_bounds__(384, 1)
// CHECK:   kernels::gemm_launch(grid, 128, 0, s, A, B, C);
// CHECK-NEXT:   local_gemm_launch(grid, dim3(64, 2), 0, 0, A, B, C);
