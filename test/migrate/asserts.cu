// assert() in a register-blocked kernel: an assert whose condition holds for
// every thread of the block the front end follows (the block's size against
// the tile sizes, as the SGEMM tutorials check) is proved and left out of
// the rewrite, whose launcher runs the kernel as written, assert and all,
// with any other block; one compiled out by NDEBUG is nothing. An assert
// that fails for the block, or whose condition is not constant for each
// thread (it reads a parameter), is refused at the assert, and the kernel is
// left as written.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cassert>
#include <cuda_fp16.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define SETUP                                                                  \
  const int threadCol = threadIdx.x % BN;                                      \
  const int threadRow = threadIdx.x / BN;                                      \
  __shared__ __half As[BM * BK];                                               \
  __shared__ __half Bs[BK * BN];                                               \
  A += blockIdx.y * BM * K;                                                    \
  B += blockIdx.x * BN;                                                        \
  C += blockIdx.y * BM * N + blockIdx.x * BN;
#define REST                                                                   \
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;        \
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;        \
  float threadResults[TM] = {0.0f};
#define LOOP                                                                   \
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {                                \
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];             \
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];             \
    __syncthreads();                                                           \
    A += BK;                                                                   \
    B += BK * N;                                                               \
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {                              \
      float tmpB = __half2float(Bs[dotIdx * BN + threadCol]);                  \
      for (int resIdx = 0; resIdx < TM; ++resIdx)                              \
        threadResults[resIdx] +=                                               \
            __half2float(As[(threadRow * TM + resIdx) * BK + dotIdx]) * tmpB;  \
    }                                                                          \
    __syncthreads();                                                           \
  }
#define STORE                                                                  \
  for (int resIdx = 0; resIdx < TM; ++resIdx)                                  \
    C[(threadRow * TM + resIdx) * N + threadCol] = threadResults[resIdx];

// The tutorial's asserts: the block has BM * BK = BN * BK = 512 threads,
// which the front end finds (no block of more threads passes them).
// CHECK-LABEL: __global__ void block_size(
__global__ void block_size(int M, int N, int K, const __half *A,
                           const __half *B, float *C) {
  SETUP
  assert(BM * BK == blockDim.x);
  assert(BN * BK == blockDim.x);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK: if (tawa_block.x != 512 || tawa_block.y != 1 || tawa_block.z != 1 ||

// A per-thread condition that holds for every thread of the block.
// CHECK-LABEL: __global__ void per_thread(
__global__ void per_thread(int M, int N, int K, const __half *A,
                           const __half *B, float *C) {
  SETUP
  assert(threadIdx.x < 512 && threadRow < BM / TM);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK: if (tawa_block.x != 512 || tawa_block.y != 1 || tawa_block.z != 1 ||

// CHECK-LABEL: __global__ void fails(
__global__ void fails(int M, int N, int K, const __half *A, const __half *B,
                      float *C) {
  SETUP
  // DIAG: asserts.cu:[[@LINE+4]]:3: warning: {{.*}}the statement at line [[@LINE+1]] breaks it: the assert fails for a thread of the block (matched furthest as a block of 512 threads) [tawa-unsupported]
  assert(blockDim.x == 100);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK-NOT: fails_tiled

// CHECK-LABEL: __global__ void parameter(
__global__ void parameter(int M, int N, int K, const __half *A,
                          const __half *B, float *C) {
  SETUP
  // DIAG: asserts.cu:[[@LINE+4]]:3: warning: {{.*}}the statement at line [[@LINE+1]] breaks it: expected an assert of comparisons between integers that are constant for each thread of the block (its size, the tile sizes), which the rewrite can prove and leave out (matched furthest as a block of 512 threads) [tawa-unsupported]
  assert(K % BK == 0);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK-NOT: parameter_tiled

#define NDEBUG
#include <assert.h>
// Compiled out: nothing to prove.
// CHECK-LABEL: __global__ void compiled_out(
__global__ void compiled_out(int M, int N, int K, const __half *A,
                             const __half *B, float *C) {
  SETUP
  assert(blockDim.x == 100);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK: if (tawa_block.x != 512 || tawa_block.y != 1 || tawa_block.z != 1 ||

// A macro named assert whose true branch does something is no assert.
#undef assert
#define assert(e)                                                              \
  ((e) ? (void)(flag[threadIdx.x] = 1)                                         \
       : __assert_fail(#e, __FILE__, __LINE__, __func__))
// CHECK-LABEL: __global__ void not_cassert(
__global__ void not_cassert(int M, int N, int K, const __half *A,
                            const __half *B, float *C, int *flag) {
  SETUP
  // DIAG: asserts.cu:[[@LINE+4]]:3: warning: {{.*}}the statement at line [[@LINE+1]] breaks it: expected before the loop only declarations
  assert(blockDim.x == 512);
  REST
#pragma tawa tile
  LOOP
  STORE
}
// CHECK-NOT: not_cassert_tiled

void launch(int M, int N, int K, const __half *A, const __half *B, float *C) {
  dim3 grid(N / BN, M / BM);
  block_size<<<grid, 512>>>(M, N, K, A, B, C);
  per_thread<<<grid, 512>>>(M, N, K, A, B, C);
  fails<<<grid, 512>>>(M, N, K, A, B, C);
  parameter<<<grid, 512>>>(M, N, K, A, B, C);
  compiled_out<<<grid, 512>>>(M, N, K, A, B, C);
  not_cassert<<<grid, 512>>>(M, N, K, A, B, C, nullptr);
}
