// WMMA GEMMs whose block of warps is arranged in rows and columns by the
// warp index (`warp / D`, `warp % D`, written with shifts and masks too), and
// whose warps return early where their tile lies outside C: the launcher runs
// the tiled form for blocks of exactly that many warps, the early return
// standing for the bounds check of the loads and the store. (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

// Four warps as 2 x 2, B stored N x K, alpha * A * B^T + beta * C through a
// C fragment.
// CHECK-LABEL: __global__ void wmma_gemm_nt_tiled(
// CHECK: tawa::mma(acc, a, tawa::transpose(b));
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.y * 2 * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 2 * 16;
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
__global__ void wmma_gemm_nt(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
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

  wmma::load_matrix_sync(fc, C + r0 * N + c0, N, wmma::mem_row_major);
  for (int t = 0; t < fc.num_elements; ++t)
    fc.x[t] = alpha * facc.x[t] + beta * fc.x[t];
  wmma::store_matrix_sync(C + r0 * N + c0, fc, N, wmma::mem_row_major);
}


// Eight warps as 4 x 2, written with division and remainder.
// CHECK-LABEL: __global__ void wmma_4x2_tiled(
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.y * 4 * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 2 * 16;
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
__global__ void wmma_4x2(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warp = threadIdx.x / 32;
  const int tileRow = blockIdx.y * 4 + warp / 2;
  const int tileCol = blockIdx.x * 2 + warp % 2;
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

  wmma::load_matrix_sync(fc, C + r0 * N + c0, N, wmma::mem_row_major);
  for (int t = 0; t < fc.num_elements; ++t)
    fc.x[t] = alpha * facc.x[t] + beta * fc.x[t];
  wmma::store_matrix_sync(C + r0 * N + c0, fc, N, wmma::mem_row_major);
}


// The warps' rows from the remainder, their columns from the quotient.
// CHECK-LABEL: __global__ void wmma_cols_first_tiled(
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.y * 2 * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 4 * 16;
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
__global__ void wmma_cols_first(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warp = threadIdx.x / 32;
  const int tileRow = blockIdx.y * 2 + warp % 2;
  const int tileCol = blockIdx.x * 4 + warp / 2;
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

  wmma::load_matrix_sync(fc, C + r0 * N + c0, N, wmma::mem_row_major);
  for (int t = 0; t < fc.num_elements; ++t)
    fc.x[t] = alpha * facc.x[t] + beta * fc.x[t];
  wmma::store_matrix_sync(C + r0 * N + c0, fc, N, wmma::mem_row_major);
}


// DIAG-NOT: {{warning|error}}:

void launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
            int N, int K, float alpha, float beta) {
  wmma_gemm_nt<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K,
                                                          alpha, beta);
  wmma_4x2<<<dim3((N + 31) / 32, (M + 63) / 64), 256>>>(A, B, C, M, N, K,
                                                       alpha, beta);
  wmma_cols_first<<<dim3((N + 63) / 64, (M + 31) / 32), 256>>>(A, B, C, M, N,
                                                               K, alpha, beta);
}
