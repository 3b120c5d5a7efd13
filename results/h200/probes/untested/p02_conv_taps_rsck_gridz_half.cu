// Implicit-GEMM conv, NHWC input, RSCK (HWIO, TensorFlow) filter, image index on blockIdx.z.
// Reduction written as loops over filter taps and a channel tile; 16x16 thread blocks.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int BLK = 16;

__global__ void conv_hwio_nhwc_kernel(const half *__restrict__ x, const half *__restrict__ w,
                                      half *__restrict__ y, int H, int W, int C, int K,
                                      int R, int S, int P, int Q, int pad, int stride) {
  __shared__ half xs[BLK][BLK];
  __shared__ half ws[BLK][BLK];

  const int n = blockIdx.z;                       // image
  const int pix = blockIdx.y * BLK + threadIdx.y; // output pixel within the image
  const int oc = blockIdx.x * BLK + threadIdx.x;  // output channel
  const int oh = pix / Q;
  const int ow = pix % Q;

  float sum = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r) {
    for (int s = 0; s < S; ++s) {
      const int ih = oh * stride - pad + r;
      const int iw = ow * stride - pad + s;
      for (int c0 = 0; c0 < C; c0 += BLK) {
        // activations: row = pixel, column = channel
        const int cx = c0 + threadIdx.x;
        if (pix < P * Q && cx < C && ih >= 0 && ih < H && iw >= 0 && iw < W)
          xs[threadIdx.y][threadIdx.x] = x[((n * H + ih) * W + iw) * C + cx];
        else
          xs[threadIdx.y][threadIdx.x] = __float2half(0.f);
        // filter: row = channel, column = output channel (HWIO is K-contiguous)
        const int cw = c0 + threadIdx.y;
        if (cw < C && oc < K)
          ws[threadIdx.y][threadIdx.x] = w[((r * S + s) * C + cw) * K + oc];
        else
          ws[threadIdx.y][threadIdx.x] = __float2half(0.f);
        __syncthreads();
        for (int j = 0; j < BLK; ++j)
          sum += __half2float(xs[threadIdx.y][j]) * __half2float(ws[j][threadIdx.x]);
        __syncthreads();
      }
    }
  }
  if (pix < P * Q && oc < K)
    y[((size_t)n * P * Q + pix) * K + oc] = __float2half(sum);
}

void conv_hwio_forward(const half *x, const half *w, half *y, int N, int H, int W, int C, int K,
                       int R, int S, int pad, int stride) {
  const int P = (H + 2 * pad - R) / stride + 1;
  const int Q = (W + 2 * pad - S) / stride + 1;
  dim3 threads(BLK, BLK);
  dim3 blocks((K + BLK - 1) / BLK, (P * Q + BLK - 1) / BLK, N);
  conv_hwio_nhwc_kernel<<<blocks, threads>>>(x, w, y, H, W, C, K, R, S, P, Q, pad, stride);
}
