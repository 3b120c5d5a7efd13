// WMMA GEMM, C = A * B, A M x K row-major half, B K x N row-major half, C float.
// 8 warps per block arranged 4 (rows) x 2 (cols), one 16x16 fragment per warp; the warp's
// tile bounds check wraps the whole K loop and the store.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16
#define WARPS_Y 4
#define WARPS_X 2

__global__ void wmma_gemm_4x2(const half *A, const half *B, float *C, int M, int N, int K) {
  const int warpId = threadIdx.x / 32;
  const int tileRow = (blockIdx.y * WARPS_Y + warpId / WARPS_X) * WMMA_M;
  const int tileCol = (blockIdx.x * WARPS_X + warpId % WARPS_X) * WMMA_N;

  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> aFrag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> bFrag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> cFrag;
  wmma::fill_fragment(cFrag, 0.0f);

  if (tileRow < M && tileCol < N) {
#pragma tawa tile
    for (int k = 0; k < K; k += WMMA_K) {
      wmma::load_matrix_sync(aFrag, A + tileRow * K + k, K);
      wmma::load_matrix_sync(bFrag, B + k * N + tileCol, N);
      wmma::mma_sync(cFrag, aFrag, bFrag, cFrag);
    }
    wmma::store_matrix_sync(C + tileRow * N + tileCol, cFrag, N, wmma::mem_row_major);
  }
}

// M, N, K must be multiples of 16.
void gemm_wmma(const half *A, const half *B, float *C, int M, int N, int K, cudaStream_t s) {
  dim3 block(32 * WARPS_Y * WARPS_X);
  dim3 grid((N + WMMA_N * WARPS_X - 1) / (WMMA_N * WARPS_X),
            (M + WMMA_M * WARPS_Y - 1) / (WMMA_M * WARPS_Y));
  wmma_gemm_4x2<<<grid, block, 0, s>>>(A, B, C, M, N, K);
}
