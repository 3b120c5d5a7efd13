// One warp per 16 x 16 tile of C, four warps side by side along N, the
// fragments read straight from global memory. A warp whose tile starts
// outside C skips the K loop; every warp dumps its accumulator into its own
// scratch tile in shared memory, and its lanes scale, convert to half and
// write the elements inside C. A: M x K, B: K x N, C: M x N, all row-major.
// M and N multiples of 16, K a multiple of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define WARPS 4

__global__ void hgemm_loop_guard(const half *A, const half *B, half *C, int M,
                                 int N, int K, float alpha) {
  __shared__ __align__(32) float scratch[WARPS][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16;
  const int col0 = (blockIdx.x * WARPS + warp) * 16;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  if (row0 < M && col0 < N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
  }

  wmma::store_matrix_sync(scratch[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2half_rn(alpha * scratch[warp][e]);
  }
}

void hgemm_loop_guard_launch(const half *A, const half *B, half *C, int M, int N,
                             int K, float alpha) {
  dim3 grid((N + 16 * WARPS - 1) / (16 * WARPS), (M + 15) / 16);
  hgemm_loop_guard<<<grid, 32 * WARPS>>>(A, B, C, M, N, K, alpha);
}
