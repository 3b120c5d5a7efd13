// '#pragma unroll' beside '#pragma tawa tile', in either order, leaves the
// K loop lifted and the hint in the kernel as written; --suggest proposes
// the pragma for a loop under a hint. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: sed 's/^#pragma tawa tile$//' %s > %t.bare.cu
// RUN: %tawa-rewrite %t.bare.cu --suggest -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=SUGGEST
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=FIXED
#include <cuda_fp16.h>
#define TILE 16

#define BODY                                                                   \
  {                                                                            \
    As[threadIdx.y][threadIdx.x] =                                             \
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x]          \
                                       : __half();                             \
    Bs[threadIdx.y][threadIdx.x] =                                             \
        col < N && t + threadIdx.y < K ? B[(t + threadIdx.y) * N + col]        \
                                       : __half();                             \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      v += __half2float(As[threadIdx.y][k]) *                                  \
           __half2float(Bs[k][threadIdx.x]);                                   \
    __syncthreads();                                                           \
  }
#define PROLOGUE                                                               \
  __shared__ __half As[TILE][TILE];                                            \
  __shared__ __half Bs[TILE][TILE];                                            \
  int row = blockIdx.y * TILE + threadIdx.y;                                   \
  int col = blockIdx.x * TILE + threadIdx.x;                                   \
  float v = 0;

// CHECK-LABEL: __global__ void hint_after(
// CHECK-NOT: #pragma tawa
// CHECK: #pragma unroll 2
// CHECK-NEXT: for (int t = 0; t < K; t += TILE)
// SUGGEST: bare.cu:[[@LINE+9]]:3: warning: this loop of kernel 'hint_after' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts
// FIXED-LABEL: __global__ void hint_after(
// FIXED: #pragma unroll 2
// FIXED-NEXT: #pragma tawa tile
// FIXED-NEXT: for (int t = 0; t < K; t += TILE)
__global__ void hint_after(const __half *A, const __half *B, float *C, int M, int N, int K) {
  PROLOGUE
#pragma tawa tile
#pragma unroll 2
  for (int t = 0; t < K; t += TILE) BODY
  if (row < M && col < N)
    C[row * N + col] = v;
}
// CHECK: __global__ void hint_after_tiled(

// CHECK-LABEL: __global__ void hint_before(
// CHECK-NOT: #pragma tawa
// CHECK: #pragma unroll
// CHECK-NEXT: for (int t = 0; t < K; t += TILE)
__global__ void hint_before(const __half *A, const __half *B, float *C, int M, int N, int K) {
  PROLOGUE
#pragma unroll
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) BODY
  if (row < M && col < N)
    C[row * N + col] = v;
}
// CHECK: __global__ void hint_before_tiled(

void run(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 b(TILE, TILE), g((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hint_after<<<g, b>>>(A, B, C, M, N, K);
  hint_before<<<g, b>>>(A, B, C, M, N, K);
}
// CHECK-LABEL: void run(
// CHECK: hint_after_migrated_launch(g, b, 0, 0, A, B, C, M, N, K);
// CHECK: hint_before_migrated_launch(g, b, 0, 0, A, B, C, M, N, K);
