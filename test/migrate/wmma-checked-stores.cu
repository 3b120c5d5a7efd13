// WMMA GEMMs with several fragments per warp whose stores are bounds-checked
// at a fragment's first row and column (or at the warp's), as tutorials write
// them for ragged sizes: `if (row < M && col < N) wmma::store_matrix_sync(...)`
// stores the whole fragment where its first element is inside C. That is
// where each of its elements is when M and N are multiples of the span the
// check covers, so the launcher runs the tiled form there and the kernel as
// written elsewhere. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, PAD = 8;

// Zero-filled staging into padded tiles, 2 x 2 warps of 2 x 2 fragments,
// each fragment's store checked at its first element.
// CHECK-LABEL: __global__ void checked_fragments_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK-LABEL: static void checked_fragments_migrated_launch(
// CHECK: N % 16 != 0
// CHECK: M % 16 != 0
// CHECK: checked_fragments_tiled<<<
__global__ void checked_fragments(const half *A, const half *B, float *C,
                                  int M, int N, int K) {
  __shared__ __align__(32) half As[BM][BK + PAD];
  __shared__ __align__(32) half Bs[BK][BN + PAD];
  const int tid = threadIdx.x, warp = tid / 32;
  const int wr = warp / 2, wc = warp % 2;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = tid; i < BM * BK; i += 128) {
      const int r = i / BK, c = i % BK;
      As[r][c] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]
                                          : __float2half_rn(0.0f);
    }
    for (int i = tid; i < BK * BN; i += 128) {
      const int r = i / BN, c = i % BN;
      Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]
                                          : __float2half_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[wr * 32 + i * 16][kk], BK + PAD);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + j * 16], BN + PAD);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int row = m0 + wr * 32 + i * 16, col = n0 + wc * 32 + j * 16;
      if (row < M && col < N)
        wmma::store_matrix_sync(C + row * N + col, acc[i][j], N,
                                wmma::mem_row_major);
    }
}

// Fragments loaded from global memory, all four stores under one check of
// the warp's 32 x 32 tile: M and N multiples of 64, the block's window,
// which the unchecked loads need.
// CHECK-LABEL: __global__ void checked_warp_tile_tiled(
// CHECK-LABEL: static void checked_warp_tile_migrated_launch(
// CHECK: M % 64 != 0
// CHECK: N % 64 != 0
// CHECK: checked_warp_tile_tiled<<<
__global__ void checked_warp_tile(const half *A, const half *B, float *C,
                                  int M, int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (col0 + j * 16) * K + k, K);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  if (row0 < M && col0 < N)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                                acc[i][j], N, wmma::mem_row_major);
}

// A return of the warps whose 32 x 32 tile starts outside C, in a kernel
// without barriers: each store of a warp that passes it stands under the
// check it passed, `row0 < M && col0 < N`.
// CHECK-LABEL: __global__ void warp_returns_tiled(
// CHECK-LABEL: static void warp_returns_migrated_launch(
// CHECK: M % 64 != 0
// CHECK: warp_returns_tiled<<<
__global__ void warp_returns(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             float *C, int M, int N, int K) {
  const int warp = threadIdx.x / warpSize;
  const int row0 = (blockIdx.y * 2 + warp / 2) * 32;
  const int col0 = (blockIdx.x * 2 + warp % 2) * 32;
  if (row0 >= M || col0 >= N)
    return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> b[2];
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + (col0 + j * 16) * K + k, K);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}

// One fragment per warp, the warps outside C returned and the store checked
// again: the check is redundant, and lifted as any check of the store.
// CHECK-LABEL: __global__ void exit_and_check_tiled(
// CHECK: exit_and_check_tiled<<<
__global__ void exit_and_check(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 2 + (warpId & 1);
  const int r0 = tileRow * 16, c0 = tileCol * 16;
  if (r0 >= M || c0 >= N) return;

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc, facc;
  wmma::fill_fragment(facc, 0.0f);

#pragma tawa tile
  for (int kk = 0; kk < K; kk += 16) {
    wmma::load_matrix_sync(fa, A + r0 * K + kk, K);
    wmma::load_matrix_sync(fb, B + c0 * K + kk, K);
    wmma::mma_sync(facc, fa, fb, facc);
  }

  if (r0 < M && c0 < N)
    wmma::store_matrix_sync(C + r0 * N + c0, facc, N, wmma::mem_row_major);
}
