// Buffer indices of double-buffered tiles toggled at the end of the loop
// body, in register-blocked kernels: `int stage = 0;` before the loop and
// `stage ^= 1;` as the body's last statement is t % 2 up to it (a cp.async
// pipeline with one barrier per tile); `int write_stage = 1;` toggled after
// the body's last barrier is (t + 1) % 2, the buffer the iteration stages,
// and `write_stage ^ 1` the one it reads. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void toggled_async_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void toggled_async(int M, int N, int K, const __nv_bfloat16 *A,
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
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// The register-prefetch style: the stage written starts at 1, the one read
// is its other; both toggled after the body's barrier.
// CHECK-LABEL: __global__ void toggled_write_stage_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void toggled_write_stage(int M, int N, int K,
                                    const __nv_bfloat16 *A,
                                    const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __nv_bfloat16 ra[8], rb[8];
  int write_stage = 1;
  for (int e = 0; e < 8; ++e) {
    const int x = threadIdx.x + e * 256;
    As[0][x / BK][x % BK] = A[(row0 + x / BK) * K + x % BK];
    Bs[0][x / BN][x % BN] = B[(x / BN) * N + col0 + x % BN];
  }
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      for (int e = 0; e < 8; ++e) {
        const int x = threadIdx.x + e * 256;
        ra[e] = A[(row0 + x / BK) * K + (t + 1) * BK + x % BK];
        rb[e] = B[((t + 1) * BK + x / BN) * N + col0 + x % BN];
      }
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] +=
              __bfloat162float(As[write_stage ^ 1][tRow * TM + i][kk]) *
              __bfloat162float(Bs[write_stage ^ 1][kk][tCol * TN + j]);
    if (t + 1 < tiles) {
      for (int e = 0; e < 8; ++e) {
        const int x = threadIdx.x + e * 256;
        As[write_stage][x / BK][x % BK] = ra[e];
        Bs[write_stage][x / BN][x % BN] = rb[e];
      }
    }
    __syncthreads();
    write_stage ^= 1;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}
