// Loops of walking offsets that are refused, each left as written: a
// variable that walks by a step that is no multiple of the tile's, a bound
// one element short of K, a start that reads the wrong column of B, a loop
// variable changed in the body, and a register-blocked loop whose walk over
// B starts one column over.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#define BS 32

// b steps by wB, not a multiple of BS.
// CHECK: walking-refusals.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the step of 'b' must be the same in every iteration and a multiple of the first variable's, 32 elements
__global__ void k1(__nv_bfloat16 *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int wA, int wB) {
  int aBegin = wA * BS * blockIdx.y, aEnd = aBegin + wA - 1;
  int bBegin = BS * blockIdx.x;
  float Csub = 0;
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a <= aEnd; a += BS, b += wB) {
    __shared__ __nv_bfloat16 As[BS][BS];
    __shared__ __nv_bfloat16 Bs[BS][BS];
    As[threadIdx.y][threadIdx.x] = A[a + wA * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + wB * threadIdx.y + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      Csub += __bfloat162float(As[threadIdx.y][k]) * __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  int c = wB * BS * blockIdx.y + BS * blockIdx.x;
  C[c + wB * threadIdx.y + threadIdx.x] = __float2bfloat16_rn(Csub);
}
// The bound one short: a < aEnd with aEnd = aBegin + wA - 1.
// CHECK: walking-refusals.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: expected 'for (int a = aBegin, b = bBegin; a <= aBegin + K - 1; a += TILE, b += step)' (or 'a < aBegin + K'): {{.*}} so that the loop covers K whole
__global__ void k2(__nv_bfloat16 *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int wA, int wB) {
  int aBegin = wA * BS * blockIdx.y, aEnd = aBegin + wA - 1;
  int bBegin = BS * blockIdx.x;
  float Csub = 0;
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a < aEnd; a += BS, b += BS * wB) {
    __shared__ __nv_bfloat16 As[BS][BS];
    __shared__ __nv_bfloat16 Bs[BS][BS];
    As[threadIdx.y][threadIdx.x] = A[a + wA * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + wB * threadIdx.y + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      Csub += __bfloat162float(As[threadIdx.y][k]) * __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  int c = wB * BS * blockIdx.y + BS * blockIdx.x;
  C[c + wB * threadIdx.y + threadIdx.x] = __float2bfloat16_rn(Csub);
}
// b starts one column off.
// CHECK: walking-refusals.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the product does not read A[row][k] and B[k][col] of the staged tiles
__global__ void k3(__nv_bfloat16 *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int wA, int wB) {
  int aBegin = wA * BS * blockIdx.y, aEnd = aBegin + wA;
  int bBegin = BS * blockIdx.x + 1;
  float Csub = 0;
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a < aEnd; a += BS, b += BS * wB) {
    __shared__ __nv_bfloat16 As[BS][BS];
    __shared__ __nv_bfloat16 Bs[BS][BS];
    As[threadIdx.y][threadIdx.x] = A[a + wA * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + wB * threadIdx.y + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      Csub += __bfloat162float(As[threadIdx.y][k]) * __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  int c = wB * BS * blockIdx.y + BS * blockIdx.x;
  C[c + wB * threadIdx.y + threadIdx.x] = __float2bfloat16_rn(Csub);
}
// a changed in the body.
// CHECK: walking-refusals.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the loop variable 'a' is changed in the loop body
__global__ void k4(__nv_bfloat16 *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int wA, int wB) {
  int aBegin = wA * BS * blockIdx.y, aEnd = aBegin + wA;
  int bBegin = BS * blockIdx.x;
  float Csub = 0;
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a < aEnd; a += BS, b += BS * wB) {
    __shared__ __nv_bfloat16 As[BS][BS];
    __shared__ __nv_bfloat16 Bs[BS][BS];
    As[threadIdx.y][threadIdx.x] = A[a + wA * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + wB * threadIdx.y + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      Csub += __bfloat162float(As[threadIdx.y][k]) * __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
    a += 0;
  }
  int c = wB * BS * blockIdx.y + BS * blockIdx.x;
  C[c + wB * threadIdx.y + threadIdx.x] = __float2bfloat16_rn(Csub);
}
// The register-blocked form, B's walk starting one column over.
// CHECK: walking-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration (matched furthest as a block of 256 threads)
__global__ void k5(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int K, int N) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int aBegin = K * 64 * blockIdx.y, aEnd = aBegin + K - 1;
  const int bBegin = 64 * blockIdx.x + 1;
  float acc[4][4] = {};
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a <= aEnd; a += 16, b += 16 * N) {
    for (int i = threadIdx.x; i < 64 * 16; i += 256)
      As[i / 16][i % 16] = A[a + (i / 16) * K + i % 16];
    for (int i = threadIdx.x; i < 16 * 64; i += 256)
      Bs[i / 64][i % 64] = B[b + (i / 64) * N + i % 64];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) * __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(blockIdx.y * 64 + ty * 4 + i) * N + blockIdx.x * 64 + tx * 4 + j] = acc[i][j];
}
