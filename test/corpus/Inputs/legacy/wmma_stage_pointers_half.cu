// A WMMA GEMM on fp16 fed by a four-stage cp.async pipeline, its fragments
// loaded through pointers to the iteration's buffers ('const __half *as =
// &As[cur][0][0];', 'bs = Bs[cur][0]'): the first three
// K tiles staged before the loop (each under 'if (s < tiles)', one group
// each), then each iteration waits for all groups but the two most recent,
// meets at a barrier, starts the copies of the tile three ahead into the
// buffer the last iteration read, and multiplies its own tile: eight warps
// of 2 x 2 fragments over a 128 x 64 tile of C. M a multiple of 128, N of
// 64, K of 32.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int STAGES = 4;

__global__ void __launch_bounds__(256)
    wmma_stage_pointers(const __half *A, const __half *B, float *C, int M,
                        int N, int K) {
  __shared__ __align__(32) __half As[STAGES][128][32];
  __shared__ __align__(32) __half Bs[STAGES][32][64];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 64;
  const int tiles = K / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      for (int c = threadIdx.x; c < 128 * 32 / 8; c += 256) {
        const int r = c / 4, k = c % 4 * 8;
        __pipeline_memcpy_async(&As[s][r][k], &A[(row0 + r) * K + s * 32 + k],
                                16);
      }
      for (int c = threadIdx.x; c < 32 * 64 / 8; c += 256) {
        const int r = c / 8, n = c % 8 * 8;
        __pipeline_memcpy_async(&Bs[s][r][n], &B[(s * 32 + r) * N + col0 + n],
                                16);
      }
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    const int next = t + STAGES - 1;
    if (next < tiles) {
      const int w = next % STAGES;
      for (int c = threadIdx.x; c < 128 * 32 / 8; c += 256) {
        const int r = c / 4, k = c % 4 * 8;
        __pipeline_memcpy_async(&As[w][r][k],
                                &A[(row0 + r) * K + next * 32 + k], 16);
      }
      for (int c = threadIdx.x; c < 32 * 64 / 8; c += 256) {
        const int r = c / 8, n = c % 8 * 8;
        __pipeline_memcpy_async(&Bs[w][r][n],
                                &B[(next * 32 + r) * N + col0 + n], 16);
      }
    }
    __pipeline_commit();
    const int cur = t % STAGES;
    const __half *as = &As[cur][0][0], *bs = Bs[cur][0];
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], as + (wr * 32 + i * 16) * 32 + kk, 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &bs[kk * 64 + wc * 32 + j * 16], 64);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(
          &C[(row0 + wr * 32 + i * 16) * N + col0 + wc * 32 + j * 16],
          acc[i][j], N, wmma::mem_row_major);
}

void wmma_stage_pointers_run(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  wmma_stage_pointers<<<dim3(N / 64, M / 128), 256>>>(A, B, C, M, N, K);
}
