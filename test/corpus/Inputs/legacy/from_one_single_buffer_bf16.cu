// The classic 16 x 16 shared-memory bf16 GEMM (one element of C per thread)
// with its next tiles prefetched into registers and a tile loop counted
// from 1: the code before the loop stages tile 0, each iteration loads tile
// t into registers, multiplies the tiles, and past a barrier stores the
// registers into the same single buffer; the code after the loop
// multiplies the last tiles. Any M, N and K; float C.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void bgemm_from_one_single(const __nv_bfloat16 *A,
                                      const __nv_bfloat16 *B, float *C, int M,
                                      int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE], Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const int tiles = (K + TILE - 1) / TILE;
  __nv_bfloat16 ra = row < M && tx < K ? A[row * K + tx] : __nv_bfloat16();
  __nv_bfloat16 rb = ty < K && col < N ? B[ty * N + col] : __nv_bfloat16();
  As[ty][tx] = ra;
  Bs[ty][tx] = rb;
  __syncthreads();
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 1; t < tiles; ++t) {
    ra = row < M && t * TILE + tx < K ? A[row * K + t * TILE + tx]
                                      : __nv_bfloat16();
    rb = t * TILE + ty < K && col < N ? B[(t * TILE + ty) * N + col]
                                      : __nv_bfloat16();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
    As[ty][tx] = ra;
    Bs[ty][tx] = rb;
    __syncthreads();
  }
  for (int k = 0; k < TILE; ++k)
    acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void bgemm_from_one_single_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               float *C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  bgemm_from_one_single<<<grid, block>>>(A, B, C, M, N, K);
}
