// Asynchronous copies through libcu++'s thread-scope cuda::pipeline
// (<cuda/pipeline>): `cuda::memcpy_async(dst, src, size, pipe)` copies,
// `producer_commit()` commits a group, `consumer_wait()` waits for the
// oldest group not yet waited for, `pipeline_consumer_wait_prior<N>` for all
// but the N most recent; `producer_acquire()` and `consumer_release()` do
// nothing. Rings of three stages, commits outside or under the prefetch's
// condition, a helper passed the pipeline, a single buffer, the prefetch
// before the wait, and copies under a bounds check whose `else` stores
// zeros (also with the pipeline primitives): each is lifted.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include "Inputs/pipeline-ring.h"
#include <cuda_pipeline.h>

// Three stages, the commits outside the copies' conditions (empty groups
// past the last tile), the wait at the top of the body.
// CHECK-LABEL: __global__ void three_stages_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void three_stages(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < STAGES - 1; ++s) {
    pipe.producer_acquire();
    if (s < tiles) {
      COPY_ASYNC(s, s, SIZE16)
    }
    pipe.producer_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    const int f = t + STAGES - 1;
    pipe.producer_acquire();
    if (f < tiles) {
      COPY_ASYNC(f % STAGES, f, SIZE16)
    }
    pipe.producer_commit();
    PRODUCT(t % STAGES)
    pipe.consumer_release();
  }
  STORE
}

// The commits under the copies' conditions: where the loop has few tiles
// fewer groups are committed, and consumer_wait(), which counts them,
// still waits for the tile of its iteration.
// CHECK-LABEL: __global__ void conditional_commits_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void conditional_commits(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 2; ++s) {
    if (s < tiles) {
      pipe.producer_acquire();
      COPY_ASYNC(s, s, SIZE16)
      pipe.producer_commit();
    }
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    if (t + 2 < tiles) {
      pipe.producer_acquire();
      COPY_ASYNC((t + 2) % 3, t + 2, SIZE16)
      pipe.producer_commit();
    }
    PRODUCT(t % 3)
    pipe.consumer_release();
  }
  STORE
}

// pipeline_consumer_wait_prior<S - 2> and a size in a const local,
// `sizeof(int4)` bytes.
// CHECK-LABEL: __global__ void wait_prior_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void wait_prior(ARGS) {
  constexpr int STAGES = 4;
  HEAD(STAGES)
  const int tiles = K / 16;
  const auto shape = cuda::aligned_size_t<alignof(int4)>(sizeof(int4));
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s, shape)
    }
    pipe.producer_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    cuda::pipeline_consumer_wait_prior<STAGES - 2>(pipe);
    __syncthreads();
    if (t + STAGES - 1 < tiles) {
      COPY_ASYNC((t + STAGES - 1) % STAGES, t + STAGES - 1, shape)
    }
    pipe.producer_commit();
    PRODUCT(t % STAGES)
  }
  STORE
}

// The copies and the commit in a helper passed the pipeline by reference.
__device__ void load_tiles(__half (*as)[16], __half (*bs)[32],
                           const __half *A, const __half *B, int N, int K,
                           int row0, int col0, int tid, int t,
                           cuda::pipeline<cuda::thread_scope_thread> &pipe) {
  pipe.producer_acquire();
  cuda::memcpy_async(&as[tid / 2][tid % 2 * 8],
                     &A[(row0 + tid / 2) * K + t * 16 + tid % 2 * 8],
                     cuda::aligned_size_t<16>(16), pipe);
  cuda::memcpy_async(&bs[tid / 4][tid % 4 * 8],
                     &B[(t * 16 + tid / 4) * N + col0 + tid % 4 * 8],
                     cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
}
// CHECK-LABEL: __global__ void helper_commits_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void helper_commits(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  auto pipe = cuda::make_pipeline();
  load_tiles(As[0], Bs[0], A, B, N, K, row0, col0, tid, 0, pipe);
  load_tiles(As[1], Bs[1], A, B, N, K, row0, col0, tid, 1, pipe);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    if (t + 2 < tiles)
      load_tiles(As[(t + 2) % 3], Bs[(t + 2) % 3], A, B, N, K, row0, col0,
                 tid, t + 2, pipe);
    PRODUCT(t % 3)
  }
  STORE
}

// One buffer: the copies of the iteration's tiles, committed and waited
// for before the barrier.
// CHECK-LABEL: __global__ void one_buffer_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_buffer(ARGS) {
  __shared__ __align__(16) __half As[32][16];
  __shared__ __align__(16) __half Bs[16][32];
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  auto pipe = cuda::make_pipeline();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    pipe.producer_acquire();
    cuda::memcpy_async(&As[tid / 2][tid % 2 * 8],
                       &A[(row0 + tid / 2) * K + k0 + tid % 2 * 8], SIZE16,
                       pipe);
    cuda::memcpy_async(&Bs[tid / 4][tid % 4 * 8],
                       &B[(k0 + tid / 4) * N + col0 + tid % 4 * 8], SIZE16,
                       pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[ty * 4 + i][k]) *
                       __half2float(Bs[k][tx * 4 + j]);
    __syncthreads();
    pipe.consumer_release();
  }
  STORE
}

// The prefetch of tile i + 2 committed before the wait, which then waits
// for all but the two most recent groups, tile i's.
// CHECK-LABEL: __global__ void commit_before_wait_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void commit_before_wait(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  auto pipe = cuda::make_pipeline();
  COPY_ASYNC(0, 0, SIZE16)
  pipe.producer_commit();
  COPY_ASYNC(1, 1, SIZE16)
  pipe.producer_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t < tiles - 2) {
      COPY_ASYNC((t + 2) % 3, t + 2, SIZE16)
    }
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    PRODUCT(t % 3)
    __syncthreads();
  }
  STORE
}

// A copy under a bounds check, zeros stored where it fails: any M, K a
// multiple of 8.
#define CHECKED_COPY(BUF, T)                                                   \
  {                                                                            \
    const int ar = tid / 2, ac = tid % 2 * 8, k = (T) * 16;                    \
    const bool ok = row0 + ar < M && k + ac < K;                               \
    if (ok)                                                                    \
      cuda::memcpy_async(&As[BUF][ar][ac], &A[(row0 + ar) * K + k + ac],       \
                         SIZE16, pipe);                                        \
    else                                                                       \
      *reinterpret_cast<uint4 *>(&As[BUF][ar][ac]) = make_uint4(0, 0, 0, 0);   \
    const int br = tid / 4, bc = tid % 4 * 8;                                  \
    if (k + br >= K || col0 + bc >= N)                                         \
      *reinterpret_cast<int4 *>(&Bs[BUF][br][bc]) = int4{};                    \
    else                                                                       \
      cuda::memcpy_async(&Bs[BUF][br][bc], &B[(k + br) * N + col0 + bc],       \
                         SIZE16, pipe);                                        \
  }
// CHECK-LABEL: __global__ void zeros_outside_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void zeros_outside(ARGS) {
  HEAD(3)
  const int tiles = (K + 15) / 16;
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < 2; ++s) {
    if (s < tiles)
      CHECKED_COPY(s, s)
    pipe.producer_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    __syncthreads();
    if (t + 2 < tiles)
      CHECKED_COPY((t + 2) % 3, t + 2)
    pipe.producer_commit();
    PRODUCT(t % 3)
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (row0 + ty * 4 + i < M && col0 + tx * 4 + j < N)
        C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}

// The same with the pipeline primitives: `__pipeline_memcpy_async` under
// the check, zeros where it fails.
// CHECK-LABEL: __global__ void primitive_zeros_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void primitive_zeros(ARGS) {
  __shared__ __align__(16) __half As[32][16];
  __shared__ __align__(16) __half Bs[16][32];
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    const int ar = tid / 2, ac = tid % 2 * 8;
    if (row0 + ar < M && k0 + ac < K)
      __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    else
      *reinterpret_cast<float4 *>(&As[ar][ac]) = make_float4(0, 0, 0, 0);
    const int br = tid / 4, bc = tid % 4 * 8;
    if (k0 + br < K && col0 + bc < N)
      __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    else
      *reinterpret_cast<float4 *>(&Bs[br][bc]) = float4{};
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[ty * 4 + i][k]) *
                       __half2float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      if (row0 + ty * 4 + i < M && col0 + tx * 4 + j < N)
        C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
