// Near misses of the helpers 'buffer-helpers.cu' lifts: a buffer passed to
// a helper that is not the one the iteration must read or stage, and a
// parameter changed in the helper. Each is refused at the statement that
// breaks the form, and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}4{{$}}
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// Rings of S 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD(S)                                                                \
  __shared__ __align__(16) __half As[S][32][16];                               \
  __shared__ __align__(16) __half Bs[S][16][32];                               \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define COPY(BUF, T)                                                           \
  for (int i = 0; i < 8; ++i) {                                                \
    const int e = tid + i * 64;                                                \
    As[BUF][e / 16][e % 16] = A[(row0 + e / 16) * K + (T) * 16 + e % 16];      \
    Bs[BUF][e / 32][e % 32] = B[((T) * 16 + e / 32) * N + col0 + e % 32];      \
  }
#define COPY_ASYNC(BUF, T)                                                     \
  __pipeline_memcpy_async(&As[BUF][tid / 2][tid % 2 * 8],                      \
                          &A[(row0 + tid / 2) * K + (T) * 16 + tid % 2 * 8],   \
                          16);                                                 \
  __pipeline_memcpy_async(&Bs[BUF][tid / 4][tid % 4 * 8],                      \
                          &B[((T) * 16 + tid / 4) * N + col0 + tid % 4 * 8],   \
                          16);
#define PRODUCT(BUF)                                                           \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[BUF][ty * 4 + i][k]) *                    \
                     __half2float(Bs[BUF][k][tx * 4 + j]);
#define STORE                                                                  \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)                                                \
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K

// Stage tile `T` into one buffer of each tile, passed as `As[b]`.
__device__ void stage(__half (*as)[16], __half (*bs)[32], const __half *A,
                      const __half *B, int N, int K, int row0, int col0,
                      int T) {
  const int tid = threadIdx.x;
  __pipeline_memcpy_async(&as[tid / 2][tid % 2 * 8],
                          &A[(row0 + tid / 2) * K + T * 16 + tid % 2 * 8], 16);
  __pipeline_memcpy_async(&bs[tid / 4][tid % 4 * 8],
                          &B[(T * 16 + tid / 4) * N + col0 + tid % 4 * 8], 16);
}
// The product over one buffer of each tile.
__device__ void multiply(const __half (*as)[16], const __half (*bs)[32],
                         float (*acc)[4]) {
  const int tx = threadIdx.x % 8, ty = threadIdx.x / 8;
  for (int k = 0; k < 16; ++k)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        acc[i][j] += __half2float(as[ty * 4 + i][k]) *
                     __half2float(bs[k][tx * 4 + j]);
}

// The prefetch into the buffer the iteration reads.
__global__ void stages_current(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  stage(As[0], Bs[0], A, B, N, K, row0, col0, 0);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      stage(As[t % 2], Bs[t % 2], A, B, N, K, row0, col0, t + 1);
    __pipeline_commit();
    PRODUCT(t % 2)
    __pipeline_wait_prior(0);
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-helpers-refusals.cu:[[@LINE-10]]:3: warning: {{.*}}the statement at line 49 breaks it: the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads (in the __device__ function 'stage', called at line [[#@LINE-8]])

// The product over the buffer being staged.
__global__ void multiplies_next(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles)
      stage(As[s], Bs[s], A, B, N, K, row0, col0, s);
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    const int f = t + STAGES - 1;
    if (f < tiles)
      stage(As[f % STAGES], Bs[f % STAGES], A, B, N, K, row0, col0, f);
    __pipeline_commit();
    multiply(As[f % STAGES], Bs[f % STAGES], acc);
  }
  STORE
}
// CHECK: buffer-helpers-refusals.cu:[[@LINE-11]]:3: warning: {{.*}}the statement at line 61 breaks it: the product must read buffer i % 3 of 'As' in iteration i, the one staged for it (in the __device__ function 'multiply', called at line [[#@LINE-4]])

// A fixed buffer in the loop.
__global__ void fixed_buffer(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  stage(As[0], Bs[0], A, B, N, K, row0, col0, 0);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      stage(As[1], Bs[1], A, B, N, K, row0, col0, t + 1);
    __pipeline_commit();
    PRODUCT(t % 2)
    __pipeline_wait_prior(0);
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-helpers-refusals.cu:[[@LINE-8]]:16: note: expected the buffer of 'As' selected by the iteration: i % 2

// A parameter moved in the helper.
__device__ void stage_moved(__half (*as)[16], const __half *A, int K,
                            int row0, int T) {
  const int tid = threadIdx.x;
  as += 1;
  __pipeline_memcpy_async(&as[tid / 2 - 1][tid % 2 * 8],
                          &A[(row0 + tid / 2) * K + T * 16 + tid % 2 * 8], 16);
}
__global__ void moved_in_helper(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      stage_moved(As[(t + 1) % 2], A, K, row0, t + 1);
      __pipeline_memcpy_async(&Bs[(t + 1) % 2][tid / 4][tid % 4 * 8],
                              &B[((t + 1) * 16 + tid / 4) * N + col0 + tid % 4 * 8], 16);
    }
    __pipeline_commit();
    PRODUCT(t % 2)
    __pipeline_wait_prior(0);
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-helpers-refusals.cu:[[@LINE-11]]:19: note: the parameter 'as' of the __device__ function 'stage_moved' must point to the rows of a buffer of 'As', of its type, and never change
