// Bounds-checked cp.async staging copies: a copy of 16 bytes whose source
// size is `ok ? 16 : 0` (PTX) or whose zero fill is `ok ? 0 : 16`
// (`__pipeline_memcpy_async`) reads its eight elements where the check
// holds and writes zeros where it does not. One check stands for all eight
// elements: where the first element's column is a multiple of 8, and so is
// K, the copy is inside A exactly where each of its elements is, so the
// launcher runs the tiled form only where K % 8 == 0 (B's copies run along
// N: N % 8 == 0). (The outputs are checked without this file's own check
// lines, which they copy.)
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

// CHECK-LABEL: __global__ void pipeline_fill_tiled(
// CHECK: auto a = tawa::load<128, 64>(A, m0, k0);
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: where K and N are multiples of 8 (accesses of 8 elements are under
// CHECK: K % 8 != 0 ||
// CHECK-NEXT: N % 8 != 0
__global__ void pipeline_fill(int M, int N, int K, const __nv_bfloat16 *A,
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
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16,
                            row0 + ar < M && k0 + ac < K ? 0 : 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16,
                            k0 + br < K && col0 + bc < N ? 0 : 16);
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
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

// The PTX form, the source size in a local, the check of the copy's last
// element (`k0 + ac + 7 < K`) and a bool local.
// CHECK-LABEL: __global__ void ptx_fill_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void ptx_fill(int M, int N, int K, const __nv_bfloat16 *A,
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
    const uint32_t sa = __cvta_generic_to_shared(&As[ar][ac]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[br][bc]);
    const int na = (row0 + ar < M && k0 + ac + 7 < K) ? 16 : 0;
    const bool okb = k0 + br < K && col0 + bc < N;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                 "l"(&A[(row0 + ar) * K + k0 + ac]), "r"(na));
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2, %3;\n" ::"r"(sb),
                 "l"(&B[(k0 + br) * N + col0 + bc]), "n"(16),
                 "r"(okb ? 16 : 0));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

// The row checked once before the loop, in bool locals (one not const but
// never changed) joined to the column's check; checks written `x + 1 <= K` (`x < K`) and `k0 + c + 8 <=
// K`, the check of the copy's last element.
// CHECK-LABEL: __global__ void hoisted_rows_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void hoisted_rows(int M, int N, int K, const __nv_bfloat16 *A,
                             const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  bool aRow = row0 + ar < M;
  const bool bCol = col0 + bc < N;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    __pipeline_memcpy_async(&As[ar][ac], &A[(row0 + ar) * K + k0 + ac], 16,
                            aRow && k0 + ac + 8 <= K ? 0 : 16);
    __pipeline_memcpy_async(&Bs[br][bc], &B[(k0 + br) * N + col0 + bc], 16,
                            k0 + br + 1 <= K && bCol ? 0 : 16);
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
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

void launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
            int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  pipeline_fill<<<grid, 256>>>(M, N, K, A, B, C);
  ptx_fill<<<grid, 256>>>(M, N, K, A, B, C);
  hoisted_rows<<<grid, 256>>>(M, N, K, A, B, C);
}
