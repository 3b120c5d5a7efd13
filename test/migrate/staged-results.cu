// --migrate lifts GEMMs whose epilogue stages the accumulators through a
// __shared__ float array: WMMA fragments stored with
// wmma::store_matrix_sync (row- or column-major) or register-blocked
// accumulators stored element by element, then read back after
// __syncthreads() (or __syncwarp() within the warp that stored them). Each
// element read must hold an accumulator element stored after the loop; the
// stores of C are then proved as if they read the accumulators
// (include/tawa/BlockedLift.h). (The outputs are checked without this file's
// own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

// CHECK-LABEL: __global__ void staged_bias_relu(
// Each warp one 16 x 16 fragment of a 16 x 64 window; its results go through
// shared memory to a bias, a ReLU and a bounds-checked bf16 store. The wmma
// loads have no bounds checks: the tiled form runs where M, N and K are
// multiples of the window and the fragment.
__global__ void staged_bias_relu(const half *A, const half *B,
                                 const float *bias, __nv_bfloat16 *C, int M,
                                 int N, int K) {
  __shared__ float Cs[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row0 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col0, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = lane; i < 16 * 16; i += 32) {
    const int r = row0 + i / 16, c = col0 + i % 16;
    if (r < M && c < N)
      C[r * N + c] = __float2bfloat16_rn(fmaxf(Cs[warp][i] + bias[c], 0.0f));
  }
}
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc + tawa::load<1, 256>(bias, 0, n0)));
// CHECK: where M, N and K are multiples of 16, 64 and 16;
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || M % 16 != 0 ||
// CHECK-NEXT: N % 64 != 0 || K % 16 != 0 ||

// CHECK-LABEL: __global__ void scaled_into_results(
// The fragment scaled by alpha before it goes into the array of results
// (every element alike, whatever element each lane holds): the stored
// value is alpha times the accumulator.
__global__ void scaled_into_results(const half *A, const half *B, half *C,
                                    int M, int N, int K, float alpha) {
  __shared__ float Cs[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row0 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col0, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  for (int e = 0; e < acc.num_elements; ++e)
    acc.x[e] = alpha * acc.x[e];
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32) {
    const int r = row0 + i / 16, c = col0 + i % 16;
    if (r < M && c < N)
      C[r * N + c] = __float2half_rn(Cs[warp][i]);
  }
}
// CHECK: tawa::store(C, m0, n0, alpha * acc);

// CHECK-LABEL: __global__ void blog_scratch(
// The index arithmetic of NVIDIA's WMMA blog example: the warp's tile row
// from the thread's global index along x divided by warpSize, its column
// from the index along y, each warp its own scratch. The block is the
// launch's, 64 x 2 threads (2 x 2 warps), which the proof follows first.
__global__ void blog_scratch(const half *a, const half *b, half *c, int M,
                             int N, int K) {
  __shared__ float scratch[4][16 * 16];
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  const int warpInBlock =
      threadIdx.y * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  const int lane = threadIdx.x % warpSize;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a_frag, a + warpM * 16 * K + k, K);
    wmma::load_matrix_sync(b_frag, b + k * N + warpN * 16, N);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(scratch[warpInBlock], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += warpSize) {
    const int r = warpM * 16 + e / 16, col = warpN * 16 + e % 16;
    if (r < M && col < N)
      c[r * N + col] = __float2half_rn(scratch[warpInBlock][e]);
  }
}
void blog_launch(const half *a, const half *b, half *c, int M, int N, int K) {
  dim3 block(64, 2);
  dim3 grid((M + 31) / 32, (N + 31) / 32);
  blog_scratch<<<grid, block>>>(a, b, c, M, N, K);
}
// CHECK: tawa::store(c, m0, n0, acc);
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.x * 32,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.y * 32;
// CHECK: if (tawa_block.x != 64 || tawa_block.y != 2 || tawa_block.z != 1 ||

// CHECK-LABEL: __global__ void staged_block(
// The block's whole 32 x 32 window in one array, stored column-major by
// four warps and read by every thread of the block, scaled by alpha and
// added to beta times C's old value.
__global__ void staged_block(const half *A, const half *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  __shared__ float Cs[32 * 32];
  const int warp = threadIdx.x / 32;
  const int wr = (warp / 2) * 16, wc = (warp % 2) * 16;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + (row0 + wr) * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col0 + wc, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(Cs + wc * 32 + wr, acc, 32, wmma::mem_col_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) {
    const int r = i / 32, c = i % 32;
    const float v = Cs[c * 32 + r];
    float *out = &C[(row0 + r) * N + col0 + c];
    *out = alpha * v + beta * *out;
  }
}
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: below tawa_grid.x * 32, which those blocks compute whole (the kernel has no
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||

// CHECK-LABEL: __global__ void in_warp(
// Each warp reads back its own fragment after __syncwarp().
__global__ void in_warp(const half *A, const half *B, float *C, int M, int N,
                        int K) {
  __shared__ float Cs[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + row0 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col0, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32)
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][i];
}
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// CHECK-LABEL: __global__ void blocked_staged(
// A register-blocked kernel (4 x 4 per thread) staging its 64 x 64 window
// through a padded array for coalesced bf16 stores.
__global__ void blocked_staged(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  __shared__ float Cs[64][64 + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
#pragma tawa tile
  for (int t = 0; t < K; t += 16) {
    for (int i = threadIdx.x; i < 64 * 16; i += 256) {
      const int r = i / 16, c = i % 16;
      As[r][c] = row0 + r < M && t + c < K ? A[(row0 + r) * K + t + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    for (int i = threadIdx.x; i < 16 * 64; i += 256) {
      const int r = i / 64, c = i % 64;
      Bs[r][c] = t + r < K && col0 + c < N ? B[(t + r) * N + col0 + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) *
                       __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      Cs[ty * 4 + i][tx * 4 + j] = acc[i][j];
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 64; i += 256) {
    const int r = i / 64, c = i % 64;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2bfloat16_rn(Cs[r][c]);
  }
}
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: computing the rows of C below min(M, tawa_grid.y * 64)
// CHECK-NOT: M % 64
// CHECK: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N});

// DIAG-NOT: warning
