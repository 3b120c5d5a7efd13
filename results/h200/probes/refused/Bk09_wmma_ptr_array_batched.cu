// Pointer-array batched GEMM (the cublasGemmBatchedEx interface) with WMMA:
// C[i] = alpha * A[i] * B[i] + beta * C[i] for i = blockIdx.z, every matrix
// row-major with its own leading dimension. One warp per 16 x 16 tile,
// blocks of 4 x 2 warps (blockDim = (128, 2)), the CUDA samples' indexing.
// m, n, k multiples of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void gemm_batched_wmma(const half *const *A_array, const half *const *B_array,
                                  float *const *C_array, int m, int n, int k, int lda,
                                  int ldb, int ldc, float alpha, float beta) {
  const half *A = A_array[blockIdx.z];
  const half *B = B_array[blockIdx.z];
  float *C = C_array[blockIdx.z];

  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(acc_frag, 0.0f);

#pragma tawa tile
  for (int i = 0; i < k; i += 16) {
    int aRow = warpM * 16;
    int bCol = warpN * 16;
    if (aRow < m && bCol < n) {
      wmma::load_matrix_sync(a_frag, A + aRow * lda + i, lda);
      wmma::load_matrix_sync(b_frag, B + i * ldb + bCol, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }

  int cRow = warpM * 16;
  int cCol = warpN * 16;
  if (cRow < m && cCol < n) {
    wmma::load_matrix_sync(c_frag, C + cRow * ldc + cCol, ldc, wmma::mem_row_major);
    for (int t = 0; t < c_frag.num_elements; t++)
      c_frag.x[t] = alpha * acc_frag.x[t] + beta * c_frag.x[t];
    wmma::store_matrix_sync(C + cRow * ldc + cCol, c_frag, ldc, wmma::mem_row_major);
  }
}

void gemm_batched(const half *const *dA_array, const half *const *dB_array,
                  float *const *dC_array, int m, int n, int k, int lda, int ldb, int ldc,
                  float alpha, float beta, int batchCount, cudaStream_t stream) {
  dim3 block(128, 2);
  dim3 grid((m + 16 * 4 - 1) / (16 * 4), (n + 16 * 2 - 1) / (16 * 2), batchCount);
  gemm_batched_wmma<<<grid, block, 0, stream>>>(dA_array, dB_array, dC_array, m, n, k,
                                                lda, ldb, ldc, alpha, beta);
}
