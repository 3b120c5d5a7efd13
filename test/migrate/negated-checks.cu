// Bounds checks written negated: a copy that reads zero where the element
// is outside the matrix, `out ? 0 : A[j]` or `if (out) x = 0; else x =
// A[j];` with `out` the negation of a check (`r >= M || k >= K`, `!ok`),
// and zero-filling asynchronous copies whose sizes are written `!ok ? 16 :
// 0`, `16 * !ok`, `16 - 16 * ok` (the zero fill of __pipeline_memcpy_async)
// or `ok * 16`, `ok << 4` (cp.async's source size), the source `out ? A :
// &A[j]`. Each is read as
// the check it negates; all are lifted. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <stdint.h>

#define TILE 16

// CHECK-LABEL: __global__ void shared_negated_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void shared_negated(const __half *A, const __half *B, float *C,
                               int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row >= M || t + tx >= K) ? __half() : A[row * K + t + tx];
    if (t + ty >= K || col >= N)
      Bs[ty][tx] = __half();
    else
      Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD                                                                   \
  __shared__ __align__(16) __half As[32][16];                                  \
  __shared__ __align__(16) __half Bs[16][32];                                  \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define PRODUCT                                                                \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[ty * 4 + i][k]) *                         \
                     __half2float(Bs[k][tx * 4 + j]);
#define STORE                                                                  \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j) {                                              \
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;                  \
      if (r < M && c < N)                                                      \
        C[r * N + c] = acc[i][j];                                              \
    }
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K

// CHECK-LABEL: __global__ void blocked_negated_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void blocked_negated(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    for (int i = 0; i < 8; ++i) {
      const int e = tid + i * 64;
      const int ar = row0 + e / 16, ak = t * 16 + e % 16;
      const int bk = t * 16 + e / 32, bc = col0 + e % 32;
      As[e / 16][e % 16] = (ar >= M || ak >= K) ? __half() : A[ar * K + ak];
      if (bk >= K || !(bc < N))
        Bs[e / 32][e % 32] = __half();
      else
        Bs[e / 32][e % 32] = B[bk * N + bc];
    }
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// N and K multiples of 8: 16-byte copies, zero-filled outside the matrix.
// CHECK-LABEL: __global__ void pipeline_negated_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void pipeline_negated(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aOut = ar >= M || ak >= K;
    const bool bIn = bk < K && bc < N;
    __pipeline_memcpy_async(&As[tid / 2][tid % 2 * 8],
                            aOut ? A : &A[ar * K + ak], 16, aOut ? 16 : 0);
    __pipeline_memcpy_async(&Bs[tid / 4][tid % 4 * 8],
                            !bIn ? B : &B[bk * N + bc], 16, 16 * !bIn);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK-LABEL: __global__ void ptx_source_size_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void ptx_source_size(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aIn = ar < M && ak < K;
    const bool bOut = bk >= K || bc >= N;
    const uint32_t sa = __cvta_generic_to_shared(&As[tid / 2][tid % 2 * 8]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[tid / 4][tid % 4 * 8]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                 "l"(aIn ? &A[ar * K + ak] : A), "r"(aIn * 16));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bOut ? B : &B[bk * N + bc]), "r"(bOut ? 0 : 16));
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// Sizes written `16 - 16 * in` (the zero fill) and `in << 4` (the source
// size).
// CHECK-LABEL: __global__ void shifted_sizes_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void shifted_sizes(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aIn = ar < M && ak < K;
    const bool bIn = bk < K && bc < N;
    __pipeline_memcpy_async(&As[tid / 2][tid % 2 * 8],
                            aIn ? &A[ar * K + ak] : A, 16, 16 - 16 * aIn);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[tid / 4][tid % 4 * 8]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bIn ? &B[bk * N + bc] : B), "r"(bIn << 4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
