// Rings of buffers carved out of dynamic shared memory: a tile pointer into
// an `extern __shared__` array indexed `As[b * C + i]` (or moved,
// `As + b * C + i`), b the buffer of a ring of S buffers of C elements, S
// the distance to the next tile over C (the last tile has as many buffers as
// those before it), and i an element of the buffer; or a pointer to
// buffers, `reinterpret_cast<__half (*)[32][16]>(smem)`, indexed
// `As[b][r][c]`, or to rows, `__half (*As)[16]`, a two-dimensional tile. The buffers are chosen
// as those of `X[S][R][C]` rings are: `t % S`, a toggle, ring counters.
// Each is lifted.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
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

// Three stages: wait, barrier, prefetch, product.
// CHECK-LABEL: __global__ void three_stages_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// REWRITTEN: three_stages_tiled_launch(
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

// Two buffers toggled by `cur ^= 1`, the next tile staged before the wait.
// CHECK-LABEL: __global__ void toggled_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void toggled(ARGS) {
  HEAD(2)
  const int tiles = K / 16;
  COPY_ASYNC(0, 0)
  __pipeline_commit();
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY_ASYNC(cur ^ 1, t + 1)
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    PRODUCT(cur)
    __syncthreads();
    cur ^= 1;
  }
  STORE
}

// Four stages chosen by ring counters advanced at the end of the body.
// CHECK-LABEL: __global__ void counters_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void counters(ARGS) {
  HEAD(4)
  const int tiles = K / 16;
  for (int s = 0; s < 3; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
    __pipeline_commit();
  }
  int rd = 0, wr = 3;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(2);
    __syncthreads();
    if (t + 3 < tiles) {
      COPY_ASYNC(wr, t + 3)
    }
    __pipeline_commit();
    PRODUCT(rd)
    rd = (rd + 1) % 4;
    wr = (wr + 1) % 4;
  }
  STORE
}

// B's ring first, A's the last tile (its buffers counted from B's), the
// array of bytes cast to the tiles' type.
extern __shared__ __align__(16) unsigned char raw[];
// CHECK-LABEL: __global__ void bytes_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void bytes(ARGS) {
  __half *Bs = reinterpret_cast<__half *>(raw);
  __half *As = reinterpret_cast<__half *>(raw + 3 * 512 * sizeof(__half));
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s) {
    if (s < tiles) {
      COPY_ASYNC(s, s)
    }
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

// Pointers to buffers: rings `As[b][r][c]` of the buffers up to the next
// tile.
// CHECK-LABEL: __global__ void buffers_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void buffers(ARGS) {
  extern __shared__ __align__(16) __half raw_buffers[];
  auto As = reinterpret_cast<__half (*)[32][16]>(raw_buffers);
  __half (*Bs)[16][32] = reinterpret_cast<__half (*)[16][32]>(As + 3);
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
  const int tiles = K / 16;
  for (int s = 0; s < 2; ++s) {
    if (s < tiles) {
      __pipeline_memcpy_async(&As[s][tid / 2][tid % 2 * 8],
                              &A[(row0 + tid / 2) * K + s * 16 + tid % 2 * 8],
                              16);
      __pipeline_memcpy_async(&Bs[s][tid / 4][tid % 4 * 8],
                              &B[(s * 16 + tid / 4) * N + col0 + tid % 4 * 8],
                              16);
    }
    __pipeline_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(1);
    __syncthreads();
    const int f = t + 2, w = f % 3, r = t % 3;
    if (f < tiles) {
      __pipeline_memcpy_async(&As[w][tid / 2][tid % 2 * 8],
                              &A[(row0 + tid / 2) * K + f * 16 + tid % 2 * 8],
                              16);
      __pipeline_memcpy_async(&Bs[w][tid / 4][tid % 4 * 8],
                              &B[(f * 16 + tid / 4) * N + col0 + tid % 4 * 8],
                              16);
    }
    __pipeline_commit();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[r][ty * 4 + i][k]) *
                       __half2float(Bs[r][k][tx * 4 + j]);
  }
  STORE
}

// Pointers to rows: two-dimensional tiles, one buffer each.
// CHECK-LABEL: __global__ void rows_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void rows(ARGS) {
  extern __shared__ __align__(16) __half raw_rows[];
  __half (*As)[16] = reinterpret_cast<__half (*)[16]>(raw_rows);
  auto Bs = reinterpret_cast<__half (*)[32]>(As + 32);
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
#pragma tawa tile
  for (int t = 0; t < K / 16; ++t) {
    for (int i = 0; i < 8; ++i) {
      const int e = tid + i * 64;
      As[e / 16][e % 16] = A[(row0 + e / 16) * K + t * 16 + e % 16];
      Bs[e / 32][e % 32] = B[(t * 16 + e / 32) * N + col0 + e % 32];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[ty * 4 + i][k]) *
                       __half2float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  STORE
}
