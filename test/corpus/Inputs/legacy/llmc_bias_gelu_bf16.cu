// A transformer linear layer in llm.c's conventions: inp (B*T, C), weight (OC, C)
// as nn.Linear stores it, bias (OC), out (B*T, OC), followed by llm.c's tanh GELU.
// Classic 16 x 16 shared-memory tiling in bf16 with float accumulation.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math.h>

typedef __nv_bfloat16 floatX;
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)
#define TILE 16

__device__ inline float gelu_forward(float x) {
  float cube = 0.044715f * x * x * x;
  return 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
}

__global__ void matmul_bias_gelu_kernel(floatX *out, const floatX *inp, const floatX *weight,
                                        const floatX *bias, int BT, int C, int OC) {
  __shared__ floatX s_inp[TILE][TILE];
  __shared__ floatX s_w[TILE][TILE];

  int bt = blockIdx.y * TILE + threadIdx.y;
  int oc = blockIdx.x * TILE + threadIdx.x;
  int oc_load = blockIdx.x * TILE + threadIdx.y;

  float val = 0.0f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    int c = c0 + threadIdx.x;
    s_inp[threadIdx.y][threadIdx.x] = (bt < BT && c < C) ? inp[bt * C + c] : (floatX)0.0f;
    s_w[threadIdx.y][threadIdx.x] = (oc_load < OC && c < C) ? weight[oc_load * C + c] : (floatX)0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; i++)
      val += (float)s_inp[threadIdx.y][i] * (float)s_w[threadIdx.x][i];
    __syncthreads();
  }

  if (bt < BT && oc < OC) {
    val += (float)bias[oc];
    out[bt * OC + oc] = (floatX)gelu_forward(val);
  }
}

void matmul_bias_gelu(floatX *out, const floatX *inp, const floatX *weight, const floatX *bias,
                      int B, int T, int C, int OC, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((OC + TILE - 1) / TILE, (B * T + TILE - 1) / TILE);
  matmul_bias_gelu_kernel<<<grid, block, 0, stream>>>(out, inp, weight, bias, B * T, C, OC);
}
