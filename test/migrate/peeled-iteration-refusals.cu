// Tile loops counted from 1 whose code after the loop is not their last
// iteration (test/migrate/peeled-iteration.cu has the accepted forms): each
// is refused at the statement that breaks the form and left as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

// Declares the variables of the kernels below: 256 threads, each stages
// two elements of each tile and owns a 4 x 4 micro-tile.
#define PROLOGUE                                                             \
  const int tid = threadIdx.x, ty = tid / 16, tx = tid % 16;                 \
  const int ar = tid / 4, ac = (tid % 4) * 2;                                \
  const int br = tid / 32, bc = (tid % 32) * 2;                              \
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;                  \
  __shared__ __nv_bfloat16 As[2][BM][BK];                                    \
  __shared__ __nv_bfloat16 Bs[2][BK][BN];                                    \
  float acc[TM][TN] = {};                                                    \
  for (int i = 0; i < 2; ++i) {                                              \
    As[0][ar][ac + i] = A[(row0 + ar) * K + ac + i];                         \
    Bs[0][br][bc + i] = B[br * N + col0 + bc + i];                           \
  }                                                                          \
  __syncthreads()

#define STAGE_NEXT(t)                                                        \
  for (int i = 0; i < 2; ++i) {                                              \
    As[(t) & 1][ar][ac + i] = A[(row0 + ar) * K + (t) * BK + ac + i];        \
    Bs[(t) & 1][br][bc + i] = B[((t) * BK + br) * N + col0 + bc + i];        \
  }

#define STORE                                                                \
  for (int i = 0; i < TM; ++i)                                               \
    for (int j = 0; j < TN; ++j)                                             \
      C[(row0 + ty * TM + i) * N + col0 + tx * TN + j] =                     \
          __float2bfloat16_rn(acc[i][j])

// The last tiles read from the buffer after theirs: (tiles) & 1.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+5]]:3: warning: {{.*}}expected the code after a tile loop counted from 1 to multiply the last tiles as the loop body does{{.*}}the statement at line [[@LINE+15]] repeats no statement of the body, and line [[@LINE+8]] of the body, left out after the loop, writes 'acc', which line [[@LINE+16]] reads [tawa-unsupported]
__global__ void wrong_buffer(int M, int N, int K, const __nv_bfloat16 *A,
                             const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    __syncthreads();
  }
  const int cur = ((K + BK - 1) / BK) & 1;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                     __bfloat162float(Bs[cur][k][tx * TN + j]);
  STORE;
}

// Buffer 0 by number: it holds the last tiles where their count is odd,
// which no launch condition on K says.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+5]]:3: warning: {{.*}}the statement at line [[@LINE+15]] repeats no statement of the body, and line [[@LINE+8]] of the body, left out after the loop, writes 'acc', which line [[@LINE+15]] reads [tawa-unsupported]
__global__ void buffer_zero(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    __syncthreads();
  }
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[0][ty * TM + i][k]) *
                     __bfloat162float(Bs[0][k][tx * TN + j]);
  STORE;
}

// The fragments of the last tiles never loaded: the product after the loop
// reads those of the tiles before.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+6]]:3: warning: {{.*}}the statement at line [[@LINE+21]] repeats no statement of the body, and line [[@LINE+9]] of the body, left out after the loop, writes 'acc', which line [[@LINE+21]] reads [tawa-unsupported]
__global__ void stale_fragments(int M, int N, int K, const __nv_bfloat16 *A,
                                const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
  float fa[TM], fb[TN];
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        fb[i] = __bfloat162float(Bs[cur][k][tx * TN + i]);
      for (int i = 0; i < TM; ++i)
        fa[i] = __bfloat162float(As[cur][ty * TM + i][k]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += fa[i] * fb[j];
    }
    __syncthreads();
  }
  const int cur = ((K + BK - 1) / BK - 1) & 1;
  for (int k = 0; k < BK; ++k) {
    for (int i = 0; i < TM; ++i)
      fb[i] = __bfloat162float(Bs[cur][k][tx * TN + i]);
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += fa[i] * fb[j];
  }
  STORE;
}

// No product after the loop: the last tiles are never multiplied.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+7]]:3: warning: {{.*}}the statement at line [[@LINE+17]] repeats no statement of the body, and line [[@LINE+10]] of the body, left out after the loop, writes 'acc', which line [[@LINE+17]] reads [tawa-unsupported]
__global__ void last_tiles_dropped(int M, int N, int K,
                                   const __nv_bfloat16 *A,
                                   const __nv_bfloat16 *B,
                                   __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    __syncthreads();
  }
  STORE;
}

// Counted from 2.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+5]]:3: warning: {{.*}}the tile loop must start at 0, or at 1 with the copies of tile 0 before it and the product of the last tiles after it: a loop from 2 is not lifted [tawa-unsupported]
__global__ void from_two(int M, int N, int K, const __nv_bfloat16 *A,
                         const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 2; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    __syncthreads();
  }
  STORE;
}

// The buffer index flipped before the product rather than at the end of
// the body: after the loop it is not the last iteration's.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+6]]:3: warning: {{.*}}the statement at line [[@LINE+10]] breaks it: expected 'rd', read after a tile loop counted from 1, to be a buffer index the loop flips at the end of its body and changes nowhere else{{.*}}[tawa-unsupported]
__global__ void flipped_early(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
  int rd = 1;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int wr = t & 1;
    for (int i = 0; i < 2; ++i)
      As[wr][ar][ac + i] = A[(row0 + ar) * K + t * BK + ac + i];
    rd ^= 1;
    for (int i = 0; i < 2; ++i)
      Bs[wr][br][bc + i] = B[(t * BK + br) * N + col0 + bc + i];
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[rd][ty * TM + i][k]) *
                       __bfloat162float(Bs[rd][k][tx * TN + j]);
    __syncthreads();
  }
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[rd][ty * TM + i][k]) *
                     __bfloat162float(Bs[rd][k][tx * TN + j]);
  STORE;
}

// The body's only barrier at its top: left out after the loop, nothing
// orders the last copies before the product that reads them.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+5]]:3: warning: {{.*}}the barrier at line [[@LINE+6]] of the body, left out after the loop, orders statements that it repeats [tawa-unsupported]
__global__ void top_barrier(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    __syncthreads();
    const int cur = (t - 1) & 1;
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    STAGE_NEXT(t)
  }
  const int cur = ((K + BK - 1) / BK - 1) & 1;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                     __bfloat162float(Bs[cur][k][tx * TN + j]);
  STORE;
}

// A variable of the last iteration read by the code after it.
// CHECK: peeled-iteration-refusals.cu:[[@LINE+5]]:3: warning: {{.*}}the statement at line [[@LINE+23]] breaks it: 'scale', declared after a tile loop counted from 1 as part of its last iteration, is read after it{{.*}}[tawa-unsupported]
__global__ void carried_local(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  PROLOGUE;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int cur = (t - 1) & 1;
    float scale = 1.0f;
    STAGE_NEXT(t)
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * TN + j]);
    __syncthreads();
  }
  const int cur = ((K + BK - 1) / BK - 1) & 1;
  float scale = 1.0f;
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[cur][ty * TM + i][k]) *
                     __bfloat162float(Bs[cur][k][tx * TN + j]);
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + ty * TM + i) * N + col0 + tx * TN + j] =
          __float2bfloat16_rn(scale * acc[i][j]);
}
