// Float locals of the epilogue updated before the store ('v = fmaxf(v,
// 0.0f);', 'v *= alpha;', 'v += beta * C[i];'): each use of a local reads
// the value the statements before its own left it, so the store reads the
// last and an update reads the one before (`v = v > 0 ? v : s * v`). In
// the register-blocked front end the update must be in the block that
// declares the local, so that the stores after it run under the same
// checks. Refused: an update under a condition, and in the blocked front
// end an update in another block than the declaration. (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
#include "Inputs/blocked-64.h"

#define TILE 16
#define ONE_BODY                                                               \
  __shared__ bf16 As1[TILE][TILE];                                             \
  __shared__ bf16 Bs1[TILE][TILE];                                             \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;              \
  float sum = 0.0f;
#define ONE_LOOP                                                               \
  for (int t = 0; t < K; t += TILE) {                                          \
    As1[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();        \
    Bs1[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();      \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      sum += __bfloat162float(As1[ty][k]) * __bfloat162float(Bs1[k][tx]);      \
    __syncthreads();                                                           \
  }

// ReLU applied to the local in place.
// CHECK-LABEL: /// 'relu_in_place' in the tile vocabulary: C = max(alpha * A * B + a bias per
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             tawa::relu(alpha * acc + tawa::load<1, 256>(bias, 0, n0)));
__global__ void relu_in_place(const bf16 *A, const bf16 *B, const float *bias,
                              bf16 *C, int M, int N, int K, float alpha) {
  ONE_BODY
#pragma tawa tile
  ONE_LOOP
  if (row < M && col < N) {
    float v = alpha * sum + bias[col];
    v = fmaxf(v, 0.0f);
    C[row * N + col] = __float2bfloat16_rn(v);
  }
}

// Compound updates, the declaration outside the bounds check.
// CHECK-LABEL: /// 'scaled_steps' in the tile vocabulary: C = alpha * A * B + beta * C
// CHECK:      tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void scaled_steps(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  ONE_BODY
#pragma tawa tile
  ONE_LOOP
  float v = sum;
  if (row < M && col < N) {
    v *= alpha;
    v += beta * C[row * N + col];
    C[row * N + col] = v;
  }
}

// LeakyReLU of the local, reading the value before the update.
// CHECK-LABEL: /// 'leaky_in_place' in the tile vocabulary: C = leaky_relu(A * B + a bias per
// CHECK:      tawa::leaky_relu(acc + tawa::load<128, 1>(bias, m0, 0), slope));
__global__ void leaky_in_place(const bf16 *A, const bf16 *B, const float *bias,
                               float *C, int M, int N, int K, float slope) {
  ONE_BODY
#pragma tawa tile
  ONE_LOOP
  if (row < M && col < N) {
    float v = sum + bias[row];
    v = v > 0.0f ? v : slope * v;
    C[row * N + col] = v;
  }
}

// The register-blocked front end: each element's local updated in place.
// CHECK-LABEL: /// 'blocked_relu' in the tile vocabulary: C = max(alpha * A * B, 0)
// CHECK:      tawa::store(C, m0, n0, tawa::relu(alpha * acc));
__global__ void blocked_relu(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    AT {
      float v = alpha * acc[i][j];
      v = fmaxf(v, 0.0f);
      C[r * N + c] = v;
    }
  }
}

// Refused: the update under a condition, which the store after it does
// not share.
// DIAG: epilogue-local-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void conditional(const bf16 *A, const bf16 *B, float *C, int M,
                            int N, int K) {
  ONE_BODY
#pragma tawa tile
  ONE_LOOP
  if (row < M && col < N) {
    float v = sum;
    if (v < 0.0f)
      v = 0.0f;
    C[row * N + col] = v;
  }
}
// DIAG: note: kernel 'conditional' is left unchanged

// Refused: in the register-blocked front end, the update in the block of
// the bounds check, the local declared outside it.
// DIAG: epilogue-local-updates.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void blocked_other_block(const bf16 *A, const bf16 *B, float *C,
                                    int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  EACH {
    const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
    float v = acc[i][j];
    if (r < M && c < N) {
      v = fmaxf(v, 0.0f);
      C[r * N + c] = v;
    }
  }
}
// DIAG: note: kernel 'blocked_other_block' is left unchanged

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-2: warning: this loop does not match a liftable pattern
