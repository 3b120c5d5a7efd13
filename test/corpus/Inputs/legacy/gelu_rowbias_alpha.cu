// Classic tile, 1-D tiles, __device__ GELU (tanh form) helper, alpha scale
// and a per-row bias (bf16), float output.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__device__ __forceinline__ float gelu_tanh_approx(float v) {
  return 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
}

__global__ void fused_gemm_gelu(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                const __nv_bfloat16 *bias, float *out, int M, int N, int K,
                                float alpha) {
  __shared__ __nv_bfloat16 As[TILE * TILE];
  __shared__ __nv_bfloat16 Bs[TILE * TILE];
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __nv_bfloat16();
    Bs[ty * TILE + tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __nv_bfloat16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) * __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    out[row * N + col] = gelu_tanh_approx(alpha * acc + __bfloat162float(bias[row]));
}

void fused_gemm_gelu_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            const __nv_bfloat16 *bias, float *out, int M, int N, int K,
                            float alpha) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  fused_gemm_gelu<<<grid, block>>>(A, B, bias, out, M, N, K, alpha);
}
