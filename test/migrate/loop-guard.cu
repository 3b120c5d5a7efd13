// Tile loops inside an `if` whose checks keep threads out of the loop, lifted
// where every store of a thread kept out is skipped by a check of its own (so
// the kernel computes what it would without the `if`), or stands inside it.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=OUT < %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 32

// OUT-LABEL: __global__ void warps_in_c_tiled(
// OUT: tawa::store(C, m0, n0, alpha * acc);
// OUT-LABEL: static void warps_in_c_migrated_launch(
// OUT: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// Four warps side by side along N, each skipping the loop where its tile
// starts outside C; the accumulator goes through the warp's own scratch
// tile, and each lane stores its elements under checks that skip every
// element of a warp kept out.
__global__ void warps_in_c(const half *A, const half *B, half *C, int M,
                           int N, int K, float alpha) {
  __shared__ __align__(32) float scratch[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  if (row0 < M && col0 < N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
  }
  wmma::store_matrix_sync(scratch[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2half_rn(alpha * scratch[warp][e]);
  }
}

// OUT-LABEL: static void store_in_branch_migrated_launch(
// The store inside the `if` with the loop: only the warps that pass it
// store.
__global__ void store_in_branch(const half *A, const half *B, float *C, int M,
                                int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  if (row0 < M && col0 < N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + row0 * N + col0, acc, N, wmma::mem_row_major);
  }
}

// OUT-LABEL: static void blocks_in_c_migrated_launch(
// OUT: if (tawa_block.x != 32 || tawa_block.y != 32 || tawa_block.z != 1 ||
// The classic shared-memory kernel with the loop under a check of the
// block's tile (the same for every thread of the block, so the barriers in
// the loop stay whole-block): the blocks kept out store nothing, each
// thread's store checking its own row and column.
__global__ void blocks_in_c(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  const int row = m0 + ty, col = n0 + tx;
  float sum = 0.f;
  if (m0 < M && n0 < N) {
#pragma tawa tile
    for (int t = 0; t < K; t += TILE) {
      As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2bfloat16_rn(0.f);
      Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2bfloat16_rn(0.f);
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        sum += __bfloat162float(As[ty][j]) * __bfloat162float(Bs[j][tx]);
      __syncthreads();
    }
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(sum);
}
