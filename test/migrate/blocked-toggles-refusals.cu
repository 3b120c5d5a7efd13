// Toggled buffer indices ('blocked-toggles.cu') that do not select the
// buffers as the loop needs: the index read after the loop, an index that
// starts at 1 used to stage (the buffer the iteration reads), the product
// over the toggled index's other buffer, and an index flipped twice. Each is
// refused and the file is left exactly as written.
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

// CHECK: blocked-toggles-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}'stage', the buffer the loop toggles, may be read in the loop only
__global__ void read_after(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 0;
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[stage ^ 1][ar][ac],
                              &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[stage ^ 1][br][bc],
                              &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[stage][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[stage][kk][tCol * TN + j]);
    stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j] + stage;
}

// CHECK: blocked-toggles-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads
__global__ void starts_one(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 1;
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[stage ^ 1][ar][ac],
                              &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[stage ^ 1][br][bc],
                              &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[stage][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[stage][kk][tCol * TN + j]);
    stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: blocked-toggles-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}the product must read buffer i % 2 of 'As' in iteration i, the one staged for it
__global__ void wrong_read(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 0;
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[stage ^ 1][ar][ac],
                              &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[stage ^ 1][br][bc],
                              &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[stage ^ 1][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[stage][kk][tCol * TN + j]);
    stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: blocked-toggles-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}expected the buffer of 'As' selected by the iteration
__global__ void twice(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  int stage = 0;
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(row0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + col0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[stage ^ 1][ar][ac],
                              &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[stage ^ 1][br][bc],
                              &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[stage][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[stage][kk][tCol * TN + j]);
    stage ^= 1;
    stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}
