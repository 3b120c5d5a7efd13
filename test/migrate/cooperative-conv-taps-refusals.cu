// Cooperative implicit-GEMM convolutions whose K loop is loops over the
// filter taps (test/migrate/cooperative-conv-taps.cu) that compute something
// else, or that the proof cannot show compute the im2col product: each is
// refused at the statement that breaks the form and left byte-identical. The
// first kernel is the form that lifts.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: sed -n '/^__global__ void channels_first/,$p' %s > %t.expected
// RUN: sed -n '/^__global__ void channels_first/,$p' %t.cu | diff %t.expected -
#include <cuda_bf16.h>

// The form lifted, for the variants below.
__global__ void scalar_taps(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
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
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The channel tile walked before the taps, staged in loops.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: loops over the filter taps inside the channel tile's loop are not lifted where the tiles are staged in loops
// CHECK: note: kernel 'channels_first' is left unchanged
__global__ void channels_first(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += 32)
    for (int r = 0; r < R; ++r) {
      for (int s = 0; s < S; ++s) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
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
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The channel checked against the filters, K, not the channels.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column: expected in{{\[}}((n * H + ih) * W + iw) * C + c0 + j{{\]}}
// CHECK: note: kernel 'wrong_channel_check' is left unchanged
__global__ void wrong_channel_check(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
          float v = 0.f;
          if (m < M && c0 + col < K && ih >= 0 && ih < H && iw >= 0 && iw < W)
            v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c0 + col]);
          As[row][col] = v;
        }
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int f = n0 + row;
          Bs[row][col] =
              f < K && c0 + col < C
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The channel checked 'c0 + col <= C', one past the pixel's channels.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: this staging copy does not read the im2col element
// CHECK: note: kernel 'loose_channel_check' is left unchanged
__global__ void loose_channel_check(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
          float v = 0.f;
          if (m < M && c0 + col <= C && ih >= 0 && ih < H && iw >= 0 && iw < W)
            v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c0 + col]);
          As[row][col] = v;
        }
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int f = n0 + row;
          Bs[row][col] =
              f < K && c0 + col < C
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The filter row added to the input column and the filter column to its row.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: this staging copy does not read the im2col element
// CHECK: note: kernel 'taps_swapped' is left unchanged
__global__ void taps_swapped(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + s, iw = ow - pad + r;
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
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// A statement after the channel tile's loop in the loop over s.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: expected the loops over the filter taps and the channels 'for (int r = 0; r < R; ++r) for (int s = 0; s < S; ++s) for (int c0 = 0; c0 < C; c0 += TILE)'
// CHECK: note: kernel 'barrier_after_channels' is left unchanged
__global__ void barrier_after_channels(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
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
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
      __syncthreads();
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The channel tile's loop bounded by the filters, K, while the address steps by C.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 32 per iteration
// CHECK: note: kernel 'channel_bound_other' is left unchanged
__global__ void channel_bound_other(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < K; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
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
                  ? __bfloat162float(wt[((f * R + r) * S + s) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The weights read at the swapped tap.
// CHECK: cooperative-conv-taps-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: {{.*}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 32 per iteration
// CHECK: note: kernel 'weights_tap_other' is left unchanged
__global__ void weights_tap_other(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, int N, int H, int W, int C, int K,
                            int R, int S, int P, int Q, int pad) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s) {
      for (int c0 = 0; c0 < C; c0 += 32) {
        for (int i = tid; i < 16 * 32; i += blockDim.x) {
          const int row = i / 32, col = i % 32;
          const int m = m0 + row;
          const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
          const int ih = oh - pad + r, iw = ow - pad + s;
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
                  ? __bfloat162float(wt[((f * R + s) * S + r) * C + c0 + col])
                  : 0.f;
        }
        __syncthreads();
        for (int kk = 0; kk < 32; ++kk)
          acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
        __syncthreads();
      }
    }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}
