#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmma_smem(const half *A, const half *B, float *C, int M, int N,
                          int K) {
  __shared__ half As[64][36];
  __shared__ half Bs[32][64];
  const int warp = threadIdx.x / 32;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    for (int e = threadIdx.x; e < 64 * 32; e += 128) {
      As[e / 32][e % 32] = A[(blockIdx.y * 64 + e / 32) * K + t + e % 32];
      Bs[e / 64][e % 64] = B[(t + e / 64) * N + blockIdx.x * 64 + e % 64];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[wr + i * 16][kk], 36);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][wc + j * 16], 64);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (blockIdx.y * 64 + wr + i * 16) * N +
                                  blockIdx.x * 64 + wc + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}
