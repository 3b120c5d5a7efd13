// Tiles passed to __device__ helpers one buffer at a time, `As[b]` for a
// parameter `__half (*as)[16]`: the parameter stands for buffer b of the
// tile, b the caller's index, which must select the buffer as an inline
// access would. Each is lifted. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
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

// Two buffers, the prefetch in a helper.
// CHECK-LABEL: __global__ void double_buffer_helper_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void double_buffer_helper(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  stage(As[0], Bs[0], A, B, N, K, row0, col0, 0);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      stage(As[(t + 1) % 2], Bs[(t + 1) % 2], A, B, N, K, row0, col0, t + 1);
      __pipeline_commit();
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}

// A ring of three, the copies and the product in helpers.
// CHECK-LABEL: __global__ void ring_helpers_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void ring_helpers(ARGS) {
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
    multiply(As[t % STAGES], Bs[t % STAGES], acc);
  }
  STORE
}
