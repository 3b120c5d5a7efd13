// WMMA with 2 x 2 accumulator fragments per warp (a 32 x 32 tile of C),
// fragments loaded straight from global memory, and alpha applied to every
// fragment element after the loop before the stores.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_frags_alpha(const half *A, const half *B, float *C, int M, int N, int K,
                                 float alpha) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int t = 0; t < acc[i][j].num_elements; t++)
        acc[i][j].x[t] = alpha * acc[i][j].x[t];
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16, acc[i][j], N,
                              wmma::mem_row_major);
    }
}

// M and N multiples of 64, K of 16.
void wmma_frags_alpha_run(const half *A, const half *B, float *C, int M, int N, int K,
                          float alpha) {
  dim3 grid(N / 64, M / 64);
  wmma_frags_alpha<<<grid, 128>>>(A, B, C, M, N, K, alpha);
}
