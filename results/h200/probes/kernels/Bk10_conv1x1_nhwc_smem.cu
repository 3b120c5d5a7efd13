// Pointwise (1x1) convolution over NHWC activations written as a GEMM over
// pixels: out[p][k] = relu(bias[k] + sum_c in[p][c] * w[k][c]) with
// p = (n, h, w) flattened. 16 x 16 thread blocks, shared-memory tiles of the
// activations (pixels x channels) and of the weights (out-channels x
// channels), half storage, float accumulation.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 16

__global__ void conv1x1_nhwc_bias_relu(const __half *__restrict__ input,
                                       const __half *__restrict__ weight,
                                       const float *__restrict__ bias,
                                       __half *__restrict__ output, int N, int H, int W,
                                       int C, int K) {
  __shared__ __half in_tile[TILE][TILE];
  __shared__ __half w_tile[TILE][TILE];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int pixels = N * H * W;
  const int p = blockIdx.y * TILE + ty;     // output pixel this thread computes
  const int k = blockIdx.x * TILE + tx;     // output channel this thread computes
  const int k_load = blockIdx.x * TILE + ty;  // weight row this thread loads

  float sum = 0.0f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    if (p < pixels && c0 + tx < C)
      in_tile[ty][tx] = input[p * C + c0 + tx];
    else
      in_tile[ty][tx] = __float2half_rn(0.0f);
    if (k_load < K && c0 + tx < C)
      w_tile[ty][tx] = weight[k_load * C + c0 + tx];
    else
      w_tile[ty][tx] = __float2half_rn(0.0f);
    __syncthreads();

#pragma unroll
    for (int i = 0; i < TILE; ++i)
      sum += __half2float(in_tile[ty][i]) * __half2float(w_tile[tx][i]);
    __syncthreads();
  }

  if (p < pixels && k < K) {
    float v = sum + bias[k];
    output[p * K + k] = __float2half_rn(fmaxf(v, 0.0f));
  }
}

void conv1x1_nhwc(const __half *input, const __half *weight, const float *bias,
                  __half *output, int N, int H, int W, int C, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((K + TILE - 1) / TILE, (N * H * W + TILE - 1) / TILE);
  conv1x1_nhwc_bias_relu<<<grid, block, 0, stream>>>(input, weight, bias, output, N, H,
                                                     W, C, K);
}
