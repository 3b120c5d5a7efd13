// A shared-memory GEMM whose product reads both tiles through scalar
// registers declared in the inner loop (`float a = As[ty][k]; float b =
// Bs[k][tx]; sum += a * b;`, as course kernels write it) is a shared-memory
// tiled GEMM, and lifts like one whose product reads the tiles directly.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// DIAG-NOT: {{warning|error}}:
#include <cuda_fp16.h>

#define TILE 32

// CHECK-LABEL: __global__ void scalar_caches_tiled(
// CHECK: #pragma tawa tile
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK: tawa::mma(acc, a, b);
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void scalar_caches(const __half *A, const __half *B, __half *C,
                              int M, int N, int K) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
#pragma tawa tile
  for (int ph = 0; ph < (K + TILE - 1) / TILE; ++ph) {
    if (row < M && ph * TILE + tx < K)
      sA[ty][tx] = A[row * K + ph * TILE + tx];
    else
      sA[ty][tx] = __float2half_rn(0.0f);
    if (col < N && ph * TILE + ty < K)
      sB[ty][tx] = B[(ph * TILE + ty) * N + col];
    else
      sB[ty][tx] = __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k) {
      float a = __half2float(sA[ty][k]);
      float b = __half2float(sB[k][tx]);
      sum += a * b;
    }
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half_rn(sum);
}

void scalar_caches_run(const __half *A, const __half *B, __half *C, int M,
                       int N, int K) {
  scalar_caches<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE),
                  dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
