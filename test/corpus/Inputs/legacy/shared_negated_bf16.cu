// The classic 32 x 32 shared-memory tiled GEMM with its bounds checks
// negated: A's tile reads '(row >= M || t + tx >= K) ? 0 : A[...]', B's
// 'if (t + ty >= K || col >= N) Bs = 0; else Bs = B[...];'. Any M, N, K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 32

__global__ void shared_negated_gemm(const __nv_bfloat16 *A,
                                    const __nv_bfloat16 *B, float *C, int M,
                                    int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE], Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row >= M || t + tx >= K) ? __float2bfloat16(0.0f)
                                           : A[row * K + t + tx];
    if (t + ty >= K || col >= N)
      Bs[ty][tx] = __float2bfloat16(0.0f);
    else
      Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void shared_negated_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K) {
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  shared_negated_gemm<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
