// BLAS's beta convention: where beta is 0 the kernel stores the value
// without 'beta * C[i]' and reads no element of C (C may hold NaN). The
// choice, written as an if/else of two stores or as a conditional, on
// 'beta == 0', 'beta != 0', '0.0f == beta' or '!beta', becomes a conditional
// in the tiled form's store, whose untaken value is never read; the
// warp-specialized epilogue evaluates the same conditional per element.
// Refused, at the store: a branch storing another element, a value where
// beta is 0 that is not the other without its beta term, and a test of
// another scale. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_bf16.h>

#define TILE 32
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

// CHECK-LABEL: /// 'if_else' in the tile vocabulary: C = alpha * A * B + beta * C (C not read
// CHECK-NEXT:  /// where beta is 0)
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:             beta == 0.0f
// CHECK-NEXT:                 ? alpha * acc
// CHECK-NEXT:                 : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// WS-LABEL: if_else_tiled, warp-specialized by tawa-rewrite
// WS:      return (beta == 0.0f)
// WS-NEXT:            ? alpha * tawa_acc
// WS-NEXT:            : alpha * tawa_acc + beta * tawa::rt::epilogue_element(
// WS-NEXT:                                            C, tawa_row, tawa_col);
__global__ void if_else(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                        float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    if (beta == 0.0f)
      C[row * N + col] = alpha * acc;
    else
      C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

// The test inverted, the branches swapped, a bias per column in both.
// CHECK-LABEL: /// 'not_zero_bias' in the tile vocabulary: C = alpha * A * B + beta * C + a
// CHECK-NEXT:  /// bias per column (C not read where beta is 0)
// CHECK:      beta == 0.0f
// CHECK-NEXT:     ? alpha * acc + tawa::load<1, 256>(bias, 0, n0)
// CHECK-NEXT:     : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0) +
// CHECK-NEXT:           tawa::load<1, 256>(bias, 0, n0));
// WS-LABEL: not_zero_bias_tiled, warp-specialized by tawa-rewrite
// The bias is read per element where chosen, not ahead into an array.
// WS:      const auto tawa_operands = tawa::rt::no_epilogue_operands(acc);
// WS:      tawa::rt::apply_epilogue(
__global__ void not_zero_bias(const bf16 *A, const bf16 *B, const float *bias, bf16 *C,
                              int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    if (beta != 0)
      C[row * N + col] = __float2bfloat16_rn(alpha * acc + beta * __bfloat162float(C[row * N + col]) + bias[col]);
    else
      C[row * N + col] = __float2bfloat16_rn(alpha * acc + bias[col]);
  }
}

// A conditional, the test '0.0f == beta', the scale a separate C input.
// CHECK-LABEL: /// 'conditional' in the tile vocabulary: C = alpha * A * B + beta * Cin (C's
// CHECK-NEXT:  /// input) (Cin not read where beta is 0)
// CHECK:      beta == 0.0f
// CHECK-NEXT:     ? alpha * acc
// CHECK-NEXT:     : alpha * acc + beta * tawa::load<128, 256>(Cin, m0, n0));
__global__ void conditional(const bf16 *A, const bf16 *B, const float *Cin, float *C, int M,
                            int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.0f == beta ? alpha * acc : alpha * acc + beta * Cin[row * N + col];
}

// '!beta', no bounds checks.
// CHECK-LABEL: /// 'not_beta' in the tile vocabulary: C = A * B + beta * C (C not read where
// CHECK:      beta == 0.0f ? acc
// CHECK-NEXT: : acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void not_beta(const bf16 *A, const bf16 *B, float *C, int N, int K, float beta) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (!beta)
    C[row * N + col] = acc;
  else
    C[row * N + col] = acc + beta * C[row * N + col];
}

// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+10]] breaks it: expected a choice of the stored value on beta, 'beta == 0 ? alpha * acc : alpha * acc + beta * C[index]' (or an if/else storing the two), beta a float parameter, the value chosen where beta is not 0 the other plus 'beta * C[index]', both of the same accumulator [tawa-unsupported]
__global__ void zero_has_bias(const bf16 *A, const bf16 *B, const float *bias, float *C,
                              int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    if (beta == 0.0f)
      C[row * N + col] = alpha * acc + bias[col];
    else
      C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+10]] breaks it: expected a choice of the stored value on beta
__global__ void tests_alpha(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                            float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    if (alpha == 0.0f)
      C[row * N + col] = acc;
    else
      C[row * N + col] = acc + beta * C[row * N + col];
  }
}

// Another element stored in one branch: not a choice of value.
// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+7]] breaks it: expected one store after the loop
__global__ void other_element(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                              float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    if (beta == 0.0f)
      C[row * N + col + 1] = alpha * acc;
    else
      C[row * N + col] = alpha * acc + beta * C[row * N + col];
  }
}

#define BLK 64
#define BKK 16
#define RPT 4
#define BLOCKED_BODY                                                           \
  __shared__ bf16 As[BKK][BLK];                                                \
  __shared__ bf16 Bs[BKK][BLK];                                                \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int tid = ty * 16 + tx;                                                \
  const int rowBase = blockIdx.y * BLK, colBase = blockIdx.x * BLK;           \
  float acc[RPT][RPT];                                                         \
  for (int i = 0; i < RPT; ++i)                                                \
    for (int j = 0; j < RPT; ++j)                                              \
      acc[i][j] = 0.0f;
#define BLOCKED_LOOP                                                           \
  for (int k0 = 0; k0 < K; k0 += BKK) {                                        \
    for (int e = tid; e < BLK * BKK; e += 256) {                               \
      int m = e / BKK, kk = e % BKK;                                           \
      As[kk][m] = (rowBase + m < M && k0 + kk < K) ? A[(rowBase + m) * K + k0 + kk] : bf16(); \
    }                                                                          \
    for (int e = tid; e < BKK * BLK; e += 256) {                               \
      int kk = e / BLK, n = e % BLK;                                           \
      Bs[kk][n] = (k0 + kk < K && colBase + n < N) ? B[(k0 + kk) * N + colBase + n] : bf16(); \
    }                                                                          \
    __syncthreads();                                                           \
    for (int kk = 0; kk < BKK; ++kk)                                           \
      for (int i = 0; i < RPT; ++i)                                            \
        for (int j = 0; j < RPT; ++j)                                          \
          acc[i][j] += __bfloat162float(As[kk][ty + i * 16]) *                 \
                       __bfloat162float(Bs[kk][tx + j * 16]);                  \
    __syncthreads();                                                           \
  }

// Register-blocked: the choice per element inside the micro-tile loops (here
// a conditional), or the whole store loops in each branch.
// CHECK-LABEL: /// 'blocked_ternary' in the tile vocabulary: C = alpha * A * B + beta * C (C
// CHECK:      beta == 0.0f
// CHECK-NEXT:     ? alpha * acc
// CHECK-NEXT:     : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void blocked_ternary(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                                float alpha, float beta) {
  BLOCKED_BODY
#pragma tawa tile
  BLOCKED_LOOP
  for (int i = 0; i < RPT; ++i)
    for (int j = 0; j < RPT; ++j) {
      int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
      if (r < M && c < N)
        C[r * N + c] = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * C[r * N + c];
    }
}

// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+11]] breaks it: expected the two branches of 'if (beta == 0)' to store the same elements of C from the same accumulators under the same bounds checks, the value where beta is not 0 the other plus 'beta * C[index]' (matched furthest as a block of 16 x 16 threads) [tawa-unsupported]
__global__ void blocked_other_acc(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                                  float alpha, float beta) {
  BLOCKED_BODY
#pragma tawa tile
  BLOCKED_LOOP
  for (int i = 0; i < RPT; ++i)
    for (int j = 0; j < RPT; ++j) {
      int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
      if (r < M && c < N) {
        if (beta == 0.0f)
          C[r * N + c] = alpha * acc[j][i];
        else
          C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
      }
    }
}

// CHECK-LABEL: /// 'blocked_outside' in the tile vocabulary: C = alpha * A * B + beta * C (C
// CHECK:      beta == 0.0f
// CHECK-NEXT:     ? alpha * acc
// CHECK-NEXT:     : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void blocked_outside(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                                float alpha, float beta) {
  BLOCKED_BODY
#pragma tawa tile
  BLOCKED_LOOP
  if (beta == 0.0f) {
    for (int i = 0; i < RPT; ++i)
      for (int j = 0; j < RPT; ++j) {
        int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
        if (r < M && c < N) C[r * N + c] = alpha * acc[i][j];
      }
  } else {
    for (int i = 0; i < RPT; ++i)
      for (int j = 0; j < RPT; ++j) {
        int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
        if (r < M && c < N) C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
      }
  }
}

// A branch that changes a variable the other branch (or the code after the
// 'if') reads: only stores into C may stand in the branches.
// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+13]] breaks it: the branches of 'if (beta == 0)' may only store into C: this changes a variable declared before the 'if' (or calls a function), which the code after it would see changed in one branch only (matched furthest as a block of 16 x 16 threads) [tawa-unsupported]
__global__ void carry(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                      float alpha, float beta) {
  BLOCKED_BODY
#pragma tawa tile
  BLOCKED_LOOP
  int sh = 1;
  if (beta == 0.0f) {
    for (int i = 0; i < RPT; ++i)
      for (int j = 0; j < RPT; ++j) {
        int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
        if (r < M && c < N) C[r * N + c] = alpha * acc[i][j];
      }
    sh = 0;
  } else {
    for (int i = 0; i < RPT; ++i)
      for (int j = 0; j < RPT; ++j) {
        int r = rowBase + ty + i * 16, c = colBase + tx + ((j + sh) & 3) * 16;
        if (r < M && c < N) C[r * N + c] = alpha * acc[i][j] + beta * C[r * N + c];
      }
  }
}
// The value where beta is 0 reads another accumulator element.
// DIAG: beta-zero.cu:[[@LINE+5]]:3: warning: this loop {{.*}} the statement at line [[@LINE+10]] breaks it: expected a choice of the stored value on beta, {{.*}}, both of the same accumulator (matched furthest as a block of 16 x 16 threads) [tawa-unsupported]
__global__ void tern(const bf16 *A, const bf16 *B, float *C, int M, int N, int K,
                      float alpha, float beta) {
  BLOCKED_BODY
#pragma tawa tile
  BLOCKED_LOOP
  for (int i = 0; i < RPT; ++i)
    for (int j = 0; j < RPT; ++j) {
      int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
      if (r < M && c < N)
        C[r * N + c] = beta != 0.0f ? alpha * acc[i][j] + beta * C[r * N + c] : alpha * acc[0][0];
    }
}

// The refused kernels stay as written, their pragmas refused again.
// DIAG2-COUNT-6: warning: this loop does not match a liftable pattern
