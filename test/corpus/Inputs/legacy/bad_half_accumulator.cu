// Refused: accumulates in __half with __hfma (fp16 accumulation);
// lifting to fp32 tensor-core accumulation would change the results.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define TILE 16
__global__ void hgemm_half_acc(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  __half acc = __float2half(0.0f);
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc = __hfma(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
void hgemm_half_acc_run(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hgemm_half_acc<<<grid, block>>>(A, B, C, M, N, K);
}
