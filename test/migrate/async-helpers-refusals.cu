// cp.async helpers ('async-helpers.cu') used wrongly: a copy into the
// buffer the iteration reads, a wait for all but one group at the top of the
// body (the copies of the tiles it reads are the latest group), no wait, and
// a zero-filling copy whose source is checked by another bounds check than
// its size. Each is refused and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>
#include <stdint.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem) {
  uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cp_async16_zfill(void *smem, const void *gmem,
                                                 bool pred) {
  const uint32_t s = (uint32_t)__cvta_generic_to_shared(smem);
  const int bytes = pred ? 16 : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s),
               "l"(gmem), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;" ::);
}
template <int N> __device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}

// CHECK: async-helpers-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}the loop must stage the next iteration's elements of 'As' into buffer (i + 1) % 2, not the one it reads (in the __device__ function 'cp_async16', called at line
__global__ void current_buffer(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  cp_async16(&As[0][ar][ac], &A[(row0 + ar) * K + ac]);
  cp_async16(&Bs[0][br][bc], &B[br * N + col0 + bc]);
  cp_async_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<0>();
    __syncthreads();
    if (t + 1 < tiles) {
      const int nxt = (t + 1) & 1;
      cp_async16(&As[t & 1][ar][ac], &A[(row0 + ar) * K + (t + 1) * BK + ac]);
      cp_async16(&Bs[nxt][br][bc], &B[((t + 1) * BK + br) * N + col0 + bc]);
    }
    cp_async_commit();
    const int cur = t & 1;
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

// CHECK: async-helpers-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void waits_for_one_less(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  cp_async16(&As[0][ar][ac], &A[(row0 + ar) * K + ac]);
  cp_async16(&Bs[0][br][bc], &B[br * N + col0 + bc]);
  cp_async_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<1>();
    __syncthreads();
    if (t + 1 < tiles) {
      const int nxt = (t + 1) & 1;
      cp_async16(&As[nxt][ar][ac], &A[(row0 + ar) * K + (t + 1) * BK + ac]);
      cp_async16(&Bs[nxt][br][bc], &B[((t + 1) * BK + br) * N + col0 + bc]);
    }
    cp_async_commit();
    const int cur = t & 1;
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

// CHECK: async-helpers-refusals.cu:[[@LINE+15]]:3: warning: {{.*}}this asynchronous copy, made for the next iteration, is not complete at that iteration's first barrier
__global__ void never_waits(int M, int N, int K, const __half *A,
                                const __half *B, __half *C) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  cp_async16(&As[0][ar][ac], &A[(row0 + ar) * K + ac]);
  cp_async16(&Bs[0][br][bc], &B[br * N + col0 + bc]);
  cp_async_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    __syncthreads();
    if (t + 1 < tiles) {
      const int nxt = (t + 1) & 1;
      cp_async16(&As[nxt][ar][ac], &A[(row0 + ar) * K + (t + 1) * BK + ac]);
      cp_async16(&Bs[nxt][br][bc], &B[((t + 1) * BK + br) * N + col0 + bc]);
    }
    cp_async_commit();
    const int cur = t & 1;
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

// CHECK: async-helpers-refusals.cu:[[@LINE+21]]:3: warning: {{.*}}expected 'cp.async.cg.shared.global [%0], [%1], 16;'
__global__ void __launch_bounds__(NT)
    other_check(const __half *A, const __half *B, __half *C, int M, int N,
                     int K) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  const int tiles = (K + BK - 1) / BK;
  float acc[TM][TN] = {};
  {
    const bool aIn = m0 + ar < M && ac < K;
    const bool bIn = br < K && n0 + bc < N;
    cp_async16_zfill(&As[0][ar][ac], aIn ? &A[(m0 + ar) * K + ac] : A, aIn);
    cp_async16_zfill(&Bs[0][br][bc], bIn ? &B[br * N + n0 + bc] : B, bIn);
    cp_async_commit();
  }
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    cp_async_wait<0>();
    __syncthreads();
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK, nxt = (t + 1) & 1;
      const bool aIn = m0 + ar < M && k1 + ac < K;
      const bool bIn = k1 + br < K && n0 + bc < N;
      cp_async16_zfill(&As[nxt][ar][ac], aIn ? &A[(m0 + ar) * K + k1 + ac] : A,
                 bIn);
      cp_async16_zfill(&Bs[nxt][br][bc], bIn ? &B[(k1 + br) * N + n0 + bc] : B,
                 bIn);
    }
    cp_async_commit();
    const int cur = t & 1;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = m0 + tRow * TM + i, c = n0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = __float2half_rn(acc[i][j]);
    }
}
