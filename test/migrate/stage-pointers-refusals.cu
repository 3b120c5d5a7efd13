// Near misses of the pointers to buffers 'stage-pointers.cu' lifts, each of
// which would make the tiled form compute something else: each is refused at
// the statement that breaks the form, and the file is left exactly as
// written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}5{{$}}
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

// The product reads through a pointer to the buffer being staged.
__global__ void staged_buffer(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half *a = As + (t + 2) % 3 * 512, *b = Bs + (t % 3) * 512;
    PRODUCT_VIEWS(a, b, 0)
  }
  STORE
}
// CHECK: stage-pointers-refusals.cu:[[@LINE-4]]:19: note: the product must read buffer i % 3 of 'As' in iteration i, the one staged for it

// An index past the buffer the pointer points into.
__global__ void past_buffer(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half *a = As + (t % 3) * 512, *b = Bs + (t % 3) * 512;
    PRODUCT_VIEWS(a, b, 32)
  }
  STORE
}
// CHECK: stage-pointers-refusals.cu:[[@LINE-4]]:19: note: the index of 'a', a pointer into the __shared__ tile 'As', must be a constant for each thread that stays inside the buffer it points into

// A pointer moved in the loop.
__global__ void moved(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half *a = As + (t % 3) * 512, *b = Bs + (t % 3) * 512;
    ++a;
    PRODUCT_VIEWS(a, b, -1)
  }
  STORE
}
// CHECK: stage-pointers-refusals.cu:[[@LINE-6]]:19: note: the pointer 'a' into a __shared__ tile is changed

// A pointer set before the loop to a buffer of a ring, read in the loop:
// a fixed buffer, not the iteration's.
__global__ void before_loop(ARGS) {
  HEAD(3)
  PROLOGUE(2)
  const __half *a = As, *b = Bs;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    PRODUCT_VIEWS(a, b, 0)
  }
  STORE
}
// CHECK: stage-pointers-refusals.cu:[[@LINE-9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: 'a' starts at the same element as 'As'

// A pointer of pairs of the tile's elements whose pairs are read member by
// member ('a[i].x'), which is no form of a tile read.
__global__ void other_type(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    COPY_VIEWS(t + 2)
    __pipeline_commit();
    const __half2 *a = reinterpret_cast<const __half2 *>(As + (t % 3) * 512);
    const __half *b = Bs + (t % 3) * 512;
    for (int k = 0; k < 16; k += 2)
      for (int i = 0; i < 4; ++i)
        acc[i][0] += __half2float(a[((ty * 4 + i) * 16 + k) / 2].x) *
                     __half2float(b[k * 32 + tx * 4]);
  }
  STORE
}
// CHECK: stage-pointers-refusals.cu:[[@LINE-5]]:35: note: expected a zero, an element of a __shared__ tile or a local holding one
