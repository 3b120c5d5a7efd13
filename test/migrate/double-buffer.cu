// --migrate lifts double-buffered shared-memory GEMMs: tiles X[2][R][C],
// the first tiles staged into buffer 0 before the loop, then a barrier; in
// the loop, a prefetch of the next tiles into buffer (i + 1) % 2 under the
// loop's condition one step on, the product over buffer i % 2 (before or
// after the prefetch) and one barrier. Iteration i reads what the prologue
// or iteration i - 1 staged, so the kernel computes what the single-buffered
// one does and the tiled form is the same. Other buffer indices, a wrong
// first tile, a prefetch condition that skips the last tile and a missing
// barrier are refused. (The outputs are checked without this file's own
// check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>

#define TILE 32
using bf16 = __nv_bfloat16;

#define HEAD                                                                   \
  __shared__ bf16 As[2][TILE][TILE];                                           \
  __shared__ bf16 Bs[2][TILE][TILE];                                           \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;        \
  float acc = 0.0f;
#define FIRST                                                                  \
  As[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : bf16();                \
  Bs[0][ty][tx] = ty < K && col < N ? B[ty * N + col] : bf16();                \
  __syncthreads();
#define STORE                                                                  \
  if (row < M && col < N)                                                      \
    C[row * N + col] = acc;

// CHECK-LABEL: __global__ void tiles_counted(
// CHECK-NOT: #pragma tawa tile
__global__ void tiles_counted(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  HEAD
  const int tiles = (K + TILE - 1) / TILE;
  FIRST
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = 1 - cur;
    if (t + 1 < tiles) {
      const int k0 = (t + 1) * TILE;
      As[nxt][ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : bf16();
      Bs[nxt][ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : bf16();
    }
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[cur][ty][k]) * __bfloat162float(Bs[cur][k][tx]);
    __syncthreads();
  }
  STORE
}
// CHECK: __global__ void tiles_counted_tiled(
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N},

// An element counter, the product first, & 1 and ^ 1.
// CHECK-LABEL: __global__ void elements_counted(
// CHECK-NOT: #pragma tawa tile
__global__ void elements_counted(const bf16 *A, const bf16 *B, float *C, int M,
                                 int N, int K) {
  HEAD
  FIRST
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    const int cur = (t / TILE) & 1;
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[cur][ty][k]) * __bfloat162float(Bs[cur][k][tx]);
    if (t + TILE < K) {
      As[cur ^ 1][ty][tx] =
          row < M && t + TILE + tx < K ? A[row * K + t + TILE + tx] : bf16();
      Bs[cur ^ 1][ty][tx] =
          t + TILE + ty < K && col < N ? B[(t + TILE + ty) * N + col] : bf16();
    }
    __syncthreads();
  }
  STORE
}
// CHECK: __global__ void elements_counted_tiled(

#define LOOP_BODY(READ, WRITE, NEXT_K, COND)                                   \
  for (int k = 0; k < TILE; ++k)                                               \
    acc += __bfloat162float(As[READ][ty][k]) *                                 \
           __bfloat162float(Bs[READ][k][tx]);                                  \
  if (COND) {                                                                  \
    As[WRITE][ty][tx] =                                                        \
        row < M && NEXT_K + tx < K ? A[row * K + NEXT_K + tx] : bf16();        \
    Bs[WRITE][ty][tx] =                                                        \
        NEXT_K + ty < K && col < N ? B[(NEXT_K + ty) * N + col] : bf16();      \
  }                                                                            \
  __syncthreads();

// The prefetch overwrites the buffer being read.
__global__ void prefetch_current(const bf16 *A, const bf16 *B, float *C, int M,
                                 int N, int K) {
  HEAD
  FIRST
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the prefetch must write buffer (i + 1) % 2 of iteration i
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE) % 2, (t / TILE) % 2, t + TILE, t + TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'prefetch_current' is left unchanged

// The product reads the buffer being prefetched.
__global__ void product_next(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  HEAD
  FIRST
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the product must read buffer i % 2 of iteration i
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE + 1) % 2, (t / TILE + 1) % 2, t + TILE, t + TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'product_next' is left unchanged

// The prefetch stages the current tile again, one tile late.
__global__ void prefetch_late(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  HEAD
  FIRST
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the staging copy before the loop must stage the tile of 'As' that iteration 0 reads
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE) % 2, (t / TILE + 1) % 2, t, t + TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'prefetch_late' is left unchanged

// The prefetch skips the last tile.
__global__ void prefetch_short(const bf16 *A, const bf16 *B, float *C, int M,
                               int N, int K) {
  HEAD
  FIRST
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the double-buffered loop body
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE) % 2, (t / TILE + 1) % 2, t + TILE, t + 2 * TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'prefetch_short' is left unchanged

// The first tiles go to buffer 1.
__global__ void first_in_one(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  HEAD
  As[1][ty][tx] = row < M && tx < K ? A[row * K + tx] : bf16();
  Bs[1][ty][tx] = ty < K && col < N ? B[ty * N + col] : bf16();
  __syncthreads();
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the first tiles must be staged into buffer 0
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE) % 2, (t / TILE + 1) % 2, t + TILE, t + TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'first_in_one' is left unchanged

// No barrier after the first tiles.
__global__ void first_unsynced(const bf16 *A, const bf16 *B, float *C, int M,
                               int N, int K) {
  HEAD
  As[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : bf16();
  Bs[0][ty][tx] = ty < K && col < N ? B[ty * N + col] : bf16();
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the first tiles staged into buffer 0 before the loop, then '__syncthreads();'
  for (int t = 0; t < K; t += TILE) {
    LOOP_BODY((t / TILE) % 2, (t / TILE + 1) % 2, t + TILE, t + TILE < K)
  }
  STORE
}
// DIAG: note: kernel 'first_unsynced' is left unchanged

// One tile double-buffered, the other not: the prefetch would overwrite B's
// tile while the product reads it.
__global__ void one_buffered(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  __shared__ bf16 As[2][TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  As[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : bf16();
  Bs[ty][tx] = ty < K && col < N ? B[ty * N + col] : bf16();
  __syncthreads();
#pragma tawa tile
  // DIAG: double-buffer.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the first tiles must be staged into buffer 0
  for (int t = 0; t < K; t += TILE) {
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[(t / TILE) % 2][ty][k]) *
             __bfloat162float(Bs[k][tx]);
    if (t + TILE < K) {
      As[(t / TILE + 1) % 2][ty][tx] =
          row < M && t + TILE + tx < K ? A[row * K + t + TILE + tx] : bf16();
      Bs[ty][tx] =
          t + TILE + ty < K && col < N ? B[(t + TILE + ty) * N + col] : bf16();
    }
    __syncthreads();
  }
  STORE
}
// DIAG: note: kernel 'one_buffered' is left unchanged
