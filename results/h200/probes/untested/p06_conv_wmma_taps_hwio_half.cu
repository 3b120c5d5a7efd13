// 3x3 / RxS convolution on tensor cores, loops over the filter taps and a 16-channel slice.
// 8 warps arranged 4 (pixels) x 2 (filters); each warp owns one 16x16 accumulator fragment.
// NHWC half input, HWIO (R,S,C,K) half weights, float NHWC output stored straight from fragments.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define WARPS_M 4
#define WARPS_N 2
#define TM (16 * WARPS_M)
#define TN (16 * WARPS_N)
#define TK 16

__global__ void conv_taps_wmma(const half *__restrict__ x, const half *__restrict__ w,
                               float *__restrict__ y, int N, int H, int W, int C, int K, int R,
                               int S, int P, int Q, int pad, int stride) {
  __shared__ __align__(32) half sA[TM][TK + 8];
  __shared__ __align__(32) half sB[TK][TN + 8];

  const int warp = threadIdx.x >> 5;
  const int warp_m = warp / WARPS_N, warp_n = warp % WARPS_N;
  const int m_blk = blockIdx.y * TM, n_blk = blockIdx.x * TN;
  const int M = N * P * Q;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);

#pragma tawa tile
  for (int rs = 0; rs < R * S; ++rs) {
    const int r = rs / S, s = rs % S;
    for (int c0 = 0; c0 < C; c0 += TK) {
      for (int i = threadIdx.x; i < TM * TK; i += blockDim.x) {
        const int row = i / TK, cc = i % TK;
        const int m = m_blk + row;
        const int n = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
        const int ih = oh * stride - pad + r, iw = ow * stride - pad + s;
        const bool ok = m < M && c0 + cc < C && ih >= 0 && ih < H && iw >= 0 && iw < W;
        sA[row][cc] = ok ? x[((size_t)(n * H + ih) * W + iw) * C + c0 + cc] : __float2half(0.f);
      }
      for (int i = threadIdx.x; i < TK * TN; i += blockDim.x) {
        const int cc = i / TN, col = i % TN;
        const int k = n_blk + col;
        sB[cc][col] = (c0 + cc < C && k < K) ? w[((size_t)rs * C + c0 + cc) * K + k]
                                             : __float2half(0.f);
      }
      __syncthreads();
      wmma::load_matrix_sync(a_frag, &sA[warp_m * 16][0], TK + 8);
      wmma::load_matrix_sync(b_frag, &sB[0][warp_n * 16], TN + 8);
      wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
      __syncthreads();
    }
  }

  const int row = m_blk + warp_m * 16, col = n_blk + warp_n * 16;
  if (row < M && col < K)
    wmma::store_matrix_sync(y + (size_t)row * K + col, c_frag, K, wmma::mem_row_major);
}

// Requires N*P*Q and K to be multiples of 16 (whole fragments are stored).
void conv_taps_wmma_launch(const half *x, const half *w, float *y, int N, int H, int W, int C,
                           int K, int R, int S, int pad, int stride) {
  const int P = (H + 2 * pad - R) / stride + 1, Q = (W + 2 * pad - S) / stride + 1;
  dim3 grid((K + TN - 1) / TN, (N * P * Q + TM - 1) / TM);
  conv_taps_wmma<<<grid, 32 * WARPS_M * WARPS_N>>>(x, w, y, N, H, W, C, K, R, S, P, Q, pad,
                                                    stride);
}
