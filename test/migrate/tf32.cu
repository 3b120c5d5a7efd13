// --migrate lifts a hand-written SGEMM whose pragma says precision(tf32): the
// tiled kernel loads fp32 windows of K = 32 (128 bytes) and carries the
// clause, and tawa-rewrite turns it into a warp-specialized kernel on tf32
// wgmma, B (stored K x N) read from a transposed copy. Without the clause the
// kernel is refused (test/migrate/refusals.cu). (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_runtime.h>

#define TILE 32

// CHECK-LABEL: __global__ void sgemm_tiled(tawa::Matrix<const float> A,
// CHECK: #pragma tawa tile precision(tf32)
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
// CHECK-NEXT: auto a = tawa::load<128, 32>(A, m0, k0);
// CHECK-NEXT: auto b = tawa::load<32, 256>(B, k0, n0);
// CHECK-NEXT: tawa::mma(acc, a, b);
// WS: copies.transposed(B, &B_transposed)
// WS: tawa::rt::wgmma_nt<32>(
__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
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

void run(const float *A, const float *B, float *C, int M, int N, int K) {
  // CHECK: sgemm_migrated_launch(
  sgemm<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE),
          dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
// DIAG-NOT: warning
// DIAG2-NOT: warning
