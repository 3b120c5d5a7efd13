// WMMA GEMM with double-buffered shared memory and one barrier per
// iteration, 128 threads = 2 x 2 warps of 2 x 2 fragments (a 64 x 64 block
// tile), bf16 inputs, float C: C = alpha * A * B + beta * C through a C
// fragment per accumulator fragment (the CUDA samples' epilogue). M and N
// multiples of 64, K a multiple of 32.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, PAD = 8;

__global__ void __launch_bounds__(128)
    dbuf_blend(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
               int N, int K, float alpha, float beta) {
  __shared__ __nv_bfloat16 sA[2][BM][BK + PAD];
  __shared__ __nv_bfloat16 sB[2][BK][BN + PAD];
  const int warp = threadIdx.x / 32;
  const int wr = warp / 2, wc = warp % 2;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int i = threadIdx.x; i < BM * BK; i += 128)
    sA[0][i / BK][i % BK] = A[(bm + i / BK) * K + i % BK];
  for (int i = threadIdx.x; i < BK * BN; i += 128)
    sB[0][i / BN][i % BN] = B[(i / BN) * N + bn + i % BN];
  __syncthreads();
  const int nTiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < nTiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < nTiles) {
      for (int i = threadIdx.x; i < BM * BK; i += 128)
        sA[cur ^ 1][i / BK][i % BK] = A[(bm + i / BK) * K + (t + 1) * BK + i % BK];
      for (int i = threadIdx.x; i < BK * BN; i += 128)
        sB[cur ^ 1][i / BN][i % BN] = B[((t + 1) * BK + i / BN) * N + bn + i % BN];
    }
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(fa[i], &sA[cur][wr * 32 + i * 16][kk], BK + PAD);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], &sB[cur][kk][wc * 32 + j * 16], BN + PAD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      float *cptr = C + (bm + wr * 32 + i * 16) * N + bn + wc * 32 + j * 16;
      wmma::load_matrix_sync(cf, cptr, N, wmma::mem_row_major);
      for (int e = 0; e < cf.num_elements; ++e)
        cf.x[e] = alpha * acc[i][j].x[e] + beta * cf.x[e];
      wmma::store_matrix_sync(cptr, cf, N, wmma::mem_row_major);
    }
}
void dbuf_blend_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                       int M, int N, int K, float alpha, float beta) {
  dbuf_blend<<<dim3(N / BN, M / BM), 128>>>(A, B, C, M, N, K, alpha, beta);
}
