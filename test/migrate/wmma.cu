// --migrate lifts WMMA GEMMs, one accumulator fragment per warp: the
// launcher runs the tiled form for blocks of whole warps across and extents
// that are multiples of the fragment's, over the window of C the warps'
// tiles cover. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
#include <mma.h>
using namespace nvcuda;

// The CUDA samples' style: warps along x walk the rows, threads along y the
// columns; indices computed in the loop; row-major matrices.
// CHECK-LABEL: __global__ void wmma_gemm(
__global__ void wmma_gemm(const half *a, const half *b, float *c, int M, int N,
                          int K) {
  int lda = K, ldb = N, ldc = N;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += 16) {
    int aRow = warpM * 16;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * 16;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow * lda + aCol, lda);
      wmma::load_matrix_sync(b_frag, b + bRow * ldb + bCol, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cRow = warpM * 16;
  int cCol = warpN * 16;
  if (cRow < M && cCol < N)
    wmma::store_matrix_sync(c + cRow * ldc + cCol, acc_frag, ldc,
                            wmma::mem_row_major);
}
// CHECK: __global__ void wmma_gemm_tiled(tawa::Matrix<const __half> a,
// CHECK: auto a_ = tawa::load<128, 64>(a, m0, k0);
// CHECK-NEXT: auto b_ = tawa::load<64, 256>(b, k0, n0);
// CHECK-NEXT: tawa::mma(acc, a_, b_);
// CHECK: tawa::store(c, m0, n0, acc);
// CHECK: block is a multiple of 32 threads across (whole warps)
// CHECK: const long long tawa_rows_covered =
// CHECK-NEXT: 1LL * tawa_grid.x * (tawa_block.x / 32) * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.y * tawa_block.y * 16;
// CHECK: if (tawa_block.x % 32 != 0 || tawa_block.z != 1 || tawa_rows <= 0 ||
// CHECK-NEXT: tawa_cols <= 0 || tawa_grid.z == 0 || M % 16 != 0 || N % 16 != 0 ||
// CHECK-NEXT: K % 16 != 0 || tawa_flops < 16777216.0 ||
// CHECK: tawa::Matrix<const __half>{a, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{b, K, N, N},
// CHECK-NEXT: tawa::Matrix<float>{c, tawa_rows, tawa_cols, N});

// One warp per block, blockIdx.y the rows, B stored N x K (a column-major
// fragment), bf16, no bounds checks.
// CHECK-LABEL: __global__ void wmma_nt(
__global__ void wmma_nt(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int K, int lda, int ldb, int ldc) {
  const int row = blockIdx.y * 32, col = blockIdx.x * 8;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, &A[row * lda + k], lda);
    wmma::load_matrix_sync(fb, B + col * ldb + k, ldb);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(C + row * ldc + col, acc, ldc, wmma::mem_row_major);
}
// CHECK: __global__ void wmma_nt_tiled(
// CHECK: tawa::mma(acc, a, tawa::transpose(b));
// CHECK: tawa_rows_covered = 1LL * tawa_grid.y * 32,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 8;
// CHECK: tawa_grid.z == 0 || K % 16 != 0 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, K, lda},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, tawa_cols, K, ldb},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, ldc});

// Warps per block counted from blockDim, the warp from threadIdx.x / 32,
// pointers set before the loop and bounds on the loads only.
// CHECK-LABEL: __global__ void wmma_warps(
__global__ void wmma_warps(const half *A, const half *B, float *C, int M, int N,
                           int K) {
  const int warps = blockDim.x / 32;
  const int tile_m = blockIdx.x * warps + threadIdx.x / 32;
  const int tile_n = blockIdx.y;
  const half *a = A + tile_m * 16 * K;
  const half *b = B + tile_n * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k * N, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  if (tile_m * 16 < M && tile_n * 16 < N)
    wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, acc, N,
                            wmma::mem_row_major);
}
// CHECK: __global__ void wmma_warps_tiled(
// CHECK: const long long tawa_rows_covered =
// CHECK-NEXT: 1LL * tawa_grid.x * (tawa_block.x / 32) * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.y * 16;

// The same with shifts: the warp `threadIdx.x >> 5`, the warps per block
// `blockDim.x >> 5` (on values never negative, x >> c is x / 2^c).
// CHECK-LABEL: __global__ void wmma_warps_shifted(
__global__ void wmma_warps_shifted(const half *A, const half *B, float *C, int M, int N,
                           int K) {
  const int warps = blockDim.x >> 5;
  const int tile_m = blockIdx.x * warps + (threadIdx.x >> 5);
  const int tile_n = blockIdx.y;
  const half *a = A + tile_m * 16 * K;
  const half *b = B + tile_n * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k * N, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  if (tile_m * 16 < M && tile_n * 16 < N)
    wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, acc, N,
                            wmma::mem_row_major);
}
// CHECK: __global__ void wmma_warps_shifted_tiled(
// CHECK: const long long tawa_rows_covered =
// CHECK-NEXT: 1LL * tawa_grid.x * (tawa_block.x / 32) * 16,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.y * 16;

// DIAG-NOT: {{warning|error}}:
// DIAG2-NOT: {{warning|error}}:
// REWRITTEN: wmma_gemm_tiled_launch(
// REWRITTEN: wmma_nt_tiled_launch(
// REWRITTEN: wmma_warps_tiled_launch(
// REWRITTEN: wmma_warps_shifted_tiled_launch(
