// WMMA in the manner of the CUDA samples' simple GEMM: each warp owns a 16 x 16
// tile of D, loads its fragments straight from global memory (A row-major
// M x K, B column-major K x N), and writes D = alpha * A * B + beta * C with C an
// input beside D; extents multiples of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int FRAG = 16;

__global__ void wmma_global_gemm(half *a, half *b, float *c, float *d, int M, int N, int K,
                                 float alpha, float beta) {
  const int tileRow = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int tileCol = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG, float> sum, fc;
  wmma::fill_fragment(sum, 0.0f);
#pragma tawa tile
  for (int kk = 0; kk < K; kk += FRAG) {
    const int r = tileRow * FRAG, cc = tileCol * FRAG;
    if (r < M && kk < K && cc < N) {
      wmma::load_matrix_sync(fa, a + r * K + kk, K);
      wmma::load_matrix_sync(fb, b + cc * K + kk, K);
      wmma::mma_sync(sum, fa, fb, sum);
    }
  }
  const int r = tileRow * FRAG, cc = tileCol * FRAG;
  if (r < M && cc < N) {
    wmma::load_matrix_sync(fc, c + r * N + cc, N, wmma::mem_row_major);
    for (int e = 0; e < fc.num_elements; e++)
      fc.x[e] = alpha * sum.x[e] + beta * fc.x[e];
    wmma::store_matrix_sync(d + r * N + cc, fc, N, wmma::mem_row_major);
  }
}

void wmma_global_run(half *a, half *b, float *c, float *d, int M, int N, int K, float alpha,
                     float beta) {
  dim3 block(128, 4);
  dim3 grid((M + (FRAG * block.x / 32) - 1) / (FRAG * block.x / 32),
            (N + FRAG * block.y - 1) / (FRAG * block.y));
  wmma_global_gemm<<<grid, block>>>(a, b, c, d, M, N, K, alpha, beta);
}
