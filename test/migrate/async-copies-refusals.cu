// Asynchronous copies the tool cannot follow as staging copies are refused
// and the file is left as it is: a copy not waited for before the barrier, a
// wait for all but the latest batch, a copy never committed, a wait after
// the barrier, a zero fill, a copy between types, and a copy into a
// misaligned place of the tile; in PTX, a wait for all but the latest
// group, a `.cg` copy of 8 bytes, a source size, and no wait. Copies kept
// in flight into the next iteration: a commit under the prefetch's
// condition followed by a wait for all but one group, a wait for all but the last two groups, a wait before the
// commit, a read before the loop's first barrier, copies the last iteration
// makes too, and copies before the loop not waited for; later iterations
// that never wait, or that keep more groups than the first, a read of copies
// waited for with no barrier after the wait, a shared address of a fixed
// buffer set before the loop, a shared address changed in a helper, an
// asm input with a side effect; a commit and a wait for all but the latest
// group in one asm statement, and a barrier in the asm statement of a wait.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void not_waited(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void waits_for_older(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void never_committed(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void waits_after_barrier(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __syncthreads();
    __pipeline_wait_prior(0);
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)'
__global__ void zero_fill(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16, 8);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)'
__global__ void between_types(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __half As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)'
__global__ void misaligned(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    __pipeline_memcpy_async(&As[ar][ac / 2], &A[(row0 + ar) * K + k0 + ac / 2], 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void asm_waits_for_older(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
__global__ void asm_cg_eight_bytes(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 8;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
__global__ void asm_source_size(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]), "r"(0));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void asm_not_waited(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.commit_group;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this wait follows a commit under the prefetch's condition, which the last iteration skips
__global__ void flight_commit_in_if(int M, int N, int K, float alpha,
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
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
      __pipeline_commit();
    }
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void flight_waits_two(int M, int N, int K, float alpha,
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
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void flight_wait_then_commit(int M, int N, int K, float alpha,
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
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_wait_prior(1);
    __pipeline_commit();
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}the loop reads 'As' before its first barrier
__global__ void flight_reads_first(int M, int N, int K, float alpha,
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
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy is still in flight after the loop
__global__ void flight_unconditional(int M, int N, int K, float alpha,
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
    {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+16]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void flight_single_wait_zero_late(int M, int N, int K, float alpha,
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
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc],
                              16);
    }
    __pipeline_commit();
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __pipeline_wait_prior(0);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}


// CHECK: async-copies-refusals.cu:[[@LINE+17]]:3: warning: {{.*}}this asynchronous copy of the next iteration's tiles is not complete at the barrier that ends the loop body, and the next iteration reads them before its first barrier: wait before that barrier for every group ('__pipeline_wait_prior(0);'
__global__ void never_waits(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
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
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+17]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void extra_empty_groups(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
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
  __pipeline_commit();
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+17]]:3: warning: {{.*}}this asynchronous copy of the next iteration's tiles is not complete at the barrier that ends the loop body
__global__ void waits_without_barrier(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
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
  __pipeline_wait_prior(0);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(row0 + ar) * K + k1 + ac], 16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + col0 + bc], 16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+19]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
__global__ void address_set_before_loop(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  const uint32_t a0 = __cvta_generic_to_shared(&As[0][ar][ac]);
  const uint32_t b0 = __cvta_generic_to_shared(&Bs[0][br][bc]);
  const uint32_t a1 = __cvta_generic_to_shared(&As[1][ar][ac]);
  const uint32_t b1 = __cvta_generic_to_shared(&Bs[1][br][bc]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a0), "l"(&A[(row0 + ar) * K + ac]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(b0), "l"(&B[br * N + col0 + bc]));
  asm volatile("cp.async.commit_group;\n" ::);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a1), "l"(&A[(row0 + ar) * K + k1 + ac]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(b1), "l"(&B[(k1 + br) * N + col0 + bc]));
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+17]]:3: warning: {{.*}}the shared address 's' is changed
__device__ void address_changed_in_helper_pf(__nv_bfloat16 T[BM][BK], int r, int c, const __nv_bfloat16 *src) {
  uint32_t s = __cvta_generic_to_shared(&T[r][c]);
  s = 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src));
}
__global__ void address_changed_in_helper(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int k0 = t * BK;
    address_changed_in_helper_pf(As, ar, ac, &A[(row0 + ar) * K + k0 + ac]);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+12]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
__global__ void asm_input_side_effect(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int k0 = t * BK;
    int bo = bc;
    uint32_t sa = __cvta_generic_to_shared(&As[ar][ac]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(&A[(row0 + ar) * K + k0 + ac]), "r"(bo = bc ^ 8));
    __pipeline_memcpy_async(&Bs[br][bo], &B[(k0 + br) * N + col0 + bc], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = alpha * acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not complete at the barrier that follows it
__global__ void asm_commit_waits_for_older(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 1;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}breaks it: the loop body has one '__syncthreads();'
__global__ void asm_wait_and_barrier(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
    const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&As[ar][ac])),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(&B[(k0 + br) * N + col0 + bc]));
    asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;\n\tbar.sync 0;\n" ::
                     : "memory");
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

void launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, float *C) {
  dim3 grid(N / BN, M / BM);
  not_waited<<<grid, 256>>>(M, N, K, A, B, C);
  waits_for_older<<<grid, 256>>>(M, N, K, A, B, C);
  never_committed<<<grid, 256>>>(M, N, K, A, B, C);
  waits_after_barrier<<<grid, 256>>>(M, N, K, A, B, C);
  zero_fill<<<grid, 256>>>(M, N, K, A, B, C);
  between_types<<<grid, 256>>>(M, N, K, A, B, C);
  misaligned<<<grid, 256>>>(M, N, K, A, B, C);
  asm_waits_for_older<<<grid, 256>>>(M, N, K, A, B, C);
  asm_cg_eight_bytes<<<grid, 256>>>(M, N, K, A, B, C);
  asm_source_size<<<grid, 256>>>(M, N, K, A, B, C);
  asm_not_waited<<<grid, 256>>>(M, N, K, A, B, C);
  flight_commit_in_if<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  flight_waits_two<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  flight_wait_then_commit<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  flight_reads_first<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  flight_unconditional<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  flight_single_wait_zero_late<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  never_waits<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  extra_empty_groups<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  waits_without_barrier<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  address_set_before_loop<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  address_changed_in_helper<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  asm_input_side_effect<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  asm_commit_waits_for_older<<<grid, 256>>>(M, N, K, A, B, C);
  asm_wait_and_barrier<<<grid, 256>>>(M, N, K, A, B, C);
}
