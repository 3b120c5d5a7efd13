// Local pointers to one buffer of a tile, `const T *a = As + (t % S) * C;`
// (`&As[b * C]`, `&As[b][0][0]`, `As[b][0]`), of the tile's element type and
// never changed: each is read as the element it points to where it is set,
// and indexed `a[i]` or moved `a + i` inside that buffer. Each is lifted.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// Rings of S buffers of 32 x 16 (A) and 16 x 32 (B) elements, 512 each, in
// one extern array; 64 threads, 4 x 4 per thread.
#define HEAD(S)                                                                \
  extern __shared__ __align__(16) __half smem[];                               \
  __half *As = smem, *Bs = smem + (S) * 512;                                   \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define COPY_ASYNC(BUF, T)                                                     \
  __pipeline_memcpy_async(&As[(BUF) * 512 + (tid / 2) * 16 + tid % 2 * 8],     \
                          &A[(row0 + tid / 2) * K + (T) * 16 + tid % 2 * 8],   \
                          16);                                                 \
  __pipeline_memcpy_async(Bs + (BUF) * 32 * 16 + (tid / 4) * 32 + tid % 4 * 8, \
                          &B[((T) * 16 + tid / 4) * N + col0 + tid % 4 * 8],   \
                          16);
#define PRODUCT(BUF)                                                           \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[(BUF) * 512 + (ty * 4 + i) * 16 + k]) *   \
                     __half2float(Bs[(BUF) * 512 + k * 32 + tx * 4 + j]);
#define STORE                                                                  \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)                                                \
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K


#define PROLOGUE(D)                                                            \
  const int tiles = K / 16;                                                    \
  for (int s = 0; s < (D); ++s) {                                              \
    if (s < tiles) {                                                           \
      COPY_ASYNC(s, s)                                                         \
    }                                                                          \
    __pipeline_commit();                                                       \
  }
// The copies of tile f through pointers to its buffers.
#define COPY_VIEWS(F)                                                          \
  if ((F) < tiles) {                                                           \
    __half *as = As + (F) % 3 * 512, *bs = &Bs[(F) % 3 * 512];                 \
    __pipeline_memcpy_async(as + (tid / 2) * 16 + tid % 2 * 8,                 \
                            &A[(row0 + tid / 2) * K + (F) * 16 + tid % 2 * 8], \
                            16);                                               \
    __pipeline_memcpy_async(&bs[(tid / 4) * 32 + tid % 4 * 8],                 \
                            &B[((F) * 16 + tid / 4) * N + col0 + tid % 4 * 8], \
                            16);                                               \
  }
#define PRODUCT_VIEWS(a, b, OFF)                                               \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(a[(ty * 4 + i) * 16 + k + (OFF)]) *          \
                     __half2float(b[k * 32 + tx * 4 + j]);

// A ring of three in dynamic shared memory, copied and read through
// pointers to buffers.
// CHECK-LABEL: __global__ void dynamic_views_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void dynamic_views(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half *a = As + (t % 3) * 512, *b = Bs + (t % 3) * 512;
    PRODUCT_VIEWS(a, b, 0)
  }
  STORE
}

// A ring counter advanced at the end of the body.
// CHECK-LABEL: __global__ void counter_views_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void counter_views(ARGS) {
  HEAD(3)
  PROLOGUE(2)
  int rd = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half *a = &As[rd * 512], *b = &Bs[rd * 512];
    PRODUCT_VIEWS(a, b, 0)
    rd = (rd + 1) % 3;
  }
  STORE
}

// A static ring of buffers, `&X[b][0][0]` and `X[b][0]`.
// CHECK-LABEL: __global__ void static_views_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void static_views(ARGS) {
  __shared__ __align__(16) __half Xs[3][32][16];
  __shared__ __align__(16) __half Ys[3][16][32];
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s) {
    if (s < tiles) {
      __pipeline_memcpy_async(&Xs[s][tid / 2][tid % 2 * 8],
                              &A[(row0 + tid / 2) * K + s * 16 + tid % 2 * 8],
                              16);
      __pipeline_memcpy_async(&Ys[s][tid / 4][tid % 4 * 8],
                              &B[(s * 16 + tid / 4) * N + col0 + tid % 4 * 8],
                              16);
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    const int f = t + 2;
    if (f < tiles) {
      __pipeline_memcpy_async(&Xs[f % 3][tid / 2][tid % 2 * 8],
                              &A[(row0 + tid / 2) * K + f * 16 + tid % 2 * 8],
                              16);
      __pipeline_memcpy_async(&Ys[f % 3][tid / 4][tid % 4 * 8],
                              &B[(f * 16 + tid / 4) * N + col0 + tid % 4 * 8],
                              16);
    }
    __pipeline_commit();
    const __half *a = &Xs[t % 3][0][0], *b = Ys[t % 3][0];
    PRODUCT_VIEWS(a, b, 0)
  }
  STORE
}
