// Course-style tensor-core GEMM: a 32x32 C tile per 128-thread block (2x2 warps, one fragment
// each); A and B tiles (BK = 32) staged cooperatively into shared memory with zero fill at the
// edges, two 16-deep mma steps per tile; C = alpha * A * B written as half through a per-warp
// shared float scratch with a bounds check per element.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
using namespace nvcuda;

#define BM 32
#define BN 32
#define BK 32
#define PADK 8

__global__ void hgemm_wmma_smem(const half *__restrict__ A, const half *__restrict__ B,
                                half *__restrict__ C, int M, int N, int K, float alpha) {
  __shared__ __align__(32) half As[BM][BK + PADK];
  __shared__ __align__(32) half Bs[BK][BN + PADK];
  __shared__ __align__(32) float Cs[4][16 * 16];

  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warpRow = warp / 2, warpCol = warp % 2;
  const int blockRow = blockIdx.y * BM, blockCol = blockIdx.x * BN;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> cf;
  wmma::fill_fragment(cf, 0.0f);

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += blockDim.x) {
      const int r = i / BK, c = i % BK;
      As[r][c] = (blockRow + r < M && k0 + c < K) ? A[(blockRow + r) * K + k0 + c]
                                                  : __float2half(0.f);
    }
    for (int i = tid; i < BK * BN; i += blockDim.x) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = (k0 + r < K && blockCol + c < N) ? B[(k0 + r) * N + blockCol + c]
                                                  : __float2half(0.f);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::load_matrix_sync(af, &As[warpRow * 16][kk], BK + PADK);
      wmma::load_matrix_sync(bf, &Bs[kk][warpCol * 16], BN + PADK);
      wmma::mma_sync(cf, af, bf, cf);
    }
    __syncthreads();
  }

  for (int e = 0; e < cf.num_elements; ++e) cf.x[e] = alpha * cf.x[e];
  wmma::store_matrix_sync(Cs[warp], cf, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 256; e += 32) {
    const int r = blockRow + warpRow * 16 + e / 16;
    const int c = blockCol + warpCol * 16 + e % 16;
    if (r < M && c < N) C[r * N + c] = __float2half(Cs[warp][e]);
  }
}

void hgemm(const half *A, const half *B, half *C, int M, int N, int K, float alpha,
           cudaStream_t s) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_wmma_smem<<<grid, 128, 0, s>>>(A, B, C, M, N, K, alpha);
}
