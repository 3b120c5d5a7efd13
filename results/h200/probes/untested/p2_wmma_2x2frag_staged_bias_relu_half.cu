// WMMA GEMM: 64x64 block tile, 4 warps in 2x2, each warp 32x32 = 2x2 m16n16k16 fragments.
// Operands staged through padded shared memory; results staged through shared memory for a
// coalesced bias + ReLU epilogue written as half.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

#define BLOCK_M 64
#define BLOCK_N 64
#define BLOCK_K 32
#define WARP_M 32
#define WARP_N 32
#define SKEW 8  // avoid bank conflicts
#define THREADS 128

__global__ void wmma_gemm_bias_relu(const half *__restrict__ A, const half *__restrict__ B,
                                    const half *__restrict__ bias, half *__restrict__ C,
                                    int M, int N, int K) {
  __shared__ half As[BLOCK_M][BLOCK_K + SKEW];
  __shared__ half Bs[BLOCK_K][BLOCK_N + SKEW];
  __shared__ float Cs[BLOCK_M][BLOCK_N + 4];

  const int tid = threadIdx.x;
  const int warpId = tid / 32;
  const int warpRow = warpId / 2;  // 0..1
  const int warpCol = warpId % 2;  // 0..1

  const int blockRow = blockIdx.y * BLOCK_M;
  const int blockCol = blockIdx.x * BLOCK_N;

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BLOCK_K) {
    // cooperative, bounds-checked loads: 64*32 elements of A, 32*64 of B, 128 threads
    for (int i = tid; i < BLOCK_M * BLOCK_K; i += THREADS) {
      const int r = i / BLOCK_K, c = i % BLOCK_K;
      const int gr = blockRow + r, gc = k0 + c;
      As[r][c] = (gr < M && gc < K) ? A[gr * K + gc] : __float2half(0.0f);
    }
    for (int i = tid; i < BLOCK_K * BLOCK_N; i += THREADS) {
      const int r = i / BLOCK_N, c = i % BLOCK_N;
      const int gr = k0 + r, gc = blockCol + c;
      Bs[r][c] = (gr < K && gc < N) ? B[gr * N + gc] : __float2half(0.0f);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BLOCK_K; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
#pragma unroll
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[warpRow * WARP_M + i * 16][kk], BLOCK_K + SKEW);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][warpCol * WARP_N + j * 16], BLOCK_N + SKEW);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[warpRow * WARP_M + i * 16][warpCol * WARP_N + j * 16],
                              acc[i][j], BLOCK_N + 4, wmma::mem_row_major);
  __syncthreads();

  for (int i = tid; i < BLOCK_M * BLOCK_N; i += THREADS) {
    const int r = i / BLOCK_N, c = i % BLOCK_N;
    const int gr = blockRow + r, gc = blockCol + c;
    if (gr < M && gc < N) {
      float v = Cs[r][c] + __half2float(bias[gc]);
      C[gr * N + gc] = __float2half(fmaxf(v, 0.0f));
    }
  }
}

void launch_wmma_gemm_bias_relu(const half *A, const half *B, const half *bias, half *C,
                                int M, int N, int K, cudaStream_t s) {
  dim3 grid((N + BLOCK_N - 1) / BLOCK_N, (M + BLOCK_M - 1) / BLOCK_M);
  wmma_gemm_bias_relu<<<grid, THREADS, 0, s>>>(A, B, bias, C, M, N, K);
}
