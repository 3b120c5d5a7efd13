// WMMA whose epilogue goes through a per-warp scratch reached by a pointer:
// each warp stores a fragment column-major into its 16 x 16 scratch, reads
// it back by (row, column) after __syncwarp(), scales it by alpha and adds a
// per-column bias, writing float C; a second __syncwarp() guards the
// scratch before the next fragment. 64 x 64 block tiles of four warps, tiles
// of A and B staged in shared memory without bounds checks (M and N
// multiples of 64, K of 16).
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 64
#define KTILE 16

__global__ void scaled_scratch_kernel(const half *A, const half *B, const float *bias, float *C,
                                      int M, int N, int K, float alpha) {
  __shared__ half As[TILE][KTILE];
  __shared__ half Bs[KTILE][TILE];
  __shared__ float scratch[4][256];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int wr = (warp >> 1) * 32, wc = (warp & 1) * 32;
  const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += KTILE) {
    for (int e = threadIdx.x; e < TILE * KTILE; e += blockDim.x) {
      As[e / KTILE][e % KTILE] = A[(row0 + e / KTILE) * K + k + e % KTILE];
      Bs[e / TILE][e % TILE] = B[(k + e / TILE) * N + col0 + e % TILE];
    }
    __syncthreads();
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], &As[wr + i * 16][0], KTILE);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], &Bs[0][wc + j * 16], TILE);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    __syncthreads();
  }

  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      float *ws = scratch[warp];
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_col_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = e % 16, c = e / 16;
        const int col = col0 + wc + j * 16 + c;
        C[(row0 + wr + i * 16 + r) * N + col] = alpha * ws[c * 16 + r] + bias[col];
      }
      __syncwarp();
    }
  }
}

void scaled_scratch_gemm(const half *A, const half *B, const float *bias, float *C, int M, int N,
                         int K, float alpha) {
  dim3 grid(N / TILE, M / TILE);
  scaled_scratch_kernel<<<grid, 128>>>(A, B, bias, C, M, N, K, alpha);
}
