// A WMMA GEMM with double-buffered shared memory: 8 warps, a 128 x 128 block
// tile of 2 x 4 fragments per warp, K steps of 32; the next tiles are copied
// into the other buffer (as 16-byte vectors) before the fragments of this one
// are loaded; C stored as float.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

constexpr int BM = 128, BN = 128, BK = 32, PAD = 8;

__global__ void wmma_gemm_db(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ half sa[2][BM][BK + PAD];
  __shared__ half sb[2][BK][BN + PAD];
  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_m = warp / 2;  // 4 rows of warps, 32 rows each
  const int warp_n = warp % 2;  // 2 columns of warps, 64 columns each
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][4];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++) wmma::fill_fragment(c[i][j], 0.0f);

  // 128 x 32 of A and 32 x 128 of B: 512 vectors of 8 halves each, two per thread.
  for (int v = tid; v < BM * BK / 8; v += 256) {
    const int r = v / (BK / 8), col = (v % (BK / 8)) * 8;
    *reinterpret_cast<int4 *>(&sa[0][r][col]) =
        *reinterpret_cast<const int4 *>(&A[(m0 + r) * K + col]);
    const int rb = v / (BN / 8), cb = (v % (BN / 8)) * 8;
    *reinterpret_cast<int4 *>(&sb[0][rb][cb]) =
        *reinterpret_cast<const int4 *>(&B[rb * N + n0 + cb]);
  }
  __syncthreads();

#pragma tawa tile
  for (int k = 0; k < K; k += BK) {
    const int s = (k / BK) % 2;
    if (k + BK < K) {
      for (int v = tid; v < BM * BK / 8; v += 256) {
        const int r = v / (BK / 8), col = (v % (BK / 8)) * 8;
        *reinterpret_cast<int4 *>(&sa[1 - s][r][col]) =
            *reinterpret_cast<const int4 *>(&A[(m0 + r) * K + k + BK + col]);
        const int rb = v / (BN / 8), cb = (v % (BN / 8)) * 8;
        *reinterpret_cast<int4 *>(&sb[1 - s][rb][cb]) =
            *reinterpret_cast<const int4 *>(&B[(k + BK + rb) * N + n0 + cb]);
      }
    }
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[4];
      for (int i = 0; i < 2; i++)
        wmma::load_matrix_sync(a[i], &sa[s][warp_m * 32 + i * 16][kk], BK + PAD);
      for (int j = 0; j < 4; j++)
        wmma::load_matrix_sync(b[j], &sb[s][kk][warp_n * 64 + j * 16], BN + PAD);
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
    }
    __syncthreads();
  }

  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      wmma::store_matrix_sync(&C[(m0 + warp_m * 32 + i * 16) * N + n0 + warp_n * 64 + j * 16],
                              c[i][j], N, wmma::mem_row_major);
}

void wmma_gemm_db_launch(const half *A, const half *B, float *C, int M, int N, int K,
                         cudaStream_t stream) {
  wmma_gemm_db<<<dim3(N / BN, M / BM), 256, 0, stream>>>(A, B, C, M, N, K);
}
