// Strided 1x1 convolution (the projection shortcut of a ResNet downsampling
// block) on NHWC bf16 with WMMA: the output pixel (n, oh, ow) reads input
// pixel (n, oh * stride, ow * stride), so the activation tile is gathered into
// shared memory before the fragments are loaded. 4 warps (2 x 2) per block,
// one 16 x 16 fragment each: a block computes 32 output pixels x 32 output
// channels. Weights are K x C. Output staged through shared memory, converted
// to bf16 and written with bounds checks.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;
using bf16 = __nv_bfloat16;

#define BLK_M 32
#define BLK_N 32
#define BLK_K 32
#define LDS (BLK_K + 8)

__global__ void conv1x1_s2_wmma(const bf16 *__restrict__ x, const bf16 *__restrict__ w,
                                bf16 *__restrict__ y, int N, int H, int W, int C, int K,
                                int stride) {
  __shared__ __align__(32) bf16 Xs[BLK_M][LDS];
  __shared__ __align__(32) bf16 Ws[BLK_N][LDS];
  __shared__ __align__(32) float Ys[BLK_M][BLK_N + 4];

  const int P = (H - 1) / stride + 1;
  const int Q = (W - 1) / stride + 1;
  const int NPQ = N * P * Q;

  const int warp = threadIdx.x / 32;
  const int wr = warp / 2, wc = warp % 2;
  const int m_base = blockIdx.x * BLK_M;
  const int k_base = blockIdx.y * BLK_N;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += BLK_K) {
    for (int i = threadIdx.x; i < BLK_M * BLK_K; i += blockDim.x) {
      const int r = i / BLK_K, cc = i % BLK_K;
      const int m = m_base + r, c = c0 + cc;
      bf16 v = __float2bfloat16_rn(0.0f);
      if (m < NPQ && c < C) {
        const int n = m / (P * Q);
        const int oh = (m / Q) % P;
        const int ow = m % Q;
        v = x[((n * H + oh * stride) * W + ow * stride) * C + c];
      }
      Xs[r][cc] = v;
    }
    for (int i = threadIdx.x; i < BLK_N * BLK_K; i += blockDim.x) {
      const int r = i / BLK_K, cc = i % BLK_K;
      const int k = k_base + r, c = c0 + cc;
      Ws[r][cc] = (k < K && c < C) ? w[k * C + c] : __float2bfloat16_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BLK_K; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> b;
      wmma::load_matrix_sync(a, &Xs[wr * 16][kk], LDS);
      wmma::load_matrix_sync(b, &Ws[wc * 16][kk], LDS);
      wmma::mma_sync(acc, a, b, acc);
    }
    __syncthreads();
  }

  wmma::store_matrix_sync(&Ys[wr * 16][wc * 16], acc, BLK_N + 4, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BLK_M * BLK_N; i += blockDim.x) {
    const int r = i / BLK_N, cc = i % BLK_N;
    const int m = m_base + r, k = k_base + cc;
    if (m < NPQ && k < K) y[m * K + k] = __float2bfloat16_rn(Ys[r][cc]);
  }
}

void conv1x1_stride(const bf16 *x, const bf16 *w, bf16 *y, int N, int H, int W, int C,
                    int K, int stride, cudaStream_t stream) {
  const int P = (H - 1) / stride + 1, Q = (W - 1) / stride + 1;
  dim3 grid((N * P * Q + BLK_M - 1) / BLK_M, (K + BLK_N - 1) / BLK_N);
  conv1x1_s2_wmma<<<grid, 128, 0, stream>>>(x, w, y, N, H, W, C, K, stride);
}
