// --migrate reads `__ldg(&p[i])`, `__ldg(p + i)` and `*(p + i)` as p[i]:
// the read-only cache load reads what the plain load reads, and a
// dereference is the element at offset 0. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// DIAG-NOT: warning
#include <cuda_bf16.h>
#define TILE 32
using bf16 = __nv_bfloat16;
// CHECK-LABEL: __global__ void ldg_gemm(
// CHECK-NOT: #pragma tawa tile
__global__ void ldg_gemm(const bf16 *__restrict__ A, const bf16 *__restrict__ B, float *C, int M, int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? __ldg(&A[row * K + t + tx]) : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? __ldg(B + (t + ty) * N + col) : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    *(C + row * N + col) = acc;
}
// CHECK: __global__ void ldg_gemm_tiled(
// CHECK: static void ldg_gemm_migrated_launch(
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});
