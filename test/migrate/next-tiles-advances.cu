// Kernels that stage the next iteration's tiles and advance their pointers
// into A and B at the top level of the loop body, in the style of the SGEMM
// tutorials (`A += BK; B += BK * N;`): at the start of iteration t a pointer
// is where it was plus t steps, and each copy is followed from where the
// pointer is when it is made. Accepted: the pointers advanced before the
// copies of the next tiles, or after them with the copies reading one step
// on. Refused: copies that would stage the tiles the iteration reads, one
// pointer advanced on each side of the copies, a step other than the loop's,
// and an advance under the prefetch's condition. (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void advanced_before_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void advanced_before(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    A += BK;
    B += BK * N;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK-LABEL: __global__ void advanced_after_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void advanced_after(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(BK + e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// DIAG: next-tiles-advances.cu:[[@LINE+17]]:3: warning: {{.*}}the copies before the loop must stage what the loop's copies stage for its first iteration
__global__ void stages_current(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// DIAG: next-tiles-advances.cu:[[@LINE+17]]:3: warning: {{.*}}the copies before the loop must stage what the loop's copies stage for its first iteration
__global__ void one_each_side(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    A += BK;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    B += BK * N;
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// DIAG: next-tiles-advances.cu:[[@LINE+17]]:3: warning: {{.*}}does not gain A(row, t + k) * B(t + k, col)
__global__ void double_step(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    A += 2 * BK;
    B += BK * N;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

// DIAG: next-tiles-advances.cu:[[@LINE+17]]:3: warning: {{.*}}the pointer 'A' may be advanced in the loop only at the top level of its body
__global__ void advanced_in_prefetch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    B += BK * N;
    if (t + 1 < tiles) {
      A += BK;
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}

void launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, float *C) {
  advanced_before<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  advanced_after<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  stages_current<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  one_each_side<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  double_step<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
  advanced_in_prefetch<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
}
