// WMMA with a 16 x 16 float scratch per warp: four warps each own a 32 x 32
// quarter of a 64 x 64 block tile (2 x 2 fragments from tiles of A and B
// staged in shared memory), and after the K loop each warp stores one
// fragment at a time into its scratch, reads it back after __syncwarp(),
// converts it to half and writes it with bounds checks, then syncs again
// before the next fragment overwrites the scratch. The staging loads are
// unchecked: M and N multiples of 64, K of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 16, WARPS = 4;

__global__ void wmma_scratch_kernel(const half *__restrict__ A, const half *__restrict__ B,
                                    half *__restrict__ C, int M, int N, int K) {
  __shared__ half As[BM][BK];
  __shared__ half Bs[BK][BN];
  __shared__ float scratch[WARPS][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = (warp / 2) * 32, warpCol = (warp % 2) * 32;
  const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 128) {
      As[e / BK][e % BK] = A[(blockRow + e / BK) * K + k + e % BK];
      Bs[e / BN][e % BN] = B[(k + e / BN) * N + blockCol + e % BN];
    }
    __syncthreads();
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], &As[warpRow + i * 16][0], BK);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], &Bs[0][warpCol + j * 16], BN);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    __syncthreads();
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int row = blockRow + warpRow + i * 16 + e / 16;
        const int col = blockCol + warpCol + j * 16 + e % 16;
        if (row < M && col < N)
          C[row * N + col] = __float2half_rn(scratch[warp][e]);
      }
      __syncwarp();
    }
}

void wmma_scratch_gemm(const half *A, const half *B, half *C, int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  wmma_scratch_kernel<<<grid, 32 * WARPS>>>(A, B, C, M, N, K);
}
