// Launch sites become calls of the launcher: through parentheses and
// qualifiers, cast to void where the launch's value is used (the launcher
// returns an error code, a launch has no value), with the defaults of the
// arguments left out to the launcher, which declares them as the kernel
// does (in the kernel's namespace), and by the kernel's namespace where a
// using-declaration named it. A runtime call that configures the kernel
// (cudaFuncSetAttribute) does not keep it from being rewritten. The result
// compiles for sm_90a.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: FileCheck %s --match-full-lines < %t.cu
// RUN: %if nvcc %{ %nvcc-sm90a -c %t.cu -o %t.o %}
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

namespace kernels {
constexpr int kFirstRow = 0;
__global__ void gemm(In A, In B, Out C, int row0 = kFirstRow) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, row0 + blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, row0 + blockIdx.y * 128, blockIdx.x * 128, acc);
}

void statements(In A, In B, Out C, dim3 grid, bool again) {
  (gemm)<<<grid, 128>>>(A, B, C, 64);
  if (again)
    gemm<<<grid, 128>>>(A, B, C);
  else
    ::kernels::gemm<<<grid, 128>>>(A, B, C);
  while (again)
    (kernels::gemm)<<<grid, 128>>>(A, B, C, 0);
  (void)gemm<<<grid, 128>>>(A, B, C);
}
} // namespace kernels

void values(In A, In B, Out C, dim3 grid, bool again) {
  again ? kernels::gemm<<<grid, 128>>>(A, B, C) : (void)0;
  kernels::gemm<<<grid, 128>>>(A, B, C), kernels::gemm<<<grid, 128>>>(A, B, C);
  return kernels::gemm<<<grid, 128>>>(A, B, C);
}

namespace other {
using kernels::gemm;
void via_using(In A, In B, Out C, dim3 grid) { gemm<<<grid, 128>>>(A, B, C); }
} // namespace other

void configured(In A, In B, Out C, dim3 grid) {
  cudaFuncSetAttribute(kernels::gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  kernels::gemm<<<grid, 128>>>(A, B, C);
}

// CHECK: inline cudaError_t gemm_launch(dim3 grid, dim3 block, size_t shared,
// CHECK-NEXT:                               cudaStream_t stream, In A, In B, Out C,
// CHECK-NEXT:                               int row0 = kFirstRow) {
// CHECK: void statements(In A, In B, Out C, dim3 grid, bool again) {
// CHECK-NEXT:   gemm_launch(grid, 128, 0, 0, A, B, C, 64);
// CHECK-NEXT:   if (again)
// CHECK-NEXT:     gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT:   else
// CHECK-NEXT:     ::kernels::gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT:   while (again)
// CHECK-NEXT:     kernels::gemm_launch(grid, 128, 0, 0, A, B, C, 0);
// CHECK-NEXT:   (void)gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT: }
// CHECK: void values(In A, In B, Out C, dim3 grid, bool again) {
// CHECK-NEXT:   again ? (void)kernels::gemm_launch(grid, 128, 0, 0, A, B, C) : (void)0;
// CHECK-NEXT:   (void)kernels::gemm_launch(grid, 128, 0, 0, A, B, C),
// CHECK-NEXT:       (void)kernels::gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT:   return (void)kernels::gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT: }
// CHECK: void via_using(In A, In B, Out C, dim3 grid) {
// CHECK-NEXT:   ::kernels::gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT: }
// CHECK: void configured(In A, In B, Out C, dim3 grid) {
// CHECK-NEXT:   cudaFuncSetAttribute(kernels::gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
// CHECK-NEXT:   kernels::gemm_launch(grid, 128, 0, 0, A, B, C);
// CHECK-NEXT: }
