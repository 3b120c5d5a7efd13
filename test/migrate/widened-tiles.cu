// --migrate lifts the course-style kernel that widens each 16-bit element
// to float as it stages it ('As[i][j] = __half2float(A[...])' into float
// tiles): widening is exact and the product of two widened elements is the
// product of the 16-bit values, which wgmma computes, so the GEMM is one on
// the matrices' own type. Refused: tiles filled by reinterpreting the bits
// (a float read of a __half matrix), and a conversion that rounds on the
// way (bf16 through __half). (The outputs are checked without this file's
// own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define T 32

// CHECK-LABEL: __global__ void widened_tiled(tawa::Matrix<const __half> A,
// CHECK-NEXT:  tawa::Matrix<const __half> B,
// CHECK:       auto a = tawa::load<128, 64>(A, m0, k0);
// CHECK:       tawa::store(C, m0, n0, acc);
__global__ void widened(const __half *A, const __half *B, float *C, int M,
                        int N, int K) {
  __shared__ float As[T][T + 1], Bs[T][T + 1];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < K; t += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K)
                                       ? __half2float(A[row * K + t + threadIdx.x])
                                       : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (t + threadIdx.y < K && col < N)
                                       ? __half2float(B[(t + threadIdx.y) * N + col])
                                       : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// DIAG: widened-tiles.cu:[[@LINE+8]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: the statement at line [[@LINE+8]] breaks it: expected a staging copy
__global__ void bits(const __half *A, const __half *B, float *C, int M, int N,
                     int K) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < K; t += T) {
    As[threadIdx.y][threadIdx.x] = ((const float *)A)[row * K + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = ((const float *)B)[(t + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// DIAG: widened-tiles.cu:[[@LINE+8]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: the statement at line [[@LINE+8]] breaks it: expected a staging copy
__global__ void rounds(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                       float *C, int M, int N, int K) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < K; t += T) {
    As[threadIdx.y][threadIdx.x] = __half2float(
        __float2half_rn(__bfloat162float(A[row * K + t + threadIdx.x])));
    Bs[threadIdx.y][threadIdx.x] =
        __bfloat162float(B[(t + threadIdx.y) * N + col]);
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

void run(const __half *A, const __half *B, const __nv_bfloat16 *Ab,
         const __nv_bfloat16 *Bb, float *C, int M, int N, int K) {
  dim3 g((N + T - 1) / T, (M + T - 1) / T), b(T, T);
  widened<<<g, b>>>(A, B, C, M, N, K);
  bits<<<g, b>>>(A, B, C, M, N, K);
  rounds<<<g, b>>>(Ab, Bb, C, M, N, K);
}
