// ResNet-style projection shortcut: 1x1 convolution with stride (downsampling), NHWC bf16.
// Image on blockIdx.z, output pixel (oh, ow) reads input pixel (oh*stride, ow*stride).
// Weights K x C. Output bf16 with per-channel folded-BN scale and shift.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define T 16

__global__ void conv1x1_strided(const __nv_bfloat16 *__restrict__ in,
                                const __nv_bfloat16 *__restrict__ wt,
                                const float *__restrict__ shift, __nv_bfloat16 *__restrict__ out,
                                int H, int W, int C, int K, int Ho, int Wo, int stride) {
  __shared__ __nv_bfloat16 tileX[T][T];
  __shared__ __nv_bfloat16 tileW[T][T];

  const int img = blockIdx.z;
  const int p = blockIdx.y * T + threadIdx.y;   // output pixel within the image
  const int k = blockIdx.x * T + threadIdx.x;   // output channel
  const int kl = blockIdx.x * T + threadIdx.y;
  const int oh = p / Wo, ow = p % Wo;
  const int ih = oh * stride, iw = ow * stride;
  const __nv_bfloat16 *x = in + (size_t)img * H * W * C;

  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < C; t += T) {
    const int c = t + threadIdx.x;
    if (p < Ho * Wo && c < C)
      tileX[threadIdx.y][threadIdx.x] = x[(ih * W + iw) * C + c];
    else
      tileX[threadIdx.y][threadIdx.x] = __float2bfloat16(0.f);
    if (kl < K && c < C)
      tileW[threadIdx.y][threadIdx.x] = wt[kl * C + c];
    else
      tileW[threadIdx.y][threadIdx.x] = __float2bfloat16(0.f);
    __syncthreads();
    for (int j = 0; j < T; ++j)
      acc += __bfloat162float(tileX[threadIdx.y][j]) * __bfloat162float(tileW[threadIdx.x][j]);
    __syncthreads();
  }
  if (p < Ho * Wo && k < K)
    out[((size_t)img * Ho * Wo + p) * K + k] = __float2bfloat16_rn(acc + shift[k]);
}

void conv1x1_downsample(const __nv_bfloat16 *in, const __nv_bfloat16 *wt, const float *shift,
                        __nv_bfloat16 *out, int N, int H, int W, int C, int K, int stride,
                        cudaStream_t stream) {
  const int Ho = (H - 1) / stride + 1, Wo = (W - 1) / stride + 1;
  dim3 block(T, T);
  dim3 grid((K + T - 1) / T, (Ho * Wo + T - 1) / T, N);
  conv1x1_strided<<<grid, block, 0, stream>>>(in, wt, shift, out, H, W, C, K, Ho, Wo, stride);
}
