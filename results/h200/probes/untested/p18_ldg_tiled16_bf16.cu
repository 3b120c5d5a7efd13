// Textbook 16 x 16 shared-memory tiling whose global reads go through the read-only cache
// (__ldg), bf16 in, fp32 out, row-major A (M x K), B (K x N), C (M x N). Any M, N, K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE_DIM 16

__global__ void matmul_ldg(const __nv_bfloat16 *__restrict__ A,
                           const __nv_bfloat16 *__restrict__ B, float *__restrict__ C, int M,
                           int N, int K) {
  __shared__ __nv_bfloat16 tileA[TILE_DIM][TILE_DIM];
  __shared__ __nv_bfloat16 tileB[TILE_DIM][TILE_DIM];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_DIM + ty;
  int Col = bx * TILE_DIM + tx;
  float Cvalue = 0.0f;

  int numTiles = (K + TILE_DIM - 1) / TILE_DIM;
#pragma tawa tile
  for (int t = 0; t < numTiles; ++t) {
    int aCol = t * TILE_DIM + tx;
    int bRow = t * TILE_DIM + ty;
    if (Row < M && aCol < K)
      tileA[ty][tx] = __ldg(&A[Row * K + aCol]);
    else
      tileA[ty][tx] = __float2bfloat16(0.0f);
    if (bRow < K && Col < N)
      tileB[ty][tx] = __ldg(&B[bRow * N + Col]);
    else
      tileB[ty][tx] = __float2bfloat16(0.0f);
    __syncthreads();

#pragma unroll
    for (int e = 0; e < TILE_DIM; ++e)
      Cvalue += __bfloat162float(tileA[ty][e]) * __bfloat162float(tileB[e][tx]);
    __syncthreads();
  }

  if (Row < M && Col < N) C[Row * N + Col] = Cvalue;
}

void matmul_ldg_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                       int K, cudaStream_t stream) {
  dim3 threads(TILE_DIM, TILE_DIM);
  dim3 blocks((N + TILE_DIM - 1) / TILE_DIM, (M + TILE_DIM - 1) / TILE_DIM);
  matmul_ldg<<<blocks, threads, 0, stream>>>(A, B, C, M, N, K);
}
