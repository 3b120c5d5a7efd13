#include <cuda_bf16.h>
#define TILE 16
#define M 512
#define N 768
enum { K = 256 };
typedef __nv_bfloat16 bf16;
__global__ void gemm_named(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = row < M && t * TILE + tx < K ? A[row * K + t * TILE + tx] : bf16();
    Bs[ty][tx] = t * TILE + ty < K && col < N ? B[(t * TILE + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
void launch(const bf16 *A, const bf16 *B, float *C) {
  gemm_named<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(A, B, C);
}
