// __device__ helpers the register-blocked front end refuses to follow, each
// kernel left as written: a barrier inside a helper, a helper taking its
// tile by reference, a recursive helper, a helper returning a value, a
// helper indexing past its tile (the verdict names the helper and the call),
// an argument pointing into the middle of the accumulators, a helper
// writing a variable of static storage, and a helper whose text is under a
// conditional that reads __CUDA_ARCH__.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define BM2 64
#define BN2 64
#define BK2 16
#define TM2 4
#define TN2 4
typedef __nv_bfloat16 bf16;

__device__ void stageB(const bf16 *B, bf16 (*Bs)[BN2], int N, int col0,
                       int k0) {
  for (int i = threadIdx.x; i < BK2 * BN2; i += 256)
    Bs[i / BN2][i % BN2] = B[(k0 + i / BN2) * N + col0 + i % BN2];
}

__device__ void multiplyTiles(float (*acc)[TN2], const bf16 (*As)[BK2],
                              const bf16 (*Bs)[BN2], int ty, int tx) {
  for (int k = 0; k < BK2; ++k)
    for (int i = 0; i < TM2; ++i)
      for (int j = 0; j < TN2; ++j)
        acc[i][j] += __bfloat162float(As[ty * TM2 + i][k]) *
                     __bfloat162float(Bs[k][tx * TN2 + j]);
}

__device__ void stageA_barrier(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                          int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
  __syncthreads();
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected '__syncthreads();' only at the top level of the loop body: one after the staging copies, one after the product (in the __device__ function 'stageA_barrier', called at line [[@LINE+10]])
__global__ void k_barrier(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_barrier(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ void stageA_reference(const bf16 *A, bf16 (&As)[BM2][BK2], int K,
                                 int row0, int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected the arguments of the __device__ function 'stageA_reference' to be integers, pointers into the matrices, or names of the kernel's local float arrays, __shared__ tiles or float parameters (alpha, beta)
__global__ void k_reference(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_reference(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ void stageA_recursive(const bf16 *A, bf16 (*As)[BK2], int K,
                                 int row0, int k0, int i = threadIdx.x) {
  if (i < BM2 * BK2) {
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
    stageA_recursive(A, As, K, row0, k0, i + 256);
  }
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the __device__ function 'stageA_recursive' calls itself, or calls nest deeper than 8 (in the __device__ function 'stageA_recursive', called at line [[@LINE+10]])
__global__ void k_recursive(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_recursive(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ int stageA_value(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                          int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
  return 0;
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected a call of the __device__ function 'stageA_value' as a statement, a function returning void
__global__ void k_value(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_value(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ void stageA_outside(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                          int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2 + 1] = A[(row0 + i / BK2) * K + k0 + i % BK2];
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the index of the __shared__ tile 'As' must be a constant inside its extents for each thread of the block: it is out of bounds (in the __device__ function 'stageA_outside', called at line [[@LINE+10]])
__global__ void k_outside(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_outside(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ void stageA_offset(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                          int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected the arguments of the __device__ function 'multiplyTiles' to be integers, pointers into the matrices, or names of the kernel's local float arrays, __shared__ tiles or float parameters (alpha, beta)
__global__ void k_offset(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_offset(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc + 1, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

__device__ int staged_tiles;
__device__ void stageA_counter(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                          int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
  staged_tiles += 1;
}

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the variable 'staged_tiles' has static storage: shared by every thread and launch (no lifting front end follows it)
__global__ void k_counter(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_counter(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ void stageA_arch(const bf16 *A, bf16 (*As)[BK2], int K, int row0,
                            int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256)
    As[i / BK2][i % BK2] = A[(row0 + i / BK2) * K + k0 + i % BK2];
}
#endif

// CHECK: helper-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the text of the __device__ function 'stageA_arch' that the kernel calls overlaps the conditional at line {{[0-9]+}}, which reads __CUDA_ARCH__
__global__ void k_arch(const bf16 *A, const bf16 *B, float *C, int M,
                        int N, int K) {
  __shared__ bf16 As[BM2][BK2];
  __shared__ bf16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageA_arch(A, As, K, row0, k0);
    stageB(B, Bs, N, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      C[(row0 + ty * TM2 + i) * N + col0 + tx * TN2 + j] = acc[i][j];
}
