#include <mma.h>
using namespace nvcuda;
#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16
// CHECK-LABEL: __global__ void wmma_example(
__global__ void wmma_example(half *a, half *b, float *c, int M, int N, int K,
                             float alpha, float beta) {
  int lda = M;
  int ldb = K;
  int ldc = M;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major>
      a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major>
      b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += WMMA_K) {
    int aRow = warpM * WMMA_M;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * WMMA_N;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
      wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cRow = warpM * WMMA_M;
  int cCol = warpN * WMMA_N;
  if (cRow < M && cCol < N) {
    wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc,
                           wmma::mem_col_major);
#pragma unroll
    for (int i = 0; i < c_frag.num_elements; i++) {
      c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
    }
    wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc,
                            wmma::mem_col_major);
  }
}
// CHECK: __global__ void wmma_example_tiled(tawa::Matrix<const __half> b,
// CHECK-NEXT: tawa::Matrix<const __half> a,
// CHECK-NEXT: tawa::Matrix<float> c, float alpha,
// CHECK: auto a_ = tawa::load<128, 64>(b, m0, k0);
// CHECK-NEXT: auto b_ = tawa::load<64, 256>(a, k0, n0);
// CHECK-NEXT: tawa::mma(acc, a_, b_);
// CHECK: tawa::store(c, m0, n0, alpha * acc + beta * tawa::load<128, 256>(c, m0, n0));
// CHECK: computing the rows of C^T below min(N, tawa_grid.y *
// CHECK: const int tawa_rows = N < tawa_rows_covered ? N : int(tawa_rows_covered);
// CHECK-NEXT: const int tawa_cols = M < tawa_cols_covered ? M : int(tawa_cols_covered);
// CHECK: tawa::Matrix<const __half>{b, N, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{a, K, M, M},
// CHECK-NEXT: tawa::Matrix<float>{c, tawa_rows, tawa_cols, M}, alpha, beta);

// Row-major, no bounds checks, the accumulator scaled in place and the C
// term first.
// CHECK-LABEL: __global__ void scaled_in_place(
__global__ void scaled_in_place(const half *A, const half *B, float *C, int N,
                                int K, float alpha, float beta) {
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, old;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::load_matrix_sync(old, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] = beta * old.x[i] + acc.x[i] * alpha;
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
