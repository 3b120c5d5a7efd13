// Double-buffered shared-memory WMMA GEMM on bf16: 256 threads (4 x 2 warps)
// compute a 128 x 64 tile of C; each warp owns a 32 x 32 sub-tile (2 x 2
// fragments). Tiles are copied with 16-byte vector loads; the next K tile is
// prefetched into the other buffer while the current one is multiplied, one
// barrier per iteration. Requires M % 128 == 0, N % 64 == 0, K % 32 == 0 and
// 16-byte aligned A and B (checked by the launcher).
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <mma.h>

using namespace nvcuda;
typedef __nv_bfloat16 bf16;

#define BM 128
#define BN 64
#define BK 32
#define SKEW 8
#define THREADS 256

__device__ __forceinline__ void load_tiles(bf16 (*As)[BK + SKEW], bf16 (*Bs)[BN + SKEW],
                                           const bf16 *A, const bf16 *B, int K, int N,
                                           int blockRow, int blockCol, int k0) {
  // A tile: 128 x 32 = 4096 elements = 512 vectors of 8 -> 2 per thread
  for (int v = threadIdx.x; v < BM * BK / 8; v += THREADS) {
    int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
    *reinterpret_cast<uint4 *>(&As[r][c]) =
        *reinterpret_cast<const uint4 *>(&A[(blockRow + r) * K + k0 + c]);
  }
  // B tile: 32 x 64 = 2048 elements = 256 vectors -> 1 per thread
  for (int v = threadIdx.x; v < BK * BN / 8; v += THREADS) {
    int r = v / (BN / 8), c = (v % (BN / 8)) * 8;
    *reinterpret_cast<uint4 *>(&Bs[r][c]) =
        *reinterpret_cast<const uint4 *>(&B[(k0 + r) * N + blockCol + c]);
  }
}

__global__ void __launch_bounds__(THREADS)
gemm_bf16_wmma_db(const bf16 *__restrict__ A, const bf16 *__restrict__ B,
                  float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(128) bf16 As[2][BM][BK + SKEW];
  __shared__ __align__(128) bf16 Bs[2][BK][BN + SKEW];

  const int warp = threadIdx.x / 32;
  const int wm = warp / 2;  // 0..3
  const int wn = warp % 2;  // 0..1
  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      wmma::fill_fragment(acc[i][j], 0.0f);

  load_tiles(As[0], Bs[0], A, B, K, N, blockRow, blockCol, 0);
  __syncthreads();

  const int numTiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < numTiles; t++) {
    const int cur = t & 1;
    if (t + 1 < numTiles)
      load_tiles(As[cur ^ 1], Bs[cur ^ 1], A, B, K, N, blockRow, blockCol, (t + 1) * BK);

    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> b[2];
      for (int i = 0; i < 2; i++)
        wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], BK + SKEW);
      for (int j = 0; j < 2; j++)
        wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], BN + SKEW);
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      float *cTile = C + (blockRow + wm * 32 + i * 16) * N + blockCol + wn * 32 + j * 16;
      wmma::store_matrix_sync(cTile, acc[i][j], N, wmma::mem_row_major);
    }
}

cudaError_t gemm_bf16_wmma_db_launch(const bf16 *A, const bf16 *B, float *C, int M,
                                     int N, int K, cudaStream_t stream) {
  if (M % BM || N % BN || K % BK || (reinterpret_cast<size_t>(A) & 15) ||
      (reinterpret_cast<size_t>(B) & 15))
    return cudaErrorInvalidValue;
  dim3 grid(N / BN, M / BM);
  gemm_bf16_wmma_db<<<grid, THREADS, 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}
