// A WMMA GEMM on bf16, C = alpha * A * B^T + beta * C with B stored N x K
// (a weight matrix): four warps per block arranged 2 x 2 by shifts and masks
// of the warp index, each one 16 x 16 tile of C, fragments loaded straight
// from global memory; warps whose tile lies outside C return early.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_warp_grid(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 2 + (warpId & 1);
  const int r0 = tileRow * 16, c0 = tileCol * 16;
  if (r0 >= M || c0 >= N) return;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc, facc;
  wmma::fill_fragment(facc, 0.0f);

#pragma tawa tile
  for (int kk = 0; kk < K; kk += 16) {
    wmma::load_matrix_sync(fa, A + r0 * K + kk, K);
    wmma::load_matrix_sync(fb, B + c0 * K + kk, K);
    wmma::mma_sync(facc, fa, fb, facc);
  }

  wmma::load_matrix_sync(fc, C + r0 * N + c0, N, wmma::mem_row_major);
  for (int t = 0; t < fc.num_elements; ++t)
    fc.x[t] = alpha * facc.x[t] + beta * fc.x[t];
  wmma::store_matrix_sync(C + r0 * N + c0, fc, N, wmma::mem_row_major);
}

void wmma_warp_grid_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                         int K, float alpha, float beta) {
  // M, N, K multiples of 16
  dim3 block(128);
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  wmma_warp_grid<<<grid, block>>>(A, B, C, M, N, K, alpha, beta);
}
