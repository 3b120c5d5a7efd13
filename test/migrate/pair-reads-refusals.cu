// Products that read 16-bit tiles as pairs (pair-reads.cu) and differ from
// ones that lift by one defect each: each is refused at the statement that
// breaks the pattern and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>

// Rows of 33 elements: the pairs of odd rows start at no multiple of 4 bytes,
// where the kernel as written faults.
__global__ void odd_rows(const half *A, const half *B, half *C, int M, int N, int K) {
  __shared__ __align__(16) half As[16][17];
  __shared__ __align__(16) half BsT[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: pair-reads-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}expected registers read as a vector of consecutive elements of one row of a tile of their type, starting at a multiple of the vector's size (else the kernel as written faults){{.*}}
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    BsT[ty][tx] = B[(t + tx) * N + blockIdx.x * 16 + ty];
    __syncthreads();
    const half2 *a2 = reinterpret_cast<const half2 *>(&As[ty][0]);
    const half2 *b2 = reinterpret_cast<const half2 *>(&BsT[tx][0]);
    for (int k = 0; k < 8; ++k) {
      float2 a = __half22float2(a2[k]);
      float2 b = __half22float2(b2[k]);
      acc += a.x * b.x;
      acc += a.y * b.y;
    }
    __syncthreads();
  }
  C[row * N + col] = __float2half_rn(acc);
}
// CHECK: note: kernel 'odd_rows' is left unchanged

// The pointer of pairs moves along the row, in the initializer of the pair.
__global__ void moving_view(const half *A, const half *B, half *C, int M, int N, int K) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half BsT[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: pair-reads-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}the initializer of 'a' has side effects (no lifting front end follows it){{.*}}
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    BsT[ty][tx] = B[(t + tx) * N + blockIdx.x * 16 + ty];
    __syncthreads();
    const half2 *a2 = reinterpret_cast<const half2 *>(&As[ty][0]);
    const half2 *b2 = reinterpret_cast<const half2 *>(&BsT[tx][0]);
    for (int k = 0; k < 8; ++k) {
      float2 a = __half22float2(*a2++);
      float2 b = __half22float2(b2[k]);
      acc += a.x * b.x;
      acc += a.y * b.y;
    }
    __syncthreads();
  }
  C[row * N + col] = __float2half_rn(acc);
}
// CHECK: note: kernel 'moving_view' is left unchanged
