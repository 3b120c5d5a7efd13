// Refused: per-batch K read from device memory (grouped GEMM).
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define TILE 32
__global__ void grouped(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                        int N, int K, const int *kLen) {
  __shared__ __nv_bfloat16 As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < kLen[blockIdx.z]; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
void grouped_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                 int K, const int *kLen) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, 1);
  grouped<<<grid, block>>>(A, B, C, M, N, K, kLen);
}
