// Classic tile; the epilogue accumulates into C ("C += A*B", beta = 1 implicitly).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int TILE = 32;

__global__ void gemm_accumulate(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                                int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] += acc;
}

void gemm_accumulate_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                         int N, int K) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_accumulate<<<grid, block>>>(A, B, C, M, N, K);
}
