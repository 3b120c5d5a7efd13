// WMMA with bf16 output through a per-warp scratch whose pointer is set up
// before the K loop: `float *ws = &scratch[0][0] + warp * 256;`. After the
// loop each warp stores one fragment at a time into it, reads it back after
// __syncwarp(), adds a per-row bias, applies ReLU, converts to bf16 and
// writes C under bounds checks. 64 x 64 block tiles of four warps (2 x 2
// fragments each) from tiles staged without bounds checks: M and N
// multiples of 64, K of 16.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

namespace {
constexpr int kTile = 64, kStep = 16, kWarps = 4;
}

__global__ void scratch_bias_relu_kernel(const half *A, const half *B, const float *rowBias,
                                         __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ half As[kTile][kStep];
  __shared__ half Bs[kStep][kTile];
  __shared__ float scratch[kWarps][256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  const int row0 = blockIdx.y * kTile, col0 = blockIdx.x * kTile;
  float *ws = &scratch[0][0] + warp * 256;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += kStep) {
    for (int e = threadIdx.x; e < kTile * kStep; e += 32 * kWarps) {
      As[e / kStep][e % kStep] = A[(row0 + e / kStep) * K + k + e % kStep];
      Bs[e / kTile][e % kTile] = B[(k + e / kTile) * N + col0 + e % kTile];
    }
    __syncthreads();
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], &As[wr + i * 16][0], kStep);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], &Bs[0][wc + j * 16], kTile);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    __syncthreads();
  }

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int row = row0 + wr + i * 16 + e / 16;
        const int col = col0 + wc + j * 16 + e % 16;
        if (row < M && col < N) {
          const float v = ws[e] + rowBias[row];
          C[row * N + col] = __float2bfloat16_rn(v > 0.0f ? v : 0.0f);
        }
      }
      __syncwarp();
    }
}

void scratch_bias_relu(const half *A, const half *B, const float *rowBias, __nv_bfloat16 *C,
                       int M, int N, int K) {
  dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  scratch_bias_relu_kernel<<<grid, 32 * kWarps>>>(A, B, rowBias, C, M, N, K);
}
