// Double-buffered shared memory: tile counter loop bound in a variable,
// prefetch before the product, buffers selected by (t & 1) via a variable.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define T 16

__global__ void gemm_db(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                        int N, int K) {
  __shared__ __nv_bfloat16 sA[2][T][T];
  __shared__ __nv_bfloat16 sB[2][T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty;
  int col = blockIdx.x * T + tx;
  int numTiles = (K + T - 1) / T;
  float acc = 0.0f;
  sA[0][ty][tx] = (row < M && tx < K) ? A[row * K + tx] : __float2bfloat16(0.0f);
  sB[0][ty][tx] = (ty < K && col < N) ? B[ty * N + col] : __float2bfloat16(0.0f);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < numTiles; ++t) {
    int cur = t & 1;
    int nxt = cur ^ 1;
    if (t + 1 < numTiles) {
      int k1 = (t + 1) * T;
      sA[nxt][ty][tx] = (row < M && k1 + tx < K) ? A[row * K + k1 + tx] : __float2bfloat16(0.0f);
      sB[nxt][ty][tx] = (k1 + ty < K && col < N) ? B[(k1 + ty) * N + col] : __float2bfloat16(0.0f);
    }
    for (int k = 0; k < T; ++k)
      acc += __bfloat162float(sA[cur][ty][k]) * __bfloat162float(sB[cur][k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void gemm_db_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                 int K) {
  dim3 block(T, T);
  dim3 grid((N + T - 1) / T, (M + T - 1) / T);
  gemm_db<<<grid, block>>>(A, B, C, M, N, K);
}
