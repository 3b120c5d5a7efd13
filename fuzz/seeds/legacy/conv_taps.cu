#include <cuda_bf16.h>
#define TILE 32
typedef __nv_bfloat16 bf16;
__global__ void conv(const bf16 *in, const bf16 *w, bf16 *out, int N, int H, int W, int C, int K, int R, int S, int P, int Q) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty, k = blockIdx.x * TILE + tx;
  int n = m / (P * Q), p = (m / Q) % P, q = m % Q;
  float acc = 0.f;
#pragma tawa tile
  for (int r = 0; r < R; ++r) {
    int ih = 2 * p - R / 2 + r;
    for (int s = 0; s < S; ++s) {
      int iw = 2 * q - S / 2 + s;
      for (int c0 = 0; c0 < C; c0 += TILE) {
        As[ty][tx] = m < N * P * Q && c0 + tx < C && ih >= 0 && ih < H && iw >= 0 && iw < W
                         ? in[((n * H + ih) * W + iw) * C + c0 + tx] : bf16();
        Ws[ty][tx] = c0 + ty < C && k < K ? w[((r * S + s) * C + c0 + ty) * K + k] : bf16();
        __syncthreads();
        for (int j = 0; j < TILE; ++j)
          acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[j][tx]);
        __syncthreads();
      }
    }
  }
  if (m < N * P * Q && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}
void run(const bf16 *x, const bf16 *w, bf16 *y, int n, int h, int wd, int c, int k, int r, int s) {
  int p = (h - 1) / 2 + 1, q = (wd - 1) / 2 + 1;
  conv<<<dim3((k + TILE - 1) / TILE, (n * p * q + TILE - 1) / TILE), dim3(TILE, TILE)>>>(x, w, y, n, h, wd, c, k, r, s, p, q);
}
