// A kernel template in the tile vocabulary: each instantiation that a launch
// of the file makes, with constant template arguments, is copied as a kernel
// of its own (named after the arguments, each template parameter's name
// replaced by its argument), the launches call the copies, and the copies are
// rewritten one by one. The template itself stays, without its pragma.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// Without --migrate, one run copies and rewrites.
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
// RUN: %tawa-rewrite %s --explain -o %t5.cu -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: kernel gemm_t: tile loop at tile-templates.cu:[[# @LINE + 35]]:3
// EXPLAIN-NEXT: result: rewritten per instantiation, in copies of the kernel template (what --migrate writes), explained below
// EXPLAIN: kernel gemm_t_nv_bfloat16_64_128: the copy of kernel template 'gemm_t' for one instantiation
// EXPLAIN-NEXT: result: rewritten into a warp-specialized kernel
// EXPLAIN: kernel gemm_t_half_128_256: the copy of kernel template 'gemm_t' for one instantiation
// A template launched only from a function template (no constant arguments)
// is refused, and the file is left as it is.
// RUN: sed -e 's/gemm_t<[^>]*>/gemm_t<T, 64, 128>/' -e 's/^cudaError_t run(/template <typename T> cudaError_t run(/' %s > %t3.cu
// RUN: cp %t3.cu %t4.cu
// RUN: not %tawa-rewrite -i %t4.cu --werror -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: cmp %t3.cu %t4.cu
// One launched from an instantiated function template is refused too: the
// launch's one text cannot call the copies, one kernel per instantiation.
// RUN: sed -e 's/gemm_t<__nv_bfloat16, 64, 128><<</gemm_t<T, 64, 128><<</' -e 's/^cudaError_t run(/template <typename T> cudaError_t run(/' %s > %t6.cu
// RUN: echo 'template cudaError_t run<__nv_bfloat16>(tawa::Matrix<const __nv_bfloat16>, tawa::Matrix<const __nv_bfloat16>, tawa::Matrix<__nv_bfloat16>, tawa::Matrix<const __half>, tawa::Matrix<__half>, cudaStream_t);' >> %t6.cu
// RUN: cp %t6.cu %t7.cu
// RUN: not %tawa-rewrite -i %t7.cu --werror -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=INSTANTIATED
// RUN: cmp %t6.cu %t7.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <tawa/tile.h>

// CHECK-LABEL: template <typename T, int BM, int BN = 256>
// CHECK-NEXT: __global__ void gemm_t(tawa::Matrix<const T> A,
// CHECK-NOT: #pragma tawa
// CHECK: tawa::store(C, m0, n0, acc);
// REFUSED: tile-templates.cu.tmp4.cu:[[# @LINE + 4]]:17: error: kernel template 'gemm_t' is launched only from function templates that the file does not instantiate
// INSTANTIATED: tile-templates.cu.tmp7.cu:[[# @LINE + 3]]:17: error: kernel template 'gemm_t' is launched from a function template, whose one launch text stands for all of its instantiations: that launch can call one launcher template, which a kernel template in the tile vocabulary does not get
// C = A * B^T in CTA tiles of BM x BN, elements of type T.
template <typename T, int BM, int BN = 256>
__global__ void gemm_t(tawa::Matrix<const T> A, tawa::Matrix<const T> B,
                       tawa::Matrix<T> C) {
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  tawa::Accumulator<float, BM, BN> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<BM, 64>(A, m0, k0); // BM rows of A
    auto b = tawa::load<BN, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: /// A kernel of its own for 'gemm_t<__nv_bfloat16, 64, 128>', which tawa-rewrite
// CHECK-NEXT: /// rewrites: a kernel template is rewritten per instantiation.
// CHECK-NEXT: __global__ void gemm_t_nv_bfloat16_64_128(tawa::Matrix<const __nv_bfloat16> A,
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16> B,
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16> C) {
// CHECK-NEXT: const int m0 = blockIdx.y * (64), n0 = blockIdx.x * (128);
// CHECK-NEXT: tawa::Accumulator<float, (64), (128)> acc;
// CHECK-NEXT: #pragma tawa tile
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK-NEXT: auto a = tawa::load<(64), 64>(A, m0, k0); // BM rows of A
// CHECK-NEXT: auto b = tawa::load<(128), 64>(B, n0, k0);
// CHECK: /// A kernel of its own for 'gemm_t<__half, 128, 256>'
// CHECK: __global__ void gemm_t_half_128_256(tawa::Matrix<const __half> A,
// CHECK: tawa::Accumulator<float, (128), (256)> acc;

// WS: template <typename T, int BM, int BN = 256>
// WS-NEXT: __global__ void gemm_t(
// WS: /// gemm_t_nv_bfloat16_64_128, warp-specialized by tawa-rewrite from `#pragma
// WS-NEXT: /// tawa tile` at tile-templates.cu:[[# @LINE - 26]], in a copy of the kernel template for one
// WS-NEXT: /// instantiation: warpgroup 0 produces aref `a_b` with TMA; warpgroup 1
// WS: __global__ void __launch_bounds__(256, 1)
// WS-NEXT: gemm_t_nv_bfloat16_64_128(
// WS: inline cudaError_t gemm_t_nv_bfloat16_64_128_launch(
// WS: __global__ void __launch_bounds__(384, 1) gemm_t_half_128_256(
// WS: inline cudaError_t gemm_t_half_128_256_launch(

// CHECK-LABEL: cudaError_t run(
// WS-LABEL: cudaError_t run(
cudaError_t run(tawa::Matrix<const __nv_bfloat16> A,
                tawa::Matrix<const __nv_bfloat16> B,
                tawa::Matrix<__nv_bfloat16> C, tawa::Matrix<const __half> H,
                tawa::Matrix<__half> D, cudaStream_t stream) {
  dim3 grid(tawa::ceil_div(C.cols, 128), tawa::ceil_div(C.rows, 64));
  // CHECK: gemm_t_nv_bfloat16_64_128<<<grid, 128, 0, stream>>>(A, B, C);
  // WS: gemm_t_nv_bfloat16_64_128_launch(grid, 128, 0, stream, A, B, C);
  gemm_t<__nv_bfloat16, 64, 128><<<grid, 128, 0, stream>>>(A, B, C);
  dim3 wide(tawa::ceil_div(D.cols, 256), tawa::ceil_div(D.rows, 128));
  // CHECK: gemm_t_half_128_256<<<wide, 128, 0, stream>>>(H, H, D);
  // WS: gemm_t_half_128_256_launch(wide, 128, 0, stream, H, H, D);
  gemm_t<__half, 128><<<wide, 128, 0, stream>>>(H, H, D);
  return cudaGetLastError();
}
