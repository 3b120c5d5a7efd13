// Bounds checks of WMMA fragment stores that do not stand for every element
// they store (wmma-checked-stores.cu): the row alone checked, and a check of
// a row 32 below the fragment's, which lies outside the span of any multiple
// of 64 holding the fragment's rows in half of the warps; a return of some
// warps before the barriers, and a return that differs between the lanes of
// a warp. Each is refused and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}4{{$}}
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, PAD = 8;

#define ARGS const half *A, const half *B, float *C, int M, int N, int K
#define HEAD                                                                   \
  __shared__ __align__(32) half As[BM][BK + PAD];                              \
  __shared__ __align__(32) half Bs[BK][BN + PAD];                              \
  const int tid = threadIdx.x, warp = tid / 32;                                \
  const int wr = warp / 2, wc = warp % 2;                                      \
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;                        \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];              \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j)                                                \
      wmma::fill_fragment(acc[i][j], 0.0f);
#define LOOP                                                                   \
  for (int k0 = 0; k0 < K; k0 += BK) {                                         \
    for (int i = tid; i < BM * BK; i += 128) {                                 \
      const int r = i / BK, c = i % BK;                                        \
      As[r][c] = m0 + r < M && k0 + c < K ? A[(m0 + r) * K + k0 + c]           \
                                          : __float2half_rn(0.0f);             \
    }                                                                          \
    for (int i = tid; i < BK * BN; i += 128) {                                 \
      const int r = i / BN, c = i % BN;                                        \
      Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]           \
                                          : __float2half_rn(0.0f);             \
    }                                                                          \
    __syncthreads();                                                           \
    for (int kk = 0; kk < BK; kk += 16) {                                      \
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];  \
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];  \
      for (int i = 0; i < 2; ++i)                                              \
        wmma::load_matrix_sync(a[i], &As[wr * 32 + i * 16][kk], BK + PAD);     \
      for (int j = 0; j < 2; ++j)                                              \
        wmma::load_matrix_sync(b[j], &Bs[kk][wc * 32 + j * 16], BN + PAD);     \
      for (int i = 0; i < 2; ++i)                                              \
        for (int j = 0; j < 2; ++j)                                            \
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);                    \
    }                                                                          \
    __syncthreads();                                                           \
  }
/// Each fragment stored where `CHECK` holds.
#define STORE(CHECK)                                                           \
  for (int i = 0; i < 2; ++i)                                                  \
    for (int j = 0; j < 2; ++j) {                                              \
      const int row = m0 + wr * 32 + i * 16, col = n0 + wc * 32 + j * 16;      \
      if (CHECK)                                                               \
        wmma::store_matrix_sync(C + row * N + col, acc[i][j], N,               \
                                wmma::mem_row_major);                          \
    }

// CHECK: note: kernel 'row_only' is left unchanged
__global__ void row_only(ARGS) {
  HEAD
#pragma tawa tile
  LOOP
  STORE(row < M)
}

// CHECK: note: kernel 'next_span' is left unchanged
__global__ void next_span(ARGS) {
  HEAD
#pragma tawa tile
  LOOP
  STORE(row + 32 < M && col < N)
}

// CHECK: warning: {{.*}}an early return of some threads of the block before a barrier: only whole blocks may return early here
// CHECK: note: kernel 'warp_return_before_barrier' is left unchanged
__global__ void warp_return_before_barrier(ARGS) {
  HEAD
  if (m0 + wr * 32 >= M || n0 + wc * 32 >= N)
    return;
#pragma tawa tile
  LOOP
  STORE(row < M && col < N)
}

// CHECK: warning: {{.*}}the lanes of a warp must return alike before the loop (wmma calls are warp-collective)
// CHECK: note: kernel 'lane_returns' is left unchanged
__global__ void lane_returns(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             float *C, int M, int N, int K) {
  const int warp = threadIdx.x / warpSize;
  const int row0 = (blockIdx.y * 2 + warp / 2) * 32;
  const int col0 = (blockIdx.x * 2 + warp % 2) * 32;
  if (row0 + threadIdx.x % 32 >= M || col0 >= N)
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
