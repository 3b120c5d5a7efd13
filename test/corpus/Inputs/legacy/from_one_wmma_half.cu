// A WMMA GEMM counted from 1: 4 warps, a 64 x 64 block tile of 2 x 2 fragments
// per warp, K steps of 32 over two shared buffers. Tile 0 is staged before the
// loop; iteration t copies tile t into buffer t & 1 while the warps multiply
// tile t - 1, and the last tile is multiplied in a block after the loop.
// A is M x K, B is K x N, both row-major; C is float. M, N multiples of 64 and
// K a multiple of 32.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define TM 64
#define TN 64
#define TK 32

__global__ void wmma_from_one(const half *__restrict__ A, const half *__restrict__ B,
                              float *__restrict__ C, int M, int N, int K) {
  __shared__ half As[2][TM][TK];
  __shared__ half Bs[2][TK][TN];
  const int warp = threadIdx.x / 32;
  const int wm = warp / 2, wn = warp % 2;
  const int row0 = blockIdx.y * TM, col0 = blockIdx.x * TN;
  const int tiles = K / TK;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  for (int i = threadIdx.x; i < TM * TK; i += 128)
    As[0][i / TK][i % TK] = A[(row0 + i / TK) * K + i % TK];
  for (int i = threadIdx.x; i < TK * TN; i += 128)
    Bs[0][i / TN][i % TN] = B[(i / TN) * N + col0 + i % TN];
  __syncthreads();

#pragma tawa tile
  for (int t = 1; t < tiles; ++t) {
    const int cur = (t - 1) & 1, nxt = t & 1;
    for (int i = threadIdx.x; i < TM * TK; i += 128)
      As[nxt][i / TK][i % TK] = A[(row0 + i / TK) * K + t * TK + i % TK];
    for (int i = threadIdx.x; i < TK * TN; i += 128)
      Bs[nxt][i / TN][i % TN] = B[(t * TK + i / TN) * N + col0 + i % TN];
    for (int kk = 0; kk < TK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], TK);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], TN);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  {
    const int cur = (tiles - 1) & 1;
    for (int kk = 0; kk < TK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], TK);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], TN);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&C[(row0 + wm * 32 + i * 16) * N + col0 + wn * 32 + j * 16],
                              acc[i][j], N, wmma::mem_row_major);
}

void wmma_from_one_launch(const half *A, const half *B, float *C, int M, int N, int K) {
  wmma_from_one<<<dim3(N / TN, M / TM), 128>>>(A, B, C, M, N, K);
}
