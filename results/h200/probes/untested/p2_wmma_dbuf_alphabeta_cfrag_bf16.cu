// WMMA GEMM with double-buffered shared memory, bf16 inputs, float C:
// C = alpha * A * B + beta * C, the epilogue through a C fragment (CUDA samples style).
// 128 threads = 4 warps (2x2), block tile 64x64, each warp 32x32 (2x2 fragments).
// Requires M, N multiples of 64 and K a multiple of 32.
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, PAD = 8;

__global__ void __launch_bounds__(128)
    wmma_gemm_db(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                 int K, float alpha, float beta) {
  __shared__ __nv_bfloat16 sA[2][BM][BK + PAD];
  __shared__ __nv_bfloat16 sB[2][BK][BN + PAD];

  const int warp = threadIdx.x / 32;
  const int wr = warp / 2, wc = warp % 2;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  // each thread copies 16 elements of A (64x32) and 16 of B (32x64)
  auto load_tiles = [&](int stage, int k0) {
    for (int i = threadIdx.x; i < BM * BK; i += 128) {
      int r = i / BK, c = i % BK;
      sA[stage][r][c] = A[(bm + r) * K + k0 + c];
    }
    for (int i = threadIdx.x; i < BK * BN; i += 128) {
      int r = i / BN, c = i % BN;
      sB[stage][r][c] = B[(k0 + r) * N + bn + c];
    }
  };

  load_tiles(0, 0);
  __syncthreads();

  const int nTiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < nTiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < nTiles) load_tiles(cur ^ 1, (t + 1) * BK);

    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(fa[i], &sA[cur][wr * 32 + i * 16][kk], BK + PAD);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], &sB[cur][kk][wc * 32 + j * 16], BN + PAD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      float *cptr = C + (bm + wr * 32 + i * 16) * N + bn + wc * 32 + j * 16;
      wmma::load_matrix_sync(cf, cptr, N, wmma::mem_row_major);
      for (int e = 0; e < cf.num_elements; ++e)
        cf.x[e] = alpha * acc[i][j].x[e] + beta * cf.x[e];
      wmma::store_matrix_sync(cptr, cf, N, wmma::mem_row_major);
    }
  }
}

void gemm_wmma_db(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                  int K, float alpha, float beta, cudaStream_t stream) {
  dim3 grid(N / BN, M / BM);
  wmma_gemm_db<<<grid, 128, 0, stream>>>(A, B, C, M, N, K, alpha, beta);
}
