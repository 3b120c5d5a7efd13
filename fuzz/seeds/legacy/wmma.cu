#include <mma.h>
using namespace nvcuda;
__global__ void wmma_gemm(const half *A, const half *B, float *C, int M, int N,
                          int K, int lda, int ldb, int ldc) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    if (warpM * 16 < M && warpN * 16 < N) {
      wmma::load_matrix_sync(a, A + warpM * 16 * lda + k, lda);
      wmma::load_matrix_sync(b, B + k * ldb + warpN * 16, ldb);
      wmma::mma_sync(acc, a, b, acc);
    }
  }
  if (warpM * 16 < M && warpN * 16 < N)
    wmma::store_matrix_sync(C + warpM * 16 * ldc + warpN * 16, acc, ldc,
                            wmma::mem_row_major);
}
