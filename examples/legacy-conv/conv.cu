// Hand-written implicit-GEMM convolutions over NHWC activations, in the
// style of CUDA tutorials: one output pixel per row of a 32 x 32 tile of the
// output, the K loop over the filter taps and channels flattened, the taps
// decoded with '/' and '%', annotated with `#pragma tawa tile`. Each comes
// with a C entry point that launches it as its project would (one block of
// 32 x 32 threads per 32 x 32 tile of the output; the last eight, blocks
// of 128 or 256 threads that stage cooperatively), for
// examples/legacy-conv/check.py.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define TILE 32
using bf16 = __nv_bfloat16;

// 3 x 3, stride 1, padding 1 ("same"): the output is N x H x W x K; weights
// K x 3 x 3 x C.
__global__ void conv3x3_same(const bf16 *in, const bf16 *w, bf16 *out, int N,
                             int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty;
  int k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H &&
                         iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// R x S, any stride and padding, the output extents P x Q given; a bias per
// output channel and ReLU. Weights K x R x S x C.
__global__ void conv_bias_relu(const bf16 *x, const bf16 *w, const float *bias,
                               bf16 *y, int N, int H, int W, int C, int K,
                               int R, int S, int P, int Q, int stride,
                               int pad) {
  __shared__ bf16 Xs[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const int wrow = blockIdx.x * TILE + ty;
  const int n = m / (P * Q);
  const int rem = m % (P * Q);
  const int p = rem / Q, q = rem % Q;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < R * S * C; t += TILE) {
    const int kk = t + tx;
    const int c = kk % C;
    const int tap = kk / C;
    const int r = tap / S, s = tap % S;
    const int ih = p * stride - pad + r, iw = q * stride - pad + s;
    if (n < N && kk < R * S * C && ih >= 0 && ih < H && iw >= 0 && iw < W)
      Xs[ty][tx] = x[((n * H + ih) * W + iw) * C + c];
    else
      Xs[ty][tx] = bf16();
    Ws[ty][tx] =
        (wrow < K && kk < R * S * C) ? w[wrow * (R * S * C) + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(Xs[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * P * Q && col < K)
    y[m * K + col] = __float2bfloat16_rn(fmaxf(acc + bias[col], 0.0f));
}

// 3 x 3 "valid" (no padding: no lower bounds checks), weights stored
// 3 x 3 x C x K (the HWIO layout of TensorFlow), M = N (H - 2) (W - 2)
// output pixels.
__global__ void conv_valid_hwio(const bf16 *x, const bf16 *w, bf16 *y, int M,
                                int H, int W, int C, int K) {
  __shared__ bf16 Xs[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int m = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int P = H - 2, Q = W - 2;
  const int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + threadIdx.x;
    int c = kk % C, r = kk / (3 * C), s = (kk / C) % 3;
    int ih = p + r, iw = q + s;
    Xs[threadIdx.y][threadIdx.x] =
        m < M && kk < 9 * C && ih < H && iw < W
            ? x[((n * H + ih) * W + iw) * C + c]
            : bf16();
    int kr = t + threadIdx.y;
    Ws[threadIdx.y][threadIdx.x] = kr < 9 * C && col < K ? w[kr * K + col]
                                                         : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(Xs[threadIdx.y][j]) *
             __bfloat162float(Ws[j][threadIdx.x]);
    __syncthreads();
  }
  if (m < M && col < K)
    y[m * K + col] = __float2bfloat16_rn(acc);
}

// 3 x 3 with dilation 2 and padding 2 (the output as large as the input).
__global__ void conv_dilated(const bf16 *x, const bf16 *w, bf16 *y, int N,
                             int H, int W, int C, int K) {
  __shared__ bf16 Xs[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const int wrow = blockIdx.x * TILE + ty;
  const int n = m / (H * W), p = (m % (H * W)) / W, q = m % W;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + tx, c = kk % C, r = kk / C / 3, s = kk / C % 3;
    const int ih = p - 2 + 2 * r, iw = q - 2 + 2 * s;
    Xs[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H &&
                         iw >= 0 && iw < W
                     ? x[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = wrow < K && kk < 9 * C ? w[wrow * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(Xs[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && col < K)
    y[m * K + col] = __float2bfloat16_rn(acc);
}

// 3 x 3 "same" as loops over the filter rows and columns, then a channel
// tile (the channels bounds-checked); weights K x 3 x 3 x C.
__global__ void conv_taps_nested(const bf16 *in, const bf16 *w, bf16 *out,
                                 int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < 3; ++r) {
    int ih = oh + r - 1;
    for (int s = 0; s < 3; ++s) {
      int iw = ow + s - 1;
      for (int c0 = 0; c0 < C; c0 += TILE) {
        As[ty][tx] = m < N * H * W && c0 + tx < C && ih >= 0 && ih < H &&
                             iw >= 0 && iw < W
                         ? in[((n * H + ih) * W + iw) * C + c0 + tx]
                         : bf16();
        Ws[ty][tx] = kload < K && c0 + tx < C
                         ? w[((kload * 3 + r) * 3 + s) * C + c0 + tx]
                         : bf16();
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
          acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
        __syncthreads();
      }
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// R x S with stride 2 as one loop over the taps, then a channel tile;
// weights R x S x C x K.
__global__ void conv_taps_flat(const bf16 *in, const bf16 *w, bf16 *out, int N,
                               int H, int W, int C, int K, int R, int S,
                               int P, int Q) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
  float acc = 0.f;
#pragma tawa tile
  for (int rs = 0; rs < R * S; ++rs) {
    int r = rs / S, s = rs % S;
    int ih = 2 * p - R / 2 + r, iw = 2 * q - S / 2 + s;
    for (int c0 = 0; c0 < C; c0 += TILE) {
      As[ty][tx] = m < N * P * Q && c0 + tx < C && ih >= 0 && ih < H &&
                           iw >= 0 && iw < W
                       ? in[((n * H + ih) * W + iw) * C + c0 + tx]
                       : bf16();
      Ws[ty][tx] =
          c0 + ty < C && k < K ? w[(rs * C + c0 + ty) * K + k] : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[j][tx]);
      __syncthreads();
    }
  }
  if (m < N * P * Q && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// 3 x 3 "same" with PyTorch's weights, K x C x 3 x 3: the column k runs
// the channels outermost (c = k / 9, r = (k % 9) / 3, s = k % 3).
__global__ void conv_kcrs(const bf16 *in, const bf16 *w, bf16 *out, int N,
                          int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < C * 9; t += TILE) {
    int kk = t + tx;
    int c = kk / 9, r = (kk % 9) / 3, s = kk % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && kk < C * 9 && ih >= 0 && ih < H &&
                         iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kload < K && kk < C * 9 ? w[kload * C * 9 + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// 3 x 3 "same" written for channels a multiple of TILE: the staging copies
// do not check the column against 9 * C.
__global__ void conv_unchecked(const bf16 *in, const bf16 *w, bf16 *out,
                               int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C;
    int ih = oh + rs / 3 - 1, iw = ow + rs % 3 - 1;
    As[ty][tx] = m < N * H * W && ih >= 0 && ih < H && iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kload < K ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// 3 x 3 "same" with a channel tile walked before the taps: each tile of
// channels meets the nine taps in turn; weights K x 3 x 3 x C.
__global__ void conv_channels_first(const bf16 *in, const bf16 *w, bf16 *out,
                                    int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    for (int r = 0; r < 3; ++r) {
      for (int s = 0; s < 3; ++s) {
        int ih = oh + r - 1, iw = ow + s - 1;
        As[ty][tx] = m < N * H * W && c0 + tx < C && ih >= 0 && ih < H &&
                             iw >= 0 && iw < W
                         ? in[((n * H + ih) * W + iw) * C + c0 + tx]
                         : bf16();
        Ws[ty][tx] = kload < K && c0 + tx < C
                         ? w[((kload * 3 + r) * 3 + s) * C + c0 + tx]
                         : bf16();
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
          acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
        __syncthreads();
      }
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// 3 x 3 "valid" (no padding) with a block of TILE * TILE threads in one
// dimension, split by TILE into the tile's row and column; weights K x 3 x
// 3 x C.
__global__ void conv_flat_block(const bf16 *in, const bf16 *w, bf16 *out,
                                int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int ty = threadIdx.x / TILE, tx = threadIdx.x % TILE;
  const int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  const int kload = blockIdx.x * TILE + ty;
  const int n = m / ((H - 2) * (W - 2));
  const int p = (m / (W - 2)) % (H - 2), q = m % (W - 2);
  float acc = 0.f;
#pragma tawa tile
  for (int rs = 0; rs < 9; ++rs) {
    const int ih = p + rs / 3, iw = q + rs % 3;
    for (int c0 = 0; c0 < C; c0 += TILE) {
      As[ty][tx] = m < N * (H - 2) * (W - 2) && c0 + tx < C && ih < H && iw < W
                       ? in[((n * H + ih) * W + iw) * C + c0 + tx]
                       : bf16();
      Ws[ty][tx] = kload < K && c0 + tx < C ? w[(kload * 9 + rs) * C + c0 + tx]
                                            : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
      __syncthreads();
    }
  }
  if (m < N * (H - 2) * (W - 2) && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// 3 x 3 "same" with the batch on the grid's layers: block (x, y, z) computes
// output channels x, pixels y of image z, through pointers to that image;
// weights K x 3 x 3 x C.
__global__ void conv_grid_images(const bf16 *in, const bf16 *w, bf16 *out,
                                 int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int n = blockIdx.z;
  const int pix = blockIdx.y * TILE + threadIdx.y;
  const int k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int oh = pix / W, ow = pix % W;
  const bf16 *image = in + (size_t)n * H * W * C;
  bf16 *result = out + (size_t)n * H * W * K;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x, c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[threadIdx.y][threadIdx.x] =
        pix < H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W
            ? image[(ih * W + iw) * C + c]
            : bf16();
    Ws[threadIdx.y][threadIdx.x] =
        kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) *
             __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (pix < H * W && k < K)
    result[pix * K + k] = __float2bfloat16_rn(acc);
}

// 1x1, stride 2 (a projection shortcut) with the images on the grid's
// layers: output pixel (p, q) of image z reads input pixel (2p, 2q), with no
// check of the input row and column; weights K x C.
__global__ void conv1x1_strided(const bf16 *in, const bf16 *w, bf16 *out, int H,
                                int W, int C, int K, int P, int Q) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int img = blockIdx.z;
  const int pix = blockIdx.y * TILE + threadIdx.y;
  const int k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int ih = (pix / Q) * 2, iw = (pix % Q) * 2;
  const bf16 *image = in + (size_t)img * H * W * C;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    const int c = c0 + threadIdx.x;
    As[threadIdx.y][threadIdx.x] =
        pix < P * Q && c < C ? image[(ih * W + iw) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] =
        kload < K && c < C ? w[kload * C + c] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) *
             __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (pix < P * Q && k < K)
    out[((size_t)img * P * Q + pix) * K + k] = __float2bfloat16_rn(acc);
}

// Cooperative staging, as in kernels written for tensor cores: 128 threads
// (four warps, 2 x 2) per 32 x 32 tile of the output, each copy loop walks
// a tile's elements (the row decoded into the pixel, the column into the tap
// and channel); the product is a WMMA fragment's per warp, stored through a
// float scratch per warp with a bias and ReLU. R x S filter, stride, padding.
__global__ void conv_wmma_gather(const bf16 *x, const bf16 *w,
                                 const float *bias, bf16 *y, int N, int H,
                                 int W, int C, int K, int R, int S, int P,
                                 int Q, int stride, int pad) {
  __shared__ __align__(32) bf16 As[32][24];
  __shared__ __align__(32) bf16 Bs[32][24];
  __shared__ __align__(32) float scratch[4][256];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wr = warp / 2, wc = warp % 2;
  const int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  const int M = N * P * Q;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
#pragma tawa tile
  for (int k0 = 0; k0 < R * S * C; k0 += 16) {
    for (int i = tid; i < 32 * 16; i += blockDim.x) {
      const int row = i / 16, col = i % 16;
      const int m = m0 + row, k = k0 + col;
      const int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
      const int c = k % C, s = (k / C) % S, r = k / (S * C);
      const int ih = p * stride - pad + r, iw = q * stride - pad + s;
      As[row][col] =
          m < M && k < R * S * C && ih >= 0 && ih < H && iw >= 0 && iw < W
              ? x[((n * H + ih) * W + iw) * C + c]
              : __float2bfloat16(0.f);
    }
    for (int i = tid; i < 32 * 16; i += blockDim.x) {
      const int row = i / 16, col = i % 16;
      const int f = n0 + row, k = k0 + col;
      Bs[row][col] = f < K && k < R * S * C ? w[f * (R * S * C) + k]
                                            : __float2bfloat16(0.f);
    }
    __syncthreads();
    wmma::load_matrix_sync(fa, &As[wr * 16][0], 24);
    wmma::load_matrix_sync(fb, &Bs[wc * 16][0], 24);
    wmma::mma_sync(fc, fa, fb, fc);
    __syncthreads();
  }
  wmma::store_matrix_sync(scratch[warp], fc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int m = m0 + wr * 16 + e / 16, f = n0 + wc * 16 + e % 16;
    if (m < M && f < K)
      y[m * K + f] =
          __float2bfloat16_rn(fmaxf(scratch[warp][e] + bias[f], 0.f));
  }
}

// 3 x 3 "same" from a one-dimensional block of 256 threads, one output each
// of a 16 x 16 tile: float tiles of widened elements, 32 columns per step,
// the activation set under its checks into a register first; the K loop's
// bound a local; weights R x S x C x K (HWIO).
__global__ void conv_coop_scalar(const bf16 *in, const bf16 *wt, bf16 *out,
                                 int N, int H, int W, int C, int K) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * H * W, Kg = 9 * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (H * W), oh = (m % (H * W)) / W, ow = m % W;
      const int c = kk % C, rs = kk / C;
      const int ih = oh - 1 + rs / 3, iw = ow - 1 + rs % 3;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[kk * K + f]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = __float2bfloat16_rn(acc);
}

// conv_coop_scalar with 64-bit addresses (`(size_t)img * H + ih` wraps
// around for ih = -1, the same address) and the input row and column
// checked as unsigned values (`(unsigned)ih < (unsigned)H`: 0 <= ih < H).
__global__ void conv_coop_unsigned(const bf16 *in, const bf16 *wt, bf16 *out,
                                   int N, int H, int W, int C, int K) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * H * W, Kg = 9 * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (H * W), oh = (m % (H * W)) / W, ow = m % W;
      const int c = kk % C, rs = kk / C;
      const int ih = oh - 1 + rs / 3, iw = ow - 1 + rs % 3;
      float v = 0.f;
      if (m < M && kk < Kg && (unsigned)ih < (unsigned)H &&
          (unsigned)iw < (unsigned)W)
        v = __bfloat162float(in[(((size_t)img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[(size_t)kk * K + f]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[(size_t)m * K + f] = __float2bfloat16_rn(acc);
}

// Register blocking: 256 threads per 64 x 64 tile of the output, 4 x 4
// outputs each, from tiles stored transposed ([k][m]); R x S filter,
// stride, padding; the activation loaded into a bf16 register under its
// checks and widened into the float tile.
__global__ void conv_regblock_gather(const bf16 *act, const bf16 *flt,
                                     bf16 *out, int N, int H, int W, int C,
                                     int K, int R, int S, int P, int Q,
                                     int stride, int pad) {
  __shared__ float As[8][64];
  __shared__ float Bs[8][64];
  const int tid = threadIdx.x, tRow = tid / 16, tCol = tid % 16;
  const int mBase = blockIdx.y * 64, nBase = blockIdx.x * 64;
  float acc[4][4] = {};
  float a[4], b[4];
#pragma tawa tile
  for (int k0 = 0; k0 < R * S * C; k0 += 8) {
    for (int i = tid; i < 64 * 8; i += blockDim.x) {
      const int mm = i / 8, kk = i % 8;
      const int m = mBase + mm, gk = k0 + kk;
      const int nimg = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = gk % C, rs = gk / C;
      const int ih = oh * stride - pad + rs / S;
      const int iw = ow * stride - pad + rs % S;
      bf16 v = __float2bfloat16(0.f);
      if (m < N * P * Q && gk < R * S * C && ih >= 0 && ih < H && iw >= 0 &&
          iw < W)
        v = act[((nimg * H + ih) * W + iw) * C + c];
      As[kk][mm] = __bfloat162float(v);
    }
    for (int i = tid; i < 64 * 8; i += blockDim.x) {
      const int nn = i / 8, kk = i % 8;
      const int f = nBase + nn, gk = k0 + kk;
      Bs[kk][nn] = f < K && gk < R * S * C
                       ? __bfloat162float(flt[f * R * S * C + gk])
                       : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 8; ++kk) {
      for (int i = 0; i < 4; ++i)
        a[i] = As[kk][tRow * 4 + i];
      for (int j = 0; j < 4; ++j)
        b[j] = Bs[kk][tCol * 4 + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int m = mBase + tRow * 4 + i, f = nBase + tCol * 4 + j;
      if (m < N * P * Q && f < K)
        out[m * K + f] = __float2bfloat16_rn(acc[i][j]);
    }
}

// The K loop as one loop over the filter taps and a channel tile inside it,
// as tensor-core convolutions are often written: eight warps (4 x 2) per
// 64 x 32 tile of the output, one 16 x 16 fragment each, the copy loops
// walking a tile's elements; the activations' checks named by a bool; the
// weights R x S x C x K (HWIO); the results staged through a float scratch
// per warp. R x S filter, stride, padding.
__global__ void conv_wmma_taps(const bf16 *x, const bf16 *w, bf16 *y, int N,
                               int H, int W, int C, int K, int R, int S, int P,
                               int Q, int stride, int pad) {
  __shared__ __align__(32) bf16 As[64][24];
  __shared__ __align__(32) bf16 Bs[16][40];
  __shared__ __align__(32) float scratch[8][256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / 2, wn = warp % 2;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 32;
  const int M = N * P * Q;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
#pragma tawa tile
  for (int rs = 0; rs < R * S; ++rs) {
    const int r = rs / S, s = rs % S;
    for (int c0 = 0; c0 < C; c0 += 16) {
      for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
        const int row = i / 16, cc = i % 16;
        const int m = m0 + row;
        const int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
        const int ih = p * stride - pad + r, iw = q * stride - pad + s;
        const bool ok = m < M && c0 + cc < C && ih >= 0 && ih < H &&
                        iw >= 0 && iw < W;
        As[row][cc] = ok ? x[((n * H + ih) * W + iw) * C + c0 + cc]
                         : __float2bfloat16(0.f);
      }
      for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x) {
        const int cc = i / 32, col = i % 32;
        const int f = n0 + col;
        Bs[cc][col] = c0 + cc < C && f < K ? w[(rs * C + c0 + cc) * K + f]
                                           : __float2bfloat16(0.f);
      }
      __syncthreads();
      wmma::load_matrix_sync(fa, &As[wm * 16][0], 24);
      wmma::load_matrix_sync(fb, &Bs[0][wn * 16], 40);
      wmma::mma_sync(fc, fa, fb, fc);
      __syncthreads();
    }
  }
  wmma::store_matrix_sync(scratch[warp], fc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int m = m0 + wm * 16 + e / 16, f = n0 + wn * 16 + e % 16;
    if (m < M && f < K)
      y[m * K + f] = __float2bfloat16_rn(scratch[warp][e]);
  }
}

// conv_wmma_taps written for channel counts that are multiples of 16: no
// copy checks the channel.
__global__ void conv_wmma_taps_whole(const bf16 *x, const bf16 *w, bf16 *y, int N,
                               int H, int W, int C, int K, int R, int S, int P,
                               int Q, int stride, int pad) {
  __shared__ __align__(32) bf16 As[64][24];
  __shared__ __align__(32) bf16 Bs[16][40];
  __shared__ __align__(32) float scratch[8][256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / 2, wn = warp % 2;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 32;
  const int M = N * P * Q;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
#pragma tawa tile
  for (int rs = 0; rs < R * S; ++rs) {
    const int r = rs / S, s = rs % S;
    for (int c0 = 0; c0 < C; c0 += 16) {
      for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
        const int row = i / 16, cc = i % 16;
        const int m = m0 + row;
        const int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
        const int ih = p * stride - pad + r, iw = q * stride - pad + s;
        const bool ok = m < M && ih >= 0 && ih < H && iw >= 0 && iw < W;
        As[row][cc] = ok ? x[((n * H + ih) * W + iw) * C + c0 + cc]
                         : __float2bfloat16(0.f);
      }
      for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x) {
        const int cc = i / 32, col = i % 32;
        const int f = n0 + col;
        Bs[cc][col] = f < K ? w[(rs * C + c0 + cc) * K + f]
                            : __float2bfloat16(0.f);
      }
      __syncthreads();
      wmma::load_matrix_sync(fa, &As[wm * 16][0], 24);
      wmma::load_matrix_sync(fb, &Bs[0][wn * 16], 40);
      wmma::mma_sync(fc, fa, fb, fc);
      __syncthreads();
    }
  }
  wmma::store_matrix_sync(scratch[warp], fc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int m = m0 + wm * 16 + e / 16, f = n0 + wn * 16 + e % 16;
    if (m < M && f < K)
      y[m * K + f] = __float2bfloat16_rn(scratch[warp][e]);
  }
}

// 3 x 3 "same" from a one-dimensional block of 256 threads, one output each
// of a 16 x 16 tile, the K loop as loops over the filter's rows and columns
// and a channel tile of 32; weights K x 3 x 3 x C.
__global__ void conv_coop_taps(const bf16 *in, const bf16 *wt, bf16 *out,
                               int N, int H, int W, int C, int K) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * H * W;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s)
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (H * W), oh = (m / W) % H, ow = m % W;
          const int ih = oh - 1 + r, iw = ow - 1 + s;
          float v = 0.f;
          if (m < M && c0 + col < C && ih >= 0 && ih < H && iw >= 0 && iw < W)
            v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c0 + col]);
          As[row][col] = v;
        }
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int f = n0 + row;
          Bs[row][col] =
              f < K && c0 + col < C
                  ? __bfloat162float(wt[((f * 3 + r) * 3 + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = __float2bfloat16_rn(acc);
}

static dim3 tiles(int rows, int cols) {
  return dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
}

extern "C" {
int legacy_conv3x3_same(const void *x, const void *w, void *y, int n, int h,
                        int wd, int c, int k, void *stream) {
  conv3x3_same<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
                 static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_bias_relu(const void *x, const void *w, const void *bias,
                          void *y, int n, int h, int wd, int c, int k, int r,
                          int s, int stride, int pad, void *stream) {
  const int p = (h + 2 * pad - r) / stride + 1, q = (wd + 2 * pad - s) / stride + 1;
  conv_bias_relu<<<tiles(n * p * q, k), dim3(TILE, TILE), 0,
                   static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<const float *>(bias), static_cast<bf16 *>(y), n, h, wd, c,
      k, r, s, p, q, stride, pad);
  return cudaGetLastError();
}

int legacy_conv_valid_hwio(const void *x, const void *w, void *y, int n, int h,
                           int wd, int c, int k, void *stream) {
  const int m = n * (h - 2) * (wd - 2);
  conv_valid_hwio<<<tiles(m, k), dim3(TILE, TILE), 0,
                    static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), m, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_dilated(const void *x, const void *w, void *y, int n, int h,
                        int wd, int c, int k, void *stream) {
  conv_dilated<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
                 static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_taps_nested(const void *x, const void *w, void *y, int n,
                            int h, int wd, int c, int k, void *stream) {
  conv_taps_nested<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
                     static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_kcrs(const void *x, const void *w, void *y, int n, int h,
                     int wd, int c, int k, void *stream) {
  conv_kcrs<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
              static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_unchecked(const void *x, const void *w, void *y, int n, int h,
                          int wd, int c, int k, void *stream) {
  conv_unchecked<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
                   static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_taps_flat(const void *x, const void *w, void *y, int n, int h,
                          int wd, int c, int k, int r, int s, void *stream) {
  const int p = (h + 2 * (r / 2) - r) / 2 + 1;
  const int q = (wd + 2 * (s / 2) - s) / 2 + 1;
  conv_taps_flat<<<tiles(n * p * q, k), dim3(TILE, TILE), 0,
                   static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k, r, s, p, q);
  return cudaGetLastError();
}

int legacy_conv_channels_first(const void *x, const void *w, void *y, int n,
                               int h, int wd, int c, int k, void *stream) {
  conv_channels_first<<<tiles(n * h * wd, k), dim3(TILE, TILE), 0,
                        static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_flat_block(const void *x, const void *w, void *y, int n, int h,
                           int wd, int c, int k, void *stream) {
  conv_flat_block<<<tiles(n * (h - 2) * (wd - 2), k), TILE * TILE, 0,
                    static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_grid_images(const void *x, const void *w, void *y, int n, int h,
                            int wd, int c, int k, void *stream) {
  const dim3 grid = tiles(h * wd, k);
  conv_grid_images<<<dim3(grid.x, grid.y, n), dim3(TILE, TILE), 0,
                     static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv1x1_strided(const void *x, const void *w, void *y, int n, int h,
                           int wd, int c, int k, void *stream) {
  const int p = (h - 1) / 2 + 1, q = (wd - 1) / 2 + 1;
  const dim3 grid = tiles(p * q, k);
  conv1x1_strided<<<dim3(grid.x, grid.y, n), dim3(TILE, TILE), 0,
                    static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), h, wd, c, k, p, q);
  return cudaGetLastError();
}

int legacy_conv_wmma_gather(const void *x, const void *w, const void *bias,
                            void *y, int n, int h, int wd, int c, int k, int r,
                            int s, int stride, int pad, void *stream) {
  const int p = (h + 2 * pad - r) / stride + 1,
            q = (wd + 2 * pad - s) / stride + 1;
  conv_wmma_gather<<<tiles(n * p * q, k), 128, 0,
                     static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<const float *>(bias), static_cast<bf16 *>(y), n, h, wd, c, k,
      r, s, p, q, stride, pad);
  return cudaGetLastError();
}

int legacy_conv_coop_scalar(const void *x, const void *w, void *y, int n, int h,
                            int wd, int c, int k, void *stream) {
  conv_coop_scalar<<<dim3((k + 15) / 16, (n * h * wd + 15) / 16), 256, 0,
                     static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_coop_unsigned(const void *x, const void *w, void *y, int n,
                              int h, int wd, int c, int k, void *stream) {
  conv_coop_unsigned<<<dim3((k + 15) / 16, (n * h * wd + 15) / 16), 256, 0,
                       static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_regblock_gather(const void *x, const void *w, void *y, int n,
                                int h, int wd, int c, int k, int r, int s,
                                int stride, int pad, void *stream) {
  const int p = (h + 2 * pad - r) / stride + 1,
            q = (wd + 2 * pad - s) / stride + 1;
  conv_regblock_gather<<<dim3((k + 63) / 64, (n * p * q + 63) / 64), 256, 0,
                         static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k, r, s, p, q, stride, pad);
  return cudaGetLastError();
}

int legacy_conv_wmma_taps(const void *x, const void *w, void *y, int n, int h,
                          int wd, int c, int k, int r, int s, int stride,
                          int pad, void *stream) {
  const int p = (h + 2 * pad - r) / stride + 1,
            q = (wd + 2 * pad - s) / stride + 1;
  conv_wmma_taps<<<dim3((k + 31) / 32, (n * p * q + 63) / 64), 256, 0,
                   static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k, r, s, p, q, stride, pad);
  return cudaGetLastError();
}

int legacy_conv_coop_taps(const void *x, const void *w, void *y, int n, int h,
                          int wd, int c, int k, void *stream) {
  conv_coop_taps<<<dim3((k + 15) / 16, (n * h * wd + 15) / 16), 256, 0,
                   static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k);
  return cudaGetLastError();
}

int legacy_conv_wmma_taps_whole(const void *x, const void *w, void *y, int n,
                                int h, int wd, int c, int k, int r, int s,
                                int stride, int pad, void *stream) {
  const int p = (h + 2 * pad - r) / stride + 1,
            q = (wd + 2 * pad - s) / stride + 1;
  conv_wmma_taps_whole<<<dim3((k + 31) / 32, (n * p * q + 63) / 64), 256, 0,
                         static_cast<cudaStream_t>(stream)>>>(
      static_cast<const bf16 *>(x), static_cast<const bf16 *>(w),
      static_cast<bf16 *>(y), n, h, wd, c, k, r, s, p, q, stride, pad);
  return cudaGetLastError();
}
}
