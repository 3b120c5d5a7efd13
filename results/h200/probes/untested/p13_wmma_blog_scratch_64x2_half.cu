// NVIDIA's WMMA blog indexing ("Programming Tensor Cores in CUDA 9"): each warp's 16 x 16 tile
// row from the global thread index along x divided by warpSize, its column from the index along
// y, launched with dim3 block(64, 2) (2 x 2 warps); row-major A (M x K) and B (K x N), fp16 in,
// the accumulator through a per-warp shared scratch to a bounds-checked fp16 store. The loads
// are unchecked: M and N multiples of 32, K of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

__global__ void blog_scratch(const half *a, const half *b, half *c, int M, int N, int K) {
  __shared__ float scratch[4][16 * 16];
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  const int warpInBlock = threadIdx.y * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a_frag, a + warpM * 16 * K + k, K);
    wmma::load_matrix_sync(b_frag, b + k * N + warpN * 16, N);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(scratch[warpInBlock], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += warpSize) {
    const int r = warpM * 16 + e / 16, col = warpN * 16 + e % 16;
    if (r < M && col < N)
      c[r * N + col] = __float2half_rn(scratch[warpInBlock][e]);
  }
}

void blog_launch(const half *a, const half *b, half *c, int M, int N, int K) {
  dim3 block(64, 2);
  dim3 grid((M + 31) / 32, (N + 31) / 32);
  blog_scratch<<<grid, block>>>(a, b, c, M, N, K);
}
