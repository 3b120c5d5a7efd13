// Split-K fp16 GEMM whose staging copies and barriers are statement macros
// (`do { ... } while (0)`), and whose slice of K is computed in the kernel from the grid's
// depth: ceil(K / (gridDim.z * 32)) tiles of 32 per layer. Each layer adds its partial sums
// into the float C with atomicAdd; the launch clears C first. Rows, columns and K are
// bounds-checked. Row-major, 32 x 32 threads.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TILE 32
#define STAGE(dst, src, r, c, rows, cols, ld)                                                  \
  do {                                                                                         \
    (dst)[threadIdx.y][threadIdx.x] =                                                          \
        (r) < (rows) && (c) < (cols) ? (src)[(r) * (ld) + (c)] : __float2half(0.f);            \
  } while (0)
#define SYNC()                                                                                 \
  do {                                                                                         \
    __syncthreads();                                                                           \
  } while (0)

__global__ void gemm_splitk_grid(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ half As[TILE][TILE];
  __shared__ half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int chunk = (K + gridDim.z * TILE - 1) / (gridDim.z * TILE) * TILE;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    STAGE(As, A, row, k0 + threadIdx.x, M, kEnd, K);
    STAGE(Bs, B, k0 + threadIdx.y, col, kEnd, N, N);
    SYNC();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    SYNC();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}

void gemm_splitk_grid_launch(const half *A, const half *B, float *C, int M, int N, int K,
                             int splits, cudaStream_t stream) {
  cudaMemsetAsync(C, 0, sizeof(float) * M * N, stream);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, splits);
  gemm_splitk_grid<<<grid, dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K);
}
