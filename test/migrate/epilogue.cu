// --migrate lifts the stored value's epilogue: a bias per column
// ('bias[col]') or per row ('bias[row]'), alpha and beta, terms in any
// order, ReLU as fmaxf(v, 0.0f); the tiled form adds the same terms in the
// same order (tawa::load of a 1 x BN or BM x 1 tile of the bias). Other
// forms are refused at the store. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// The rewrite of the migrated file: a scale computed before the loop from
// parameters with a math function is a value declaration, which the narrow
// twins' walk may run once per tile.
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>/dev/null; test -f %t2.cu
// RUN: FileCheck %s --check-prefix=WS < %t2.cu
// WS: local_scale_tiled_narrow64_pingpong(
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
// CHECK-LABEL: /// 'bias_relu' in the tile vocabulary: C = max(A * B + a bias per column, 0)
// CHECK: tawa::Matrix<__nv_bfloat16> C,
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16> bias) {
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc + tawa::load<1, 256>(bias, 0, n0)));
// CHECK: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{bias, 1, tawa_cols, tawa_cols});
__global__ void bias_relu(const bf16 *A, const bf16 *B, const bf16 *bias, bf16 *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(fmaxf(acc + __bfloat162float(bias[col]), 0.0f));
}
// CHECK-LABEL: /// 'row_bias' in the tile vocabulary: C = a bias per row + alpha * A * B over
// CHECK: tawa::store(C, m0, n0, tawa::load<128, 1>(bias, m0, 0) + alpha * acc);
// CHECK: tawa::Matrix<const float>{bias, tawa_rows, 1, 1}, alpha);
__global__ void row_bias(const bf16 *A, const bf16 *B, const float *bias, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = bias[row] + alpha * acc;
}
// A bias indexed by neither the row nor the column.
__global__ void wrong_bias(const bf16 *A, const bf16 *B, const float *bias, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected a bias indexed by the stored element's column, 'bias[col]', or row, 'bias[row]'
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + bias[row + col];
}
// DIAG: note: kernel 'wrong_bias' is left unchanged
// CHECK-LABEL: /// 'relu_scale' in the tile vocabulary: C = max(alpha * A * B + beta * C, 0)
// CHECK: tawa::relu(alpha * acc + beta * tawa::load<128, 256>(C, m0, n0)));
__global__ void relu_scale(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = fmaxf(0.0f, alpha * acc + beta * C[row * N + col]);
}
// Two biases.
__global__ void two_biases(const bf16 *A, const bf16 *B, const float *b1, const float *b2, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value 'acc', 'alpha * acc', plus optionally 'beta * C[index]' (or 'beta * Cin[index]', a C input of bf16, fp16 or float) and a bias 'bias[col]' or 'bias[row]' (or 'bias ? bias[col] : 0.0f'), optionally under ReLU 'fmaxf(v, 0.0f)'
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc + b1[col] + b2[row];
}
// DIAG: note: kernel 'two_biases' is left unchanged
// A clamp at -1 is not ReLU.
__global__ void relu_minus(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value 'acc', 'alpha * acc', plus optionally
  LOOP
  if (row < M && col < N)
    C[row * N + col] = fmaxf(acc, -1.0f);
}
// DIAG: note: kernel 'relu_minus' is left unchanged

// C's old value added unscaled (beta = 1) to a float C: written out, or as
// 'C[i] += v'. The sum is the kernel's own, in float.
// CHECK-LABEL: /// 'plus_c' in the tile vocabulary: C = alpha * A * B + C over
// CHECK: tawa::store(C, m0, n0, alpha * acc + tawa::load<128, 256>(C, m0, n0));
__global__ void plus_c(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + C[row * N + col];
}
// CHECK-LABEL: /// 'add_to_c' in the tile vocabulary: C = C + A * B + a bias per column over
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::load<128, 256>(C, m0, n0) + acc +
// CHECK-NEXT: tawa::load<1, 256>(bias, 0, n0));
__global__ void add_to_c(const bf16 *A, const bf16 *B, const float *bias, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] += acc + bias[col];
}
// C's old value unscaled in a 16-bit C: refused ('+=' would add in that type).
__global__ void add_to_bf16(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected the stored value 'acc', 'alpha * acc', plus optionally
  LOOP
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc + __bfloat162float(C[row * N + col]));
}
// DIAG: note: kernel 'add_to_bf16' is left unchanged
// '+=' under an activation would put C's old value inside it: refused.
__global__ void add_relu(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: 'C[i] += v' is lifted for a float C and a value without an activation or C's old value; expected 'C[i] = v + C[i]' written out, converted to C's type
  LOOP
  if (row < M && col < N)
    C[row * N + col] += fmaxf(acc, 0.0f);
}
// DIAG: note: kernel 'add_relu' is left unchanged
// The store's bounds as 'row <= M - 1' of a signed row: 'row < M'.
// CHECK-LABEL: /// 'le_bounds' in the tile vocabulary: C = A * B over
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: const int tawa_rows = M < tawa_rows_covered ? M : int(tawa_rows_covered);
// CHECK: const int tawa_cols = N < tawa_cols_covered ? N : int(tawa_cols_covered);
__global__ void le_bounds(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row <= M - 1 && N - 1 >= col)
    C[row * N + col] = acc;
}
// An unsigned row compares unsigned: 'row <= M - 1' is not 'row < M' at M = 0.
__global__ void le_unsigned(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  unsigned row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  // DIAG: epilogue.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected a bounds check 'row < M && col < K' (or 'row <= M - 1' of a signed row, or 'k + 8 <= K')
  LOOP
  if (row <= M - 1 && col <= N - 1)
    C[row * N + col] = acc;
}
// DIAG: note: kernel 'le_unsigned' is left unchanged
// beta times a separate C input of C's type at C's index (cuBLAS's
// D = alpha A B + beta C): the tiled form loads it at the stored window, and
// the launcher views it with C's extents and leading dimension.
// CHECK-LABEL: /// 'c_input' in the tile vocabulary: C = alpha * A * B + beta * Cin (C's input)
// CHECK: tawa::Matrix<float> C,
// CHECK-NEXT: tawa::Matrix<const float> Cin, float alpha,
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: alpha * acc + beta * tawa::load<128, 256>(Cin, m0, n0));
// CHECK: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<const float>{Cin, tawa_rows, tawa_cols, N}, alpha, beta);
__global__ void c_input(const bf16 *A, const bf16 *B, float *C, const float *Cin, int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * Cin[row * N + col];
}
// A C input of another element type than C's: its tile widens to float,
// as the kernel's __half2float does.
// CHECK-LABEL: /// 'c_input_half' in the tile vocabulary: C = alpha * A * B + beta * Cin (C's
// CHECK: tawa::Matrix<float> C,
// CHECK-NEXT: tawa::Matrix<const __half> Cin, float alpha,
// CHECK: alpha * acc + beta * tawa::load<128, 256>(Cin, m0, n0));
// CHECK: tawa::Matrix<const __half>{Cin, tawa_rows, tawa_cols, N}, alpha, beta);
__global__ void c_input_half(const bf16 *A, const bf16 *B, float *C, const __half *Cin, int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * __half2float(Cin[row * N + col]);
}
// A residual beside a bias, unscaled, into a bf16 C: the terms are summed in
// float and rounded once, as the tiled form's store does.
// CHECK-LABEL: /// 'residual_bf16' in the tile vocabulary: C = A * B + a bias per column +
// CHECK: tawa::Matrix<__nv_bfloat16> C,
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16> res,
// CHECK: acc + tawa::load<1, 256>(bias, 0, n0) +
// CHECK-NEXT: tawa::load<128, 256>(res, m0, n0));
// CHECK: tawa::Matrix<const __nv_bfloat16>{res, tawa_rows, tawa_cols, N},
__global__ void residual_bf16(const bf16 *A, const bf16 *B, bf16 *C, const float *bias, const bf16 *res, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc + bias[col] + __bfloat162float(res[row * N + col]));
}
// Float locals set once, before the guarded store or in its block, read as
// their initializers: the stored value is the same expression written out.
// CHECK-LABEL: /// 'local_terms' in the tile vocabulary: C = max(alpha * A * B + a bias per
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::relu(alpha * acc + tawa::load<1, 256>(bias, 0, n0)));
__global__ void local_terms(const bf16 *A, const bf16 *B, const float *bias, bf16 *C, int M, int N, int K, float alpha) {
  BODY
#pragma tawa tile
  LOOP
  float scaled = alpha * acc;
  if (row < M && col < N) {
    const float v = scaled + bias[col];
    C[row * N + col] = __float2bfloat16_rn(v > 0.0f ? v : 0.0f);
  }
}
// CHECK-LABEL: /// 'local_beta' in the tile vocabulary: C = alpha * A * B + beta * C
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void local_beta(const bf16 *A, const bf16 *B, float *C, int M, int N, int K, float alpha, float beta) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    float old = C[row * N + col];
    float v = alpha * acc + beta * old;
    C[row * N + col] = v;
  }
}
// A scale computed before the loop from the kernel's scalar parameters alone
// (the 1/sqrt(d) of attention scores): the tiled form takes those parameters
// and computes it alike, on the device, so it has the kernel's value.
// CHECK-LABEL: /// 'local_scale' in the tile vocabulary: C = alpha * A * B
// CHECK: tawa::Matrix<float> C, int K) {
// CHECK: const float scale = 1.0f / sqrtf((float)K);
// CHECK: tawa::store(C, m0, n0, scale * acc);
// CHECK: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N}, K);
__global__ void local_scale(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  const float scale = 1.0f / sqrtf((float)K);
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc * scale;
}
// Refused: a scale read from memory, and one changed after its declaration.
// DIAG: epilogue.cu:[[@LINE+6]]:3: warning: {{.*}}breaks it: expected before the loop only integer index declarations, the __shared__ tiles and the float accumulator set to 0; 'scale' is another float value
// DIAG: note: kernel 'scale_from_memory' is left unchanged
__global__ void scale_from_memory(const bf16 *A, const bf16 *B, float *C, const float *scales, int M, int N, int K) {
  const float scale = scales[0];
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc * scale;
}
// DIAG: epilogue.cu:[[@LINE+7]]:3: warning: {{.*}}breaks it: expected before the loop only integer index declarations, the __shared__ tiles and the float accumulator set to 0; 'scale' is another float value
// DIAG: note: kernel 'scale_changed' is left unchanged
__global__ void scale_changed(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  float scale = 1.0f / sqrtf((float)K);
  BODY
  scale *= 2.0f;
#pragma tawa tile
  LOOP
  if (row < M && col < N)
    C[row * N + col] = acc * scale;
}
// A local of a 16-bit type rounds where the value written out would not:
// refused at it. So is a float local changed after its declaration.
// DIAG: epilogue.cu:[[@LINE+5]]:3: warning: {{.*}}breaks it: expected one store after the loop
// DIAG: note: kernel 'local_half' is left unchanged
__global__ void local_half(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  if (row < M && col < N) {
    __half v = __float2half_rn(acc);
    C[row * N + col] = __half2float(v);
  }
}
// DIAG: epilogue.cu:[[@LINE+5]]:3: warning: {{.*}}breaks it: expected the stored value
// DIAG: note: kernel 'local_changed' is left unchanged
__global__ void local_changed(const bf16 *A, const bf16 *B, float *C, int M, int N, int K) {
  BODY
#pragma tawa tile
  LOOP
  float v = acc;
  v += 1.0f;
  if (row < M && col < N)
    C[row * N + col] = v;
}
