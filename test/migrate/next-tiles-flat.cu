// Double-buffered tiles declared as two one-dimensional buffers,
// `__shared__ T As[2][BM * BK]`, indexed `As[t % 2][i]`: where reading the
// array as two rows fails, it is read as two buffers (the same memory
// either way). The first kernel advances its pointers, the second indexes
// by the counter; the third copies the next tile into the buffer being read
// and is refused. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void flat_advanced_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void flat_advanced(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM * BK];
  __shared__ __nv_bfloat16 Bs[2][BK * BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    A += BK;
    B += BK * N;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][(tRow * TM + i) * BK + kk]) *
                       __bfloat162float(Bs[cur][kk * BN + tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK-LABEL: __global__ void flat_indexed_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void flat_indexed(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM * BK];
  __shared__ __nv_bfloat16 Bs[2][BK * BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e] = A[(e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e] = B[((t + 1) * BK + e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][(tRow * TM + i) * BK + kk]) *
                       __bfloat162float(Bs[cur][kk * BN + tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// DIAG: next-tiles-flat.cu:[[@LINE+17]]:3: warning: {{.*}}the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads
__global__ void flat_into_current(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM * BK];
  __shared__ __nv_bfloat16 Bs[2][BK * BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[cur][e] = A[(e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e] = B[((t + 1) * BK + e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][(tRow * TM + i) * BK + kk]) *
                       __bfloat162float(Bs[cur][kk * BN + tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

void launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, float *C) {
  flat_advanced<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  flat_indexed<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  flat_into_current<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
}
