// The one-dimensional style's refusals (test/migrate/flat.cu lifts it),
// one kernel each: pointers advanced in the loop by a wrong, changing,
// repeated or partial step, or used after it; a thread row whose division
// truncates a negative value; a one-dimensional tile written at an offset;
// threadIdx.y in a kernel that splits threadIdx.x. The verdict at the loop
// names the statement and the form expected there, and the file is left
// exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

#define TILE 32

using bf16 = __nv_bfloat16;

#define HEAD                                                                   \
  const unsigned cRow = blockIdx.x, cCol = blockIdx.y;                         \
  __shared__ bf16 As[TILE * TILE];                                             \
  __shared__ bf16 Bs[TILE * TILE];                                             \
  const unsigned tc = threadIdx.x % TILE, tr = threadIdx.x / TILE;             \
  A += cRow * TILE * K;                                                        \
  B += cCol * TILE;                                                            \
  C += cRow * TILE * N + cCol * TILE;                                          \
  float acc = 0.0f;
#define STAGE                                                                  \
  As[tr * TILE + tc] = A[tr * K + tc];                                         \
  Bs[tr * TILE + tc] = B[tr * N + tc];                                         \
  __syncthreads();
#define PRODUCT                                                                \
  for (int i = 0; i < TILE; ++i)                                               \
    acc += __bfloat162float(As[tr * TILE + i]) *                               \
           __bfloat162float(Bs[i * TILE + tc]);                                \
  __syncthreads();

__global__ void step_too_far(int N, int K, const bf16 *A, const bf16 *B,
                             float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the product does not read A[row][k] and B[k][col] of the staged tiles: with the staging copies' indices and bounds checks, no layout of A (M x K or K x M) and B (K x N or N x K) gives the element the store writes [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += 2 * TILE;
    B += TILE * N;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'step_too_far' is left unchanged

__global__ void step_of_t(int N, int K, const bf16 *A, const bf16 *B,
                          float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer's step must be the same in every iteration [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += t;
    B += TILE * N;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'step_of_t' is left unchanged

__global__ void advanced_twice(int N, int K, const bf16 *A, const bf16 *B,
                               float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer 'A' is advanced twice in one iteration [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += 16;
    B += TILE * N;
    PRODUCT
    A += 16;
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'advanced_twice' is left unchanged

__global__ void store_pointer_moves(int N, int K, const bf16 *A, const bf16 *B,
                                    float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer 'C' is advanced in the loop and used after it; expected the store through a pointer the loop leaves as it is [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += TILE;
    B += TILE * N;
    C += 0;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'store_pointer_moves' is left unchanged

__global__ void step_not_whole(int N, int K, const bf16 *A, const bf16 *B,
                               float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer's step must be a multiple of the loop's step, 32 elements [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += TILE;
    B += N;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'step_not_whole' is left unchanged

__global__ void changed_in_product(int N, int K, const bf16 *A, const bf16 *B,
                                   float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer 'B' is changed in the loop other than by one step per iteration [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += TILE;
    B += TILE * N;
    for (int i = 0; i < TILE; ++i, ++B)
      acc += __bfloat162float(As[tr * TILE + i]) *
             __bfloat162float(Bs[i * TILE + tc]);
    __syncthreads();
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'changed_in_product' is left unchanged

__global__ void negative_quotient(int N, int K, const bf16 *A, const bf16 *B,
                                  float *C) {
  const unsigned cRow = blockIdx.x, cCol = blockIdx.y;
  __shared__ bf16 As[TILE * TILE];
  __shared__ bf16 Bs[TILE * TILE];
  const int tc = threadIdx.x % TILE;
  const int tr = (int(threadIdx.x) - TILE) / TILE + 1;
  A += cRow * TILE * K;
  B += cCol * TILE;
  C += cRow * TILE * N + cCol * TILE;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile's index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses 'tr', whose value uses the operator '/' [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += TILE;
    B += TILE * N;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'negative_quotient' is left unchanged

__global__ void tile_index_offset(int N, int K, const bf16 *A, const bf16 *B,
                                  float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the index of a one-dimensional tile must be 'row * 32 + col', col one of threadIdx.x, threadIdx.y and the product loop's k [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[tr * TILE + tc] = A[tr * K + tc];
    Bs[tr * TILE + tc + 1] = B[tr * N + tc];
    __syncthreads();
    A += TILE;
    B += TILE * N;
    PRODUCT
  }
  C[tr * N + tc] = acc;
}
// CHECK: note: kernel 'tile_index_offset' is left unchanged

__global__ void two_dimensional_block(int N, int K, const bf16 *A,
                                      const bf16 *B, float *C) {
  HEAD
#pragma tawa tile
  // CHECK: flat-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile's index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses 'tr', whose value uses the operator '/' [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    STAGE
    A += TILE;
    B += TILE * N;
    PRODUCT
  }
  C[tr * N + tc + 0 * threadIdx.y] = acc;
}
// CHECK: note: kernel 'two_dimensional_block' is left unchanged
