// Simple WMMA: one warp per block, one 16x16 tile per warp, bf16 inputs,
// B stored N x K (col_major fragment), explicit leading dimensions, guarded store.
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_tile_kernel(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                                 int M, int N, int K, int lda, int ldb, int ldc) {
  const int tileRow = blockIdx.y * 16;
  const int tileCol = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(c_frag, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a_frag, A + tileRow * lda + k, lda);
    wmma::load_matrix_sync(b_frag, B + tileCol * ldb + k, ldb);
    wmma::mma_sync(c_frag, a_frag, b_frag, c_frag);
  }
  if (tileRow < M && tileCol < N)
    wmma::store_matrix_sync(C + tileRow * ldc + tileCol, c_frag, ldc, wmma::mem_row_major);
}

void launch_wmma_tile(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                      int N, int K) {
  dim3 grid(N / 16, M / 16);
  dim3 block(32);
  wmma_tile_kernel<<<grid, block>>>(A, B, C, M, N, K, K, K, N);
}
