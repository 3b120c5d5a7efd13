// Kernels that stage the next iteration's tiles ('next-tiles.cu') with one
// defect each, which would make the tiled form compute something else: each
// is refused at the statement that breaks the form, and the file is left
// exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}21{{$}}
#include <cuda_fp16.h>

// Double-buffered 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD                                                                   \
  __shared__ __half As[2][32][16];                                             \
  __shared__ __half Bs[2][16][32];                                             \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define COPY(BUF, T)                                                           \
  for (int i = 0; i < 8; ++i) {                                                \
    const int e = tid + i * 64;                                                \
    As[BUF][e / 16][e % 16] = A[(row0 + e / 16) * K + (T) * 16 + e % 16];      \
    Bs[BUF][e / 32][e % 32] = B[((T) * 16 + e / 32) * N + col0 + e % 32];      \
  }
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

// The prefetch skips the last two iterations' copies: iteration tiles - 1
// would read a buffer staged for tiles - 3.
__global__ void skips_two(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 2 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-8]]:9: note: expected the copies of the next iteration's tiles under the loop's condition one step on, 'if (t + step < bound)' or 'if (t < bound - step)' (for a tile counter also 'if (t + 1 != bound)', and 'if ((t + 1) * TILE < K)' up to ceil(K / TILE)), with the loop's own bound: they may be skipped in the last iteration only

// The code before the loop stages the second tiles.
__global__ void wrong_first(ARGS) {
  HEAD
  COPY(0, 1)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-14]]:3: note: the copies before the loop must stage what the loop's copies stage for its first iteration: element 0, 0 of 'As' differs

// The loop overwrites the buffer it reads.
__global__ void writes_current(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-7]]:7: note: the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads

// The product reads the buffer being staged.
__global__ void reads_next(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(1 - cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-5]]:5: note: the product must read buffer i % 2 of 'As' in iteration i, the one staged for it

// Fixed buffers: the loop stages buffer 1 and reads buffer 0.
__global__ void fixed_buffers(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(1, t + 1)
    }
    PRODUCT(0)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-7]]:12: note: expected the buffer of 'As' selected by the iteration: i % 2 (or i & 1) of iteration i, the one it reads, or (i + 1) % 2 (1 - cur, cur ^ 1, !cur), the one it stages for the next (i + c for i, of any constant c before '& 1' and of c >= 0 before '% 2'); a constant before the loop

// A buffer index toggled before the product, which then reads the buffer
// being staged (a toggle at the end of the body is 'blocked-toggles.cu').
__global__ void toggled_buffer(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
  int cur = 0;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    cur ^= 1;
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-8]]:12: note: expected the buffer of 'As'

// The product inside the prefetch's condition skips the last tiles.
__global__ void product_in_prefetch(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
      PRODUCT(cur)
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-6]]:7: note: a product under the prefetch's condition is skipped in the last iteration

// No barrier between the first tiles and the loop.
__global__ void no_first_barrier(ARGS) {
  HEAD
  COPY(0, 0)
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-10]]:3: note: the loop reads 'As' before its first barrier, and no barrier follows the copies of the first tiles before the loop

// No barrier at the end of the body, and the next tiles staged after the
// product's barrier: iteration i + 1 would read them while a slower warp
// still writes them.
__global__ void no_last_barrier(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    PRODUCT(cur)
    __syncthreads();
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-10]]:3: note: the loop body ends without '__syncthreads();', so its last part runs on into the next iteration's first with no barrier between, and 'As' is written in the last and read in the first

// No barrier in the loop body at all.
__global__ void no_barrier(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-3]]:3: note: expected a '__syncthreads();' in the loop body of a kernel that stages the next iteration's tiles

// The code before the loop stages buffer 1.
__global__ void first_into_one(ARGS) {
  HEAD
  COPY(1, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    PRODUCT(cur)
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-14]]:3: note: the copies before the loop must stage buffer 0 of 'As', which iteration 0 reads

// One buffer, registers loaded before the product and stored after it.
#define HEAD1                                                                  \
  __shared__ __half As[32][16];                                                \
  __shared__ __half Bs[16][32];                                                \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};                                                        \
  __half ra[8], rb[8];
#define LOAD(T)                                                                \
  for (int i = 0; i < 8; ++i) {                                                \
    const int e = tid + i * 64;                                                \
    ra[i] = A[(row0 + e / 16) * K + (T) + e % 16];                             \
    rb[i] = B[((T) + e / 32) * N + col0 + e % 32];                             \
  }
#define SAVE                                                                   \
  for (int i = 0; i < 8; ++i) {                                                \
    const int e = tid + i * 64;                                                \
    As[e / 16][e % 16] = ra[i];                                                \
    Bs[e / 32][e % 32] = rb[i];                                                \
  }
#define PRODUCT1                                                               \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[ty * 4 + i][k]) *                         \
                     __half2float(Bs[k][tx * 4 + j]);

// The registers are stored before the barrier that ends the product: a
// faster warp overwrites elements a slower one has still to read.
__global__ void stored_before_barrier(ARGS) {
  HEAD1
  LOAD(0)
  SAVE
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      LOAD(k0 + 16)
    }
    PRODUCT1
    if (k0 + 16 < K) {
      SAVE
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-12]]:3: note: the loop writes the next iteration's elements of 'As' before a barrier that follows its reads of the iteration's: stage into a second buffer, or put '__syncthreads();' between the product and the copies

// The registers are stored at the top of the next iteration: they hold
// what the iteration before loaded, which the follower does not carry.
__global__ void stored_next_iteration(ARGS) {
  HEAD1
  LOAD(0)
  SAVE
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 > 0) {
      SAVE
    }
    __syncthreads();
    PRODUCT1
    if (k0 + 16 < K) {
      LOAD(k0 + 16)
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-12]]:9: note: expected the copies of the next iteration's tiles under the loop's condition one step on

// The registers are reloaded with the current tiles, not the next ones.
__global__ void reloads_current(ARGS) {
  HEAD1
  LOAD(0)
  SAVE
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      LOAD(k0)
    }
    PRODUCT1
    __syncthreads();
    if (k0 + 16 < K) {
      SAVE
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-16]]:3: note: the copies before the loop must stage what the loop's copies stage for its first iteration: element 0, 0 of 'As' differs

// A register overwritten between its load and its copy into the tile.
__global__ void register_overwritten(ARGS) {
  HEAD1
  LOAD(0)
  SAVE
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      LOAD(k0 + 16)
    }
    ra[3] = __half();
    PRODUCT1
    __syncthreads();
    if (k0 + 16 < K) {
      SAVE
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-6]]:7: note: the register 'ra' does not hold a matrix element loaded in this iteration

// Accumulators copied as float4 into a C of 16-bit elements.
#define FETCH_FLOAT4(p) (*reinterpret_cast<float4 *>(&(p)))
__global__ void vector_store_other_type(const __half *A, const __half *B,
                                        __half *C, int M, int N, int K) {
  HEAD1
  LOAD(0)
  SAVE
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      LOAD(k0 + 16)
    }
    PRODUCT1
    __syncthreads();
    if (k0 + 16 < K) {
      SAVE
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    FETCH_FLOAT4(C[(row0 + ty * 4 + i) * N + col0 + tx * 4]) =
        FETCH_FLOAT4(acc[i][0]);
}
// CHECK: next-tiles-refusals.cu:[[@LINE-3]]:5: note: expected a vector of accumulators copied as it is into C of their type

// A loop-body local set under the prefetch's condition changes the product
// of the last iteration, which skips it.
__global__ void local_set_in_prefetch(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    int kk = 8;
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
      kk = 16;
    }
    for (int k = 0; k < kk; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[cur][ty * 4 + i][k]) *
                       __half2float(Bs[cur][k][tx * 4 + j]);
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-11]]:7: note: 'kk' is written under the prefetch's condition, which the last iteration skips: only the copies of the next tiles and the loads of the registers they copy may stand there

// A register cache of the product swapped back under the prefetch's
// condition: the last iteration multiplies the swapped one.
__global__ void register_set_in_prefetch(ARGS) {
  HEAD
  COPY(0, 0)
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    for (int k = 0; k < 16; ++k) {
      float ar[4], br[4];
      for (int i = 0; i < 4; ++i)
        ar[i] = __half2float(As[cur][ty * 4 + i][k]);
      for (int j = 0; j < 4; ++j)
        br[j] = __half2float(Bs[cur][k][tx * 4 + j]);
      const float keep = ar[0];
      ar[0] = ar[1];
      if (t + 1 < tiles)
        ar[0] = keep;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += ar[i] * br[j];
    }
    if (t + 1 < tiles) {
      COPY(cur ^ 1, t + 1)
    }
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-12]]:17: note: 'ar' is written under the prefetch's condition

// Padding that a constructor of the kernel's own type sets to 1, not 0.
struct One : __half {
  __device__ One() { x = 0x3c00; }
};
__global__ void padding_not_zero(ARGS) {
  __shared__ __half As[32][16];
  __shared__ __half Bs[16][32];
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[4][4] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = 0; i < 8; ++i) {
      const int e = tid + i * 64;
      const int ka = k0 + e % 16, kb = k0 + e / 32;
      As[e / 16][e % 16] =
          row0 + e / 16 < M && ka < K ? A[(row0 + e / 16) * K + ka] : One();
      Bs[e / 32][e % 32] =
          kb < K && col0 + e % 32 < N ? B[kb * N + col0 + e % 32] : One();
    }
    __syncthreads();
    PRODUCT1
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
// CHECK: next-tiles-refusals.cu:[[@LINE-15]]:71: note: elements outside the matrix must read as 0

// Register vectors that convert their value: an int read as a float's
// value into registers, a float's value stored into C as an int.
#define VHEAD                                                                  \
  __shared__ __half As[32][16];                                                \
  __shared__ __half Bs[16][32];                                                \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};                                                        \
  __half ra[8], rb[8];
#define VSTAGE                                                                 \
  *reinterpret_cast<float4 *>(&rb[0]) = *reinterpret_cast<const float4 *>(    \
      &B[(k0 + tid / 4) * N + col0 + (tid % 4) * 8]);                          \
  *reinterpret_cast<float4 *>(&As[tid / 2][(tid % 2) * 8]) =                   \
      *reinterpret_cast<float4 *>(&ra[0]);                                     \
  *reinterpret_cast<float4 *>(&Bs[tid / 4][(tid % 4) * 8]) =                   \
      *reinterpret_cast<float4 *>(&rb[0]);                                     \
  __syncthreads();
__global__ void converting_load(ARGS) {
  VHEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int q = 0; q < 4; ++q)
      *reinterpret_cast<float *>(&ra[2 * q]) = *reinterpret_cast<const int *>(
          &A[(row0 + tid / 2) * K + k0 + (tid % 2) * 8 + 2 * q]);
    VSTAGE
    PRODUCT1
    __syncthreads();
  }
  STORE
}
// CHECK: next-tiles-refusals.cu:[[@LINE-8]]:7: note: expected registers loaded with a vector of consecutive elements of a matrix of their type

__global__ void converting_store(ARGS) {
  VHEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    *reinterpret_cast<float4 *>(&ra[0]) = *reinterpret_cast<const float4 *>(
        &A[(row0 + tid / 2) * K + k0 + (tid % 2) * 8]);
    VSTAGE
    PRODUCT1
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      *reinterpret_cast<int *>(&C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j]) =
          *reinterpret_cast<float *>(&acc[i][j]);
}
// CHECK: next-tiles-refusals.cu:[[@LINE-3]]:7: note: expected after the loop the stores
