// WMMA GEMM after "Programming Tensor Cores in CUDA 9" (NVIDIA blog): column-major A (M x K),
// B (K x N), C (M x N); blockDim (64, 2) = 2x2 warps, one 16x16 fragment per warp, bounds check
// inside the K loop. Half output: each warp stages its fragment in a shared float scratch and
// converts to half.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

const int WMMA_M = 16;
const int WMMA_N = 16;
const int WMMA_K = 16;

__global__ void wmma_example_half_out(const half *a, const half *b, half *c, int M, int N, int K) {
  __shared__ float scratch[4][WMMA_M * WMMA_N];

  int lda = M;
  int ldb = K;
  int ldc = M;

  // Tile using a 2D grid
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  int warpInBlock = threadIdx.y * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;

  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);

  // Loop over k
#pragma tawa tile
  for (int i = 0; i < K; i += WMMA_K) {
    int aRow = warpM * WMMA_M;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * WMMA_N;
    // Bounds checking
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
      wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }

  int cRow = warpM * WMMA_M;
  int cCol = warpN * WMMA_N;
  if (cRow < M && cCol < N) {
    wmma::store_matrix_sync(scratch[warpInBlock], acc_frag, WMMA_M, wmma::mem_col_major);
    __syncwarp();
    for (int e = lane; e < WMMA_M * WMMA_N; e += warpSize) {
      int r = e % WMMA_M, col = e / WMMA_M;   // column-major in the scratch
      c[(cRow + r) + (cCol + col) * ldc] = __float2half(scratch[warpInBlock][e]);
    }
  }
}

// M, N, K multiples of 16.
void launch_wmma_half_out(const half *a, const half *b, half *c, int M, int N, int K) {
  dim3 blockDim(128 / 2, 2);   // 2 warps in x, 2 in y
  dim3 gridDim((M + (WMMA_M * blockDim.x / 32 - 1)) / (WMMA_M * blockDim.x / 32),
               (N + WMMA_N * blockDim.y - 1) / (WMMA_N * blockDim.y));
  wmma_example_half_out<<<gridDim, blockDim>>>(a, b, c, M, N, K);
}
