// WMMA GEMM in the manner of NVIDIA's blog "Programming Tensor Cores in CUDA
// 9": blockDim (128, 4) = 4 x 4 warps, one 16 x 16 fragment per warp, the
// bounds check of the warp's tile inside the K loop. Row-major A (M x K), B
// (K x N) and C (M x N); bf16 output: each warp stages its fragment in its own
// float scratch and converts, all under the warp's check. M, N and K
// multiples of 16.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void wmma_blog_bf16_out(const half *a, const half *b,
                                   __nv_bfloat16 *c, int M, int N, int K) {
  __shared__ float scratch[16][WMMA_M * WMMA_N];
  int lda = K, ldb = N, ldc = N;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  int warp = threadIdx.y * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;

  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);

#pragma tawa tile
  for (int i = 0; i < K; i += WMMA_K) {
    int aRow = warpM * WMMA_M;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * WMMA_N;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow * lda + aCol, lda);
      wmma::load_matrix_sync(b_frag, b + bRow * ldb + bCol, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }

  int cRow = warpM * WMMA_M;
  int cCol = warpN * WMMA_N;
  if (cRow < M && cCol < N) {
    wmma::store_matrix_sync(scratch[warp], acc_frag, WMMA_N, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < WMMA_M * WMMA_N; e += warpSize) {
      int r = e / WMMA_N, col = e % WMMA_N;
      c[(cRow + r) * ldc + cCol + col] = __float2bfloat16(scratch[warp][e]);
    }
  }
}

void wmma_blog_bf16(const half *a, const half *b, __nv_bfloat16 *c, int M,
                    int N, int K) {
  dim3 blockDim(128, 4);
  dim3 gridDim((M + (WMMA_M * blockDim.x / 32 - 1)) / (WMMA_M * blockDim.x / 32),
               (N + WMMA_N * blockDim.y - 1) / (WMMA_N * blockDim.y));
  wmma_blog_bf16_out<<<gridDim, blockDim>>>(a, b, c, M, N, K);
}
