// A WMMA GEMM that finds its warp with shifts, as tensor-core samples often
// do: four warps per block along M (`threadIdx.x >> 5`), one 16 x 16 tile of
// C each, fragments loaded straight from global memory, bounds on the loads.
// M, N and K multiples of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_shift_warps(const __half *A, const __half *B, float *C,
                                 int M, int N, int K) {
  const int warps = blockDim.x >> 5;
  const int tile_m = blockIdx.x * warps + (threadIdx.x >> 5);
  const int tile_n = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    if (tile_m * 16 < M && tile_n * 16 < N) {
      wmma::load_matrix_sync(fa, A + tile_m * 16 * K + k, K);
      wmma::load_matrix_sync(fb, B + k * N + tile_n * 16, N);
      wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  if (tile_m * 16 < M && tile_n * 16 < N)
    wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, acc, N,
                            wmma::mem_row_major);
}

void wmma_shift_warps_run(const __half *A, const __half *B, float *C, int M,
                          int N, int K) {
  dim3 block(128), grid((M / 16 + 3) / 4, N / 16);
  wmma_shift_warps<<<grid, block>>>(A, B, C, M, N, K);
}
