// Implicit-GEMM convolutions whose tiles are gathered cooperatively: each
// thread of a block walks the elements of a tile in a loop of constant
// bounds ('for (int i = tid; i < BM * BK; i += blockDim.x)'), decoding the
// tile's row into the output pixel and its column into the filter tap and
// channel. lib/BlockedLift.cpp follows every thread and proves each staged
// element of the activations the im2col element of the row and column the
// product reads it as (GemmLoopReader::im2colElement): the address of the
// NHWC input and exactly its bounds checks. The product is a WMMA fragment's,
// a scalar FMA loop over float tiles of widened 16-bit elements, or a
// register micro-tile's. The K loop runs to R * S * C, or a local set to it.
// Copies that leave out the column's check make a kernel for whole tiles of
// R * S * C, which its launcher requires.
// (The outputs are checked without this file's own check lines.)
// clang-format off
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -c '^ *tawa::rt::tma_load_im2col_window' %t2.cu | FileCheck %s --check-prefix=COUNT
// clang-format on
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// COUNT: 5

// Four warps (2 x 2), one 16 x 16 fragment each; the result staged through
// a float scratch per warp, a bias and ReLU applied on the way out.
// clang-format off
// OUT-LABEL: __global__ void wmma_gather_tiled(tawa::Im2col<const __nv_bfloat16> x,
// OUT: tawa::store(y, m0, n0, tawa::relu(acc + tawa::load<1, {{[0-9]+}}>(bias, 0, n0)));
// OUT-LABEL: wmma_gather_migrated_launch(dim3 tawa_grid
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{
// OUT-NEXT: x, N, H, W, C, R, S, P, Q, pad, pad, stride, stride, 1, 1};
// OUT: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// OUT: P <= 0 ||
// OUT-NEXT: Q <= 0 || C <= 0 || S <= 0 || R <= 0 || H <= 0 || W <= 0 ||
// OUT: tawa::Matrix<const __nv_bfloat16>{w, K, C * R * S, C * R * S}
// clang-format on
__global__ void wmma_gather(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                            const float *bias, __nv_bfloat16 *y, int N, int H,
                            int W, int C, int K, int R, int S, int P, int Q,
                            int pad, int stride) {
  __shared__ __align__(32) __nv_bfloat16 As[32][24];
  __shared__ __align__(32) __nv_bfloat16 Bs[32][24];
  __shared__ __align__(32) float scratch[4][256];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wr = warp / 2, wc = warp % 2;
  const int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32;
  const int M = N * P * Q;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
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

// A one-dimensional block of 256 threads, one output each; float tiles
// holding widened bf16 elements, a register set under the checks; the K
// loop's bound a local; weights stored R x S x C x K (HWIO).
// clang-format off
// OUT-LABEL: __global__ void scalar_gather_tiled(tawa::Im2col<const __nv_bfloat16> in,
// OUT: tawa::store(out, m0, n0, acc);
// OUT-LABEL: void scalar_gather_migrated_launch(
// OUT: tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, R, S, P,
// OUT-NEXT: {{^ *}}Q, {{ *}}1, 1, 1, 1, 1, 1};
// OUT: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// clang-format on
__global__ void scalar_gather(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
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
      const int img = m / (P * Q), oh = (m % (P * Q)) / Q, ow = m % Q;
      const int c = kk % C, rs = kk / C;
      const int ih = oh - 1 + rs / S, iw = ow - 1 + rs % S;
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
    out[m * K + f] = acc;
}

// Register micro-tiles of 4 x 4 from tiles stored transposed ([k][m]); a
// half register set under the checks and widened into the float tile;
// separate paddings and strides per axis, no padding checks left out.
// clang-format off
// OUT-LABEL: __global__ void regblock_gather_tiled(tawa::Im2col<const __half> act,
// OUT: tawa::store(out, m0, n0, acc);
// OUT-LABEL: void regblock_gather_migrated_launch(
// OUT: act, N, H, W, C, R, S, P, Q, pad_h, pad_w, str_h, str_w, 1, 1};
// clang-format on
__global__ void regblock_gather(const __half *act, const __half *flt,
                                __half *out, int N, int H, int W, int C, int K,
                                int R, int S, int P, int Q, int pad_h,
                                int pad_w, int str_h, int str_w) {
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
      const int ih = oh * str_h - pad_h + rs / S;
      const int iw = ow * str_w - pad_w + rs % S;
      __half v = __float2half(0.f);
      if (m < N * P * Q && gk < R * S * C && ih >= 0 && ih < H && iw >= 0 &&
          iw < W)
        v = act[((nimg * H + ih) * W + iw) * C + c];
      As[kk][mm] = __half2float(v);
    }
    for (int i = tid; i < 64 * 8; i += blockDim.x) {
      const int nn = i / 8, kk = i % 8;
      const int f = nBase + nn, gk = k0 + kk;
      Bs[kk][nn] =
          f < K && gk < R * S * C ? __half2float(flt[f * R * S * C + gk]) : 0.f;
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
        out[m * K + f] = __float2half(acc[i][j]);
    }
}

// The scalar form with a 64-bit address, `(size_t)img * H + ih` wrapping
// around for ih = -1 (the same address), and the input row and column
// checked as unsigned values, `(unsigned)ih < (unsigned)H`: 0 <= ih < H.
// clang-format off
// OUT-LABEL: __global__ void unsigned_gather_tiled(tawa::Im2col<const __nv_bfloat16> in,
// OUT: tawa::store(out, m0, n0, acc);
// OUT-LABEL: void unsigned_gather_migrated_launch(
// OUT: tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, R, S, P,
// OUT-NEXT: {{^ *}}Q, {{ *}}1, 1, 1, 1, 1, 1};
// clang-format on
__global__ void unsigned_gather(const __nv_bfloat16 *in,
                                const __nv_bfloat16 *wt, float *out, int N,
                                int H, int W, int C, int K, int R, int S,
                                int P, int Q) {
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
      const int img = m / (P * Q), oh = (m % (P * Q)) / Q, ow = m % Q;
      const int c = kk % C, rs = kk / C;
      const int ih = oh - 1 + rs / S, iw = ow - 1 + rs % S;
      float v = 0.f;
      if (m < M && kk < Kg && (unsigned)ih < (unsigned)H && (unsigned)iw < W)
        v = __bfloat162float(in[(((size_t)img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] =
          f < K && kk < Kg ? __bfloat162float(wt[(size_t)kk * K + f]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K)
    out[(size_t)m * K + f] = acc;
}

// The column's check 'kk < Kg' left out of both copies, as in kernels
// written for R * S * C a multiple of the tile: the launcher runs the tiled
// form only there, where every column the loop visits is inside.
// clang-format off
// OUT-LABEL: void unchecked_column_migrated_launch(
// OUT: tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, R, S, P,
// OUT: (C * R * S) % 32 != 0 ||
// clang-format on
__global__ void unchecked_column(const __nv_bfloat16 *in,
                                 const __nv_bfloat16 *wt, float *out, int N,
                                 int H, int W, int C, int K, int R, int S,
                                 int P, int Q) {
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
      if (m < M && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < 16 * 32; i += blockDim.x) {
      const int row = i / 32, col = i % 32;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = f < K ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
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
