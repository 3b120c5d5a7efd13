// A `do` that may run more than once, or whose body can leave it with
// `break` or `continue`, is not the body written in place: such loops are
// refused with a located verdict, and the file is left byte-identical.
// RUN: cp %s %t.cu
// RUN: %tawa-rewrite %t.cu --migrate -i -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

#define TILE 16
using bf16 = __nv_bfloat16;

// `break` leaves the `do` before the copy of B: not the body in place.
#define STAGE_BOTH(r, c)                                                       \
  do {                                                                         \
    As[threadIdx.y][threadIdx.x] = (r) < M && t + threadIdx.x < K              \
                                       ? A[(r) * K + t + threadIdx.x]          \
                                       : bf16();                               \
    if (M == 0)                                                                \
      break;                                                                   \
    Bs[threadIdx.y][threadIdx.x] = t + threadIdx.y < K && (c) < N              \
                                       ? B[(t + threadIdx.y) * N + (c)]        \
                                       : bf16();                               \
  } while (0)

__global__ void early_break(const bf16 *A, const bf16 *B, float *C, int M,
                            int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: statement-macros-refusals.cu{{.*}}:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern
  for (int t = 0; t < K; t += TILE) {
    STAGE_BOTH(row, col);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// `while (again)`: the copy may run more than once.
__global__ void repeated(const bf16 *A, const bf16 *B, float *C, int M, int N,
                         int K, bool again) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: statement-macros-refusals.cu{{.*}}:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern
  for (int t = 0; t < K; t += TILE) {
    do {
      As[threadIdx.y][threadIdx.x] =
          row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : bf16();
    } while (again);
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// `continue` in the barrier macro leaves the `do` before the barrier.
#define SYNC_UNLESS(skip)                                                      \
  do {                                                                         \
    if (skip)                                                                  \
      continue;                                                                \
    __syncthreads();                                                           \
  } while (0)
__global__ void skipped_barrier(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: statement-macros-refusals.cu{{.*}}:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    SYNC_UNLESS(M == 0);
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
