// --migrate lifts WMMA GEMMs with several accumulator fragments per warp,
// loaded from global memory or from tiles staged in shared memory: the
// register-blocked front end follows each lane, each wmma call
// warp-collective (include/tawa/BlockedLift.h). (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
#include <mma.h>
using namespace nvcuda;
// CHECK-LABEL: __global__ void wmma_2x2(
// Each warp a 32 x 32 tile of C: 2 x 2 fragments loaded from global memory.
__global__ void wmma_2x2(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}

// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 16 != 0 ||
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// CHECK-LABEL: __global__ void wmma_smem(
// Tiles staged through shared memory: 128 threads stage 64 x 32 of A and
// 32 x 64 of B per iteration; each warp 2 x 2 fragments.
__global__ void wmma_smem(const half *A, const half *B, float *C, int M, int N,
                          int K) {
  __shared__ half As[64][32];
  __shared__ half Bs[32][64];
  const int warp = threadIdx.x / 32;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    for (int e = threadIdx.x; e < 64 * 32; e += 128) {
      As[e / 32][e % 32] = A[(blockIdx.y * 64 + e / 32) * K + t + e % 32];
      Bs[e / 64][e % 64] = B[(t + e / 64) * N + blockIdx.x * 64 + e % 64];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[wr + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][wc + j * 16], 64);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (blockIdx.y * 64 + wr + i * 16) * N +
                                  blockIdx.x * 64 + wc + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 32 != 0 ||
// CHECK: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// CHECK-LABEL: __global__ void wmma_2x2_alpha(
// The accumulator fragments scaled by alpha after the loop, element by
// element: a store of alpha * acc, whatever element each lane holds.
__global__ void wmma_2x2_alpha(const half *A, const half *B, float *C, int M,
                               int N, int K, float alpha) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + (warp / 2) * 32;
  const int col0 = blockIdx.x * 64 + (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    for (int i = 0; i < 2; ++i)
      wmma::load_matrix_sync(a[i], A + (row0 + i * 16) * K + k, K);
    for (int j = 0; j < 2; ++j)
      wmma::load_matrix_sync(b[j], B + k * N + col0 + j * 16, N);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < acc[i][j].num_elements; e++)
        acc[i][j].x[e] = alpha * acc[i][j].x[e];
      wmma::store_matrix_sync(C + (row0 + i * 16) * N + col0 + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
    }
}
// CHECK: /// 'wmma_2x2_alpha' in the tile vocabulary: C = alpha * A * B over
// CHECK: tawa::store(C, m0, n0, alpha * acc);

// DIAG-NOT: warning
// DIAG2-NOT: warning
