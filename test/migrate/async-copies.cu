// Staging copies made with the pipeline primitives of cuda_pipeline.h:
// `__pipeline_memcpy_async(&tile[i], &A[j], 16)` is followed as the copy of
// eight consecutive bf16 elements that it makes once complete, which it is
// once committed and waited for (`__pipeline_commit();
// __pipeline_wait_prior(0);`) before the barrier that follows it. The first
// kernel stages one tile per iteration; the second stages the next
// iteration's tiles into a second buffer during the product, and the third
// keeps them in flight until the next iteration; the last three make the
// copies in PTX. (The outputs
// are checked without this file's own check lines, which they copy.)
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

// CHECK-LABEL: __global__ void async_tiles_tiled(
// CHECK: auto a = tawa::load<128, 64>(A, m0, k0);
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void async_tiles(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    // 256 threads, 8 elements each: one 16-byte copy of A and one of B.
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
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// CHECK-LABEL: __global__ void async_double_buffer_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void async_double_buffer(int M, int N, int K, float alpha,
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
  __pipeline_wait_prior(0);
  __syncthreads();
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

// Two stages in flight: the copies of the next iteration's tiles stay in
// flight across the product, and each iteration waits for all groups but the
// one it has just committed before its first barrier; the first tiles are
// not waited for before the loop.
// CHECK-LABEL: __global__ void async_in_flight_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void async_in_flight(int M, int N, int K, float alpha,
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

// The same copies in PTX (PTX ISA 9.7.9.25): `cp.async.cg.shared.global`
// to the shared address of a tile element, `cp.async.commit_group;` and
// `cp.async.wait_group 0;`; then `.ca` with the size as an operand and
// `cp.async.wait_all;`.
// CHECK-LABEL: __global__ void asm_tiles_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void asm_tiles(int M, int N, int K, const __nv_bfloat16 *A,
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
    uint32_t sa = static_cast<uint32_t>(__cvta_generic_to_shared(&As[ar][ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa),
                 "l"(&A[(row0 + ar) * K + k0 + ac]));
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(B + (k0 + br) * N + col0 + bc));
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
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}
// CHECK-LABEL: __global__ void asm_wait_all_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void asm_wait_all(int M, int N, int K, const __nv_bfloat16 *A,
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
    uint32_t sa = static_cast<uint32_t>(__cvta_generic_to_shared(&As[ar][ac]));
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(sa),
                 "l"(&A[(row0 + ar) * K + k0 + ac]), "n"(16));
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(
                     (uint32_t)__cvta_generic_to_shared(&Bs[br][bc])),
                 "l"(B + (k0 + br) * N + col0 + bc));
    asm volatile("cp.async.wait_all;" ::: "memory");
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
// CHECK-LABEL: __global__ void asm_in_flight_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void asm_in_flight(int M, int N, int K, float alpha,
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
  const uint32_t a0 = __cvta_generic_to_shared(&As[0][ar][ac]);
  const uint32_t b0 = __cvta_generic_to_shared(&Bs[0][br][bc]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a0),
               "l"(&A[(row0 + ar) * K + ac]));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(b0),
               "l"(&B[br * N + col0 + bc]));
  asm volatile("cp.async.commit_group;\n" ::);
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      const uint32_t a1 = __cvta_generic_to_shared(&As[nxt][ar][ac]);
      const uint32_t b1 = __cvta_generic_to_shared(&Bs[nxt][br][bc]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a1),
                   "l"(&A[(row0 + ar) * K + k1 + ac]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(b1),
                   "l"(&B[(k1 + br) * N + col0 + bc]));
    }
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group %0;\n" ::"n"(1));
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

void launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, float *C) {
  dim3 grid(N / BN, M / BM);
  async_tiles<<<grid, 256>>>(M, N, K, A, B, C);
  async_double_buffer<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  async_in_flight<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  asm_tiles<<<grid, 256>>>(M, N, K, A, B, C);
  asm_wait_all<<<grid, 256>>>(M, N, K, A, B, C);
  asm_in_flight<<<grid, 256>>>(M, N, K, alpha, A, B, C);
}
