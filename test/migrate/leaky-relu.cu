// --migrate lifts LeakyReLU in hand-written epilogues: `v > 0 ? v : s * v`
// and `v <= 0 ? s * v : v` for any float slope s (a parameter, a scale
// computed before the loop, a constant), and the forms that agree with it
// only for some slopes where the slope is a constant among them: `v >= 0 ?
// v : s * v` and `v < 0 ? s * v : v` for s >= 0, fmaxf(v, s * v) for s in
// [0, 1]. The tiled form applies tawa::leaky_relu(value, s). A slope the
// tiled form cannot read, a product in double, or a form whose slope is
// outside its range is refused. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_bf16.h>

#define TILE 32
#define NEGATIVE_SLOPE 0.01f
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

__device__ float leaky(float x) { return x > 0.0f ? x : NEGATIVE_SLOPE * x; }

// CHECK-LABEL: /// 'leaky_param' in the tile vocabulary: C = leaky_relu(A * B + a bias per
// CHECK:      tawa::Matrix<const float> bias, float slope) {
// CHECK:      tawa::store(C, m0, n0,
// CHECK-NEXT:   tawa::leaky_relu(acc + tawa::load<1, 256>(bias, 0, n0), slope));
// CHECK:      leaky_param_tiled<<<
// CHECK:      tawa::Matrix<const float>{bias, 1, tawa_cols, tawa_cols}, slope);
__global__ void leaky_param(const bf16 *A, const bf16 *B, const float *bias, bf16 *C, int M, int N, int K, float slope) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float v = acc + bias[col];
    C[row * N + col] = __float2bfloat16_rn(v > 0.0f ? v : slope * v);
  }
}
// CHECK-LABEL: /// 'leaky_helper' in the tile vocabulary: C = leaky_relu(alpha * A * B, 0.01f)
// CHECK: tawa::store(C, m0, n0, tawa::leaky_relu(alpha * acc, 0.01f));
__global__ void leaky_helper(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = leaky(alpha * acc);
}
// CHECK-LABEL: /// 'leaky_le' in the tile vocabulary: C = leaky_relu(A * B, s)
// CHECK: tawa::store(C, m0, n0, tawa::leaky_relu(acc, s));
__global__ void leaky_le(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float s) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.0f >= acc ? acc * s : acc;
}
// CHECK-LABEL: /// 'leaky_ge_const' in the tile vocabulary: C = leaky_relu(A * B, 0.2f)
// CHECK: tawa::store(C, m0, n0, tawa::leaky_relu(acc, 0.2f));
__global__ void leaky_ge_const(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc >= 0 ? acc : (float)0.2 * acc;
}
// CHECK-LABEL: /// 'leaky_fmax' in the tile vocabulary: C = leaky_relu(A * B, 0.125f)
// CHECK: tawa::store(C, m0, n0, tawa::leaky_relu(acc, 0.125f));
__global__ void leaky_fmax(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = fmaxf(1.0f / 8 * acc, acc);
}

// Refused: `v >= 0` chooses differently from tile.h's `v > 0` at v = +0
// for a negative slope, and the parameter's sign is unknown.
__global__ void leaky_ge_param(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float s) {
  BODY
#pragma tawa tile
  // DIAG: leaky-relu.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc >= 0.0f ? acc : s * acc;
}
// DIAG: note: kernel 'leaky_ge_param' is left unchanged
// Refused: fmaxf(v, 2 v) is not LeakyReLU (it picks v for every v < 0).
__global__ void leaky_fmax_steep(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: leaky-relu.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = fmaxf(acc, 2.0f * acc);
}
// DIAG: note: kernel 'leaky_fmax_steep' is left unchanged
// Refused: the product in double, rounded to float once, is not tile.h's
// product in float.
__global__ void leaky_double(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: leaky-relu.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc > 0.0f ? acc : 0.01 * acc;
}
// DIAG: note: kernel 'leaky_double' is left unchanged
// Refused: a slope read from memory per element.
__global__ void leaky_loaded(const bf16 *A, const bf16 *B, const float *slopes, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: leaky-relu.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the slope of LeakyReLU 'v > 0.0f ? v : slope * v' to be a float parameter of the kernel, a scale computed before the loop from its parameters, or a constant
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc > 0.0f ? acc : slopes[col] * acc;
}
// DIAG: note: kernel 'leaky_loaded' is left unchanged

// The four refused kernels keep their pragma; the rewrite refuses them again.
// DIAG2-COUNT-4: warning: this loop does not match a liftable pattern
// WS: leaky_param_tiled(
// WS: tawa::leaky_relu(
// WS: leaky_fmax_tiled(
