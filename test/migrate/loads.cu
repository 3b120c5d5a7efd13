// --migrate reads `__ldg(&p[i])`, `__ldg(p + i)` and `*(p + i)` as p[i]:
// the read-only cache load reads what the plain load reads, and a
// dereference is the element at offset 0. It also takes a tile loop bounded
// by (K - 1) / TILE + 1 (ceil(K / TILE) for K >= 1; no launch the tiled form
// runs for has a smaller K), with index variables declared in its body.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// DIAG-NOT: warning
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

// CHECK-LABEL: __global__ void ceil_minus_one(
// CHECK-NOT: #pragma tawa tile
__global__ void ceil_minus_one(const __half *A, const __half *B, __half *C,
                               int M, int N, int K) {
  __shared__ __half As[16][16], Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int m = 0; m < (K - 1) / 16 + 1; ++m) {
    const int aCol = m * 16 + tx, bRow = m * 16 + ty;
    As[ty][tx] = row < M && aCol < K ? A[row * K + aCol] : __float2half_rn(0.0f);
    Bs[ty][tx] = bRow < K && col < N ? B[bRow * N + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half_rn(acc);
}
// CHECK: __global__ void ceil_minus_one_tiled(
// CHECK: tawa::Matrix<const __half>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, K, N, N},
