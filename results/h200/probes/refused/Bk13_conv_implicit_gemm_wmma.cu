// Implicit-GEMM convolution on tensor cores (the cuDNN "IMPLICIT_GEMM"
// formulation): GEMM rows are output pixels of an NHWC batch, columns output
// channels, the reduction index kk = (r * S + s) * C + c runs over R * S * C.
// A 4-warp block (2 x 2, one fragment per warp) computes 32 pixels x 32
// channels; the im2col tile is gathered into shared memory with zero fill for
// padding, weights are K x (R*S*C). Stride, padding and dilation are
// parameters. Bias added in the epilogue through a shared float tile; bf16 out.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;
typedef __nv_bfloat16 bf16;

constexpr int BM = 32, BN = 32, BK = 32, LD = BK + 8;

__global__ void conv_fprop_wmma(const bf16 *__restrict__ act, const bf16 *__restrict__ wgt,
                                const float *__restrict__ bias, bf16 *__restrict__ outp,
                                int N, int H, int W, int C, int K, int R, int S, int P,
                                int Q, int strideH, int strideW, int padH, int padW,
                                int dilH, int dilW) {
  __shared__ __align__(32) bf16 As[BM][LD];
  __shared__ __align__(32) bf16 Bs[BN][LD];
  __shared__ __align__(32) float Cs[BM][BN + 4];

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int mBlock = blockIdx.x * BM;
  const int nBlock = blockIdx.y * BN;
  const int gemmM = N * P * Q;
  const int gemmK = R * S * C;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < gemmK; k0 += BK) {
    // im2col gather of the activation tile
    for (int e = tid; e < BM * BK; e += 128) {
      const int row = e / BK, col = e % BK;
      const int m = mBlock + row, kk = k0 + col;
      const int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = p * strideH - padH + r * dilH;
      const int iw = q * strideW - padW + s * dilW;
      As[row][col] = (m < gemmM && kk < gemmK && ih >= 0 && ih < H && iw >= 0 && iw < W)
                         ? act[((n * H + ih) * W + iw) * C + c]
                         : __float2bfloat16_rn(0.f);
    }
    // weight tile, K x (R*S*C) row-major
    for (int e = tid; e < BN * BK; e += 128) {
      const int row = e / BK, col = e % BK;
      const int ko = nBlock + row, kk = k0 + col;
      Bs[row][col] = (ko < K && kk < gemmK) ? wgt[ko * gemmK + kk] : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
#pragma unroll
    for (int ks = 0; ks < BK; ks += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::col_major> b;
      wmma::load_matrix_sync(a, &As[(warp / 2) * 16][ks], LD);
      wmma::load_matrix_sync(b, &Bs[(warp % 2) * 16][ks], LD);
      wmma::mma_sync(acc, a, b, acc);
    }
    __syncthreads();
  }

  wmma::store_matrix_sync(&Cs[(warp / 2) * 16][(warp % 2) * 16], acc, BN + 4,
                          wmma::mem_row_major);
  __syncthreads();
  for (int e = tid; e < BM * BN; e += 128) {
    const int row = e / BN, col = e % BN;
    const int m = mBlock + row, ko = nBlock + col;
    if (m < gemmM && ko < K)
      outp[m * K + ko] = __float2bfloat16_rn(Cs[row][col] + bias[ko]);
  }
}

void conv_fprop(const bf16 *act, const bf16 *wgt, const float *bias, bf16 *out, int N, int H,
                int W, int C, int K, int R, int S, int strideH, int strideW, int padH,
                int padW, int dilH, int dilW, cudaStream_t stream) {
  const int P = (H + 2 * padH - dilH * (R - 1) - 1) / strideH + 1;
  const int Q = (W + 2 * padW - dilW * (S - 1) - 1) / strideW + 1;
  dim3 grid((N * P * Q + BM - 1) / BM, (K + BN - 1) / BN);
  conv_fprop_wmma<<<grid, 128, 0, stream>>>(act, wgt, bias, out, N, H, W, C, K, R, S, P, Q,
                                            strideH, strideW, padH, padW, dilH, dilW);
}
