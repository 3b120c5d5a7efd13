// 3x3 "same" convolution (stride 1, padding 1) over NHWC half activations,
// tutorial style with the batch on gridDim.z: each z-slice of the grid handles
// one image, blockIdx.y walks that image's H * W pixels in tiles of 16,
// blockIdx.x the output channels. Weights K x 3 x 3 x C, float bias.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 16

__global__ void conv3x3_same_nhwc(const half *x, const half *wt, const float *bias, half *y,
                                  int H, int W, int C, int K) {
  __shared__ half xs[TILE][TILE];
  __shared__ half ws[TILE][TILE];

  const int n = blockIdx.z;
  const int pix = blockIdx.y * TILE + threadIdx.y;   // pixel within image n
  const int oc = blockIdx.x * TILE + threadIdx.x;
  const int ocLoad = blockIdx.x * TILE + threadIdx.y;
  const int oh = pix / W, ow = pix % W;

  const half *xn = x + (size_t)n * H * W * C;
  half *yn = y + (size_t)n * H * W * K;

  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    const int kk = t + threadIdx.x;
    const int c = kk % C, tap = kk / C;
    const int ih = oh + tap / 3 - 1, iw = ow + tap % 3 - 1;
    xs[threadIdx.y][threadIdx.x] =
        (pix < H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W)
            ? xn[(ih * W + iw) * C + c]
            : __float2half_rn(0.f);
    ws[threadIdx.y][threadIdx.x] =
        (ocLoad < K && kk < 9 * C) ? wt[ocLoad * 9 * C + kk] : __float2half_rn(0.f);
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __half2float(xs[threadIdx.y][j]) * __half2float(ws[threadIdx.x][j]);
    __syncthreads();
  }
  if (pix < H * W && oc < K) yn[pix * K + oc] = __float2half_rn(acc + bias[oc]);
}

void conv3x3_same(const half *x, const half *wt, const float *bias, half *y, int N, int H,
                  int W, int C, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((K + TILE - 1) / TILE, (H * W + TILE - 1) / TILE, N);
  conv3x3_same_nhwc<<<grid, block, 0, stream>>>(x, wt, bias, y, H, W, C, K);
}
