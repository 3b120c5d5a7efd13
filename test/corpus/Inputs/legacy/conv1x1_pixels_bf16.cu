// A 1x1 convolution over NHWC activations written as a tiled GEMM: the
// N * H * W output pixels by the K filters, each a dot product over the C
// channels with the weights stored K x C (PyTorch's order with R = S = 1).
// Bounds-checked; bf16 in and out.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int T = 16;

__global__ void conv1x1_kernel(const __nv_bfloat16 *in, const __nv_bfloat16 *wt,
                               __nv_bfloat16 *out, int N, int H, int W, int C, int K) {
  __shared__ __nv_bfloat16 tileIn[T][T];
  __shared__ __nv_bfloat16 tileW[T][T];
  const int pixels = N * H * W;
  const int p = blockIdx.y * T + threadIdx.y;  // output pixel
  const int k = blockIdx.x * T + threadIdx.x;  // output channel
  const int kLoad = blockIdx.x * T + threadIdx.y;
  float acc = 0.0f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += T) {
    tileIn[threadIdx.y][threadIdx.x] = (p < pixels && c0 + threadIdx.x < C)
                                           ? in[p * C + c0 + threadIdx.x]
                                           : __float2bfloat16(0.0f);
    tileW[threadIdx.y][threadIdx.x] = (kLoad < K && c0 + threadIdx.x < C)
                                          ? wt[kLoad * C + c0 + threadIdx.x]
                                          : __float2bfloat16(0.0f);
    __syncthreads();
    for (int c = 0; c < T; ++c)
      acc += __bfloat162float(tileIn[threadIdx.y][c]) * __bfloat162float(tileW[threadIdx.x][c]);
    __syncthreads();
  }
  if (p < pixels && k < K)
    out[p * K + k] = __float2bfloat16(acc);
}

void conv1x1(const __nv_bfloat16 *in, const __nv_bfloat16 *wt, __nv_bfloat16 *out, int N, int H,
             int W, int C, int K) {
  dim3 block(T, T);
  dim3 grid((K + T - 1) / T, (N * H * W + T - 1) / T);
  conv1x1_kernel<<<grid, block>>>(in, wt, out, N, H, W, C, K);
}
