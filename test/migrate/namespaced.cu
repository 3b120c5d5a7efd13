// A kernel of a namespace, launched from outside it as `ns::k<<<...>>>`:
// the launcher is declared beside the kernel, so the launch calls it
// qualified the same way, and the migrated file parses again.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;
#define TILE 32
namespace gemm {
__global__ void tiled(const bf16 *A, const bf16 *B, float *C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * K + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * K + col] = acc;
}
// CHECK: static void tiled_migrated_launch(
} // namespace gemm
// DIAG-NOT: {{warning|error}}:

void launch(const bf16 *A, const bf16 *B, float *C, int K) {
  // CHECK: gemm::tiled_migrated_launch(dim3(K / TILE, K / TILE), dim3(TILE, TILE), 0, 0,
  // CHECK-NEXT: A, B, C, K);
  gemm::tiled<<<dim3(K / TILE, K / TILE), dim3(TILE, TILE)>>>(A, B, C, K);
}
