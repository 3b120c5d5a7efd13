// Near misses of the spellings 'buffer-forms.cu' lifts, each of which would
// make the tiled form compute something else or leaves a copy unwaited: each
// is refused at the statement that breaks the form, and the file is left
// exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}17{{$}}
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

// Double-buffered 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD                                                                   \
  __shared__ __align__(16) __half As[2][32][16];                               \
  __shared__ __align__(16) __half Bs[2][16][32];                               \
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

// (t - 1) % 2 is -1 in iteration 0.
__global__ void negative_remainder(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY((t - 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-7]]:12: note: expected the buffer of 'As' selected by the iteration: i % 2 (or i & 1) of iteration i, the one it reads, or (i + 1) % 2 (1 - cur, cur ^ 1, !cur), the one it stages for the next (i + c for i, of any constant c before '& 1' and of c >= 0 before '% 2'); a constant before the loop

// The prefetch is skipped in the last iteration but one.
__global__ void not_second_last(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 2 != tiles) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the next iteration's tiles under the loop's condition one step on, 'if (t + step < bound)' or 'if (t < bound - step)' (for a tile counter also 'if (t + 1 != bound)', and 'if ((t + 1) * TILE < K)' up to ceil(K / TILE)), with the loop's own bound: they may be skipped in the last iteration only

// Up to K / 16, the next tile starts inside K in the last iteration too
// where K is no multiple of 16.
__global__ void next_inside_k_floor(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if ((t + 1) * 16 < K) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the next iteration's tiles under the loop's condition one step on, 'if (t + step < bound)' or 'if (t < bound - step)' (for a tile counter also 'if (t + 1 != bound)', and 'if ((t + 1) * TILE < K)' up to ceil(K / TILE)), with the loop's own bound: they may be skipped in the last iteration only

// The next tile's start is compared with N.
__global__ void next_inside_n(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = (K + 15) / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if ((t + 1) * 16 < N) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the next iteration's tiles under the loop's condition one step on, 'if (t + step < bound)' or 'if (t < bound - step)' (for a tile counter also 'if (t + 1 != bound)', and 'if ((t + 1) * TILE < K)' up to ceil(K / TILE)), with the loop's own bound: they may be skipped in the last iteration only

// Barrier 1 of 64 threads is no barrier of the block.
__global__ void named_barrier(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    asm volatile("bar.sync 1, 64;" ::: "memory");
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-3]]:3: note: expected a '__syncthreads();' in the loop body of a kernel that stages the next iteration's tiles, at its end or between the copies of the next tiles and the product that reads them

// The pointer's step reads the toggled index.
__global__ void advance_reads_toggle(ARGS) {
  HEAD
  const __half *a = A + row0 * K, *b = B + col0;
  int cur = 0;
  for (int i = 0; i < 8; ++i) {
    const int e = tid + i * 64;
    As[0][e / 16][e % 16] = a[(e / 16) * K + e % 16];
    Bs[0][e / 32][e % 32] = b[(e / 32) * N + e % 32];
  }
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      for (int i = 0; i < 8; ++i) {
        const int e = tid + i * 64;
        As[cur ^ 1][e / 16][e % 16] = a[(e / 16) * K + 16 + e % 16];
        Bs[cur ^ 1][e / 32][e % 32] = b[(16 + e / 32) * N + e % 32];
      }
    }
    PRODUCT(cur)
    __syncthreads();
    cur ^= 1;
    a += 16 + 16 * cur;
    b += 16 * N;
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-5]]:5: note: 'cur', the buffer the loop toggles, is read after it is toggled

// No commit: a wait for groups leaves the copies in flight.
__global__ void wait_prior_uncommitted(ARGS) {
  HEAD
  COPY_ASYNC(0, 0)
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-13]]:3: note: this asynchronous copy, made for the next iteration, is not committed before that iteration's first barrier, and a wait for groups ('__pipeline_wait_prior', 'cp.async.wait_group') waits for committed ones only: commit it ('__pipeline_commit();') before the wait, or wait with 'cp.async.wait_all;', which commits it


// A bool stage flipped before the reads: the copy's buffer is no buffer of
// the iteration's.
__global__ void flip_first(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = true;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    s = !s;
    if (t + 1 < tiles) {
      COPY(!s, t + 1)
    }
    PRODUCT(s)
    __syncthreads();
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-9]]:9: note: the value is not a polynomial

// A bool stage flipped twice an iteration.
__global__ void flip_twice(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = false;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(!s, t + 1)
    }
    PRODUCT(s)
    __syncthreads();
    s = !s;
    s ^= 1;
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-9]]:12: note: expected the buffer of 'As' selected by the iteration

// A bool stage read after the loop.
__global__ void read_after(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = false;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(!s, t + 1)
    }
    PRODUCT(s)
    __syncthreads();
    s = !s;
  }
  if (s) {
    STORE
  }
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-4]]:3: note: 's', the buffer the loop toggles, may be read in the loop only

// A bool stage changed by `s ^= false`, which does not flip it.
__global__ void xor_false(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = false;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(!s, t + 1)
    }
    PRODUCT(s)
    __syncthreads();
    s ^= false;
  }
  STORE
}
// CHECK: buffer-forms-refusals.cu:[[@LINE-12]]:8: note: the bool variable 's' must be set once

// `cur = nxt;` of a `nxt` set before the loop: cur stays 1 from the
// second iteration on.
// CHECK: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void nxt_before(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
  const int nxt = cur ^ 1;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur = nxt;
  }
  STORE
}

// `cur += 2; cur %= 2;`, which leaves cur at 0.
// CHECK: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void plus_two(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(1 - cur, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur += 2;
    cur %= 2;
  }
  STORE
}

// A swap of two indices that start equal.
// CHECK: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void swap_same(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0, nxt = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(nxt, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    const int tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  STORE
}

// A swap whose local holds the other index: both end equal.
// CHECK: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void swap_wrong_tmp(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0, nxt = 1;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(nxt, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    const int tmp = nxt;
    cur = nxt;
    nxt = tmp;
  }
  STORE
}

// `cur %= 2; cur += 1;`: cur grows past 1.
// CHECK: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void mod_then_inc(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(1 - cur, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur %= 2;
    cur += 1;
  }
  STORE
}

// `cur += 1; cur %= 2;` with the prefetch into the buffer being read.
// CHECK: warning: {{.*}}the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads
__global__ void prefetch_wrong(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(cur, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur += 1;
    cur %= 2;
  }
  STORE
}
