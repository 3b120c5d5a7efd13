// Asynchronous copies the tool cannot follow as staging copies are refused
// and the file is left as it is: a copy not waited for before the barrier, a
// wait for all but the latest batch, a copy never committed, a wait after
// the barrier, a zero fill, a copy between types, and a copy into a
// misaligned place of the tile; in PTX, a wait for all but the latest
// group, a `.cg` copy of 8 bytes, a source size, and no wait.
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not waited for
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)'
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not committed and waited for
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not waited for
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
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

// CHECK: async-copies-refusals.cu:[[@LINE+9]]:3: warning: {{.*}}this asynchronous copy is not waited for
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

void launch(int M, int N, int K, const __nv_bfloat16 *A,
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
}
