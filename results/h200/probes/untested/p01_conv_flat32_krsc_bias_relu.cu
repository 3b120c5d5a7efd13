// Implicit-GEMM forward convolution, NHWC activations, KRSC filters (cuDNN-style).
// One output element per thread, 32x32 thread block, batch folded into the pixel index.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void conv2d_fwd_implicit_gemm(const __nv_bfloat16 *__restrict__ input,
                                         const __nv_bfloat16 *__restrict__ filter,
                                         const float *__restrict__ bias,
                                         __nv_bfloat16 *__restrict__ output,
                                         int N, int H, int W, int C, int K, int R, int S,
                                         int P, int Q, int pad_h, int pad_w, int stride_h,
                                         int stride_w, int dil_h, int dil_w) {
  __shared__ __nv_bfloat16 sIn[TILE][TILE];
  __shared__ __nv_bfloat16 sFlt[TILE][TILE];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gemm_m = N * P * Q;     // output pixels
  const int gemm_k = R * S * C;     // reduction length
  const int m = blockIdx.y * TILE + ty;   // output pixel of this thread
  const int k = blockIdx.x * TILE + tx;   // output channel of this thread
  const int k_ld = blockIdx.x * TILE + ty; // output channel this thread stages

  const int n = m / (P * Q);
  const int pq = m % (P * Q);
  const int p = pq / Q;
  const int q = pq % Q;

  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < gemm_k; kt += TILE) {
    const int col = kt + tx;
    const int c = col % C;
    const int s = (col / C) % S;
    const int r = col / (S * C);
    const int ih = p * stride_h - pad_h + r * dil_h;
    const int iw = q * stride_w - pad_w + s * dil_w;
    if (m < gemm_m && col < gemm_k && ih >= 0 && ih < H && iw >= 0 && iw < W)
      sIn[ty][tx] = input[((n * H + ih) * W + iw) * C + c];
    else
      sIn[ty][tx] = __float2bfloat16(0.0f);
    if (k_ld < K && col < gemm_k)
      sFlt[ty][tx] = filter[k_ld * gemm_k + col];
    else
      sFlt[ty][tx] = __float2bfloat16(0.0f);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(sIn[ty][j]) * __bfloat162float(sFlt[tx][j]);
    __syncthreads();
  }

  if (m < gemm_m && k < K) {
    float v = acc + bias[k];
    output[m * K + k] = __float2bfloat16_rn(v > 0.0f ? v : 0.0f);
  }
}

void launch_conv2d_fwd(const __nv_bfloat16 *input, const __nv_bfloat16 *filter,
                       const float *bias, __nv_bfloat16 *output, int N, int H, int W, int C,
                       int K, int R, int S, int pad_h, int pad_w, int stride_h, int stride_w,
                       int dil_h, int dil_w, cudaStream_t stream) {
  const int P = (H + 2 * pad_h - dil_h * (R - 1) - 1) / stride_h + 1;
  const int Q = (W + 2 * pad_w - dil_w * (S - 1) - 1) / stride_w + 1;
  dim3 block(TILE, TILE);
  dim3 grid((K + TILE - 1) / TILE, (N * P * Q + TILE - 1) / TILE);
  conv2d_fwd_implicit_gemm<<<grid, block, 0, stream>>>(input, filter, bias, output, N, H, W, C,
                                                        K, R, S, P, Q, pad_h, pad_w, stride_h,
                                                        stride_w, dil_h, dil_w);
}
