// WMMA GEMM in the CUDA samples' style whose K loop counts 16-wide tiles with a floor division
// (`K / 16`): one 16 x 16 fp32 accumulator fragment per warp, fragments loaded straight from
// global memory, the loads and the store checked at the fragment's first row and column. For K
// not a multiple of 16 the kernel sums the first 16 * (K / 16) products. fp16 in, fp32 out.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

__global__ void wmma_tilecount(const half *a, const half *b, float *c, int M, int N, int K) {
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major> fa;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half, nvcuda::wmma::row_major> fb;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int t = 0; t < K / 16; ++t) {
    const int aRow = warpM * 16, bCol = warpN * 16;
    if (aRow < M && bCol < N) {
      nvcuda::wmma::load_matrix_sync(fa, a + aRow * K + t * 16, K);
      nvcuda::wmma::load_matrix_sync(fb, b + (t * 16) * N + bCol, N);
      nvcuda::wmma::mma_sync(acc, fa, fb, acc);
    }
  }
  const int cRow = warpM * 16, cCol = warpN * 16;
  if (cRow < M && cCol < N)
    nvcuda::wmma::store_matrix_sync(c + cRow * N + cCol, acc, N, nvcuda::wmma::mem_row_major);
}

// M and N multiples of 16 (whole fragments are loaded and stored); any K.
void wmma_tilecount_launch(const half *a, const half *b, float *c, int M, int N, int K,
                           cudaStream_t stream) {
  const dim3 block(128, 4);  // 4 x 4 warps: 64 x 64 of C per block
  const dim3 grid((M + 63) / 64, (N + 63) / 64);
  wmma_tilecount<<<grid, block, 0, stream>>>(a, b, c, M, N, K);
}
