// Shared-memory WMMA HGEMM as in many tutorials: a 128-thread block (2 x 2
// warps) computes a 64 x 64 tile of C, each warp a 32 x 32 sub-tile held in
// 2 x 2 accumulator fragments. A (M x K) and B (K x N) row-major half tiles
// are staged cooperatively into padded shared memory with zero fill at the
// edges; C is float, row-major. M and N must be multiples of 16 (fragment
// stores are whole 16x16 tiles); K may be anything.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 32;
constexpr int PAD = 8;  // halves; keeps rows 16-byte aligned and breaks bank conflicts
constexpr int WMMA_TILE = 16;
constexpr int NUM_THREADS = 128;

__global__ void __launch_bounds__(NUM_THREADS)
hgemm_wmma_smem(const half *__restrict__ A, const half *__restrict__ B,
                float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(32) half As[BM][BK + PAD];
  __shared__ __align__(32) half Bs[BK][BN + PAD];

  const int tid = threadIdx.x;
  const int warpId = tid / 32;
  const int warpRow = warpId / 2;  // 0..1
  const int warpCol = warpId % 2;  // 0..1

  const int blockRow = blockIdx.y * BM;
  const int blockCol = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    // Stage A[blockRow:+BM, k0:+BK]
    for (int i = tid; i < BM * BK; i += NUM_THREADS) {
      const int r = i / BK, c = i % BK;
      const int gr = blockRow + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : __float2half_rn(0.0f);
    }
    // Stage B[k0:+BK, blockCol:+BN]
    for (int i = tid; i < BK * BN; i += NUM_THREADS) {
      const int r = i / BN, c = i % BN;
      const int gr = k0 + r, gc = blockCol + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : __float2half_rn(0.0f);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; kk += WMMA_TILE) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag[2];
#pragma unroll
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a_frag[i], &As[warpRow * 32 + i * 16][kk], BK + PAD);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b_frag[j], &Bs[kk][warpCol * 32 + j * 16], BN + PAD);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 2; ++i) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const int row = blockRow + warpRow * 32 + i * 16;
      const int col = blockCol + warpCol * 32 + j * 16;
      if (row < M && col < N)
        wmma::store_matrix_sync(C + row * N + col, acc[i][j], N, wmma::mem_row_major);
    }
  }
}

void hgemm_wmma_smem_launch(const half *A, const half *B, float *C, int M, int N,
                            int K, cudaStream_t stream) {
  dim3 block(NUM_THREADS);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_wmma_smem<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
