// Loops that stage the next iteration's tiles with one barrier per
// iteration and none at the end of the body, the form of most cp.async
// pipelines: wait for the copies in flight, '__syncthreads();', stage the
// next tiles into the other buffer, multiply the tiles of this one. The
// barrier of iteration i + 1 orders both the reads of iteration i's tiles
// before the copies into their buffer and the copies of iteration i + 1's
// tiles before their reads. Pipeline primitives with the commit under the
// prefetch's condition (the wait is for every group), PTX, registers, and
// WMMA fragments. (The outputs are checked without this file's own check
// lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <stdint.h>
using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void one_barrier_async_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void one_barrier_async(int M, int N, int K, float alpha,
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
    __pipeline_wait_prior(0);
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


// Copies straight from A and B into the next buffer.
// CHECK-LABEL: __global__ void one_barrier_sync_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_barrier_sync(int M, int N, int K, const __nv_bfloat16 *A,
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
    __syncthreads();
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[(t + 1) % 2][e / BK][e % BK] =
            A[(row0 + e / BK) * K + (t + 1) * BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[(t + 1) % 2][e / BN][e % BN] =
            B[((t + 1) * BK + e / BN) * N + col0 + e % BN];
    }
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

// In PTX, the commit outside the prefetch's condition.
// CHECK-LABEL: __global__ void one_barrier_ptx_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_barrier_ptx(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  {
    uint32_t sa = (uint32_t)__cvta_generic_to_shared(&As[0][ar][ac]);
    uint32_t sb = (uint32_t)__cvta_generic_to_shared(&Bs[0][br][bc]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(&A[(row0 + ar) * K + ac]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sb), "l"(&B[br * N + col0 + bc]));
    asm volatile("cp.async.commit_group;");
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    asm volatile("cp.async.wait_group 0;");
    __syncthreads();
    if (t + 1 < tiles) {
      const int nxt = (t + 1) & 1;
      uint32_t sa = (uint32_t)__cvta_generic_to_shared(&As[nxt][ar][ac]);
      uint32_t sb = (uint32_t)__cvta_generic_to_shared(&Bs[nxt][br][bc]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(&A[(row0 + ar) * K + (t + 1) * BK + ac]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sb), "l"(&B[((t + 1) * BK + br) * N + col0 + bc]));
    }
    asm volatile("cp.async.commit_group;");
    const int cur = t & 1;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = __float2half_rn(acc[i][j]);
}

// The next tiles loaded into registers before the product and stored into
// the next buffer after it.
// CHECK-LABEL: __global__ void one_barrier_regs_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_barrier_regs(int M, int N, int K, const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __nv_bfloat16 ra[8], rb[8];
  for (int e = 0; e < 8; ++e) {
    const int x = threadIdx.x + e * 256;
    As[0][x / BK][x % BK] = A[(row0 + x / BK) * K + x % BK];
    Bs[0][x / BN][x % BN] = B[(x / BN) * N + col0 + x % BN];
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __syncthreads();
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
          acc[i][j] += __bfloat162float(As[t % 2][tRow * TM + i][kk]) *
                       __bfloat162float(Bs[t % 2][kk][tCol * TN + j]);
    if (t + 1 < tiles) {
      for (int e = 0; e < 8; ++e) {
        const int x = threadIdx.x + e * 256;
        As[(t + 1) % 2][x / BK][x % BK] = ra[e];
        Bs[(t + 1) % 2][x / BN][x % BN] = rb[e];
      }
    }
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j] = acc[i][j];
}

// WMMA, 4 warps of 2 x 2 fragments of 16 x 16 over a 64 x 64 tile.
// CHECK-LABEL: __global__ void one_barrier_wmma_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void one_barrier_wmma(int M, int N, int K, const __half *A,
                                 const __half *B, float *C) {
  __shared__ __align__(32) __half As[2][64][32];
  __shared__ __align__(32) __half Bs[2][32][64];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  const int tiles = K / 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int c = threadIdx.x; c < 64 * 32 / 8; c += 128) {
    const int r = c / 4, k = c % 4 * 8;
    __pipeline_memcpy_async(&As[0][r][k], &A[(row0 + r) * K + k], 16);
  }
  for (int c = threadIdx.x; c < 32 * 64 / 8; c += 128) {
    const int r = c / 8, n = c % 8 * 8;
    __pipeline_memcpy_async(&Bs[0][r][n], &B[r * N + col0 + n], 16);
  }
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __pipeline_wait_prior(0);
    __syncthreads();
    if (t + 1 < tiles) {
      for (int c = threadIdx.x; c < 64 * 32 / 8; c += 128) {
        const int r = c / 4, k = c % 4 * 8;
        __pipeline_memcpy_async(&As[(t + 1) % 2][r][k], &A[(row0 + r) * K + (t + 1) * 32 + k], 16);
      }
      for (int c = threadIdx.x; c < 32 * 64 / 8; c += 128) {
        const int r = c / 8, n = c % 8 * 8;
        __pipeline_memcpy_async(&Bs[(t + 1) % 2][r][n], &B[((t + 1) * 32 + r) * N + col0 + n], 16);
      }
    }
    __pipeline_commit();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[t % 2][wr * 32 + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[t % 2][kk][wc * 32 + j * 16], 64);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&C[(row0 + wr * 32 + i * 16) * N + col0 + wc * 32 + j * 16], acc[i][j], N, wmma::mem_row_major);
}
