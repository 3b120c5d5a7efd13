// Linear layer y = relu(x W^T + b) on tensor cores: x is M x K row-major, W is N x K row-major
// (PyTorch nn.Linear weight), read as a column-major K x N matrix_b fragment. 2x2 warps per
// 128-thread block, one 16x16 fragment per warp, early return for warps past the edge, bf16
// output through a per-warp float scratch.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

__global__ void linear_bias_relu_wmma(const __nv_bfloat16 *__restrict__ x,
                                      const __nv_bfloat16 *__restrict__ W,
                                      const float *__restrict__ b, __nv_bfloat16 *__restrict__ y,
                                      int M, int N, int K) {
  __shared__ float scratch[4][16 * 16];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row = (blockIdx.y * 2 + warp / 2) * 16;
  const int col = (blockIdx.x * 2 + warp % 2) * 16;
  if (row >= M || col >= N) return;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> xa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> wb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(xa, x + row * K + k, K);
    wmma::load_matrix_sync(wb, W + col * K + k, K);
    wmma::mma_sync(acc, xa, wb, acc);
  }

  wmma::store_matrix_sync(scratch[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int r = e / 16, c = e % 16;
    const float v = scratch[warp][e] + b[col + c];
    y[(row + r) * N + col + c] = __float2bfloat16_rn(v > 0.f ? v : 0.f);
  }
}

// M, N, K multiples of 16.
void linear_bias_relu(const __nv_bfloat16 *x, const __nv_bfloat16 *W, const float *b,
                      __nv_bfloat16 *y, int M, int N, int K, cudaStream_t stream) {
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  linear_bias_relu_wmma<<<grid, 128, 0, stream>>>(x, W, b, y, M, N, K);
}
