// A classic shared-memory tiled GEMM whose tiles are carved out of dynamic
// shared memory sized at launch, bf16 inputs, bounds-checked, C = alpha A B +
// beta C in float.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void gemm_dynamic_smem(const __nv_bfloat16 *A,
                                  const __nv_bfloat16 *B, float *C, int M,
                                  int N, int K, float alpha, float beta) {
  extern __shared__ __nv_bfloat16 smem[];
  __nv_bfloat16 *As = smem;
  __nv_bfloat16 *Bs = smem + TILE * TILE;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    if (row < M && t + tx < K)
      As[ty * TILE + tx] = A[row * K + t + tx];
    else
      As[ty * TILE + tx] = __float2bfloat16(0.0f);
    if (t + ty < K && col < N)
      Bs[ty * TILE + tx] = B[(t + ty) * N + col];
    else
      Bs[ty * TILE + tx] = __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

void gemm_dynamic_smem_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                           float *C, int M, int N, int K, float alpha,
                           float beta) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  const size_t shared = 2 * TILE * TILE * sizeof(__nv_bfloat16);
  gemm_dynamic_smem<<<grid, block, shared>>>(A, B, C, M, N, K, alpha, beta);
}
