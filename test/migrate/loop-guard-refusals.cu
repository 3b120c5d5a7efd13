// Tile loops inside an `if` that does more than keep threads whose results
// lie outside C out of the loop, each refused with the reason; the file is
// left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 32

// Each thread checks its own row and column around a loop with barriers:
// the threads kept out would miss the barriers the others wait at.
__global__ void threads_around_barriers(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                        __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.f;
// CHECK: loop-guard-refusals.cu:[[@LINE+3]]:5: warning: this loop does not match a liftable pattern: {{.*}}the statement at line [[@LINE+1]] breaks it: an 'if' around the loop that keeps some threads of the block out of it, in a kernel with barriers: expected its condition the same for every thread of the block ('if (m0 < M && n0 < N)', m0 and n0 from blockIdx)
  if (row < M && col < N) {
#pragma tawa tile
    for (int t = 0; t < K; t += TILE) {
      As[ty][tx] = t + tx < K ? A[row * K + t + tx] : __float2bfloat16_rn(0.f);
      Bs[ty][tx] = t + ty < K ? B[(t + ty) * N + col] : __float2bfloat16_rn(0.f);
      __syncthreads();
      for (int j = 0; j < TILE; ++j)
        sum += __bfloat162float(As[ty][j]) * __bfloat162float(Bs[j][tx]);
      __syncthreads();
    }
    C[row * N + col] = __float2bfloat16_rn(sum);
  }
}
// CHECK: note: kernel 'threads_around_barriers' is left unchanged

// A warp skips the loop unless its whole tile lies inside C, yet stores
// the elements of a tile that C cuts: zeros where the kernel without the
// `if` stores products.
__global__ void whole_tiles_only(const half *A, const half *B, half *C, int M,
                                 int N, int K) {
  __shared__ __align__(32) float scratch[4][16 * 16];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
// CHECK: loop-guard-refusals.cu:[[@LINE+5]]:5: warning: this loop does not match a liftable pattern: {{.*}}the statement at line [[@LINE+1]] breaks it: the threads this 'if' keeps out of the loop would store elements of C without the products: expected each check 'u < X' of its condition to skip every store of the thread, each checking 'row < X' of a row (or column) at u or after it; the store at line [[@LINE+16]] is not
  if (row0 < M && col0 + 16 <= N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
  }
  wmma::store_matrix_sync(scratch[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int e = lane; e < 16 * 16; e += 32) {
    const int r = e / 16, c = e % 16;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2half_rn(scratch[warp][e]);
  }
}
// CHECK: note: kernel 'whole_tiles_only' is left unchanged

// The lanes of a warp check different rows: some would leave the warp's
// collective wmma calls.
__global__ void lanes_apart(const half *A, const half *B, float *C, int M,
                            int N, int K) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
// CHECK: loop-guard-refusals.cu:[[@LINE+5]]:5: warning: this loop does not match a liftable pattern: {{.*}}the statement at line [[@LINE+1]] breaks it: the lanes of a warp must pass the 'if' around the loop alike (wmma calls are warp-collective): expected its condition the same for every lane
  if (row0 + lane % 16 < M && col0 < N) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + row0 * N + col0, acc, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'lanes_apart' is left unchanged

// An `if` with an else branch: the loop is read at the top level of the
// kernel body only.
__global__ void loop_with_else(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  if (row0 < M && col0 < N) {
// CHECK: loop-guard-refusals.cu:[[@LINE+2]]:5: warning: this loop does not match a liftable pattern: {{.*}}breaks it: the annotated loop must be a statement of the kernel body, and this one is inside the 'if' at line [[@LINE-1]]
#pragma tawa tile
    for (int k = 0; k < K; k += 16) {
      wmma::load_matrix_sync(a, A + row0 * K + k, K);
      wmma::load_matrix_sync(b, B + k * N + col0, N);
      wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + row0 * N + col0, acc, N, wmma::mem_row_major);
  } else {
    wmma::store_matrix_sync(C, acc, N, wmma::mem_row_major);
  }
}
// CHECK: note: kernel 'loop_with_else' is left unchanged
