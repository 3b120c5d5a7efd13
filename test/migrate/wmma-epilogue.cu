// --migrate lifts WMMA GEMMs whose epilogue goes through a C fragment
// (loaded from C, combined element by element with the accumulator, stored
// back) and whose C is stored column-major: C^T = B^T A^T is then the GEMM
// lifted. Fragments of one type hold one element of the tile at one index
// (CUDA C++ Programming Guide, "Warp Matrix Functions"). (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=warning: --implicit-check-not=error:
#include <mma.h>
using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

// The CUDA samples' simpleTensorCoreGEMM kernel: column-major A, B and C,
// C = alpha * A * B + beta * C through a C fragment.
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
// The first operand is the kernel's B read transposed (N x K), the second
// its A (K x M), the output C^T (N x M, leading dimension M).
// CHECK: column-major: computed as C^T = B^T * A^T, the first operand the kernel's B)
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
// CHECK: tawa::store(C, m0, n0, beta * tawa::load<128, 256>(C, m0, n0) + alpha * acc);
// The tile is the block's: the warps of a wider block would each read C
// that another stored, so the tiled form runs for one warp per block only.
// CHECK: form where the block is 32 threads across (one warp), one deep
// CHECK: if (tawa_block.x != 32 || tawa_block.z != 1 || tawa_block.y != 1 ||
// CHECK: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N}, alpha, beta);

// Only alpha: no C fragment.
// CHECK-LABEL: __global__ void alpha_only(
__global__ void alpha_only(const half *A, const half *B, float *C, int N, int K,
                           float alpha) {
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] = alpha * acc.x[i];
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: tawa::store(C, m0, n0, alpha * acc);

// Only alpha, the accumulator scaled in place ('acc.x[i] *= alpha;').
// CHECK-LABEL: __global__ void alpha_in_place(
__global__ void alpha_in_place(const half *A, const half *B, float *C, int N,
                               int K, float alpha) {
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] *= alpha;
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: tawa::store(C, m0, n0, alpha * acc);

// A scale computed before the loop from the kernel's parameters alone: the
// tiled form takes K and declares it the same way.
// CHECK-LABEL: __global__ void local_scale(
__global__ void local_scale(const half *A, const half *B, float *C, int N,
                            int K) {
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  const float scale = 1.0f / sqrtf((float)K);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + row * K + k, K);
    wmma::load_matrix_sync(fb, B + k * N + col, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] = scale * acc.x[i];
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: tawa::Matrix<float> C, int K) {
// CHECK: const float scale = 1.0f / sqrtf((float)K);
// CHECK: tawa::store(C, m0, n0, scale * acc);

#define GEMM_FRAGMENTS                                                         \
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;                      \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;        \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;        \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, cf;                \
  wmma::fill_fragment(acc, 0.0f);
#define GEMM_LOOP                                                              \
  for (int k = 0; k < K; k += 16) {                                            \
    wmma::load_matrix_sync(fa, A + row * K + k, K);                            \
    wmma::load_matrix_sync(fb, B + k * N + col, N);                            \
    wmma::mma_sync(acc, fa, fb, acc);                                          \
  }

// An activation of the fragment's elements: ReLU of alpha * acc + beta * C,
// and GELU of acc alone, written inline over one element.
// CHECK-LABEL: __global__ void fragment_relu(
__global__ void fragment_relu(const half *A, const half *B, float *C, int N,
                              int K, float alpha, float beta) {
  GEMM_FRAGMENTS
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = fmaxf(alpha * acc.x[i] + beta * cf.x[i], 0.0f);
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::relu(alpha * acc + beta * tawa::load<128, 256>(C, m0, n0)));
// CHECK-LABEL: __global__ void fragment_gelu(
__global__ void fragment_gelu(const half *A, const half *B, float *C, int N,
                              int K) {
  GEMM_FRAGMENTS
#pragma tawa tile
  GEMM_LOOP
  for (int i = 0; i < acc.num_elements; i++)
    acc.x[i] = 0.5f * acc.x[i] * (1.0f + erff(acc.x[i] * 0.70710678f));
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
// CHECK: tawa::store(C, m0, n0, tawa::gelu(acc));

// D = alpha * A * B + beta * C with C an input beside the output D (the CUDA
// samples' simple_wmma_gemm): the C fragment loaded from C at D's element.
// CHECK-LABEL: __global__ void fragment_c_input(
__global__ void fragment_c_input(const half *A, const half *B, const float *Cin,
                                 float *C, int N, int K, float alpha,
                                 float beta) {
  GEMM_FRAGMENTS
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, Cin + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}
// CHECK: tawa::Matrix<float> C,
// CHECK-NEXT: tawa::Matrix<const float> Cin,
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: alpha * acc + beta * tawa::load<128, 256>(Cin, m0, n0));
// CHECK: tawa::Matrix<const float>{Cin, tawa_rows, tawa_cols, N}, alpha, beta);

// Refused: the C input is loaded one row below where C is stored.
__global__ void c_input_elsewhere(const half *A, const half *B,
                                  const float *Cin, float *C, int N, int K,
                                  float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the C fragment must be loaded from where it is stored, or from a float C input at the same place (D = alpha * A * B + beta * C, the CUDA samples' simple_wmma_gemm), with the same leading dimension and layout
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, Cin + (row + 1) * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: the C input's leading dimension differs from C's.
__global__ void c_input_other_ld(const half *A, const half *B,
                                 const float *Cin, float *C, int N, int K,
                                 int ldin, float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the C fragment must be loaded from where it is stored, or from a float C input
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, Cin + row * ldin + col, ldin, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: the C fragment is loaded one row below where it is stored.
__global__ void c_elsewhere(const half *A, const half *B, float *C, int N,
                            int K, float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the C fragment must be loaded from where it is stored, or from a float C input at the same place
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + (row + 1) * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: loaded column-major, stored row-major.
__global__ void c_other_layout(const half *A, const half *B, float *C, int N,
                               int K, float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the C fragment must be loaded from where it is stored
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + row * N + col, N, wmma::mem_col_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: a product of the two fragments, not a sum.
__global__ void c_product(const half *A, const half *B, float *C, int N, int K,
                          float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int i = 0; i < c.num_elements; i++) c.x[i] = alpha * acc.x[i] + beta * c.x[i];' over the fragments' elements
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = acc.x[i] * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: part of the elements only.
__global__ void some_elements(const half *A, const half *B, float *C, int N,
                              int K, float alpha) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int i = 0; i < c.num_elements; i++)
#pragma tawa tile
  GEMM_LOOP
  for (int i = 0; i < 4; i++)
    acc.x[i] = alpha * acc.x[i];
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}

// Refused: the element index shifted (another element of the tile).
__global__ void shifted_element(const half *A, const half *B, float *C, int N,
                                int K, float alpha, float beta) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int i = 0; i < c.num_elements; i++)
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements - 1; i++)
    cf.x[i] = alpha * acc.x[i + 1] + beta * cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: C added unscaled (no beta parameter).
__global__ void unscaled_c(const half *A, const half *B, float *C, int N,
                           int K) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int i = 0; i < c.num_elements; i++)
#pragma tawa tile
  GEMM_LOOP
  wmma::load_matrix_sync(cf, C + row * N + col, N, wmma::mem_row_major);
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = acc.x[i] + cf.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// Refused: the C fragment stored, but never loaded.
__global__ void c_unloaded(const half *A, const half *B, float *C, int N,
                           int K, float alpha) {
  GEMM_FRAGMENTS
  // DIAG: wmma-epilogue.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int i = 0; i < c.num_elements; i++)
#pragma tawa tile
  GEMM_LOOP
  for (int i = 0; i < cf.num_elements; i++)
    cf.x[i] = alpha * acc.x[i];
  wmma::store_matrix_sync(C + row * N + col, cf, N, wmma::mem_row_major);
}

// DIAG2-COUNT-9: warning: this loop does not match a liftable pattern
