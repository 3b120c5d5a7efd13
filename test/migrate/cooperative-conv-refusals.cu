// Cooperative implicit-GEMM convolutions (test/migrate/cooperative-conv.cu)
// that compute something else, or that the proof cannot show compute the
// im2col product: each is refused at the statement that breaks the form and
// left byte-identical. The first kernel is the form that lifts.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: sed -n '/^__global__ void missing_row_check/,$p' %s > %t.expected
// RUN: sed -n '/^__global__ void missing_row_check/,$p' %t.cu | diff %t.expected -
#include <cuda_bf16.h>

// The form lifted, for the variants below.
__global__ void reference(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The input row checked against 0 only: 'ih < H' left out.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'missing_row_check' is left unchanged
__global__ void missing_row_check(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The pixel checked 'm <= M', one past the output.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'loose_pixel_check' is left unchanged
__global__ void loose_pixel_check(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m <= M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The activations' column checked 'kk <= Kg', one past the matrix.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'loose_column_check' is left unchanged
__global__ void loose_column_check(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk <= Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The channel read one past the decoded one.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'address_shifted' is left unchanged
__global__ void address_shifted(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c + 1]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The address strides rows by H and images by W.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'height_width_swapped' is left unchanged
__global__ void height_width_swapped(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * W + ih) * H + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The column decoded channels outermost (s = kk % S, r = (kk / S) % R, c = kk / (R * S)).
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'channels_outer' is left unchanged
__global__ void channels_outer(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int s = kk % S, r = (kk / S) % R, c = kk / (R * S);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// The filter row added to the input column and the filter column to the input row.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'tap_offsets_swapped' is left unchanged
__global__ void tap_offsets_swapped(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + s, iw = ow - 1 + r;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// A residual read from the activations' own pointer: the tiled form takes
// each operand once, so the epilogue may not read A or B.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: the stored value reads 'in', an operand of the product
// CHECK: note: kernel 'residual_from_input' is left unchanged
__global__ void residual_from_input(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc + __bfloat162float(in[m * K + f]);
}

// A 64-bit address whose row check against 0 is left out: for ih = -1 it
// reads the end of the row above (the wrapped sum is that address), not 0.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'wrapped_row_unchecked' is left unchanged
__global__ void wrapped_row_unchecked(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[(((size_t)img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// A 32-bit unsigned address: for ih = -1 it wraps to 2^32 - W * C + ...,
// another address than the pixel's.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: the matrix index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses a conversion to an unsigned type of a value that may be negative
// CHECK: note: kernel 'unsigned32_address' is left unchanged
__global__ void unsigned32_address(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[(unsigned)(((img * H + ih) * W + iw) * C + c)]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// A wrapped 64-bit address reduced modulo the tensor's size: '%' of the
// wrapped value is not that of the integer.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: the matrix index is not a polynomial {{.*}}: it uses a conversion to an unsigned type of a value that may be negative
// CHECK: note: kernel 'wrapped_remainder' is left unchanged
__global__ void wrapped_remainder(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((((size_t)img * H + ih) * W + iw) * C + c) % ((size_t)N * H * W * C)]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// '(unsigned)ih <= (unsigned)H' admits ih = H, a row past the image.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'unsigned_row_inclusive' is left unchanged
__global__ void unsigned_row_inclusive(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && (unsigned)ih <= (unsigned)H && (unsigned)iw < (unsigned)W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// '(unsigned)(ih + 1) < (unsigned)(H + 1)' admits ih = -1, the padding row.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: this staging copy does not read the im2col element of its tile row and column
// CHECK: note: kernel 'unsigned_row_shifted' is left unchanged
__global__ void unsigned_row_shifted(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && (unsigned)(ih + 1) < (unsigned)(H + 1) && (unsigned)iw < (unsigned)W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}

// A 32-bit unsigned row compared in 64 bits: a negative row is 2^32 + ih
// there, which a 64-bit extent could exceed; not read as 0 <= ih < H.
// CHECK: cooperative-conv-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to an implicit-GEMM convolution {{.*}} breaks it: expected bounds checks 'a < b', 'a >= 0' of index arithmetic (signed, or '(unsigned)a < (unsigned)b' for 0 <= a < b) joined by '&&'
// CHECK: note: kernel 'unsigned_widths_mixed' is left unchanged
__global__ void unsigned_widths_mixed(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                              float *out, int N, int H, int W, int C, int K,
                              int R, int S, int P, int Q) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * P * Q, Kg = R * S * C;
  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += 32) {
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh - 1 + r, iw = ow - 1 + s;
      float v = 0.f;
      if (m < M && kk < Kg && (unsigned)ih < (size_t)H && (unsigned)iw < (unsigned)W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K && kk < Kg ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[m * K + f] = acc;
}
