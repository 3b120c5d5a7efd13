// Strided-batched GEMM with WMMA, as used for attention scores:
// S[b] = scale * Q[b] * K[b]^T, Q[b] is seq_q x d, K[b] is seq_k x d (both
// row-major, so K^T is a column-major matrix_b), S[b] is seq_q x seq_k float.
// The batch (batch * heads) is blockIdx.z; strides are in elements as in
// cublasGemmStridedBatchedEx. One warp per 16 x 16 tile of S, 8 warps per
// block along seq_k. seq_q, seq_k, d multiples of 16.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void attn_scores_wmma(const half *__restrict__ Q, const half *__restrict__ Kmat,
                                 float *__restrict__ S, int seq_q, int seq_k, int d,
                                 long long strideQ, long long strideK, long long strideS,
                                 float scale) {
  const int batch = blockIdx.z;
  const half *q = Q + batch * strideQ;
  const half *k = Kmat + batch * strideK;
  float *s = S + batch * strideS;

  const int warpRow = blockIdx.y;                                     // tile row in S
  const int warpCol = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;  // tile col in S

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> q_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> k_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

  const int row = warpRow * 16;
  const int col = warpCol * 16;

#pragma tawa tile
  for (int kk = 0; kk < d; kk += 16) {
    if (row < seq_q && col < seq_k) {
      wmma::load_matrix_sync(q_frag, q + row * d + kk, d);
      wmma::load_matrix_sync(k_frag, k + col * d + kk, d);
      wmma::mma_sync(acc, q_frag, k_frag, acc);
    }
  }

  if (row < seq_q && col < seq_k) {
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= scale;
    wmma::store_matrix_sync(s + row * seq_k + col, acc, seq_k, wmma::mem_row_major);
  }
}

void attn_scores(const half *Q, const half *K, float *S, int batch_heads, int seq_q,
                 int seq_k, int head_dim, float scale, cudaStream_t stream) {
  const int warps = 8;
  dim3 block(32 * warps);
  dim3 grid((seq_k / 16 + warps - 1) / warps, seq_q / 16, batch_heads);
  attn_scores_wmma<<<grid, block, 0, stream>>>(
      Q, K, S, seq_q, seq_k, head_dim, (long long)seq_q * head_dim,
      (long long)seq_k * head_dim, (long long)seq_q * seq_k, scale);
}
