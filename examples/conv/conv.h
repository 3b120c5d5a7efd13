// A 2-D convolution over NHWC activations as an implicit GEMM in the tile
// vocabulary (conv.cu): Y[m][k] = sum over col of X(m, col) * Wt[k][col],
// X a tawa::Im2col view of the activations (rows: output pixels, columns:
// filter taps and channels), Wt the weights stored K x R x S x C (channels
// last), Y the output, N * P * Q x K (NHWC). The C entry point is for
// drivers that load the file as a shared library (bench/conv/bench.py).
#pragma once

#include <cuda_runtime.h>
#include <tawa/tile.h>

/// Y = conv(X, Wt): X an Im2col of n x h x w x c bf16 activations, Wt K x
/// (r * s * c) bf16 weights, Y (n * p * q) x K bf16. Returns the launch's
/// error.
cudaError_t conv2d(tawa::Im2col<const __nv_bfloat16> X,
                   tawa::Matrix<const __nv_bfloat16> Wt,
                   tawa::Matrix<__nv_bfloat16> Y, cudaStream_t stream);

extern "C" {
/// conv2d() of raw device pointers: x (n, h, w, c), wt (k, r, s, c), y (n,
/// p, q, k), all bf16 and dense, p and q the convolution's output extents.
/// Returns the cudaError_t as an int.
int tawa_conv2d_bf16(const void *x, const void *wt, void *y, int n, int h,
                     int w, int c, int k, int r, int s, int pad_h, int pad_w,
                     int stride_h, int stride_w, int dil_h, int dil_w,
                     void *stream);
}
