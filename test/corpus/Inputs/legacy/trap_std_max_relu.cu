// A ReLU written with std::max: std::max(a, b) is a < b ? b : a, which keeps a
// NaN a where fmaxf (tawa::relu) returns b, so it is no ReLU of the tiled form.
#include <algorithm>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define TILE 32
__global__ void trap_std_max_relu(const __half *A, const __half *B, float *C, const float *bias,
                                  int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = std::max(acc + bias[col], 0.0f);
}
void trap_std_max_relu_run(const __half *A, const __half *B, float *C, const float *bias, int M,
                           int N, int K) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  trap_std_max_relu<<<grid, block>>>(A, B, C, bias, M, N, K);
}
