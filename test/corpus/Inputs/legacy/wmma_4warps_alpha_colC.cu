// WMMA, CUDA-samples warp mapping (blockDim 128x4), half inputs, A stored
// K x M (col_major), alpha scaling in the fragment loop, C stored column-major.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void wmma_scaled(const half *a, const half *b, float *c, int M, int N, int K,
                            float alpha) {
  int lda = M;
  int ldb = K;
  int ldc = M;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += WMMA_K) {
    int aRow = warpM * WMMA_M;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * WMMA_N;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
      wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cRow = warpM * WMMA_M;
  int cCol = warpN * WMMA_N;
  if (cRow < M && cCol < N) {
    for (int i = 0; i < acc_frag.num_elements; i++)
      acc_frag.x[i] = alpha * acc_frag.x[i];
    wmma::store_matrix_sync(c + cRow + cCol * ldc, acc_frag, ldc, wmma::mem_col_major);
  }
}

void run_wmma_scaled(const half *a, const half *b, float *c, int M, int N, int K,
                     float alpha) {
  dim3 gridDim, blockDim;
  blockDim.x = 128;
  blockDim.y = 4;
  gridDim.x = (M + (WMMA_M * blockDim.x / 32 - 1)) / (WMMA_M * blockDim.x / 32);
  gridDim.y = (N + WMMA_N * blockDim.y - 1) / (WMMA_N * blockDim.y);
  wmma_scaled<<<gridDim, blockDim>>>(a, b, c, M, N, K, alpha);
}
