// Tensor-core GEMM in the style of NVIDIA's "Programming Tensor Cores in
// CUDA 9" blog post: one warp per 16x16 tile of C, fragments loaded straight
// from global memory, C = alpha * A * B + beta * C.
// A is M x K row-major, B is given as the N x K weight matrix (so the
// matrix_b fragment is col_major), C is M x N row-major float.
// M, N and K must be multiples of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void wmma_gemm_alpha_beta(const half *a, const half *b, float *c,
                                     int M, int N, int K, float alpha,
                                     float beta) {
  // Leading dimensions. A is row-major, B is N x K (column-major K x N).
  int lda = K;
  int ldb = K;
  int ldc = N;

  // Tile using a 2D grid
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);

  // Declare the fragments
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;

  wmma::fill_fragment(acc_frag, 0.0f);

  // Loop over k
#pragma tawa tile
  for (int i = 0; i < K; i += WMMA_K) {
    int aRow = warpM * WMMA_M;
    int aCol = i;

    int bRow = i;
    int bCol = warpN * WMMA_N;

    // Bounds checking
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      // Load the inputs
      wmma::load_matrix_sync(a_frag, a + aRow * lda + aCol, lda);
      wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);

      // Perform the matrix multiplication
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }

  // Load in the current value of c, scale it by beta, and add this our result
  // scaled by alpha
  int cRow = warpM * WMMA_M;
  int cCol = warpN * WMMA_N;

  if (cRow < M && cCol < N) {
    wmma::load_matrix_sync(c_frag, c + cRow * ldc + cCol, ldc, wmma::mem_row_major);

    for (int i = 0; i < c_frag.num_elements; i++) {
      c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
    }

    // Store the output
    wmma::store_matrix_sync(c + cRow * ldc + cCol, c_frag, ldc, wmma::mem_row_major);
  }
}

void launch_wmma_gemm_alpha_beta(const half *a, const half *b, float *c, int M,
                                 int N, int K, float alpha, float beta,
                                 cudaStream_t stream) {
  dim3 blockDim;
  dim3 gridDim;
  // blockDim.x must be a multiple of warpSize
  // 128x4 means we have 16 warps and a block computes a 64x64 output tile
  blockDim.x = 128;
  blockDim.y = 4;
  gridDim.x = (M + (WMMA_M * blockDim.x / 32 - 1)) / (WMMA_M * blockDim.x / 32);
  gridDim.y = (N + WMMA_N * blockDim.y - 1) / (WMMA_N * blockDim.y);
  wmma_gemm_alpha_beta<<<gridDim, blockDim, 0, stream>>>(a, b, c, M, N, K, alpha, beta);
}
