// Implicit-GEMM convolutions in the forms lib/ConvLift.cpp lifts beyond
// test/migrate/conv.cu's: output extents P and Q given, a stride and a
// padding given, the pixel bound checked as 'n < N', an if/else staging copy,
// a bias and ReLU; no padding (no lower bounds checks), an output extent
// that is an expression of the input's ('H - 2'), weights stored R x S x C
// x K; dilation; loops over the taps and a channel tile, or a channel tile
// walked before the taps; checks named by bool locals ('const bool inside =
// ih >= 0 && ...;'); a one-dimensional block; the column's
// channel outermost (weights K x C x R x S, PyTorch's order, and C x R x S x
// K), read from a copy permuted to the im2col matrix's order; the images on
// the grid's layers (blockIdx.z); 1x1 convolutions whose pixel is decoded,
// strided or not. Each tiled
// kernel's Im2col view names the kernel's own extents, and the launcher runs the kernel as written where they are not
// positive, where the pixels are no whole images, or where TMA cannot read
// the view. (The outputs are checked without this file's own check lines.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -c '^ *tawa::rt::tma_load_im2col_window' %t2.cu | FileCheck %s --check-prefix=COUNT
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32
using bf16 = __nv_bfloat16;

// OUT-LABEL: static void conv_bias_relu_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{
// OUT-NEXT: x, N, H, W, C, R, S, P, Q, pad, pad, stride, stride, 1, 1};
// OUT: Q <= 0 || C <= 0 || S <= 0 || R <= 0 || H <= 0 || W <= 0 ||
// OUT: tawa::Matrix<const float>{bias, 1, tawa_cols, tawa_cols}
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

// OUT-LABEL: static void conv_valid_hwio_migrated_launch(
// OUT: x, ((H - 2) * (W - 2) > 0 ? (M) / ((H - 2) * (W - 2)) : 0),
// OUT: (M) % ((H - 2) * (W - 2)) != 0 || !tawa::im2col_tma_loadable(tawa_x) ||
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, 9 * C, K, K},
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

// OUT-LABEL: static void conv_dilated_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{x, N, H, W, C, 3, 3, H,
// OUT-NEXT: W, 2, 2, 1, 1, 2, 2};
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

// Loops over the taps and a channel tile, the channels bounds-checked: the
// K index is (tap * C + c0 + j), the taps those of the loops (r, s) or of
// the one loop's decode (rs / S, rs % S), the padding an expression of
// parameters (R / 2).
// OUT-LABEL: static void conv_taps_nested_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, 3, 3, H,
// OUT-NEXT: W, 1, 1, 1, 1, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, K, 9 * C, 9 * C},
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

// The checks of the pixel's input row and column named by a bool local,
// 'const bool inside = ...;', which the copy's condition reads.
// OUT-LABEL: static void conv_inside_local_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, 3, 3, H,
// OUT-NEXT: W, 1, 1, 1, 1, 1, 1};
__global__ void conv_inside_local(const bf16 *in, const bf16 *w, bf16 *out,
                                  int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  const int kload = blockIdx.x * TILE + ty;
  const int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  const bool pixel = m < N * H * W;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < 3; ++r) {
    for (int s = 0; s < 3; ++s) {
      const int ih = oh + r - 1, iw = ow + s - 1;
      const bool inside = pixel && ih >= 0 && ih < H && iw >= 0 && iw < W;
      for (int c0 = 0; c0 < C; c0 += TILE) {
        const int c = c0 + tx;
        As[ty][tx] = inside && c < C ? in[((n * H + ih) * W + iw) * C + c]
                                     : bf16();
        Ws[ty][tx] = kload < K && c < C ? w[((kload * 3 + r) * 3 + s) * C + c]
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

// One loop over the taps decoded into r = tap / 3 and s = tap % 3, the
// weights K x 3 x 3 x C indexed ((k * 3 + r) * 3 + s) * C + c, which is
// (k * 9 + tap) * C + c.
// OUT-LABEL: static void conv_tap_decode_migrated_launch(
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, K, 9 * C, 9 * C},
__global__ void conv_tap_decode(const bf16 *in, const bf16 *w, bf16 *out,
                                int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  const int kload = blockIdx.x * TILE + ty;
  const int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int tap = 0; tap < 9; ++tap) {
    const int r = tap / 3, s = tap % 3;
    const int ih = oh + r - 1, iw = ow + s - 1;
    for (int c0 = 0; c0 < C; c0 += TILE) {
      const int c = c0 + tx;
      As[ty][tx] = m < N * H * W && c < C && ih >= 0 && ih < H && iw >= 0 &&
                           iw < W
                       ? in[((n * H + ih) * W + iw) * C + c]
                       : bf16();
      Ws[ty][tx] = kload < K && c < C ? w[((kload * 3 + r) * 3 + s) * C + c]
                                      : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
      __syncthreads();
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void conv_taps_flat_migrated_launch(
// OUT: in, N, H, W, C, R, S, P, Q, (R / 2), (S / 2), 2, 2, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, C * R * S, K, K},
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

// A channel tile walked before the taps, the taps as loops over r and s or
// as one loop over rs: the same elements (tap, c0 + j), each once, in
// another order.
// OUT-LABEL: static void conv_channels_first_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, 3, 3, H,
// OUT-NEXT: W, 1, 1, 1, 1, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, K, 9 * C, 9 * C},
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
    int c = c0 + tx;
    for (int r = 0; r < 3; ++r) {
      int ih = oh + r - 1;
      for (int s = 0; s < 3; ++s) {
        int iw = ow + s - 1;
        As[ty][tx] = m < N * H * W && c < C && ih >= 0 && ih < H && iw >= 0 &&
                             iw < W
                         ? in[((n * H + ih) * W + iw) * C + c]
                         : bf16();
        Ws[ty][tx] = kload < K && c < C
                         ? w[((kload * 3 + r) * 3 + s) * C + c]
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

// OUT-LABEL: static void conv_channels_first_rs_migrated_launch(
// OUT: in, N, H, W, C, R, S, P, Q, (R / 2), (S / 2), 2, 2, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, C * R * S, K, K},
__global__ void conv_channels_first_rs(const bf16 *in, const bf16 *w,
                                       bf16 *out, int N, int H, int W, int C,
                                       int K, int R, int S, int P, int Q) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    for (int rs = 0; rs < R * S; ++rs) {
      int r = rs / S, s = rs % S;
      int ih = 2 * p - R / 2 + r, iw = 2 * q - S / 2 + s;
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

// A scale computed before the loop from the kernel's parameters alone.
// OUT-LABEL: __global__ void conv_scaled_tiled(
// OUT: tawa::Matrix<__nv_bfloat16> out, int C) {
// OUT: const float scale = 1.0f / sqrtf((float)(9 * C));
// OUT: tawa::store(out, m0, n0, scale * acc);
__global__ void conv_scaled(const bf16 *in, const bf16 *w, bf16 *out, int N,
                            int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  const float scale = 1.0f / sqrtf((float)(9 * C));
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C;
    int ih = oh + rs / 3 - 1, iw = ow + rs % 3 - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 &&
                         iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(scale * acc);
}

// A block of TILE * TILE threads in one dimension, split by TILE into the
// tile's row and column ("valid", no padding).
// OUT-LABEL: static void conv_flat_block_migrated_launch(
// OUT: if (tawa_block.x != 1024 || tawa_block.y != 1 || tawa_block.z != 1 ||
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

// OUT-LABEL: static void conv_kcrs_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{
// OUT-NEXT: in, N, H, W, C, R, S, H, W, (R / 2), (S / 2), 1, 1, 1, 1};
// OUT: // The weights' column runs the channels outermost, (c * R + r) * S + s:
// OUT-NEXT: // the tiled form reads them from a copy in the order of the im2col
// OUT-NEXT: // matrix's columns, (r * S + s) * C + c.
// OUT-NEXT: const tawa::FilterCopy<const __nv_bfloat16> tawa_w(
// OUT-NEXT: tawa::Matrix<const __nv_bfloat16>{w, K, C * R * S, C * R * S},
// OUT-NEXT: /*k_major=*/true, C, R * S, tawa_stream);
// OUT-NEXT: if (tawa_w.error() != cudaSuccess) {
// OUT-NEXT: conv_kcrs<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(
// OUT-NEXT: in, w, out, N, H, W, C, K, R, S);
// OUT-NEXT: return;
// OUT-NEXT: }
// OUT-NEXT: conv_kcrs_tiled<<<
// OUT: tawa_x, tawa_w.matrix(),
// R x S "same" with PyTorch's weights, K x C x R x S: the column k runs
// the channels outermost, c = k / (R * S), r = (k / S) % R, s = k % S.
__global__ void conv_kcrs(const bf16 *in, const bf16 *w, bf16 *out, int N,
                          int H, int W, int C, int K, int R, int S) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < C * R * S; t += TILE) {
    int kk = t + tx;
    int c = kk / (R * S), r = (kk / S) % R, s = kk % S;
    int ih = oh - R / 2 + r, iw = ow - S / 2 + s;
    As[ty][tx] = m < N * H * W && kk < C * R * S && ih >= 0 && ih < H &&
                         iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] =
        kload < K && kk < C * R * S ? w[kload * (C * R * S) + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void conv_crsk_migrated_launch(
// OUT: const tawa::FilterCopy<const __nv_bfloat16> tawa_w(
// OUT-NEXT: tawa::Matrix<const __nv_bfloat16>{w, 9 * C, K, K}, /*k_major=*/false, C,
// OUT-NEXT: 3 * 3, tawa_stream);
// 3 x 3 "same", weights C x 3 x 3 x K (the channels outermost, the
// output channels innermost), the tap decode written with '%' first.
__global__ void conv_crsk(const bf16 *in, const bf16 *w, bf16 *out, int N,
                          int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx, kw = t + ty;
    int tap = kk % 9, c = kk / 9;
    int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H &&
                         iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kw < 9 * C && k < K ? w[kw * K + k] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[j][tx]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void no_k_bound_migrated_launch(
// OUT: W <= 0 || C <= 0 || (9 * C) % 32 != 0 ||
// No check of the column against R * S * C: a kernel for R * S * C a
// multiple of TILE, which the launcher runs as written for any other.
__global__ void no_k_bound(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
// OUT-LABEL: static void nested_migrated_launch(
// OUT: W <= 0 || C <= 0 || C % 32 != 0 || !tawa::im2col_tma_loadable(tawa_x) ||
// Loops over the taps and a channel tile whose staging copies do not check
// the channel against C (a kernel for C a multiple of TILE).
__global__ void nested(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int rs = 0; rs < 9; ++rs) {
    int r = rs / 3, s = rs % 3;
    for (int c0 = 0; c0 < C; c0 += TILE) {
      int ih = oh + r - 1, iw = ow + s - 1;
      As[ty][tx] = m < N * H * W && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c0 + tx] : bf16();
      Ws[ty][tx] = kload < K ? w[(kload * 9 + rs) * C + c0 + tx] : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
      __syncthreads();
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void conv_grid_images_migrated_launch(
// OUT: tawa_rows_covered = 1LL * tawa_grid.z * (H * W),
// OUT: tawa_rows_covered < 2147483647LL ? int(tawa_rows_covered) : 0;
// OUT: x, int(tawa_grid.z), H, W, C, 3, 3, H, W, 1, 1, 1, 1, 1, 1};
// OUT: 1LL * tawa_grid.y * 32 < (H * W) ||
// OUT: tawa::Matrix<__nv_bfloat16>{y, tawa_rows, tawa_cols, K}
// The batch on the grid's layers: image blockIdx.z, reached through pointers
// to it, its pixel m < H * W decoded as 'm / W' and 'm % W'. The rows of the
// tiled form are those of grid.z images.
__global__ void conv_grid_images(const bf16 *x, const bf16 *w, bf16 *y, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int n = blockIdx.z;
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int oh = m / W, ow = m % W;
  const bf16 *xn = x + (size_t)n * H * W * C;
  bf16 *yn = y + (size_t)n * H * W * K;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x, c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[threadIdx.y][threadIdx.x] = m < H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W ? xn[(ih * W + iw) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < H * W && k < K)
    yn[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void conv_grid_images_strided_migrated_launch(
// OUT: x, int(tawa_grid.z), H, W, C, R, S, P, Q, pad, pad, stride, stride, 1, 1};
// OUT: 1LL * tawa_grid.y * 32 < (P * Q) ||
// The same with the image in the indices themselves, an output of P x Q
// given, a stride and a padding, and the row decoded as '(m / Q) % P'.
__global__ void conv_grid_images_strided(const bf16 *x, const bf16 *w, bf16 *y, int H, int W, int C, int K, int R, int S, int P, int Q, int stride, int pad) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y, n = blockIdx.z;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int p = (m / Q) % P, q = m % Q;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < R * S * C; t += TILE) {
    int kk = t + tx, c = kk % C, s = (kk / C) % S, r = kk / (S * C);
    int ih = p * stride - pad + r, iw = q * stride - pad + s;
    if (m < P * Q && kk < R * S * C && ih >= 0 && ih < H && iw >= 0 && iw < W)
      As[ty][tx] = x[((n * H + ih) * W + iw) * C + c];
    else
      As[ty][tx] = bf16();
    Ws[ty][tx] = kload < K && kk < R * S * C ? w[kload * R * S * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < P * Q && k < K)
    y[(n * P * Q + m) * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void pointwise_decoded_migrated_launch(
// OUT: tawa::Im2col<const __nv_bfloat16>{x, N, H, W, C, 1, 1, H,
// OUT-NEXT: W, 0, 0, 1, 1, 1, 1};
// A 1x1 convolution whose pixel is decoded into its image, row and column
// and read as in[((n * H + h) * W + w) * C + c]: H and W read off the
// address; the pixels cover the input exactly (no launch check of its
// reads).
__global__ void pointwise_decoded(const bf16 *x, const bf16 *w, bf16 *y, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int n = m / (H * W), h = (m / W) % H, ww = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    const int c = c0 + threadIdx.x;
    As[threadIdx.y][threadIdx.x] = m < N * H * W && c < C ? x[((n * H + h) * W + ww) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && c < C ? w[kload * C + c] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    y[m * K + k] = __float2bfloat16_rn(acc);
}

// OUT-LABEL: static void pointwise_strided_migrated_launch(
// OUT: x, int(tawa_grid.z), H, W, C, 1, 1, P, Q, 0, 0, stride, stride, 1, 1};
// OUT: 1LL * (P - 1) * (stride) >= H ||
// OUT: 1LL * (Q - 1) * (stride) >= W
// A strided 1x1 convolution (a projection shortcut) with the images on the
// grid's layers: the output pixel (p, q) reads input pixel (p * stride, q *
// stride), without checks of the input row and column, so the launcher
// runs the kernel as written where the last output pixel reads outside the
// input.
__global__ void pointwise_strided(const bf16 *x, const bf16 *w, bf16 *y, int H, int W, int C, int K, int P, int Q, int stride) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int img = blockIdx.z;
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int ih = (m / Q) * stride, iw = (m % Q) * stride;
  const bf16 *image = x + (size_t)img * H * W * C;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < C; t += TILE) {
    const int c = t + threadIdx.x;
    if (m < P * Q && c < C)
      As[threadIdx.y][threadIdx.x] = image[(ih * W + iw) * C + c];
    else
      As[threadIdx.y][threadIdx.x] = bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && c < C ? w[kload * C + c] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < P * Q && k < K)
    y[((size_t)img * P * Q + m) * K + k] = __float2bfloat16_rn(acc);
}

// Every form is rewritten: the producers of every kernel (the wide, narrow,
// ping-pong and cluster ones) of each of the seventeen load the activations by
// im2col.
// COUNT: 212
