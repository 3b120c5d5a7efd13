// An optional bias, read only where its pointer is not null and 0 where it
// is (`bias != nullptr ? bias[col] : 0.0f`, also `bias ? ...`, `!bias ? 0 :
// ...`, through a local): the tiled form stores `bias.data != nullptr ?
// <the value with tawa::load<...>(bias, ...)> : <the value without it>`,
// which reads no element of the bias where the pointer is null. A test of another pointer,
// another value where it is null, or a bias read where it is null are
// refused at the store. (The outputs are checked without this file's own
// check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>/dev/null; test -f %t2.cu
// RUN: FileCheck %s --check-prefix=WS < %t2.cu
// WS: tawa::rt::epilogue_element(bias, 0, tawa_col)
// WS: bias.data != nullptr
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

// CHECK-LABEL: /// 'column_bias' in the tile vocabulary: C = A * B + a bias per column (0 where
// CHECK-NEXT: /// 'bias' is null)
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: bias.data != nullptr ? acc + tawa::load<1, 256>(bias, 0, n0)
// CHECK-NEXT: : acc);
__global__ void column_bias(const bf16 *A, const bf16 *B, const float *bias,
                            float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + (bias != nullptr ? bias[col] : 0.0f);
}

// CHECK-LABEL: /// 'row_bias_relu' in the tile vocabulary: C = max(alpha * A * B + a bias per
// CHECK-NEXT: /// row (0 where 'shift' is null), 0)
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: shift.data != nullptr
// CHECK-NEXT: ? tawa::relu(alpha * acc + tawa::load<128, 1>(shift, m0, 0))
// CHECK-NEXT: : tawa::relu(alpha * acc));
__global__ void row_bias_relu(const bf16 *A, const bf16 *B, const bf16 *shift,
                              bf16 *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    const float b = !shift ? 0.0f : __bfloat162float(shift[row]);
    C[row * N + col] = __float2bfloat16_rn(fmaxf(alpha * acc + b, 0.0f));
  }
}

// CHECK-LABEL: /// 'beta_and_bias' in the tile vocabulary: C = alpha * A * B + a bias per
// CHECK-NEXT: /// column (0 where 'bias' is null) + beta * C (C not read where beta is 0)
// CHECK: tawa::store(
// CHECK-NEXT: C, m0, n0,
// CHECK-NEXT: beta == 0.0f
// CHECK-NEXT: ? (bias.data != nullptr
// CHECK-NEXT: ? alpha * acc + tawa::load<1, 256>(bias, 0, n0)
// CHECK-NEXT: : alpha * acc)
// CHECK-NEXT: : (bias.data != nullptr
// CHECK-NEXT: ? alpha * acc + tawa::load<1, 256>(bias, 0, n0) +
// CHECK-NEXT: beta * tawa::load<128, 256>(C, m0, n0)
// CHECK-NEXT: : alpha * acc + beta * tawa::load<128, 256>(C, m0, n0)));
__global__ void beta_and_bias(const bf16 *A, const bf16 *B, const float *bias,
                              float *C, int M, int N, int K, float alpha,
                              float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = alpha * acc + (bias ? bias[col] : 0.0f);
    if (beta != 0.0f)
      v += beta * C[row * N + col];
    C[row * N + col] = v;
  }
}

// Another pointer tested.
__global__ void other_pointer(const bf16 *A, const bf16 *B, const float *bias,
                              const float *scale, float *C, int M, int N,
                              int K) {
  BODY
#pragma tawa tile
  // DIAG: optional-bias.cu:[[@LINE+1]]:3: warning: {{.*}}the statement at line [[#@LINE+3]] breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + (scale ? bias[col] : 0.0f);
}
// DIAG: note: kernel 'other_pointer' is left unchanged

// One where the pointer is null.
__global__ void one_where_null(const bf16 *A, const bf16 *B, const float *bias,
                               float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: optional-bias.cu:[[@LINE+1]]:3: warning: {{.*}}the statement at line [[#@LINE+3]] breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + (bias != nullptr ? bias[col] : 1.0f);
}
// DIAG: note: kernel 'one_where_null' is left unchanged

// The bias read where its pointer is null.
__global__ void read_where_null(const bf16 *A, const bf16 *B, const float *bias,
                                float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: optional-bias.cu:[[@LINE+1]]:3: warning: {{.*}}the statement at line [[#@LINE+3]] breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + (bias == nullptr ? bias[col] : 0.0f);
}
// DIAG: note: kernel 'read_where_null' is left unchanged
