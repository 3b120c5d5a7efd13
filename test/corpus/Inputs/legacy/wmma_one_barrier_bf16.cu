// A WMMA GEMM fed by a double-buffered cp.async pipeline with one barrier per
// tile: four warps of 2 x 2 fragments over a 64 x 64 tile of C, the copies of
// the next K tile started right after the barrier that publishes this one.
// M and N multiples of 64, K a multiple of 32.
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

__global__ void __launch_bounds__(128)
    wmma_one_barrier(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                     int M, int N, int K) {
  __shared__ __align__(32) __nv_bfloat16 As[2][64][32];
  __shared__ __align__(32) __nv_bfloat16 Bs[2][32][64];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  const int tiles = K / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int c = threadIdx.x; c < 64 * 32 / 8; c += 128) {
    const int r = c / 4, k = c % 4 * 8;
    __pipeline_memcpy_async(&As[0][r][k], &A[(row0 + r) * K + k], 16);
  }
  for (int c = threadIdx.x; c < 32 * 64 / 8; c += 128) {
    const int r = c / 8, n = c % 8 * 8;
    __pipeline_memcpy_async(&Bs[0][r][n], &B[r * N + col0 + n], 16);
  }
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * 32;
      for (int c = threadIdx.x; c < 64 * 32 / 8; c += 128) {
        const int r = c / 4, k = c % 4 * 8;
        __pipeline_memcpy_async(&As[(t + 1) % 2][r][k],
                                &A[(row0 + r) * K + k1 + k], 16);
      }
      for (int c = threadIdx.x; c < 32 * 64 / 8; c += 128) {
        const int r = c / 8, n = c % 8 * 8;
        __pipeline_memcpy_async(&Bs[(t + 1) % 2][r][n],
                                &B[(k1 + r) * N + col0 + n], 16);
      }
    }
    __pipeline_commit();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
                     wmma::row_major>
          a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
                     wmma::row_major>
          b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[t % 2][wr * 32 + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[t % 2][kk][wc * 32 + j * 16], 64);
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

void wmma_one_barrier_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          float *C, int M, int N, int K) {
  wmma_one_barrier<<<dim3(N / 64, M / 64), 128>>>(A, B, C, M, N, K);
}
