// static_asserts do nothing at run time: before the loop, in its body and
// after it, the front ends read past them. (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub -I%S 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include "Inputs/blocked-64.h"

#define TILE 32
#define ARGS                                                                   \
  const bf16 *A, const bf16 *B, float *C, int M, int N, int K

// Register-blocked, a 64 x 64 tile of 16 x 16 threads.
// CHECK-LABEL: __global__ void blocked_asserts_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void blocked_asserts(ARGS) {
  static_assert(64 * 16 == 4 * 256, "four elements of each tile per thread");
  BODY
  static_assert(sizeof(bf16) == 2, "16-bit elements");
#pragma tawa tile
  LOOP
  static_assert(sizeof(acc) == 16 * sizeof(float), "a 4 x 4 micro-tile");
  EACH {
    AT C[r * N + c] = acc[i][j];
  }
}

// A static_assert in the loop body.
// CHECK-LABEL: __global__ void in_body_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void in_body(ARGS) {
  BODY
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    static_assert(1024 % 256 == 0, "whole rounds of copies");
    for (int e = tid; e < 1024; e += 256) {
      const int m = e / 16, kk = e % 16;
      As[kk][m] = rowBase + m < M && k0 + kk < K ? A[(rowBase + m) * K + k0 + kk]
                                                 : bf16();
      const int r = e / 64, n = e % 64;
      Bs[r][n] = k0 + r < K && colBase + n < N ? B[(k0 + r) * N + colBase + n]
                                               : bf16();
    }
    __syncthreads();
    for (int kk = 0; kk < 16; ++kk)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[kk][ty + i * 16]) *
                       __bfloat162float(Bs[kk][tx + j * 16]);
    __syncthreads();
  }
  EACH {
    AT C[r * N + c] = acc[i][j];
  }
}

// One element per thread.
// CHECK-LABEL: __global__ void classic_asserts_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void classic_asserts(ARGS) {
  static_assert(TILE * TILE <= 1024, "one thread per element of the tile");
  __shared__ bf16 At[TILE][TILE];
  __shared__ bf16 Bt[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    At[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : bf16();
    Bt[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += __bfloat162float(At[threadIdx.y][k]) *
             __bfloat162float(Bt[k][threadIdx.x]);
    __syncthreads();
  }
  static_assert(sizeof(sum) == 4, "a float sum");
  if (row < M && col < N)
    C[row * N + col] = sum;
}
