// Pointwise (1x1) convolution, NHWC, written as a conv: each thread decodes its output pixel
// into (n, h, w) and reads in[n][h][w][c]. Weights K x C (OHWI with H=W=1). Bias + ReLU, half.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE_DIM 16

__global__ void pointwise_conv_nhwc(const half *__restrict__ in, const half *__restrict__ weight,
                                    const half *__restrict__ bias, half *__restrict__ out, int N,
                                    int H, int W, int C, int K) {
  __shared__ half s_in[TILE_DIM][TILE_DIM];
  __shared__ half s_w[TILE_DIM][TILE_DIM];

  const int pix = blockIdx.y * TILE_DIM + threadIdx.y;
  const int oc = blockIdx.x * TILE_DIM + threadIdx.x;
  const int oc_load = blockIdx.x * TILE_DIM + threadIdx.y;
  const int n = pix / (H * W);
  const int h = (pix / W) % H;
  const int w = pix % W;

  float acc = 0.0f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE_DIM) {
    const int c = c0 + threadIdx.x;
    s_in[threadIdx.y][threadIdx.x] =
        (pix < N * H * W && c < C) ? in[((n * H + h) * W + w) * C + c] : __float2half(0.0f);
    s_w[threadIdx.y][threadIdx.x] =
        (oc_load < K && c < C) ? weight[oc_load * C + c] : __float2half(0.0f);
    __syncthreads();
    for (int j = 0; j < TILE_DIM; ++j)
      acc += __half2float(s_in[threadIdx.y][j]) * __half2float(s_w[threadIdx.x][j]);
    __syncthreads();
  }
  if (pix < N * H * W && oc < K)
    out[pix * K + oc] = __float2half(fmaxf(acc + __half2float(bias[oc]), 0.0f));
}

void pointwise_conv_forward(const half *in, const half *weight, const half *bias, half *out,
                            int N, int H, int W, int C, int K, cudaStream_t s) {
  dim3 block(TILE_DIM, TILE_DIM);
  dim3 grid((K + TILE_DIM - 1) / TILE_DIM, (N * H * W + TILE_DIM - 1) / TILE_DIM);
  pointwise_conv_nhwc<<<grid, block, 0, s>>>(in, weight, bias, out, N, H, W, C, K);
}
