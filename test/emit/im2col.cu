// A convolution as an implicit GEMM: the A operand is a window of a
// tawa::Im2col (the activations, one row per output pixel, one column per
// filter tap and channel). The producer loads it with TMA's im2col mode
// from the window's origin (tma_load_im2col_window), the launcher encodes an
// im2col map of the window's rows by 128 bytes of channels, and the view is
// neither copied, given edge boxes, nor tested for its row pitch.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s --dump-arefs --check -- %cuda-stub | FileCheck %s --check-prefix=AREFS
#include <tawa/tile.h>

// AREFS: producer: load a = X[128 x 64 bf16] at (m0, k0) -> aref a_b
// CHECK-LABEL: __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT: conv(tawa::Im2col<const __nv_bfloat16> X,
// CHECK: tawa::rt::tma_load_im2col_window(slot.a, &X_tensor_map,
// CHECK-NEXT: smem.a_b_aref.full_barrier(a_b), X,
// CHECK-NEXT: m0, k0);
// CHECK-NEXT: tawa::rt::tma_load_2d(slot.b, &W_tensor_map,
// CHECK-LABEL: cudaError_t conv_launch(
// CHECK-NOT: X_aligned
// CHECK: maps = tawa::rt::make_im2col_map(&X_tensor_map, X, 128, 64);
// CHECK-NOT: X_tensor_map_edge
// CHECK: maps = tawa::rt::make_tensor_map(&W_tensor_map, W_aligned, 256, 64);
__global__ void conv(tawa::Im2col<const __nv_bfloat16> X,
                     tawa::Matrix<const __nv_bfloat16> W,
                     tawa::Matrix<__nv_bfloat16> Y) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < W.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(X, m0, k0);
    auto b = tawa::load<256, 64>(W, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(Y, m0, n0, acc);
}

void run(tawa::Im2col<const __nv_bfloat16> X,
         tawa::Matrix<const __nv_bfloat16> W, tawa::Matrix<__nv_bfloat16> Y) {
  conv<<<dim3((Y.cols + 255) / 256, (Y.rows + 127) / 128), 128>>>(X, W, Y);
}

// Weights stored R x S x C x K: B loaded K x N, read MN-major.
// CHECK-LABEL: cudaError_t conv_rsck_launch(
// CHECK: maps = tawa::rt::make_im2col_map(&X_tensor_map, X, 128, 64);
// CHECK: maps = tawa::rt::make_tensor_map(&W_tensor_map, W_aligned, 64, 64);
__global__ void conv_rsck(tawa::Im2col<const __nv_bfloat16> X,
                          tawa::Matrix<const __nv_bfloat16> W,
                          tawa::Matrix<__nv_bfloat16> Y) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < W.rows; k0 += 64) {
    auto a = tawa::load<128, 64>(X, m0, k0);
    auto b = tawa::load<64, 256>(W, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(Y, m0, n0, acc);
}
