// Other spellings of the forms a double-buffered loop is read in
// ('next-tiles.cu', 'blocked-toggles.cu', 'one-barrier.cu'): buffer indices
// `(t + c) % 2` (c >= 0) and `(t + c) & 1` of any constant c, the prefetch
// under `tiles != t + 1` or `(t + 1) * TILE < K` (a tile counter up to
// ceil(K / TILE)), a toggle `cur = cur ? 0 : 1;` in a block of its own and
// followed by pointer advances, barriers written `bar.sync 0` and
// `barrier.sync.aligned 0` in asm, a commit and a wait in one asm statement,
// a `bool` stage flipped by `s = !s;`, `s ^= true;` or `s = 1 - s;` (set to
// false or true), buffer indices advanced by `(cur + 1) % 2`, `cur += 1; cur
// %= 2;`, `cur = nxt;` of a local `nxt = cur ^ 1`, or swapped through a
// local, an element counter's `(k0 / 16) % 2`, and
// copies committed by the next iteration's `cp.async.wait_all` alone (PTX
// ISA 9.7.9.25.3.4: cp.async.wait_all is cp.async.commit_group followed by
// cp.async.wait_group 0). Each is lifted. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
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

// CHECK-LABEL: __global__ void parity_offsets_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void parity_offsets(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY((t - 1) & 1, t + 1)
    }
    PRODUCT((t + 2) % 2)
    __syncthreads();
  }
  STORE
}

// CHECK-LABEL: __global__ void not_last_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void not_last(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (tiles != t + 1) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}

// CHECK-LABEL: __global__ void next_inside_k_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void next_inside_k(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = (K + 15) / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (K > (t + 1) * 16) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    __syncthreads();
  }
  STORE
}

// CHECK-LABEL: __global__ void toggle_forms_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void toggle_forms(ARGS) {
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
    {
      cur = cur ? 0 : 1;
    }
    a += 16;
    b += 16 * N;
  }
  STORE
}

// CHECK-LABEL: __global__ void asm_barriers_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void asm_barriers(ARGS) {
  HEAD
  COPY(0, 0)
  asm volatile("bar.sync 0;" ::: "memory");
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
    asm volatile("barrier.sync.aligned\t0 ;" ::: "memory");
  }
  STORE
}

// CHECK-LABEL: __global__ void wait_all_commits_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void wait_all_commits(ARGS) {
  HEAD
  COPY_ASYNC(0, 0)
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
  }
  STORE
}

// The commit and the wait in one asm statement without operands.
// CHECK-LABEL: __global__ void commit_and_wait_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void commit_and_wait(ARGS) {
  HEAD
  COPY_ASYNC(0, 0)
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;\n" :::
                     "memory");
    __syncthreads();
    if (t + 1 < tiles) {
      COPY_ASYNC((t + 1) % 2, t + 1)
    }
    PRODUCT(t % 2)
  }
  STORE
}

// A bool stage, flipped at the end of the body.
// CHECK-LABEL: __global__ void bool_stage_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void bool_stage(ARGS) {
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
  STORE
}

// A bool stage set to true: iteration i reads buffer !s.
// CHECK-LABEL: __global__ void starts_true_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void starts_true(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = true;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(s, t + 1)
    }
    PRODUCT(!s)
    __syncthreads();
    s = !s;
  }
  STORE
}

// A bool stage flipped by `s ^= true`, and one by `s = 1 - s`.
// CHECK-LABEL: __global__ void xor_true_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void xor_true(ARGS) {
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
    s ^= true;
  }
  STORE
}
// CHECK-LABEL: __global__ void one_minus_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_minus(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  bool s = false;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(1 - s, t + 1)
    }
    PRODUCT(s)
    __syncthreads();
    s = 1 - s;
  }
  STORE
}

// A buffer counter advanced by `cur = (cur + 1) % 2;`, the next buffer
// `(cur + 1) % 2`.
// CHECK-LABEL: __global__ void mod2_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void mod2(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY((cur + 1) % 2, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur = (cur + 1) % 2;
  }
  STORE
}

// `cur += 1; cur %= 2;`
// CHECK-LABEL: __global__ void plus_mod_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void plus_mod(ARGS) {
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
    cur += 1;
    cur %= 2;
  }
  STORE
}

// Two buffer indices swapped through a local, `const int tmp = cur; cur =
// nxt; nxt = tmp;`.
// CHECK-LABEL: __global__ void swap_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void swap(ARGS) {
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
    const int tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  STORE
}

// Two indices, of the buffer read and the one written, each toggled.
// CHECK-LABEL: __global__ void two_toggles_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void two_toggles(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int rd = 0, wr = 1;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(wr, t + 1)
    }
    PRODUCT(rd)
    __syncthreads();
    rd ^= 1;
    wr ^= 1;
  }
  STORE
}

// The next buffer in a local of the body, `const int nxt = cur ^ 1;`, and
// `cur = nxt;` at its end.
// CHECK-LABEL: __global__ void nxt_cur_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void nxt_cur(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int nxt = cur ^ 1;
    if (t + 1 < tiles) {
      COPY(nxt, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
    cur = nxt;
  }
  STORE
}

// An element counter's buffers, `(k0 / 16) % 2` and `(k0 / 16 + 1) % 2`.
// CHECK-LABEL: __global__ void elem_counter_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void elem_counter(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      for (int i = 0; i < 8; ++i) {
        const int e = tid + i * 64;
        As[(k0 / 16 + 1) % 2][e / 16][e % 16] =
            A[(row0 + e / 16) * K + k0 + 16 + e % 16];
        Bs[(k0 / 16 + 1) % 2][e / 32][e % 32] =
            B[(k0 + 16 + e / 32) * N + col0 + e % 32];
      }
    }
    PRODUCT((k0 / 16) % 2)
    __syncthreads();
  }
  STORE
}
