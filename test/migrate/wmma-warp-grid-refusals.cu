// WMMA warp arrangements and early returns that do not give each warp its
// own tile inside C are refused, and the file is left as it is.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}the warp's tile must be at row 16 * r and column 16 * c
__global__ void cols_overlap(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 4 + (warpId & 1);
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


// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}the warp's tile must be at row 16 * r and column 16 * c
__global__ void divisors_differ(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 2 + (warpId & 3);
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


// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}expected an early return of the warps whose tile lies outside C
__global__ void lane_exit(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 2 + (warpId & 1);
  const int r0 = tileRow * 16, c0 = tileCol * 16;
  if (r0 >= M || c0 >= N || (threadIdx.x & 31) >= 16) return;

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


// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}expected an early return of the warps whose tile lies outside C
__global__ void exit_not_bounds(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  const int warpId = threadIdx.x >> 5;
  const int tileRow = blockIdx.y * 2 + (warpId >> 1);
  const int tileCol = blockIdx.x * 2 + (warpId & 1);
  const int r0 = tileRow * 16, c0 = tileCol * 16;
  if (r0 > M || c0 >= N) return;

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


// (warp / 6) / 3074457345618258603 is not warp / 2: 6 times the divisor
// wraps around in 64 bits, and is not taken for the merged divisor.
// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+14]]:3: warning: {{.*}}the warp's tile must be at row 16 * r and column 16 * c
__global__ void quotients_overflow(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K, float alpha, float beta) {
  const int warp = threadIdx.x / 32;
  const long long tileRow = blockIdx.y * 2 + warp / 6 / 3074457345618258603LL;
  const int tileCol = blockIdx.x * 2 + warp % 2;
  const long long r0 = tileRow * 16;
  const int c0 = tileCol * 16;
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
  wmma::store_matrix_sync(C + r0 * N + c0, facc, N, wmma::mem_row_major);
}

// threadIdx.x - 32u is unsigned: it wraps around for warp 0, so the warp
// index below is not (threadIdx.x / 32) - 1 for every warp.
// CHECK: wmma-warp-grid-refusals.cu:[[@LINE+13]]:3: warning: {{.*}}unsigned arithmetic that may go below zero and wrap around
__global__ void unsigned_wraps(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K, float alpha, float beta) {
  const int warp = (threadIdx.x - 32u + 4294967296ULL) / 32 - 134217727;
  const int tileRow = blockIdx.y * 2 + warp / 2;
  const int tileCol = blockIdx.x * 2 + warp % 2;
  const int r0 = tileRow * 16, c0 = tileCol * 16;
  if (r0 >= M || c0 >= N) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> facc;
  wmma::fill_fragment(facc, 0.0f);

#pragma tawa tile
  for (int kk = 0; kk < K; kk += 16) {
    wmma::load_matrix_sync(fa, A + r0 * K + kk, K);
    wmma::load_matrix_sync(fb, B + c0 * K + kk, K);
    wmma::mma_sync(facc, fa, fb, facc);
  }
  wmma::store_matrix_sync(C + r0 * N + c0, facc, N, wmma::mem_row_major);
}

void launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
            int N, int K, float alpha, float beta) {
  cols_overlap<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
  divisors_differ<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
  lane_exit<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
  exit_not_bounds<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
  quotients_overflow<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
  unsigned_wraps<<<dim3((N + 31) / 32, (M + 31) / 32), 128>>>(A, B, C, M, N, K, alpha, beta);
}
