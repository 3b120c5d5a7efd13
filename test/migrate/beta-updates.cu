// A beta term added under a test of beta, as BLAS-style kernels write it
// so that C is not read where beta is 0: 'if (beta != 0.0f) v += beta *
// C[i];' of a float local declared just before, or of the accumulator.
// The value then reads as the choice on beta that 'beta == 0 ? x : x +
// beta * C[i]' makes. Refused: the term added where beta is 0, a term that
// reads the local itself, and a local changed elsewhere. (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include <cuda_bf16.h>

#define TILE 16
using bf16 = __nv_bfloat16;
#define BODY                                                                   \
  __shared__ bf16 As[TILE][TILE];                                              \
  __shared__ bf16 Bs[TILE][TILE];                                              \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;              \
  float acc = 0.0f;
#define LOOP                                                                   \
  for (int t = 0; t < K; t += TILE) {                                          \
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();         \
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();       \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);        \
    __syncthreads();                                                           \
  }

// addmm: a bias, alpha, and beta * C added to a local where beta is not 0.
// CHECK-LABEL: /// 'addmm' in the tile vocabulary: C = alpha * A * B + a bias per column + beta
// CHECK-NEXT:  /// * C (C not read where beta is 0)
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f ? alpha * acc + tawa::load<1, 256>(bias, 0, n0)
// CHECK-NEXT:                          : alpha * acc + tawa::load<1, 256>(bias, 0, n0) +
// CHECK-NEXT:                                beta * tawa::load<128, 256>(C, m0, n0));
__global__ void addmm(const bf16 *A, const bf16 *B, const float *bias,
                      float *C, int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = alpha * acc + bias[col];
    if (beta != 0.0f)
      v += beta * C[row * N + col];
    C[row * N + col] = v;
  }
}

// The accumulator scaled, then beta * C added to it unless beta is 0
// (the test written the other way round).
// CHECK-LABEL: /// 'scaled_acc' in the tile vocabulary: C = alpha * A * B + beta * C (C not
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void scaled_acc(const bf16 *A, const bf16 *B, float *C, int M,
                           int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    acc *= alpha;
    if (0.0f != beta)
      acc += beta * C[row * N + col];
    C[row * N + col] = acc;
  }
}

// The term added where beta IS 0: the kernel reads C exactly where the
// choice on beta must not.
// DIAG: beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void inverted(const bf16 *A, const bf16 *B, float *C, int M, int N,
                         int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = alpha * acc;
    if (beta == 0.0f)
      v += beta * C[row * N + col];
    C[row * N + col] = v;
  }
}

// The added term reads the local itself.
// DIAG: beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void self_term(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = alpha * acc;
    if (beta != 0.0f)
      v += beta * v;
    C[row * N + col] = v;
  }
}

// The local changed again after the update on beta.
// DIAG: beta-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void changed_again(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = alpha * acc;
    if (beta != 0.0f)
      v += beta * C[row * N + col];
    v *= 2.0f;
    C[row * N + col] = v;
  }
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-3: warning: this loop does not match a liftable pattern

void launch(const bf16 *A, const bf16 *B, const float *bias, float *C, int M,
            int N, int K) {
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), block(TILE, TILE);
  addmm<<<grid, block>>>(A, B, bias, C, M, N, K, 1.5f, 0.5f);
  scaled_acc<<<grid, block>>>(A, B, C, M, N, K, 1.5f, 0.5f);
  inverted<<<grid, block>>>(A, B, C, M, N, K, 1.5f, 0.5f);
  self_term<<<grid, block>>>(A, B, C, M, N, K, 1.5f, 0.5f);
  changed_again<<<grid, block>>>(A, B, C, M, N, K, 1.5f, 0.5f);
}
