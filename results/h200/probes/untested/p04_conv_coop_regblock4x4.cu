// Implicit-GEMM conv, register-blocked: 64 pixels x 64 filters per block, 256 threads,
// each thread a 4x4 micro-tile; im2col tile gathered cooperatively into shared memory.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

__global__ void __launch_bounds__(256)
conv_fwd_regblock(const half *__restrict__ act, const half *__restrict__ flt,
                  const half *__restrict__ bias, half *__restrict__ out, int N, int H, int W,
                  int C, int K, int R, int S, int P, int Q, int pad_h, int pad_w, int str_h,
                  int str_w) {
  __shared__ float As[BK][BM];  // transposed so the inner product reads along M
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN);   // 0..15
  const int tCol = tid % (BN / TN);   // 0..15
  const int mBase = blockIdx.y * BM;
  const int nBase = blockIdx.x * BN;

  float acc[TM][TN] = {};
  float a[TM], b[TN];

#pragma tawa tile
  for (int k0 = 0; k0 < R * S * C; k0 += BK) {
    for (int i = tid; i < BM * BK; i += blockDim.x) {
      const int mm = i / BK, kk = i % BK;
      const int m = mBase + mm, gk = k0 + kk;
      const int nimg = m / (P * Q);
      const int oh = (m % (P * Q)) / Q;
      const int ow = m % Q;
      const int c = gk % C;
      const int rs = gk / C;
      const int ih = oh * str_h - pad_h + rs / S;
      const int iw = ow * str_w - pad_w + rs % S;
      half v = __float2half(0.f);
      if (m < N * P * Q && gk < R * S * C && ih >= 0 && ih < H && iw >= 0 && iw < W)
        v = act[((nimg * H + ih) * W + iw) * C + c];
      As[kk][mm] = __half2float(v);
    }
    for (int i = tid; i < BN * BK; i += blockDim.x) {
      const int nn = i / BK, kk = i % BK;
      const int f = nBase + nn, gk = k0 + kk;
      Bs[kk][nn] = (f < K && gk < R * S * C) ? __half2float(flt[f * R * S * C + gk]) : 0.f;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      for (int i = 0; i < TM; ++i) a[i] = As[kk][tRow * TM + i];
      for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

  for (int i = 0; i < TM; ++i) {
    const int m = mBase + tRow * TM + i;
    for (int j = 0; j < TN; ++j) {
      const int f = nBase + tCol * TN + j;
      if (m < N * P * Q && f < K) {
        float v = acc[i][j] + __half2float(bias[f]);
        out[m * K + f] = __float2half(fmaxf(v, 0.f));
      }
    }
  }
}

void conv_fwd_regblock_launch(const half *act, const half *flt, const half *bias, half *out,
                              int N, int H, int W, int C, int K, int R, int S, int pad_h,
                              int pad_w, int str_h, int str_w, cudaStream_t stream) {
  const int P = (H + 2 * pad_h - R) / str_h + 1;
  const int Q = (W + 2 * pad_w - S) / str_w + 1;
  dim3 grid((K + BN - 1) / BN, (N * P * Q + BM - 1) / BM);
  conv_fwd_regblock<<<grid, 256, 0, stream>>>(act, flt, bias, out, N, H, W, C, K, R, S, P, Q,
                                              pad_h, pad_w, str_h, str_w);
}
