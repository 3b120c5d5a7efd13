// Near misses of the cuda::pipeline forms 'cuda-pipeline.cu' lifts, each of
// which would make the tiled form compute something else (or which the
// front end cannot prove): each is refused at the statement that breaks the
// form, and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}13{{$}}
#include "Inputs/pipeline-ring.h"
#include <cuda_pipeline.h>

// Two commits in each iteration and one wait: each iteration waits for one
// group fewer than it commits, and the copies of later tiles are in flight
// when they are read.
// CHECK: warning: {{.*}}this asynchronous copy, made 2 iterations ahead
__global__ void two_commits(ARGS) {
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
    pipe.producer_commit();
    PRODUCT(t % STAGES)
    pipe.consumer_release();
  }
  STORE
}


// The prefetch committed by the pipeline primitive, which the pipeline does
// not count.
// CHECK: warning: {{.*}}both through a cuda::pipeline and through the pipeline primitives
__global__ void primitive_commit(ARGS) {
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
    __pipeline_commit();
    PRODUCT(t % STAGES)
    pipe.consumer_release();
  }
  STORE
}


// No wait: the tiles are read while their copies are in flight.
// CHECK: warning: {{.*}}this asynchronous copy, made 2 iterations ahead
__global__ void no_wait(ARGS) {
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


// The wait after the barrier: other threads read the tiles before the copies
// of this thread are complete.
// CHECK: warning: {{.*}}this asynchronous copy, made 2 iterations ahead
__global__ void wait_after_barrier(ARGS) {
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
    __syncthreads();
    pipe.consumer_wait();
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


// A wait for all groups but the two most recent, which leaves tile i's in
// flight.
// CHECK: warning: {{.*}}through the cuda::pipeline, 'pipe.producer_commit();' commits
__global__ void wait_prior_two(ARGS) {
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
    cuda::pipeline_consumer_wait_prior<2>(pipe);
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


// Commits under the prefetch's condition and a wait for all but one group:
// in the last iteration, which skips the commit, that leaves tile i's group
// in flight.
// CHECK: warning: {{.*}}this wait follows a commit under the prefetch's condition
__global__ void conditional_wait_prior(ARGS) {
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
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    __syncthreads();
    const int f = t + STAGES - 1;
    pipe.producer_acquire();
    if (f < tiles) {
      COPY_ASYNC(f % STAGES, f, SIZE16)
      pipe.producer_commit();
    }
    PRODUCT(t % STAGES)
    pipe.consumer_release();
  }
  STORE
}


// A pipeline of block scope, made from a group and a shared state.
// CHECK: warning: {{.*}}the cuda::pipeline 'pipe' is not of thread scope
__global__ void block_scope(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 3> state;
  auto pipe = cuda::make_pipeline(0, &state);
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


// Two pipelines, whose groups are the same cp.async groups of the thread.
// CHECK: warning: {{.*}}expected one cuda::pipeline of thread scope
__global__ void two_pipelines(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  auto pipe = cuda::make_pipeline();
  auto other = cuda::make_pipeline();
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


// Copies of 8 bytes: half of each row of 16 elements is staged.
// CHECK: warning: {{.*}}that no staging copy
__global__ void eight_bytes(ARGS) {
  constexpr int STAGES = 3;
  HEAD(STAGES)
  const int tiles = K / 16;
  auto pipe = cuda::make_pipeline();
  for (int s = 0; s < STAGES - 1; ++s) {
    pipe.producer_acquire();
    if (s < tiles) {
      COPY_ASYNC(s, s, 8)
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
      COPY_ASYNC(f % STAGES, f, 8)
    }
    pipe.producer_commit();
    PRODUCT(t % STAGES)
    pipe.consumer_release();
  }
  STORE
}

// One buffer of 32 x 16 (A) and 16 x 32 (B) elements, each 16-byte chunk
// copied under a bounds check whose else stores zeros, then committed,
// waited for and multiplied.
#define ONE_BUFFER_HEAD                                                        \
  __shared__ __align__(16) __half As[32][16];                                  \
  __shared__ __align__(16) __half Bs[16][32];                                  \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  const int ar = tid / 2, ac = tid % 2 * 8, br = tid / 4, bc = tid % 4 * 8;    \
  float acc[4][4] = {};
#define ONE_BUFFER_PRODUCT                                                     \
  __pipeline_commit();                                                         \
  __pipeline_wait_prior(0);                                                    \
  __syncthreads();                                                             \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[ty * 4 + i][k]) *                         \
                     __half2float(Bs[k][tx * 4 + j]);                          \
  __syncthreads();
#define ONE_BUFFER_STORE                                                       \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)                                                \
      if (row0 + ty * 4 + i < M && col0 + tx * 4 + j < N)                      \
        C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
#define COPY_A(ZEROS)                                                          \
  if (row0 + ar < M && k0 + ac < K)                                            \
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);   \
  else                                                                         \
    ZEROS;
#define COPY_B(ZEROS)                                                          \
  if (k0 + br < K && col0 + bc < N)                                            \
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);   \
  else                                                                         \
    ZEROS;
#define ZEROS_A *reinterpret_cast<float4 *>(&As[ar][ac]) = make_float4(0, 0, 0, 0)
#define ZEROS_B *reinterpret_cast<float4 *>(&Bs[br][bc]) = float4{}

// Eight bytes of zeros where the copy fails, for a copy of 16: half of the
// elements keep what the buffer held.
// CHECK: warning: {{.*}}expected 'if (ok) <an asynchronous copy of 16 bytes
__global__ void zeros_half_the_copy(ARGS) {
  ONE_BUFFER_HEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    COPY_A(*reinterpret_cast<float2 *>(&As[ar][ac]) = make_float2(0, 0))
    COPY_B(ZEROS_B)
    ONE_BUFFER_PRODUCT
  }
  ONE_BUFFER_STORE
}

// The zeros stored at another element than the copy's.
// CHECK: warning: {{.*}}expected 'if (ok) <an asynchronous copy of 16 bytes
__global__ void zeros_elsewhere(ARGS) {
  ONE_BUFFER_HEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    COPY_A(*reinterpret_cast<float4 *>(&As[ar][(ac + 8) % 16]) =
               make_float4(0, 0, 0, 0))
    COPY_B(ZEROS_B)
    ONE_BUFFER_PRODUCT
  }
  ONE_BUFFER_STORE
}

// The copy where the check fails and the zeros where it holds.
// CHECK: warning: {{.*}}expected 'if (ok) <an asynchronous copy of 16 bytes
__global__ void copy_where_outside(ARGS) {
  ONE_BUFFER_HEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (row0 + ar >= M || k0 + ac >= K)
      __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    else
      ZEROS_A;
    COPY_B(ZEROS_B)
    ONE_BUFFER_PRODUCT
  }
  ONE_BUFFER_STORE
}

// Ones, not zeros, where the copy fails.
// CHECK: warning: {{.*}}expected 'if (ok) <an asynchronous copy of 16 bytes
__global__ void zeros_not_zero(ARGS) {
  ONE_BUFFER_HEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    COPY_A(ZEROS_A)
    COPY_B(*reinterpret_cast<float4 *>(&Bs[br][bc]) = make_float4(1, 1, 1, 1))
    ONE_BUFFER_PRODUCT
  }
  ONE_BUFFER_STORE
}
