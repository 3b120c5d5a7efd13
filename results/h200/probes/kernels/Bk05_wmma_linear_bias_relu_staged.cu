// Inference-engine style fused linear layer: Y = relu(X * W^T + bias), X is
// M x K (tokens x in_features), W is N x K (PyTorch nn.Linear layout), Y is
// M x N half. A 128-thread block (2 x 2 warps, one 16x16 fragment each)
// computes a 32 x 32 tile of Y; tiles staged with zero fill so any M, N, K
// work; the accumulators go through a shared float tile so the epilogue can
// add the bias, apply ReLU, convert to half and write coalesced with bounds
// checks.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int TILE_M = 32;
constexpr int TILE_N = 32;
constexpr int TILE_K = 32;
constexpr int SMEM_PAD = 8;
constexpr int kThreads = 128;
}  // namespace

__global__ void linear_bias_relu_wmma(const half *__restrict__ X,
                                      const half *__restrict__ W,
                                      const half *__restrict__ bias,
                                      half *__restrict__ Y, int M, int N, int K) {
  __shared__ __align__(32) half Xs[TILE_M][TILE_K + SMEM_PAD];
  __shared__ __align__(32) half Ws[TILE_N][TILE_K + SMEM_PAD];
  __shared__ __align__(32) float Ys[TILE_M][TILE_N + 4];

  const int tid = threadIdx.x;
  const int warp_id = tid >> 5;
  const int warp_m = warp_id >> 1;
  const int warp_n = warp_id & 1;
  const int m0 = blockIdx.y * TILE_M;
  const int n0 = blockIdx.x * TILE_N;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_K) {
    for (int idx = tid; idx < TILE_M * TILE_K; idx += kThreads) {
      int r = idx / TILE_K, c = idx % TILE_K;
      int gm = m0 + r, gk = k0 + c;
      Xs[r][c] = (gm < M && gk < K) ? X[(size_t)gm * K + gk] : __float2half_rn(0.f);
    }
    for (int idx = tid; idx < TILE_N * TILE_K; idx += kThreads) {
      int r = idx / TILE_K, c = idx % TILE_K;
      int gn = n0 + r, gk = k0 + c;
      Ws[r][c] = (gn < N && gk < K) ? W[(size_t)gn * K + gk] : __float2half_rn(0.f);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < TILE_K; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
      // Ws holds W rows (output features) x k: that is B = W^T in column-major.
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b_frag;
      wmma::load_matrix_sync(a_frag, &Xs[warp_m * 16][kk], TILE_K + SMEM_PAD);
      wmma::load_matrix_sync(b_frag, &Ws[warp_n * 16][kk], TILE_K + SMEM_PAD);
      wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
    __syncthreads();
  }

  wmma::store_matrix_sync(&Ys[warp_m * 16][warp_n * 16], acc, TILE_N + 4,
                          wmma::mem_row_major);
  __syncthreads();

  for (int idx = tid; idx < TILE_M * TILE_N; idx += kThreads) {
    int r = idx / TILE_N, c = idx % TILE_N;
    int gm = m0 + r, gn = n0 + c;
    if (gm < M && gn < N) {
      float v = Ys[r][c] + __half2float(bias[gn]);
      Y[(size_t)gm * N + gn] = __float2half_rn(v > 0.f ? v : 0.f);
    }
  }
}

void linear_bias_relu(const half *X, const half *W, const half *bias, half *Y,
                      int tokens, int in_features, int out_features,
                      cudaStream_t stream) {
  dim3 block(kThreads);
  dim3 grid((out_features + TILE_N - 1) / TILE_N, (tokens + TILE_M - 1) / TILE_M);
  linear_bias_relu_wmma<<<grid, block, 0, stream>>>(X, W, bias, Y, tokens,
                                                    out_features, in_features);
}
