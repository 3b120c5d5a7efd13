// Implicit-GEMM convolutions staged cooperatively whose K loop is loops over
// the filter taps around a channel tile: 'for (int rs = 0; rs < R * S; ++rs)'
// with r = rs / S and s = rs % S, or 'for (int r ...) for (int s ...)', then
// 'for (int c0 = 0; c0 < C; c0 += TILE)'. lib/BlockedLift.cpp (tapNest)
// follows the channel tile's loop as the K loop, the taps' variables
// symbols, and proves each staged element of the activations im2col element
// (m, tap * C + c0 + j) under the channel's check 'c0 + j < C'
// (GemmLoopReader::TapChannels); the weights are read as a GEMM's B of R * S
// * C rows. The loops visit every tap and channel once, as the tiled form's
// flattened loop over R * S * C does. A WMMA kernel (the activations' checks
// named by a bool, HWIO weights), a scalar one (loops over r and s, KRSC
// weights, their checks named by a bool) and a register-blocked one (a 3 x 3
// filter walked by one loop). A kernel whose copies leave out the channel's
// check is one for whole channel tiles: its launcher runs the tiled form only
// where C is a multiple of the tile.
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

// COUNT: 4

// clang-format off
// OUT-LABEL: __global__ void wmma_taps_tiled(tawa::Im2col<const __nv_bfloat16> x,
// OUT: tawa::store(y, m0, n0, acc);
// OUT-LABEL: wmma_taps_migrated_launch(dim3 tawa_grid
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{
// OUT-NEXT: x, N, H, W, C, R, S, P, Q, pad, pad, stride, stride, 1, 1};
// OUT: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, C * R * S, K, K},
// clang-format on
__global__ void wmma_taps(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
                          __nv_bfloat16 *y, int N, int H, int W, int C, int K,
                          int R, int S, int P, int Q, int stride, int pad) {
  __shared__ __align__(32) __nv_bfloat16 As[64][24];
  __shared__ __align__(32) __nv_bfloat16 Bs[16][40];
  __shared__ __align__(32) float scratch[8][256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / 2, wn = warp % 2;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 32;
  const int M = N * P * Q;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
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

// clang-format off
// OUT-LABEL: __global__ void scalar_taps_tiled(tawa::Im2col<const __nv_bfloat16> in,
// OUT-LABEL: void scalar_taps_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{
// OUT-NEXT: in, N, H, W, C, R, S, P, Q, pad, pad, 1, 1, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{wt, K, C * R * S, C * R * S},
// clang-format on
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
          const bool inside = f < K && c0 + col < C;
          Bs[row][col] =
              inside
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

// clang-format off
// OUT-LABEL: __global__ void regblock_taps_tiled(tawa::Im2col<const __half> act,
// OUT-LABEL: void regblock_taps_migrated_launch(
// OUT: tawa::Im2col<const __half>{act, N, H, W, C, 3, 3, H, W, 1, 1, 1, 1, 1, 1};
// OUT: tawa_x, tawa::Matrix<const __half>{flt, K, 9 * C, 9 * C},
// clang-format on
__global__ void regblock_taps(const __half *act, const __half *flt, __half *out,
                              int N, int H, int W, int C, int K) {
  __shared__ float As[8][64];
  __shared__ float Bs[8][64];
  const int tid = threadIdx.x, tRow = tid / 16, tCol = tid % 16;
  const int mBase = blockIdx.y * 64, nBase = blockIdx.x * 64;
  float acc[4][4] = {};
  float a[4], b[4];
#pragma tawa tile
  for (int rs = 0; rs < 9; ++rs) {
    const int r = rs / 3, s = rs % 3;
    for (int c0 = 0; c0 < C; c0 += 8) {
      for (int i = tid; i < 64 * 8; i += blockDim.x) {
        const int mm = i / 8, kk = i % 8;
        const int m = mBase + mm;
        const int nimg = m / (H * W), oh = (m / W) % H, ow = m % W;
        const int ih = oh - 1 + r, iw = ow - 1 + s;
        __half v = __float2half(0.f);
        if (m < N * H * W && c0 + kk < C && ih >= 0 && ih < H && iw >= 0 &&
            iw < W)
          v = act[((nimg * H + ih) * W + iw) * C + c0 + kk];
        As[kk][mm] = __half2float(v);
      }
      for (int i = tid; i < 64 * 8; i += blockDim.x) {
        const int nn = i / 8, kk = i % 8;
        const int f = nBase + nn;
        Bs[kk][nn] = f < K && c0 + kk < C
                         ? __half2float(flt[((f * 3 + r) * 3 + s) * C + c0 + kk])
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
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int m = mBase + tRow * 4 + i, f = nBase + tCol * 4 + j;
      if (m < N * H * W && f < K)
        out[m * K + f] = __float2half_rn(acc[i][j]);
    }
}

// The channel's check left out of both copies, as kernels written for
// channel counts that are multiples of 32 do: C % 32 != 0 runs as written.
// clang-format off
// OUT-LABEL: void unchecked_channels_migrated_launch(
// OUT: tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, 3, 3, H,
// OUT-NEXT: {{^ *}}W, {{ *}}1, 1, 1, 1, 1, 1};
// OUT: C % 32 != 0 ||
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{wt, 9 * C, K, K},
// clang-format on
__global__ void unchecked_channels(const __nv_bfloat16 *in,
                                   const __nv_bfloat16 *wt, float *out, int N,
                                   int H, int W, int C, int K) {
  __shared__ float As[16][32];
  __shared__ float Bs[16][32];
  const int tid = threadIdx.x, tm = tid / 16, tn = tid % 16;
  const int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  const int M = N * H * W;
  float acc = 0.f;
#pragma tawa tile
  for (int rs = 0; rs < 9; ++rs) {
    const int r = rs / 3, s = rs % 3;
    for (int c0 = 0; c0 < C; c0 += 32) {
      for (int i = tid; i < 16 * 32; i += blockDim.x) {
        const int row = i / 32, col = i % 32;
        const int m = m0 + row;
        const int img = m / (H * W), oh = (m / W) % H, ow = m % W;
        const int ih = oh - 1 + r, iw = ow - 1 + s;
        As[row][col] = m < M && ih >= 0 && ih < H && iw >= 0 && iw < W
                           ? __bfloat162float(
                                 in[((img * H + ih) * W + iw) * C + c0 + col])
                           : 0.f;
      }
      for (int i = tid; i < 16 * 32; i += blockDim.x) {
        const int row = i / 32, col = i % 32;
        const int f = n0 + row;
        Bs[row][col] =
            f < K ? __bfloat162float(wt[(rs * C + c0 + col) * K + f]) : 0.f;
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
