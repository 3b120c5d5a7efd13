// WMMA GEMMs with several fragments per warp (followed thread by thread)
// whose epilogue goes through a C fragment, as the CUDA samples' D = alpha *
// A * B + beta * C: each fragment of C loaded from where it is stored,
// 'c.x[e] = alpha * acc[i][j].x[e] + beta * c.x[e]' over its elements, and
// stored back. Elements of one index in fragments of one type hold one
// element of the tile, so the store is one of alpha * acc + beta * C.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, PAD = 8;

// OUT-LABEL: __global__ void dbuf_blend_tiled(
// OUT: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// OUT-LABEL: dbuf_blend_migrated_launch(dim3 tawa_grid
// OUT: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// Double-buffered shared memory with one barrier per iteration, 2 x 2 warps
// of 2 x 2 fragments; the blend's result in the C fragment.
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

// OUT-LABEL: __global__ void checked_blend_tiled(
// OUT: tawa::store(C, m0, n0, beta * tawa::load<128, 256>(C, m0, n0) + acc);
// Fragments straight from global memory, two per warp along N, the C term
// first and no alpha, the blend's result in the accumulator, everything
// under the check of the fragment's first row and column.
__global__ void checked_blend(const half *A, const half *B, float *C, int M,
                              int N, int K, float beta) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2], c;
  for (int j = 0; j < 2; ++j)
    wmma::fill_fragment(acc[j], 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row0 * K + k, K);
    for (int j = 0; j < 2; ++j) {
      wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);
      wmma::mma_sync(acc[j], a, b[j], acc[j]);
    }
  }
  for (int j = 0; j < 2; ++j)
    if (row0 < M && col0 + j * 16 < N) {
      wmma::load_matrix_sync(c, C + row0 * N + col0 + j * 16, N, wmma::mem_row_major);
      for (int e = 0; e < c.num_elements; ++e)
        acc[j].x[e] = beta * c.x[e] + acc[j].x[e];
      wmma::store_matrix_sync(C + row0 * N + col0 + j * 16, acc[j], N, wmma::mem_row_major);
    }
}
