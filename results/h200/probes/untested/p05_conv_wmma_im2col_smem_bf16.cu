// Implicit-GEMM conv on tensor cores (WMMA): a 32x32 output tile per block of 4 warps (2x2),
// the im2col tile and the filter tile gathered cooperatively into shared memory, bias + ReLU
// applied through a per-warp float scratch, bf16 NHWC output.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 32, BN = 32, BK = 16, LDS = BK + 8;

__global__ void conv_wmma_kernel(const __nv_bfloat16 *__restrict__ in,
                                 const __nv_bfloat16 *__restrict__ wgt,
                                 const float *__restrict__ bias, __nv_bfloat16 *__restrict__ out,
                                 int N, int H, int W, int C, int K, int R, int S, int P, int Q,
                                 int pad, int stride) {
  __shared__ __align__(32) __nv_bfloat16 As[BM][LDS];
  __shared__ __align__(32) __nv_bfloat16 Bs[BN][LDS];
  __shared__ __align__(32) float scratch[4][16 * 16];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int wr = warp / 2, wc = warp % 2;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int M = N * P * Q;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < R * S * C; k0 += BK) {
    for (int i = tid; i < BM * BK; i += blockDim.x) {
      const int row = i / BK, col = i % BK;
      const int m = m0 + row, k = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = k % C, s = (k / C) % S, r = k / (S * C);
      const int ih = oh * stride - pad + r, iw = ow * stride - pad + s;
      As[row][col] = (m < M && k < R * S * C && ih >= 0 && ih < H && iw >= 0 && iw < W)
                         ? in[((img * H + ih) * W + iw) * C + c]
                         : __float2bfloat16(0.f);
    }
    for (int i = tid; i < BN * BK; i += blockDim.x) {
      const int row = i / BK, col = i % BK;
      const int f = n0 + row, k = k0 + col;
      Bs[row][col] = (f < K && k < R * S * C) ? wgt[f * (R * S * C) + k] : __float2bfloat16(0.f);
    }
    __syncthreads();
    wmma::load_matrix_sync(fa, &As[wr * 16][0], LDS);
    wmma::load_matrix_sync(fb, &Bs[wc * 16][0], LDS);
    wmma::mma_sync(fc, fa, fb, fc);
    __syncthreads();
  }

  wmma::store_matrix_sync(scratch[warp], fc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int m = m0 + wr * 16 + e / 16;
    const int f = n0 + wc * 16 + e % 16;
    if (m < M && f < K)
      out[m * K + f] = __float2bfloat16_rn(fmaxf(scratch[warp][e] + bias[f], 0.f));
  }
}

void conv_wmma_forward(const __nv_bfloat16 *in, const __nv_bfloat16 *wgt, const float *bias,
                       __nv_bfloat16 *out, int N, int H, int W, int C, int K, int R, int S,
                       int pad, int stride, cudaStream_t stream) {
  const int P = (H + 2 * pad - R) / stride + 1, Q = (W + 2 * pad - S) / stride + 1;
  dim3 grid((K + BN - 1) / BN, (N * P * Q + BM - 1) / BM);
  conv_wmma_kernel<<<grid, 128, 0, stream>>>(in, wgt, bias, out, N, H, W, C, K, R, S, P, Q, pad,
                                             stride);
}
