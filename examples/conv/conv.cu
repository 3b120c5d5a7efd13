#include "conv.h"
#include <tawa/tile.h>

// Output pixels m0.. by output channels n0.. of the implicit GEMM: each step
// of K is one filter tap and 64 channels of the activations (the im2col
// columns (tap * C + c)), against the same columns of the weights.
__global__ void conv2d_fprop(tawa::Im2col<const __nv_bfloat16> X,
                             tawa::Matrix<const __nv_bfloat16> Wt,
                             tawa::Matrix<__nv_bfloat16> Y) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < Wt.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(X, m0, k0);
    auto b = tawa::load<256, 64>(Wt, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(Y, m0, n0, acc);
}

cudaError_t conv2d(tawa::Im2col<const __nv_bfloat16> X,
                   tawa::Matrix<const __nv_bfloat16> Wt,
                   tawa::Matrix<__nv_bfloat16> Y, cudaStream_t stream) {
  if (Wt.cols != X.cols() || Y.rows != X.rows() || Y.cols != Wt.rows)
    return cudaErrorInvalidValue;
  if (Y.rows == 0 || Y.cols == 0)
    return cudaSuccess;
  dim3 grid(tawa::ceil_div(Y.cols, 256), tawa::ceil_div(Y.rows, 128));
  conv2d_fprop<<<grid, 128, 0, stream>>>(X, Wt, Y);
  return cudaGetLastError();
}

extern "C" int tawa_conv2d_bf16(const void *x, const void *wt, void *y, int n,
                                int h, int w, int c, int k, int r, int s,
                                int pad_h, int pad_w, int stride_h,
                                int stride_w, int dil_h, int dil_w,
                                void *stream) {
  using bf16 = __nv_bfloat16;
  const auto X = tawa::im2col(static_cast<const bf16 *>(x), n, h, w, c, r, s,
                              pad_h, pad_w, stride_h, stride_w, dil_h, dil_w);
  const tawa::Matrix<const bf16> Wt{static_cast<const bf16 *>(wt), k,
                                    X.cols(), X.cols()};
  const tawa::Matrix<bf16> Y{static_cast<bf16 *>(y), X.rows(), k, k};
  return conv2d(X, Wt, Y, static_cast<cudaStream_t>(stream));
}
