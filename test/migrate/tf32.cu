// --migrate lifts hand-written SGEMMs whose pragma says precision(tf32) or
// precision(3xtf32): the tiled kernel loads fp32 windows of K = 32 (128
// bytes) and carries the clause, and tawa-rewrite turns it into a
// warp-specialized kernel on tf32 wgmma (three products per step under
// 3xtf32), B (stored K x N) read from a transposed copy. Without the clause the
// kernel is refused (test/migrate/refusals.cu). (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_runtime.h>

#define TILE 32

// CHECK-LABEL: __global__ void sgemm_tiled(tawa::Matrix<const float> A,
// CHECK: #pragma tawa tile precision(tf32)
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
// CHECK-NEXT: auto a = tawa::load<128, 32>(A, m0, k0);
// CHECK-NEXT: auto b = tawa::load<32, 256>(B, k0, n0);
// CHECK-NEXT: tawa::mma(acc, a, b);
// WS: copies.transposed(B, &B_transposed)
// WS: tawa::rt::wgmma_nt<32>(
__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// CHECK-LABEL: __global__ void sgemm3_tiled(tawa::Matrix<const float> A,
// CHECK: #pragma tawa tile precision(3xtf32)
// WS: tawa::rt::wgmma_nt_3xtf32<32>(
__global__ void sgemm3(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile precision(3xtf32)
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// The register-blocked style (8 x 8 per thread, alpha and beta) lifts too.
// CHECK-LABEL: __global__ void blocked_kernel_tiled(tawa::Matrix<const float> A,
// CHECK: #pragma tawa tile precision(tf32)
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
// CHECK-NEXT: auto a = tawa::load<128, 32>(A, m0, k0);
// CHECK-NEXT: auto b = tawa::load<32, 256>(B, k0, n0);
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8

// M and N multiples of 64, K of 8 (the kernel has no bounds checks).
__global__ void blocked_kernel(int M, int N, int K, float alpha,
                               const float *A, const float *B, float beta,
                               float *C) {
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int numThreads = (BM * BN) / (TM * TN);
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int strideA = numThreads / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  const int strideB = numThreads / BN;
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
#pragma tawa tile precision(tf32)
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (int loadOffset = 0; loadOffset < BM; loadOffset += strideA)
      As[(innerRowA + loadOffset) * BK + innerColA] =
          A[(innerRowA + loadOffset) * K + innerColA];
    for (int loadOffset = 0; loadOffset < BK; loadOffset += strideB)
      Bs[(innerRowB + loadOffset) * BN + innerColB] =
          B[(innerRowB + loadOffset) * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
      for (int i = 0; i < TN; ++i)
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] +=
              regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }
  for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
    for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
      C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN] =
          alpha * threadResults[resIdxM * TN + resIdxN] +
          beta * C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN];
}


void run(const float *A, const float *B, float *C, int M, int N, int K) {
  // CHECK: sgemm_migrated_launch(
  sgemm<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE),
          dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}
// DIAG-NOT: warning
// DIAG2-NOT: warning
