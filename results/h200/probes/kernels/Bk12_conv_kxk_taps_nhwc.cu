// Direct implicit-GEMM convolution, NHWC activations, KRSC weights, arbitrary
// R x S filter with stride and zero padding, batch N. Rows of the GEMM are the
// N * P * Q output pixels, columns the K output channels; the reduction walks
// the filter taps and, for each tap, the input channels in tiles of 16.
// 16 x 16 threads per block, half in/out, float accumulation.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 16

__global__ void conv2d_nhwc_implicit_gemm(const half *__restrict__ in,
                                          const half *__restrict__ filt,
                                          half *__restrict__ out, int N, int H, int W,
                                          int C, int K, int R, int S, int P, int Q,
                                          int stride, int pad) {
  __shared__ half sIn[TILE][TILE];
  __shared__ half sFilt[TILE][TILE];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int m = blockIdx.y * TILE + ty;         // output pixel (n, p, q)
  const int kOut = blockIdx.x * TILE + tx;      // output channel
  const int kLoad = blockIdx.x * TILE + ty;     // filter row loaded by this thread

  const int n = m / (P * Q);
  const int pq = m % (P * Q);
  const int p = pq / Q;
  const int q = pq % Q;

  float acc = 0.0f;
#pragma tawa tile
  for (int r = 0; r < R; ++r) {
    const int h = p * stride - pad + r;
    for (int s = 0; s < S; ++s) {
      const int w = q * stride - pad + s;
      for (int c0 = 0; c0 < C; c0 += TILE) {
        const int c = c0 + tx;
        const bool valid = m < N * P * Q && c < C && h >= 0 && h < H && w >= 0 && w < W;
        sIn[ty][tx] = valid ? in[((n * H + h) * W + w) * C + c] : __float2half_rn(0.0f);
        sFilt[ty][tx] = (kLoad < K && c < C) ? filt[((kLoad * R + r) * S + s) * C + c]
                                             : __float2half_rn(0.0f);
        __syncthreads();
#pragma unroll
        for (int j = 0; j < TILE; ++j)
          acc += __half2float(sIn[ty][j]) * __half2float(sFilt[tx][j]);
        __syncthreads();
      }
    }
  }

  if (m < N * P * Q && kOut < K) out[m * K + kOut] = __float2half_rn(acc);
}

void conv2d_nhwc(const half *in, const half *filt, half *out, int N, int H, int W, int C,
                 int K, int R, int S, int stride, int pad, cudaStream_t stream) {
  const int P = (H + 2 * pad - R) / stride + 1;
  const int Q = (W + 2 * pad - S) / stride + 1;
  dim3 block(TILE, TILE);
  dim3 grid((K + TILE - 1) / TILE, (N * P * Q + TILE - 1) / TILE);
  conv2d_nhwc_implicit_gemm<<<grid, block, 0, stream>>>(in, filt, out, N, H, W, C, K, R, S,
                                                        P, Q, stride, pad);
}
