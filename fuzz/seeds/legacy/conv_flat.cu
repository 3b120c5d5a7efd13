#include <cuda_bf16.h>
#define TILE 32
typedef __nv_bfloat16 bf16;
__global__ void conv(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx, kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 && iw < W
                     ? in[((n * H + ih) * W + iw) * C + c] : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
void run(const bf16 *x, const bf16 *w, bf16 *y, int n, int h, int wd, int c, int k) {
  conv<<<dim3((k + TILE - 1) / TILE, (n * h * wd + TILE - 1) / TILE), dim3(TILE, TILE)>>>(x, w, y, n, h, wd, c, k);
}
