// Pipelines of more than two stages: tiles `X[S][R][C]` read as a ring, of
// which iteration i reads buffer i % S and stages the tiles of iteration
// i + D into buffer (i + D) % S (D < S), the code before the loop staging the
// first D into buffers 0 to D - 1, in an unrolled loop (under `if (s <
// tiles)`) or one by one. The copies are asynchronous, each iteration
// waiting for all but the most recent groups that hold later tiles
// (`__pipeline_wait_prior(S - 2)`, `cp.async.wait_group`) before its first
// barrier, or at the bottom of the body before the barrier that ends it
// (the next iteration then reads before its first barrier), or under the
// prefetch's condition with an `else` that waits for every group, or
// synchronous.
// The buffers are chosen by `t % S`, locals set to it, or ring counters
// advanced at the end of the body. Each is lifted.
// (The outputs are checked without this file's own check lines, which they
// copy.)
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

// Three stages, one barrier per tile: wait, barrier, prefetch, product.
// CHECK-LABEL: __global__ void three_stages_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void three_stages(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    const int f = t + STAGES - 1;
    if (f < tiles) {
      COPY_ASYNC(f % STAGES, f)
    }
    __pipeline_commit();
    PRODUCT(t % STAGES)
  }
  STORE
}

// Four stages in PTX, buffers `t & 3` and `(t + 3) & 3`, the prologue
// written out, the product before the prefetch.
#define CP_ASYNC(BUF, T)                                                       \
  {                                                                            \
    const unsigned sa = __cvta_generic_to_shared(&As[BUF][tid / 2][tid % 2 * 8]); \
    const unsigned sb = __cvta_generic_to_shared(&Bs[BUF][tid / 4][tid % 4 * 8]); \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa),        \
                 "l"(&A[(row0 + tid / 2) * K + (T) * 16 + tid % 2 * 8]));      \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sb),        \
                 "l"(&B[((T) * 16 + tid / 4) * N + col0 + tid % 4 * 8]));      \
  }
#define COMMIT asm volatile("cp.async.commit_group;" ::);
// CHECK-LABEL: __global__ void four_stages_ptx_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void four_stages_ptx(ARGS) {
  HEAD(4)
  const int tiles = K / 16;
  CP_ASYNC(0, 0)
  COMMIT
  CP_ASYNC(1, 1)
  COMMIT
  CP_ASYNC(2, 2)
  COMMIT
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.wait_group 2;" ::: "memory");
    __syncthreads();
    PRODUCT(t & 3)
    if (t + 3 < tiles)
      CP_ASYNC((t + 3) & 3, t + 3)
    COMMIT
  }
  STORE
}

// Three stages staged one tile ahead by synchronous copies, with buffer
// indices in locals: the third buffer spares the barrier after the
// product.
// CHECK-LABEL: __global__ void sync_ring_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void sync_ring(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY(0, 0)
  COPY(1, 1)
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 3, stage = (t + 2) % 3;
    if (t + 2 < tiles) {
      COPY(stage, t + 2)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}

// Four buffers staged two tiles ahead, the first two under `s * 16 < K` of
// an element counter: the buffer written, (i + 2) % 4, was last read two
// iterations before.
// CHECK-LABEL: __global__ void two_ahead_of_four_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
#define COPY_ASYNC_AT(BUF, K0)                                                 \
  __pipeline_memcpy_async(&As[BUF][tid / 2][tid % 2 * 8],                      \
                          &A[(row0 + tid / 2) * K + (K0) + tid % 2 * 8], 16);  \
  __pipeline_memcpy_async(&Bs[BUF][tid / 4][tid % 4 * 8],                      \
                          &B[((K0) + tid / 4) * N + col0 + tid % 4 * 8], 16);
__global__ void two_ahead_of_four(ARGS) {
  HEAD(4)
  for (int s = 0; s < 2; ++s) {
    if (s * 16 < K) {
      COPY_ASYNC_AT(s, s * 16)
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (k0 + 2 * 16 < K) {
      COPY_ASYNC_AT((k0 / 16 + 2) % 4, k0 + 2 * 16)
    }
    __pipeline_commit();
    PRODUCT((k0 / 16) % 4)
  }
  STORE
}

// Three stages, the prefetch first: each iteration commits the copies of
// tile i + 2, waits for all groups but the two most recent, which leaves
// tile i's complete, and ends with a barrier.
// CHECK-LABEL: __global__ void commit_before_wait_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void commit_before_wait(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t < tiles - 2) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    PRODUCT(t % 3)
    __syncthreads();
  }
  STORE
}

// Ring counters advanced at the end of the body, `rd = (rd + 1) % 3;`,
// `wr = (1 + wr) % 3;` (started at 0 and 2): in iteration i they are
// i % 3 and (i + 2) % 3.
// CHECK-LABEL: __global__ void ring_counters_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void ring_counters(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  int rd = 0, wr = 2;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC(wr, t + 2)
    }
    __pipeline_commit();
    PRODUCT(rd)
    rd = (rd + 1) % 3;
    wr = (1 + wr) % 3;
  }
  STORE
}

// The wait at the bottom of the body: the code before the loop waits for
// the first tile and meets at a barrier; each iteration multiplies its
// tile, stages the one three ahead, commits, waits for all groups but the
// two most recent (the next tile's is then complete) and meets at the
// barrier that ends the body, which orders the next iteration's reads.
// CHECK-LABEL: __global__ void bottom_wait_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void bottom_wait(ARGS) {
  constexpr int STAGES = 4;
  HEAD(STAGES)
  const int tiles = K / 16;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
    __pipeline_commit();
  }
  __pipeline_wait_prior(STAGES - 2);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    PRODUCT(t % STAGES)
    if (t + STAGES - 1 < tiles) {
      COPY_ASYNC((t + STAGES - 1) % STAGES, t + STAGES - 1)
    }
    __pipeline_commit();
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
  }
  STORE
}

// Two buffers, the wait at the bottom for every group.
// CHECK-LABEL: __global__ void bottom_wait_double_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void bottom_wait_double(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    PRODUCT(t % 2)
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
  }
  STORE
}

// A barrier right after the first tiles' copies, which stay in flight
// past it: the loop waits for them before its own first barrier.
// CHECK-LABEL: __global__ void barrier_after_first_copies_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void barrier_after_first_copies(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
    __pipeline_commit();
  }
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    if (t + STAGES - 1 < tiles) {
      COPY_ASYNC((t + STAGES - 1) % STAGES, t + STAGES - 1)
    }
    __pipeline_commit();
    PRODUCT(t % STAGES)
  }
  STORE
}

// The wait under the prefetch's condition, the last iteration waiting for
// every group in the `else`.
// CHECK-LABEL: __global__ void tail_else_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void tail_else(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
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

// A ring's wait chosen by the prefetch's condition: all groups but the two
// most recent, or every group (`cp.async.wait_all`) in the last three
// iterations, whose commits the prefetch's condition skips.
// CHECK-LABEL: __global__ void tail_else_ring_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void tail_else_ring(ARGS) {
  constexpr int STAGES = 4;
  HEAD(STAGES)
  const int tiles = K / 16;
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + STAGES - 1 < tiles) {
      __pipeline_wait_prior(STAGES - 2);
    } else {
      asm volatile("cp.async.wait_all;\n" ::: "memory");
    }
    __syncthreads();
    if (t + STAGES - 1 < tiles) {
      COPY_ASYNC((t + STAGES - 1) % STAGES, t + STAGES - 1)
      __pipeline_commit();
    }
    PRODUCT(t % STAGES)
  }
  STORE
}

// The first tiles' copies and commits under their condition, then a wait
// for every group before the loop: nothing is in flight at the loop,
// however many groups were committed.
// CHECK-LABEL: __global__ void guarded_drained_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void guarded_drained(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s)
    if (s < tiles) {
      COPY_ASYNC(s, s)
      __pipeline_commit();
    }
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
