// WMMA with the epilogue staged through shared memory: four warps each own a
// 32 x 32 quarter of a 64 x 64 block tile (2 x 2 fragments loaded straight
// from global memory), store their accumulators into a padded __shared__
// array, and after a barrier the whole block adds a per-column bias, applies
// ReLU and writes bf16 with coalesced, bounds-checked stores. The fragment
// loads are unchecked: M and N multiples of 64, K of 16.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, WM = 32, WN = 32, PAD = 4;

__global__ void wmma_bias_relu_kernel(const half *__restrict__ A, const half *__restrict__ B,
                                      const float *__restrict__ bias,
                                      __nv_bfloat16 *__restrict__ C, int M, int N, int K) {
  __shared__ float stage[BM][BN + PAD];
  const int warp = threadIdx.x / 32;
  const int warpRow = (warp / 2) * WM, warpCol = (warp % 2) * WN;
  const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (blockRow + warpRow + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + k * N + blockCol + warpCol + j * 16, N);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&stage[warpRow + i * 16][warpCol + j * 16], acc[i][j], BN + PAD,
                              wmma::mem_row_major);
  __syncthreads();

  for (int e = threadIdx.x; e < BM * BN; e += 128) {
    const int r = e / BN, c = e % BN;
    const int row = blockRow + r, col = blockCol + c;
    if (row < M && col < N) {
      const float v = stage[r][c] + bias[col];
      C[row * N + col] = __float2bfloat16_rn(v > 0.0f ? v : 0.0f);
    }
  }
}

void wmma_bias_relu(const half *A, const half *B, const float *bias, __nv_bfloat16 *C, int M,
                    int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  wmma_bias_relu_kernel<<<grid, 128>>>(A, B, bias, C, M, N, K);
}
