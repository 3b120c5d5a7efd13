// --suggest finds a hand-written SGEMM too: it lifts only under a precision
// clause, so its fix-it inserts the pragma with precision(3xtf32), the one
// that keeps about fp32's accuracy, and the finding says what the clause
// does and names the faster precision(tf32). --migrate then lifts the loop
// of the file -o wrote.
// RUN: %tawa-rewrite %s --suggest -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %tawa-rewrite %t.cu --migrate -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=MIGRATED
#include <cuda_runtime.h>

#define TILE 32

// OUT-LABEL: __global__ void sgemm(
// OUT: float acc = 0.0f;
// OUT-NEXT: #pragma tawa tile precision(3xtf32)
// OUT-NEXT: for (int t = 0; t < K; t += TILE) {
// MIGRATED: #pragma tawa tile precision(3xtf32)
// MIGRATED-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  // CHECK: suggest-tf32.cu:[[@LINE+1]]:3: warning: this loop of kernel 'sgemm' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile precision(3xtf32)' before it lets 'tawa-rewrite --migrate' re-express it in the tile vocabulary (docs/migration.md); it multiplies fp32 operands, which the tensor cores read as tf32 (10 mantissa bits): the clause splits each into two tf32 parts, three products per step, for about fp32's accuracy ('precision(tf32)', one product, is faster and rounds each operand to tf32) [tawa-candidate]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// An fp32 loop that does not lift even under the clause (its store has no
// bounds check, its copies do): no candidate.
// OUT-LABEL: __global__ void not_liftable(
// OUT-NOT: #pragma
// OUT: C[row * N + col] = acc;
__global__ void not_liftable(const float *A, const float *B, float *C, int M,
                             int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
