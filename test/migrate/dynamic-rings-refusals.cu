// Near misses of the rings in dynamic shared memory 'dynamic-rings.cu'
// lifts, each of which would make the tiled form compute something else:
// each is refused at the statement that breaks the form, and the file is
// left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}6{{$}}
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

// The product reads the buffer being staged.
__global__ void reads_staged(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT((t + 2) % 3)
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-4]]:5: note: the product must read buffer i % 3 of 'As' in iteration i, the one staged for it

// An element past the end of the buffer (the next buffer's first).
__global__ void past_buffer(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[t % 3 * 512 + 1 + (ty * 4 + i) * 16 + k]) *
                       __half2float(Bs[t % 3 * 512 + k * 32 + tx * 4 + j]);
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-5]]:37: note: the index of 'As', a ring of 3 buffers of 512 elements in dynamic shared memory, must be 'b * 512 + i', i constant for each thread and in [0, 512): it is out of bounds

// The buffer of the tile staged ahead not taken modulo the ring: past its
// end from iteration 1 on.
__global__ void unreduced(ARGS) {
  HEAD(3)
  PROLOGUE(2)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC(t + 2, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-7]]:7: note: the index of 'As', a ring of 3 buffers of 512 elements in dynamic shared memory, must be 'b * 512 + i', i constant for each thread and in [0, 512); expected the buffer of 'As' selected by the iteration: i % 3

// The buffer stride differs between the copies and the product: the tile is
// no ring.
__global__ void stride_differs(ARGS) {
  HEAD(2)
  PROLOGUE(1)
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    __pipeline_commit();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[t % 2 * 256 + (ty * 4 + i) * 16 + k]) *
                       __half2float(Bs[t % 2 * 512 + k * 32 + tx * 4 + j]);
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-11]]:7: note: the index of the __shared__ tile 'As' must be a constant inside its extents for each thread of the block: it uses the operator '%'

// The prologue stages into the second buffer of a ring that reads the first.
__global__ void prologue_buffer(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  COPY_ASYNC(1, 0)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    __pipeline_commit();
    PRODUCT(t % 2)
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-14]]:3: note: the copies before the loop must stage buffer 0 of 'As', which iteration 0 reads

// A pointer to buffers with room for one before the next tile.
__global__ void one_buffer(ARGS) {
  extern __shared__ __align__(16) __half raw_one[];
  auto As = reinterpret_cast<__half (*)[32][16]>(raw_one);
  auto Bs = reinterpret_cast<__half (*)[16][32]>(As + 1);
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
#pragma tawa tile
  for (int t = 0; t < K / 16; ++t) {
    for (int i = 0; i < 8; ++i) {
      const int e = tid + i * 64;
      As[0][e / 16][e % 16] = A[(row0 + e / 16) * K + t * 16 + e % 16];
      Bs[0][e / 32][e % 32] = B[(t * 16 + e / 32) * N + col0 + e % 32];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[0][ty * 4 + i][k]) *
                       __half2float(Bs[0][k][tx * 4 + j]);
    __syncthreads();
  }
  STORE
}
// CHECK: dynamic-rings-refusals.cu:[[@LINE-22]]:8: note: 'As' points to buffers of 32 x 16 elements: expected a ring of 2 to 8 of them before the next tile
