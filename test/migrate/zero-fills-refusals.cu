// Zero stores and checked copies that are not one copy filled with zeros
// (zero-fills.cu): the zero stored after the copy (it wins), the copy into
// another element than the zero, and an index changed between the two.
// Each is refused and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}3{{$}}
#include <cuda_fp16.h>

#define TILE 16

#define CLASSIC_HEAD                                                           \
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];                            \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;        \
  float acc = 0.0f;
#define CLASSIC_TAIL                                                           \
  __syncthreads();                                                             \
  for (int k = 0; k < TILE; ++k)                                               \
    acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);                  \
  __syncthreads();                                                             \
  }                                                                            \
  if (row < M && col < N)                                                      \
    C[row * N + col] = acc;

// CHECK: :[[@LINE+8]]:5: note: expected a staging copy
__global__ void zero_after_copy(const __half *A, const __half *B, float *C,
                                int M, int N, int K) {
  CLASSIC_HEAD
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    if (row < M && t + tx < K)
      As[ty][tx] = A[row * K + t + tx];
    As[ty][tx] = __half();
    Bs[ty][tx] = __half();
    if (t + ty < K && col < N)
      Bs[ty][tx] = B[(t + ty) * N + col];
  CLASSIC_TAIL
}

// CHECK: :[[@LINE+6]]:5: note: expected a staging copy
__global__ void zero_elsewhere(const __half *A, const __half *B, float *C,
                               int M, int N, int K) {
  CLASSIC_HEAD
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[tx][ty] = __half();
    if (row < M && t + tx < K)
      As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = __half();
    if (t + ty < K && col < N)
      Bs[ty][tx] = B[(t + ty) * N + col];
  CLASSIC_TAIL
}

#define BLOCKED_HEAD                                                           \
  __shared__ __half As[64][16];                                                \
  __shared__ __half Bs[16][64];                                                \
  const int tid = threadIdx.x;                                                 \
  const int tr = tid / 16, tc = tid % 16;                                      \
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;                        \
  float acc[4][4] = {};
#define BLOCKED_B                                                              \
  for (int i = tid; i < 16 * 64; i += 256) {                                   \
    const int r = i / 64, c = i % 64;                                          \
    Bs[r][c] = k0 + r < K && n0 + c < N ? B[(k0 + r) * N + n0 + c]             \
                                        : __half();                            \
  }
#define BLOCKED_TAIL                                                           \
  __syncthreads();                                                             \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[tr * 4 + i][k]) *                         \
                     __half2float(Bs[k][tc * 4 + j]);                          \
  __syncthreads();                                                             \
  }                                                                            \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j) {                                              \
      const int r = m0 + tr * 4 + i, c = n0 + tc * 4 + j;                      \
      if (r < M && c < N)                                                      \
        C[r * N + c] = acc[i][j];                                              \
    }

// The column index moves between the zero and the copy: the zero stays in
// element c - 1.
// CHECK: :[[@LINE+9]]:7: note: expected, before the first barrier, staging copies
__global__ void index_changed_between(const __half *A, const __half *B,
                                      float *C, int M, int N, int K) {
  BLOCKED_HEAD
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = tid; i < 64 * 16; i += 256) {
      const int r = i / 16;
      int c = i % 16 - 1;
      As[r][c + 1] = __half();
      c += 1;
      if (m0 + r < M && k0 + c < K)
        As[r][c] = A[(m0 + r) * K + k0 + c];
    }
    BLOCKED_B
  BLOCKED_TAIL
}
