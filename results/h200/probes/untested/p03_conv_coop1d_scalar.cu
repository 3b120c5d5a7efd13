// Implicit-GEMM conv with cooperative staging from a 1-D thread block (256 threads):
// a 16-pixel x 16-filter output tile, one output per thread, BK = 32 im2col columns per step.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 16
#define BN 16
#define BK 32
#define NTHREADS 256

struct ConvParams {
  int N, H, W, C, K, R, S, P, Q, pad, stride;
};

__global__ void __launch_bounds__(NTHREADS)
conv_igemm_coop(const __nv_bfloat16 *__restrict__ in, const __nv_bfloat16 *__restrict__ wt,
                float *__restrict__ out, int N, int H, int W, int C, int K, int R, int S, int P,
                int Q, int pad, int stride) {
  __shared__ float As[BM][BK];   // im2col rows (pixels) x columns
  __shared__ float Bs[BN][BK];   // filters x columns

  const int tid = threadIdx.x;
  const int tm = tid / BN, tn = tid % BN;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int M = N * P * Q, Kg = R * S * C;

  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < Kg; k0 += BK) {
    for (int i = tid; i < BM * BK; i += blockDim.x) {
      const int row = i / BK, col = i % BK;
      const int m = m0 + row, kk = k0 + col;
      const int img = m / (P * Q), oh = (m / Q) % P, ow = m % Q;
      const int c = kk % C, s = (kk / C) % S, r = kk / (S * C);
      const int ih = oh * stride - pad + r, iw = ow * stride - pad + s;
      float v = 0.f;
      if (m < M && kk < Kg && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = __bfloat162float(in[((img * H + ih) * W + iw) * C + c]);
      As[row][col] = v;
    }
    for (int i = tid; i < BN * BK; i += blockDim.x) {
      const int row = i / BK, col = i % BK;
      const int f = n0 + row, kk = k0 + col;
      Bs[row][col] = (f < K && kk < Kg) ? __bfloat162float(wt[f * Kg + kk]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < BK; ++kk)
      acc = fmaf(As[tm][kk], Bs[tn][kk], acc);
    __syncthreads();
  }
  const int m = m0 + tm, f = n0 + tn;
  if (m < M && f < K) out[m * K + f] = acc;
}

void conv_igemm_coop_launch(const ConvParams &p, const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                            float *out, cudaStream_t st) {
  dim3 grid((p.K + BN - 1) / BN, (p.N * p.P * p.Q + BM - 1) / BM);
  conv_igemm_coop<<<grid, NTHREADS, 0, st>>>(in, wt, out, p.N, p.H, p.W, p.C, p.K, p.R, p.S, p.P,
                                             p.Q, p.pad, p.stride);
}
