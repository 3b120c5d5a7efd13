// cp.async wrapped in __device__ helpers, as most pipelines write it:
// cp_async16(smem, gmem) with the shared address taken in the helper from a
// pointer to the tile element, a zero-filling cp_async16_zfill(smem, gmem,
// pred) whose bool parameter is the bounds check and whose source is
// `ok ? &A[j] : A`, cp_async_commit() and cp_async_wait<N>(). Each
// parameter stands for its argument where the helper uses it. (The outputs
// are checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
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

// CHECK-LABEL: __global__ void helpers_ptx_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void helpers_ptx(int M, int N, int K, const __half *A,
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

// Any M; N and K multiples of 8.
// CHECK-LABEL: __global__ void helpers_zfill_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void __launch_bounds__(NT)
    helpers_zfill(const __half *A, const __half *B, __half *C, int M, int N,
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
                 aIn);
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
