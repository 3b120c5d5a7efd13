// WMMA loops that multiply fragments read straight from global memory under a
// bounds check of the warp's tile inside the loop body (NVIDIA's blog
// "Programming Tensor Cores in CUDA 9"): the checks of k are the loop's own
// bound, the others keep one value in every iteration, so a warp that fails
// one multiplies nothing; each of its stores must be skipped by a check of its
// own. The scratch a warp stores its fragment into may stand under that
// check, with '__syncwarp();' inside it, where every read of it is skipped
// with it.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

const int WMMA_M = 16;
const int WMMA_N = 16;
const int WMMA_K = 16;

// OUT-LABEL: __global__ void blog_half_out_tiled(
// OUT: auto a_ = tawa::load<128, 64>(b, m0, k0);
// OUT: auto b_ = tawa::load<64, 256>(a, k0, n0);
// OUT: tawa::store(c, m0, n0, acc);
// OUT-LABEL: static void blog_half_out_migrated_launch(
// OUT: if (tawa_block.x != 64 || tawa_block.y != 2 || tawa_block.z != 1 ||
// OUT: N % 32 != 0 ||
// OUT-NEXT: M % 32 != 0 || K % 16 != 0
// OUT: tawa::Matrix<const __half>{b, N, K, K},
// OUT-NEXT: tawa::Matrix<const __half>{a, K, M, M},
// The blog's kernel with column-major A, B and C, and a half output through
// a per-warp float scratch, all of the epilogue under the warp's check.
__global__ void blog_half_out(const half *a, const half *b, half *c, int M,
                              int N, int K) {
  __shared__ float scratch[4][WMMA_M * WMMA_N];
  int lda = M;
  int ldb = K;
  int ldc = M;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  int warpInBlock = threadIdx.y * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
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
    wmma::store_matrix_sync(scratch[warpInBlock], acc_frag, WMMA_M, wmma::mem_col_major);
    __syncwarp();
    for (int e = lane; e < WMMA_M * WMMA_N; e += warpSize) {
      int r = e % WMMA_M, col = e / WMMA_M;
      c[(cRow + r) + (cCol + col) * ldc] = __float2half(scratch[warpInBlock][e]);
    }
  }
}
void blog_half_out_launch(const half *a, const half *b, half *c, int M, int N, int K) {
  dim3 block(64, 2);
  dim3 grid((M + 31) / 32, (N + 31) / 32);
  blog_half_out<<<grid, block>>>(a, b, c, M, N, K);
}

// OUT-LABEL: __global__ void element_checks_tiled(
// OUT: tawa::store(C, m0, n0, alpha * acc);
// OUT-LABEL: static void element_checks_migrated_launch(
// OUT: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// Row-major operands, four warps side by side along N, the check around the
// loads reading the warp's first row and column and k; the scratch is stored
// by every warp and each element's own check, 'r < M && col < N' with r and
// col at or after the warp's first row and column, skips the elements of a
// warp that multiplied nothing.
__global__ void element_checks(const half *A, const half *B, float *C, int M,
                               int N, int K, float alpha) {
  __shared__ float Cs[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    if (row0 < M && col0 < N && k < K) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
  }
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = row0 + e / 16, col = col0 + e % 16;
    if (r < M && col < N)
      C[r * N + col] = alpha * Cs[warp][e];
  }
}
