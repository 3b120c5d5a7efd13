// Classic tile: a local scale computed in the kernel (1/sqrt(K), attention
// style) and C written column-major (C[col * M + row]).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void scores_cm(const __half *Q, const __half *Kt, float *S, int M, int N, int D) {
  __shared__ __half Qs[TILE][TILE];
  __shared__ __half Ks[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const float scale = 1.0f / sqrtf((float)D);
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < D; t += TILE) {
    Qs[ty][tx] = (row < M && t + tx < D) ? Q[row * D + t + tx] : __float2half(0.0f);
    Ks[ty][tx] = (t + ty < D && col < N) ? Kt[(t + ty) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(Qs[ty][k]) * __half2float(Ks[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    S[col * M + row] = acc * scale;
}

void scores_cm_run(const __half *Q, const __half *Kt, float *S, int M, int N, int D) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  scores_cm<<<grid, block>>>(Q, Kt, S, M, N, D);
}
