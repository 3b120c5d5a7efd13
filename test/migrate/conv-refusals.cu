// Implicit-GEMM convolutions that do not lift get one verdict at the loop:
// the convolution, the gathering staging copy, and the statement that breaks
// the form lib/ConvLift.cpp proves, with what it expected; the kernels are
// left as written (without --migrate, byte-identical).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

#define TILE 32
using bf16 = __nv_bfloat16;

// A channel tile walked before the taps whose weights take the taps
// transposed ((s, r) for the activations' (r, s)): no element of the im2col
// matrix.
__global__ void channels_first_swapped(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the product does not read the weights w[col][k] (stored K x R x S x C or K x C x R x S, K the output channels) or w[k][col] (R x S x C x K or C x R x S x K) of a staged tile
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    for (int r = 0; r < 3; ++r) {
      for (int s = 0; s < 3; ++s) {
        int ih = oh + r - 1, iw = ow + s - 1;
        As[ty][tx] = m < N * H * W && c0 + tx < C && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c0 + tx] : bf16();
        Ws[ty][tx] = kload < K && c0 + tx < C ? w[((kload * 3 + s) * 3 + r) * C + c0 + tx] : bf16();
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
// CHECK: note: kernel 'channels_first_swapped' is left unchanged
// One loop over the taps decoded into r = tap / 3 and s = tap % 3, whose
// weights take them swapped, ((k * 3 + s) * 3 + r) * C + c: no element of
// the im2col matrix.
__global__ void tap_decode_swapped(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the product does not read the weights w[col][k] (stored K x R x S x C or K x C x R x S, K the output channels) or w[k][col] (R x S x C x K or C x R x S x K) of a staged tile
#pragma tawa tile
  for (int tap = 0; tap < 9; ++tap) {
    int r = tap / 3, s = tap % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    for (int c0 = 0; c0 < C; c0 += TILE) {
      As[ty][tx] = m < N * H * W && c0 + tx < C && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c0 + tx] : bf16();
      Ws[ty][tx] = kload < K && c0 + tx < C ? w[((kload * 3 + s) * 3 + r) * C + c0 + tx] : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
      __syncthreads();
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'tap_decode_swapped' is left unchanged
// A channel tile walked before the taps whose loop over the taps skips
// every other one.
__global__ void channels_first_skips(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: expected a staging copy
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    for (int rs = 0; rs < 9; rs += 2) {
      int r = rs / 3, s = rs % 3;
      int ih = oh + r - 1, iw = ow + s - 1;
      As[ty][tx] = m < N * H * W && c0 + tx < C && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c0 + tx] : bf16();
      Ws[ty][tx] = kload < K && c0 + tx < C ? w[(kload * 9 + rs) * C + c0 + tx] : bf16();
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
      __syncthreads();
    }
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'channels_first_skips' is left unchanged
// An upper bound one past the image.
__global__ void off_by_one(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}}, each checked against 0 and the input's height or width (docs/migration.md, 'Convolutions') [tawa-unsupported]
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih <= H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'off_by_one' is left unchanged
// No check of the column against R * S * C, and R * S * C a constant that
// is no multiple of TILE (C = 20): the kernel reads past the filter's end.
#define C20 20
__global__ void no_k_bound_const(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: {{.*}} breaks it: a staging copy does not check the column against 180, which is no multiple of 32: the kernel reads past the filter's end (docs/migration.md, 'Convolutions') [tawa-unsupported]
#pragma tawa tile
  for (int t = 0; t < 9 * C20; t += TILE) {
    int kk = t + tx;
    int c = kk % C20, rs = kk / C20, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && ih >= 0 && ih < H && iw >= 0 && iw < W ? in[((n * H + ih) * W + iw) * C20 + c] : bf16();
    Ws[ty][tx] = kload < K ? w[kload * 9 * C20 + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'no_k_bound_const' is left unchanged

// The images on the grid's layers, but the output's pointer steps by a row
// of the image per layer: the layers would overlap.
__global__ void grid_images_row_step(const bf16 *x, const bf16 *w, bf16 *y, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int n = blockIdx.z;
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int oh = m / W, ow = m % W;
  bf16 *yn = y + n * W * K;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the output's index must step by a whole image, P * Q * ldo elements, per layer of the grid (blockIdx.z)
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x, c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[threadIdx.y][threadIdx.x] = m < H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W ? x[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < H * W && k < K)
    yn[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'grid_images_row_step' is left unchanged

// The images on the grid's layers with pixels checked against a parameter
// M rather than the image's H * W: a layer's pixels could run into the next
// image.
__global__ void grid_images_other_bound(const bf16 *x, const bf16 *w, bf16 *y, int M, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int n = blockIdx.z;
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int oh = m / W, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: expected the pixel m of the image blockIdx.z decoded as 'p = m / Q' (or '(m / Q) % P') and 'q = m % Q', and checked 'm < P * Q'
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x, c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[threadIdx.y][threadIdx.x] = m < M && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W ? x[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < M && k < K)
    y[(n * M + m) * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'grid_images_other_bound' is left unchanged

// Weights chosen by the grid's layer (a filter per image): the weights are
// one matrix for every row of the im2col matrix.
__global__ void grid_images_weights(const bf16 *x, const bf16 *w, bf16 *y, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int n = blockIdx.z;
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int oh = m / W, ow = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the product does not read the weights
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x, c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    As[threadIdx.y][threadIdx.x] = m < H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W ? x[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && kk < 9 * C ? w[(n * K + kload) * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < H * W && k < K)
    y[(n * H * W + m) * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'grid_images_weights' is left unchanged

// A 1x1 convolution read one input pixel to the right of the output's
// (an offset, padding the form does not take without checks).
__global__ void pointwise_offset(const bf16 *x, const bf16 *w, bf16 *y, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  const int m = blockIdx.y * TILE + threadIdx.y, k = blockIdx.x * TILE + threadIdx.x;
  const int kload = blockIdx.x * TILE + threadIdx.y;
  const int n = m / (H * W), h = (m / W) % H, ww = m % W;
  float acc = 0.f;
// CHECK: conv-refusals.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: expected the column k decoded as 'c = k % C', 's = (k / C) % S', 'r = k / (C * S)' (or channels outermost), or, for a 1x1 convolution whose column is the channel, the staging copy reading in[((n * H + p * stride) * W + q * stride) * C + c] of the NHWC input, without padding
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    const int c = c0 + threadIdx.x;
    As[threadIdx.y][threadIdx.x] = m < N * H * W && c < C ? x[((n * H + h) * W + ww + 1) * C + c] : bf16();
    Ws[threadIdx.y][threadIdx.x] = kload < K && c < C ? w[kload * C + c] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[threadIdx.y][j]) * __bfloat162float(Ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    y[m * K + k] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'pointwise_offset' is left unchanged
