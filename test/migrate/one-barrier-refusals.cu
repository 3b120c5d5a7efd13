// Loops that stage the next iteration's tiles with no barrier at the end of
// the body ('one-barrier.cu') and a race or a copy not waited for: the
// next tiles staged after the product's barrier (read by the next iteration
// with no barrier between), the product after the copies' barrier (the next
// iteration's copies overwrite what a slower warp reads), one buffer staged
// in the same part as its reads, no wait for the copies in flight, and a
// wait for all but the latest group before the iteration commits its own.
// Each is refused at the loop and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// CHECK: one-barrier-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}the loop body ends without '__syncthreads();', so its last part runs on into the next iteration's first with no barrier between, and 'As' is written in the last and read in the first
__global__ void product_then_prefetch(int M, int N, int K, const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(row0 + e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + col0 + e % BN];
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[t % 2][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[t % 2][kk][tCol * TN + j]);
    __syncthreads();
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[(t + 1) % 2][e / BK][e % BK] =
            A[(row0 + e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[(t + 1) % 2][e / BN][e % BN] =
            B[((t + 1) * BK + e / BN) * N + col0 + e % BN];
    }
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: one-barrier-refusals.cu:[[@LINE+14]]:3: warning: {{.*}}and 'As' is read in the last and written in the first
__global__ void prefetch_then_product(int M, int N, int K, const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(row0 + e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + col0 + e % BN];
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[(t + 1) % 2][e / BK][e % BK] =
            A[(row0 + e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[(t + 1) % 2][e / BN][e % BN] =
            B[((t + 1) * BK + e / BN) * N + col0 + e % BN];
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[t % 2][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[t % 2][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: one-barrier-refusals.cu:[[@LINE+14]]:3: warning: {{.*}}the loop writes the next iteration's elements of 'As' before a barrier that follows its reads of the iteration's
__global__ void one_buffer_one_barrier(int M, int N, int K, const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[e / BK][e % BK] = A[(row0 + e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[e / BN][e % BN] = B[(e / BN) * N + col0 + e % BN];
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[e / BK][e % BK] =
            A[(row0 + e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[e / BN][e % BN] =
            B[((t + 1) * BK + e / BN) * N + col0 + e % BN];
    }
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: one-barrier-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void not_waited(int M, int N, int K, float alpha,
                                  const __nv_bfloat16 *A,
                                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;

    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
      __pipeline_commit();
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: one-barrier-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void waits_for_one_less(int M, int N, int K, float alpha,
                                  const __nv_bfloat16 *A,
                                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    __pipeline_wait_prior(1);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}
