// One warp per 16x16 output tile, fragments read straight from global memory,
// half output: since a float accumulator cannot be stored as half directly,
// each warp dumps its accumulator into its own 16x16 float scratch in shared
// memory and the lanes convert and write it out (alpha-scaled), with bounds
// checks so M and N need not be multiples of 16 on the store side.
// A: M x K row-major, B: K x N row-major, C: M x N row-major half.
// K, lda, ldb must allow whole 16-wide fragment loads (K % 16 == 0, M, N
// rounded up to 16 in the allocation).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define WARPS_PER_BLOCK 4

__global__ void hgemm_wmma_half_out(const half *A, const half *B, half *C, int M,
                                    int N, int K, int lda, int ldb, int ldc,
                                    float alpha) {
  __shared__ __align__(32) float scratch[WARPS_PER_BLOCK][16 * 16];

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int tile_m = blockIdx.y;                          // one tile row per block row
  const int tile_n = blockIdx.x * WARPS_PER_BLOCK + warp;  // warps side by side along N
  const int row0 = tile_m * 16;
  const int col0 = tile_n * 16;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  if (row0 < M && col0 < N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a_frag, A + row0 * lda + k, lda);
      wmma::load_matrix_sync(b_frag, B + k * ldb + col0, ldb);
      wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
  }

  wmma::store_matrix_sync(scratch[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();

  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * ldc + col0 + c] = __float2half_rn(alpha * scratch[warp][e]);
  }
}

void hgemm_wmma_half_out_launch(const half *A, const half *B, half *C, int M, int N,
                                int K, int lda, int ldb, int ldc, float alpha,
                                cudaStream_t stream) {
  dim3 block(32 * WARPS_PER_BLOCK);
  dim3 grid((N + 16 * WARPS_PER_BLOCK - 1) / (16 * WARPS_PER_BLOCK), (M + 15) / 16);
  hgemm_wmma_half_out<<<grid, block, 0, stream>>>(A, B, C, M, N, K, lda, ldb, ldc,
                                                  alpha);
}
