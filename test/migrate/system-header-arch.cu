// A macro that a system header defines per compilation pass under
// __CUDA_ARCH__ is the device's to decide: a header that is not the CUDA
// toolkit's or tawa's counts as the project's own code, so the kernel that
// uses it is refused and left as it is.
// RUN: cp %s %t.cu
// RUN: %tawa-rewrite -i %t.cu -- %cuda-stub -I%S 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: cmp %s %t.cu
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "Inputs/vendored/epilogue_act.h"
#define TILE 32
__global__ void vendored_act(const __half *A, const __half *B, float *C,
                             const float *bias, int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: system-header-arch.cu.tmp.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the kernel uses the macro 'EPI_ACT', defined inside the conditional at line 5, which reads __CUDA_ARCH__
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __half();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = EPI_ACT(acc + bias[col]);
}
void run(const __half *A, const __half *B, float *C, const float *bias, int M,
         int N, int K) {
  vendored_act<<<dim3(N / TILE, M / TILE), dim3(TILE, TILE)>>>(A, B, C, bias,
                                                               M, N, K);
}
