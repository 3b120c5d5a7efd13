#include <cuda_bf16.h>
#define TILE 16
typedef __nv_bfloat16 bf16;
__global__ void gemm_smem(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16_rn(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2bfloat16_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
void run(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K) {
  gemm_smem<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
