// A WMMA GEMM on fp16 fed by a four-stage cuda::pipeline of thread scope
// (libcu++): the first three K tiles staged before the loop, each copy and
// its commit under 'if (s < tiles)', so that a K of fewer tiles commits
// fewer groups; each iteration waits for the oldest group not yet waited
// for (`consumer_wait`, which counts the groups committed), meets at a
// barrier, stages the tile three ahead into the buffer the last iteration
// read (copies and commit under the prefetch's condition), and multiplies
// its own tile through a helper that takes the pipeline by reference: eight
// warps of 2 x 2 fragments over a 128 x 64 tile of C. M a multiple of 128,
// N of 64, K of 32.
#include <cuda/pipeline>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int STAGES = 4;

// Copies tile `t` of A and B into the buffers `as` and `bs`, one group.
__device__ void stage_tile(__half (*as)[32], __half (*bs)[64], const __half *A,
                           const __half *B, int N, int K, int row0, int col0,
                           int t,
                           cuda::pipeline<cuda::thread_scope_thread> &pipe) {
  pipe.producer_acquire();
  for (int c = threadIdx.x; c < 128 * 32 / 8; c += 256) {
    const int r = c / 4, k = c % 4 * 8;
    cuda::memcpy_async(&as[r][k], &A[(row0 + r) * K + t * 32 + k],
                       cuda::aligned_size_t<16>(16), pipe);
  }
  for (int c = threadIdx.x; c < 32 * 64 / 8; c += 256) {
    const int r = c / 8, n = c % 8 * 8;
    cuda::memcpy_async(&bs[r][n], &B[(t * 32 + r) * N + col0 + n],
                       cuda::aligned_size_t<16>(16), pipe);
  }
  pipe.producer_commit();
}

__global__ void __launch_bounds__(256)
    wmma_pipeline(const __half *A, const __half *B, float *C, int M, int N,
                  int K) {
  __shared__ __align__(32) __half As[STAGES][128][32];
  __shared__ __align__(32) __half Bs[STAGES][32][64];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 64;
  const int tiles = K / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < STAGES - 1; ++s)
    if (s < tiles)
      stage_tile(As[s], Bs[s], A, B, N, K, row0, col0, s, pipe);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    const int next = t + STAGES - 1;
    if (next < tiles)
      stage_tile(As[next % STAGES], Bs[next % STAGES], A, B, N, K, row0, col0,
                 next, pipe);
    const int cur = t % STAGES;
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[cur][wr * 32 + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[cur][kk][wc * 32 + j * 16], 64);
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

void wmma_pipeline_run(const __half *A, const __half *B, float *C, int M, int N,
                       int K) {
  wmma_pipeline<<<dim3(N / 64, M / 128), 256>>>(A, B, C, M, N, K);
}
