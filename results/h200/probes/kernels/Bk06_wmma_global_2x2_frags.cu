// Register-blocked WMMA without shared memory: each warp computes a 32 x 32
// tile of C as 2 x 2 fragments, loading A (M x K row-major) and B (stored
// N x K, i.e. column-major K x N, as for x * W^T) fragments straight from
// global memory and reusing each A fragment for two B fragments.
// 4 warps per block laid out 2 x 2 -> 64 x 64 per block. M, N multiples of 32,
// K a multiple of 16.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void gemm_tn_wmma_2x2(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                 float *C, int M, int N, int K) {
  const int warp = threadIdx.x / warpSize;
  const int tileRow = (blockIdx.y * 2 + warp / 2) * 32;
  const int tileCol = (blockIdx.x * 2 + warp % 2) * 32;
  if (tileRow >= M || tileCol >= N) return;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(c[i][j], 0.0f);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b[2];

#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (tileRow + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (tileCol + j * 16) * K + k, K);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (tileRow + i * 16) * N + tileCol + j * 16, c[i][j], N,
                              wmma::mem_row_major);
}

void gemm_tn_wmma_2x2_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                             int M, int N, int K) {
  dim3 block(128);
  dim3 grid((N + 63) / 64, (M + 63) / 64);
  gemm_tn_wmma_2x2<<<grid, block>>>(A, B, C, M, N, K);
}
