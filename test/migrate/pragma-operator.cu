// The pragma written as the C99 operator, `_Pragma("tawa tile")`, is read
// as '#pragma tawa tile' is: on its own line, the migration drops the line
// from the kernel as written; after other code on its line (or before the
// loop on the same line), the operator's text alone. Through a macro
// (`#define TAWA_TILE _Pragma("tawa tile")`) the migration cannot drop it:
// the loop lifts, and the verdict says what stops the migration. (The
// outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=warning: --implicit-check-not=error:
#include <cuda_fp16.h>

#define TILE 32
#define TAWA_TILE _Pragma("tawa tile")

#define BODY                                                                   \
  As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __half();         \
  Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __half();       \
  __syncthreads();                                                             \
  for (int k = 0; k < TILE; ++k)                                               \
    acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);                 \
  __syncthreads();

#define PROLOGUE                                                               \
  __shared__ __half As[TILE][TILE];                                            \
  __shared__ __half Bs[TILE][TILE];                                            \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;              \
  float acc = 0.0f;

// CHECK-LABEL: __global__ void own_line(
// CHECK: PROLOGUE
// CHECK-NEXT: for (int t = 0; t < K; t += TILE) {
__global__ void own_line(const __half *A, const __half *B, float *C, int M,
                         int N, int K) {
  PROLOGUE
  _Pragma("tawa tile")
  for (int t = 0; t < K; t += TILE) {
    BODY
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: __global__ void own_line_tiled(

// CHECK-LABEL: __global__ void same_line(
// CHECK: PROLOGUE
// CHECK-NEXT: {{^  }}for (int t = 0; t < K; t += TILE) {
__global__ void same_line(const __half *A, const __half *B, float *C, int M,
                          int N, int K) {
  PROLOGUE
  _Pragma("tawa tile") for (int t = 0; t < K; t += TILE) {
    BODY
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: __global__ void same_line_tiled(

// CHECK-LABEL: __global__ void through_macro(
// CHECK: PROLOGUE
// CHECK-NEXT: TAWA_TILE
__global__ void through_macro(const __half *A, const __half *B, float *C,
                              int M, int N, int K) {
  PROLOGUE
  TAWA_TILE
  // DIAG: pragma-operator.cu:[[@LINE+2]]:3: warning: this loop is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts, but the statement at line [[@LINE-1]] stops its migration: the pragma comes from a macro's expansion: the migration drops it from the kernel as written, which it cannot do inside a macro; write '#pragma tawa tile' (or '_Pragma("tawa tile")') before the loop [tawa-unsupported]
  // DIAG2: pragma-operator.cu.tmp.cu:{{[0-9]+}}:3: warning: this loop is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts, but the statement at line {{[0-9]+}} stops its migration: the pragma comes from a macro's expansion
  for (int t = 0; t < K; t += TILE) {
    BODY
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// DIAG: note: kernel 'through_macro' is left unchanged
// DIAG2: note: kernel 'through_macro' is left unchanged
// CHECK-NOT: through_macro_tiled

void run(const __half *A, const __half *B, float *C, int M, int N, int K) {
  const dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  own_line<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
  same_line<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
  through_macro<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
// CHECK-LABEL: void run(
// CHECK: own_line_migrated_launch(grid, dim3(TILE, TILE), 0, 0, A, B, C, M, N, K);
// CHECK: same_line_migrated_launch(grid, dim3(TILE, TILE), 0, 0, A, B, C, M, N, K);
// CHECK: through_macro<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
