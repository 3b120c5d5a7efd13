// The launcher of a lifted kernel forwards each parameter by name, to the
// kernel as written and to the tiled form, and names its own locals
// tawa_*: a kernel with an unnamed parameter, a default argument or a
// parameter named tawa_* is refused at that parameter and left as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>

#define TILE 16
#define HEAD                                                                   \
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];                            \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;        \
  float acc = 0.0f;
#define LOOP                                                                   \
  for (int t = 0; t < K; t += TILE) {                                          \
    As[ty][tx] = A[row * K + t + tx];                                          \
    Bs[ty][tx] = B[(t + ty) * N + col];                                        \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);                \
    __syncthreads();                                                           \
  }                                                                            \
  C[row * N + col] = acc;

// CHECK: launch-parameters.cu:[[@LINE+2]]:{{[0-9]+}}: note: a parameter of the kernel has no name: its launcher forwards each parameter by name; name it
__global__ void unnamed(const __half *A, const __half *B, float *C, int M,
                        int N, int K, int) {
  HEAD
#pragma tawa tile
  LOOP
}

// CHECK: launch-parameters.cu:[[@LINE+2]]:{{[0-9]+}}: note: the parameter 'K' has a default argument, which the kernel's launcher cannot forward; pass it at the launch
__global__ void defaulted(const __half *A, const __half *B, float *C, int M,
                          int N, int K = 64) {
  HEAD
#pragma tawa tile
  LOOP
}

// CHECK: launch-parameters.cu:[[@LINE+2]]:{{[0-9]+}}: note: the parameter 'tawa_rows' starts with 'tawa_', as the launcher's own names do; rename it
__global__ void reserved(const __half *A, const __half *B, float *C,
                         int tawa_rows, int N, int K) {
  const int M = tawa_rows;
  HEAD
#pragma tawa tile
  LOOP
}

void launch(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
  unnamed<<<grid, block>>>(A, B, C, M, N, K, 0);
  defaulted<<<grid, block>>>(A, B, C, M, N);
  reserved<<<grid, block>>>(A, B, C, M, N, K);
}
