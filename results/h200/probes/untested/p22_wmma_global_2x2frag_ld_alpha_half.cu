// WMMA GEMM without shared memory: each warp owns a 32 x 32 tile of C (2 x 2 fragments of
// 16 x 16) and loads its A and B fragments straight from global memory with leading
// dimensions; 4 warps per block (2 x 2) cover 64 x 64. fp16 in, fp32 out, C = alpha * A * B,
// row-major with lda, ldb, ldc. M, N multiples of 64, K a multiple of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int WM = 16, WN = 16, WK = 16;

__global__ void wmma_gemm_global(const half *A, const half *B, float *C, int M, int N, int K,
                                 int lda, int ldb, int ldc, float alpha) {
  const int warpId = threadIdx.x / 32;
  const int warpRow = warpId / 2, warpCol = warpId % 2;
  const int row0 = blockIdx.y * 64 + warpRow * 32;
  const int col0 = blockIdx.x * 64 + warpCol * 32;

  wmma::fragment<wmma::matrix_a, WM, WN, WK, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, WM, WN, WK, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, WM, WN, WK, float> c[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(c[i][j], 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += WK) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * WM) * lda + k, lda);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + k * ldb + col0 + j * WN, ldb);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < c[i][j].num_elements; ++e) c[i][j].x[e] *= alpha;
      wmma::store_matrix_sync(C + (row0 + i * WM) * ldc + col0 + j * WN, c[i][j], ldc,
                              wmma::mem_row_major);
    }
}

void wmma_gemm_global_launch(const half *A, const half *B, float *C, int M, int N, int K,
                             float alpha, cudaStream_t stream) {
  dim3 grid(N / 64, M / 64);
  wmma_gemm_global<<<grid, 128, 0, stream>>>(A, B, C, M, N, K, K, N, N, alpha);
}
