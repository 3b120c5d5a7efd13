// Tiled GEMM that writes its result transposed (Ct = (A B)^T, stored N x M row-major, i.e.
// Ct[col * M + row]) to feed a following kernel; bf16 in, fp32 out, any M, N, K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void gemm_store_t(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *Ct, int M,
                             int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.f;
#pragma tawa tile
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int ak = t * TILE + tx, bk = t * TILE + ty;
    As[ty][tx] = (row < M && ak < K) ? A[row * K + ak] : __float2bfloat16(0.f);
    Bs[ty][tx] = (bk < K && col < N) ? B[bk * N + col] : __float2bfloat16(0.f);
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += __bfloat162float(As[ty][i]) * __bfloat162float(Bs[i][tx]);
    __syncthreads();
  }
  if (row < M && col < N) Ct[col * M + row] = sum;
}

void gemm_store_t_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *Ct, int M, int N,
                         int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_store_t<<<grid, block, 0, stream>>>(A, B, Ct, M, N, K);
}
