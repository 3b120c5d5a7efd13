// Near misses of the rings 'ring-buffers.cu' lifts, each of which would make
// the tiled form compute something else or leaves a copy unwaited: each is
// refused at the statement that breaks the form, and the file is left
// exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}22{{$}}
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
// Waiting for all groups but two leaves tile i's in flight.
__global__ void waits_too_little(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(2);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-16]]:3: note: this asynchronous copy, made 2 iterations ahead (or before the loop), is not complete at the first barrier of the iteration that reads it: wait there for all groups but the 1 most recent ('__pipeline_wait_prior(1);' or 'cp.async.wait_group 1;' before the first barrier, where each iteration commits one group after it)

// One tile staged before the loop: the loop stages one ahead, and tile
// i + 2's copies are in flight when iteration i reads.
__global__ void one_tile_before(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-14]]:3: note: this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier: wait for it there, either at the top of the loop body ('__pipeline_wait_prior(0);' before the first barrier, the copies of the next tiles after it) or after the commit of the iteration's own copies ('__pipeline_wait_prior(1);' after one commit)

// Tile i + 2 into buffer (i + 1) % 3, which iteration i + 1 reads.
__global__ void stages_next(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 1) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-7]]:18: note: expected the buffer of 'As' selected by the iteration: i % 3 of iteration i, the one it reads, or (i + 2) % 3, the one it stages for iteration i + 2 (the code before the loop stages the first 2; i + c for i of c >= 0, a local set to either, or a counter advanced last in the body, 'r = (r + 1) % 3;'); a constant before the loop

// Tile i + 1 into buffer (i + 2) % 3.
__global__ void tile_behind(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 1)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-16]]:3: note: the copies before the loop must stage what the loop's copies stage for its first 2 iterations: element 0, 0 of 'As' in buffer 0 differs

// The prefetch of tile i + 2 runs in the last iteration but one.
__global__ void skips_too_late(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the tiles of iteration i + 2 under the loop's condition 2 steps on, 'if (t + 2 * step < bound)' or 'if (t < bound - 2 * step)' (for a tile counter up to ceil(K / TILE) also 'if ((t + 2) * TILE < K)'), with the loop's own bound: they may be skipped in the last 2 iterations only

// `t + 2 != tiles` holds in the last iteration.
__global__ void not_equal(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 != tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the tiles of iteration i + 2 under the loop's condition 2 steps on, 'if (t + 2 * step < bound)' or 'if (t < bound - 2 * step)' (for a tile counter up to ceil(K / TILE) also 'if ((t + 2) * TILE < K)'), with the loop's own bound: they may be skipped in the last 2 iterations only

// Three tiles before the loop in a ring of three: the loop would write
// the buffer iteration i reads.
__global__ void full_ring(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
  COPY_ASYNC(2, 2)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(2);
    __syncthreads();
    if (t + 3 < tiles) {
      COPY_ASYNC((t + 3) % 3, t + 3)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-20]]:3: note: the copies before the loop stage buffers up to 2, the first tiles, so the loop stages tiles 3 iterations ahead, and 'As' has 3 buffers: expected a ring of more buffers than the tiles staged before the loop

// The commit under the prefetch's condition: in the last iteration the
// most recent group is tile i's own.
__global__ void commit_skipped(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
      __pipeline_commit();
    }
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-10]]:5: note: this wait follows a commit under the prefetch's condition, which the last 2 iterations skip: there it would leave the group of an earlier iteration's copies in flight; commit outside the condition, or wait for every group ('__pipeline_wait_prior(0);', 'cp.async.wait_group 0;')

// Buffers 0 and 2 before the loop, buffer 1 not.
__global__ void gap_before(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(2, 2)
  __pipeline_commit();
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-18]]:3: note: the copies before the loop stage buffers up to 2, the first tiles, so the loop stages tiles 3 iterations ahead, and 'As' has 3 buffers: expected a ring of more buffers than the tiles staged before the loop

// The wait after the barrier: other threads' copies may be in flight.
__global__ void wait_after_barrier(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __syncthreads();
    __pipeline_wait_prior(1);
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-16]]:3: note: this asynchronous copy, made 2 iterations ahead (or before the loop), is not complete at the first barrier of the iteration that reads it: wait there for all groups but the 1 most recent ('__pipeline_wait_prior(1);' or 'cp.async.wait_group 1;' before the first barrier, where each iteration commits one group after it)

// The product reads the buffer being staged.
__global__ void reads_staged(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-4]]:5: note: the product must read buffer i % 3 of 'As' in iteration i, the one staged for it

// No barrier in the loop body.
__global__ void no_barrier(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY(0, 0)
  COPY(1, 1)
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 2 < tiles) {
      COPY((t + 2) % 3, t + 2)
    }
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-3]]:3: note: expected a '__syncthreads();' in the loop body of a kernel that stages the next iteration's tiles, at its end or between the copies of the next tiles and the product that reads them

// A ring of three beside a double buffer, both two tiles ahead.
__global__ void mixed_rings(ARGS) {
  __shared__ __align__(16) __half As[3][32][16];
  __shared__ __align__(16) __half Bs[2][16][32];
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  __pipeline_memcpy_async(&As[1][tid / 2][tid % 2 * 8],
                          &A[(row0 + tid / 2) * K + 16 + tid % 2 * 8], 16);
  __pipeline_commit();
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-22]]:35: note: the copies before the loop stage buffers up to 1, the first tiles, so the loop stages tiles 2 iterations ahead, and 'Bs' has 2 buffers: expected a ring of more buffers than the tiles staged before the loop

// The prefetch before a barrier that follows the product: buffer (i + 2) % 3
// is written while other threads read it in iteration i - 1.
__global__ void wraps_into_reads(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    PRODUCT(t % 3)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-11]]:3: note: the loop body ends without '__syncthreads();', so its last part runs on into the next iteration's first with no barrier between, and 'As' is read in the last and written in the first: end the body with '__syncthreads();', or stage the next tiles after the body's first barrier

// The commit of a first tile under `s < tiles`: with one tile, the
// loop's wait leaves it in flight.
__global__ void guarded_commit(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s)
    if (s < tiles) {
      COPY_ASYNC(s, s)
      __pipeline_commit();
    }
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-14]]:7: note: this commit stands under the condition of the copies before the loop, so where the loop has fewer iterations fewer groups are in flight and a wait for all but the most recent leaves the first tiles' in flight: commit outside the condition, an empty group where it fails (or wait for every group before the loop, '__pipeline_wait_prior(0);')

// Tile 0 under `1 < tiles`: skipped where the loop runs once.
__global__ void guard_too_strong(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  if (1 < tiles) {
    COPY_ASYNC(0, 0)
  }
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-17]]:5: note: this copy into buffer 0 stands under a condition that fails where iteration 0, which reads it, runs

// A ring counter of four over a ring of three.
__global__ void counter_of_another_ring(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  int rd = 0;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    PRODUCT(rd)
    rd = (rd + 1) % 4;
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-5]]:13: note: expected the buffer of 'As' selected by the iteration: i % 3 of iteration i, the one it reads, or (i + 2) % 3, the one it stages for iteration i + 2 (the code before the loop stages the first 2; i + c for i of c >= 0, a local set to either, or a counter advanced last in the body, 'r = (r + 1) % 3;'); a constant before the loop

// The counter advanced before the product reads it.
__global__ void counter_advanced_early(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  int rd = 2;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  COPY_ASYNC(1, 1)
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 2 < tiles) {
      COPY_ASYNC((t + 2) % 3, t + 2)
    }
    __pipeline_commit();
    rd = (rd + 1) % 3;
    PRODUCT(rd)
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-4]]:13: note: expected the buffer of 'As' selected by the iteration: i % 3 of iteration i, the one it reads, or (i + 2) % 3, the one it stages for iteration i + 2 (the code before the loop stages the first 2; i + c for i of c >= 0, a local set to either, or a counter advanced last in the body, 'r = (r + 1) % 3;'); a constant before the loop

// The wait at the bottom for all but three groups of a four-stage ring:
// the next tile's group is still in flight at the barrier that ends the
// body, and the next iteration reads it before its first barrier.
__global__ void bottom_wait_too_late(ARGS) {
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
    __pipeline_wait_prior(STAGES - 1);
    __syncthreads();
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-18]]:7: note: this asynchronous copy of the next iteration's tiles is not complete at the barrier that ends the loop body, and the next iteration reads them before its first barrier: wait before that barrier for all groups but the 2 most recent ('__pipeline_wait_prior(2);' or 'cp.async.wait_group 2;' after the commit of each iteration's one group)

// The wait at the bottom, but the code before the loop meets at its
// barrier with the first tile in flight, which iteration 0 reads before
// its first barrier.
__global__ void bottom_wait_first_in_flight(ARGS) {
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-17]]:7: note: this asynchronous copy of the first tiles is not complete at the barrier before the loop, and the loop reads 'As' before its first barrier: wait for it before that barrier


// The prefetch's `else` waits for all but the most recent group, which in
// the last iteration is the group of the tile it reads.
__global__ void tail_else_weak(ARGS) {
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
      __pipeline_wait_prior(1);
    }
    __syncthreads();
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}
// CHECK: ring-buffers-refusals.cu:[[@LINE-9]]:12: note: expected the 'else' of the prefetch's condition to wait for every group in flight, alone

// The first tiles' commits under their condition, then a wait for all but
// the most recent group: where the loop runs once, tile 0's is that one.
__global__ void guarded_waits_one(ARGS) {
  HEAD(3)
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s)
    if (s < tiles) {
      COPY_ASYNC(s, s)
      __pipeline_commit();
    }
  __pipeline_wait_prior(1);
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
// CHECK: ring-buffers-refusals.cu:[[@LINE-11]]:3: warning: this loop does not match a liftable pattern: {{.*}}this wait follows a commit under the prefetch's condition
