// --migrate lifts the activations of hand-written epilogues that tile.h has:
// GELU (erf form and tanh form), SiLU, ReLU, sigmoid and tanh, each written
// inline or as a __device__ function of one float parameter returning the
// formula; the tiled form applies tawa::gelu, tawa::gelu_tanh, tawa::silu,
// tawa::relu, tawa::sigmoid or tawa::tanh to the same sum. A formula with another constant, another argument in one
// of its places, or a side effect is refused at the store. (The outputs are
// checked without this file's own check lines, which they copy.)
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

__device__ float gelu(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.7071067811865475f));
}
__device__ float silu(float x) { return x / (1.0f + expf(-x)); }
__device__ float gelu_approx(float x) {
  return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
}

// CHECK-LABEL: /// 'bias_gelu' in the tile vocabulary: C = gelu(A * B + a bias per column)
// CHECK: tawa::store(C, m0, n0, tawa::gelu(acc + tawa::load<1, 256>(bias, 0, n0)));
__global__ void bias_gelu(const bf16 *A, const bf16 *B, const float *bias, bf16 *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(gelu(acc + bias[col]));
}
// CHECK-LABEL: /// 'gelu_inline' in the tile vocabulary: C = gelu(alpha * A * B)
// CHECK: tawa::store(C, m0, n0, tawa::gelu(alpha * acc));
__global__ void gelu_inline(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = (alpha * acc) * 0.5f * (1.0f + erff((alpha * acc) / sqrtf(2.0f)));
}
// CHECK-LABEL: /// 'tanh_gelu' in the tile vocabulary: C = gelu_tanh(A * B + a bias per row)
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::gelu_tanh(acc + tawa::load<128, 1>(bias, m0, 0)));
__global__ void tanh_gelu(const bf16 *A, const bf16 *B, const float *bias, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = gelu_approx(acc + bias[row]);
}
// CHECK-LABEL: /// 'tanh_gelu_pow' in the tile vocabulary: C = gelu_tanh(A * B)
// CHECK: tawa::store(C, m0, n0, tawa::gelu_tanh(acc));
__global__ void tanh_gelu_pow(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.5f * acc * (1.0f + tanhf(sqrtf(2.0f / 3.14159265358979f) * (acc + 0.044715f * powf(acc, 3.0f))));
}
// CHECK-LABEL: /// 'silu_fn' in the tile vocabulary: C = silu(A * B + beta * C)
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::silu(acc + beta * tawa::load<128, 256>(C, m0, n0)));
__global__ void silu_fn(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = silu(acc + beta * C[row * N + col]);
}
// CHECK-LABEL: /// 'silu_inline' in the tile vocabulary: C = silu(A * B)
// CHECK: tawa::store(C, m0, n0, tawa::silu(acc));
__global__ void silu_inline(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc * (1.0f / (1.0f + __expf(-acc)));
}
// CHECK-LABEL: /// 'relu_ternary' in the tile vocabulary: C = max(A * B, 0)
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc));
__global__ void relu_ternary(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc > 0.0f ? acc : 0.0f;
}
// CHECK-LABEL: /// 'tanh_row_bias' in the tile vocabulary: C = tanh(A * B + a bias per row)
// CHECK: tawa::store(C, m0, n0, tawa::tanh(acc + tawa::load<128, 1>(bias, m0, 0)));
__global__ void tanh_row_bias(const bf16 *A, const bf16 *B, const float *bias, bf16 *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16(tanhf(acc + bias[row]));
}
__device__ float sigmoid(float x) { return 1.0f / (1.0f + __expf(-x)); }
// CHECK-LABEL: /// 'sigmoid_fn' in the tile vocabulary: C = sigmoid(alpha * A * B)
// CHECK: tawa::store(C, m0, n0, tawa::sigmoid(alpha * acc));
__global__ void sigmoid_fn(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = sigmoid(alpha * acc);
}

// Refused: GELU's constant to four digits, which is not 1 / sqrt(2) in
// float.
__global__ void gelu_short(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value 'acc', 'alpha * acc', plus optionally 'beta * C[index]' (or 'beta * Cin[index]', a C input of bf16, fp16 or float) and a bias 'bias[col]' or 'bias[row]' (or 'bias ? bias[col] : 0.0f'), optionally under ReLU 'fmaxf(v, 0.0f)', GELU, SiLU, LeakyReLU, sigmoid or tanh in a form of docs/migration.md
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.5f * acc * (1.0f + erff(acc * 0.7071f));
}
// DIAG: note: kernel 'gelu_short' is left unchanged
// Refused: the erf reads another value than the one it scales.
__global__ void gelu_mixed(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.5f * acc * (1.0f + erff(alpha * acc * 0.7071067811865475f));
}
// DIAG: note: kernel 'gelu_mixed' is left unchanged
// Refused: e^x where SiLU has e^-x (x * (1 + e^x)^-1 is no activation of tile.h).
__global__ void silu_sign(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc / (1.0f + expf(acc));
}
// DIAG: note: kernel 'silu_sign' is left unchanged
// Refused: e^x where the sigmoid has e^-x, and a tanh scaled after it.
__global__ void sigmoid_sign(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 1.0f / (1.0f + expf(acc));
}
// DIAG: note: kernel 'sigmoid_sign' is left unchanged
__global__ void tanh_scaled(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 2.0f * tanhf(acc);
}
// DIAG: note: kernel 'tanh_scaled' is left unchanged
// Refused: GELU's one half written as integers, 1 / 2, which C computes as 0
// (the kernel stores zeros), and in the square root of the erf's scale.
__global__ void gelu_int_half(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = (1 / 2) * acc * (1.0f + erff(acc * 0.70710678f));
}
// DIAG: note: kernel 'gelu_int_half' is left unchanged
__global__ void gelu_int_sqrt(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value
  LOOP
  if (row < M && col < N)
    C[row * N + col] = 0.5f * acc * (1.0f + erff(acc * sqrtf(1 / 2)));
}
// DIAG: note: kernel 'gelu_int_sqrt' is left unchanged
// Refused: a max that is not CUDA's fmaxf-like one (std::max(a, b) is a < b ?
// b : a, which keeps a NaN a where fmaxf returns b).
namespace mine {
__device__ float max(float a, float b) { return a < b ? b : a; }
} // namespace mine
__global__ void relu_other_max(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: activations.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: {{.*}}
  LOOP
  if (row < M && col < N)
    C[row * N + col] = mine::max(acc, 0.0f);
}
// DIAG: note: kernel 'relu_other_max' is left unchanged

// The eight refused kernels keep their pragma; the rewrite refuses them again.
// DIAG2-COUNT-8: warning: this loop does not match a liftable pattern
// WS: bias_gelu_tiled(
// WS: silu_inline_tiled(
// WS: tanh_row_bias_tiled(
// WS: return tawa::tanh(tawa_acc + tawa_by_row[0]);
// WS: sigmoid_fn_tiled(
// WS: return tawa::sigmoid(alpha * tawa_acc);
