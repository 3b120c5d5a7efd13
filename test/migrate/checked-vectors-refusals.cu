// Bounds-checked vector loads refused: a vector declared before the loop and
// loaded under a check in each iteration keeps the last iteration's elements
// where the check fails, not zeros; a check of the element past the vector
// does not cover its first; a second load under another check keeps the
// first's elements where it fails; a double-buffered loop's prefetch under a
// bounds check is refused. Each kernel is left as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// CHECK: checked-vectors-refusals.cu:[[@LINE+12]]:3: warning: {{.*}}expected the vector 'va' loaded from consecutive elements
__global__ void kept_across(int M, int N, int K, const __nv_bfloat16 *A,
                            const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  float acc[TM][TN] = {};
  uint4 va = make_uint4(0, 0, 0, 0);
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    if (row0 + ar < M && k0 + ac < K)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    *reinterpret_cast<uint4 *>(&As[ar][ac]) = va;
    uint4 vb = make_uint4(0, 0, 0, 0);
    if (k0 + br < K && col0 + bc < N)
      vb = *reinterpret_cast<const uint4 *>(&B[(k0 + br) * N + col0 + bc]);
    *reinterpret_cast<uint4 *>(&Bs[br][bc]) = vb;
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

// CHECK: checked-vectors-refusals.cu:[[@LINE+11]]:3: warning: {{.*}}the bounds check of this staging copy is not 'row < M && k < K'
__global__ void past_the_vector(int M, int N, int K, const __nv_bfloat16 *A,
                                const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    uint4 va = make_uint4(0, 0, 0, 0);
    if (row0 + ar < M && k0 + ac + 8 < K)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    *reinterpret_cast<uint4 *>(&As[ar][ac]) = va;
    uint4 vb = make_uint4(0, 0, 0, 0);
    if (k0 + br < K && col0 + bc < N)
      vb = *reinterpret_cast<const uint4 *>(&B[(k0 + br) * N + col0 + bc]);
    *reinterpret_cast<uint4 *>(&Bs[br][bc]) = vb;
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

// CHECK: checked-vectors-refusals.cu:[[@LINE+11]]:3: warning: {{.*}}expected, before the first barrier, staging copies
__global__ void reloaded(int M, int N, int K, const __nv_bfloat16 *A,
                                const __nv_bfloat16 *B, float *C) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    uint4 va = make_uint4(0, 0, 0, 0);
    if (row0 + ar < M)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    if (k0 + ac < K)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    *reinterpret_cast<uint4 *>(&As[ar][ac]) = va;
    uint4 vb = make_uint4(0, 0, 0, 0);
    if (k0 + br < K && col0 + bc < N)
      vb = *reinterpret_cast<const uint4 *>(&B[(k0 + br) * N + col0 + bc]);
    *reinterpret_cast<uint4 *>(&Bs[br][bc]) = vb;
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

// A double-buffered loop's register prefetch under a bounds check, into a
// vector of zeros declared before the loop (where the next tile's check
// fails, it keeps the last tile's elements): only the loop's condition one
// step on may guard the next tiles' copies there.
// CHECK: checked-vectors-refusals.cu:[[@LINE+21]]:3: warning: {{.*}}the loop's condition one step on
__global__ void prefetch_kept(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                              float *C, int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 sA[2][BM][BK];
  __shared__ __align__(16) __nv_bfloat16 sB[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  float acc[TM][TN] = {};
  uint4 pa = make_uint4(0, 0, 0, 0);
  if (row0 + ar < M && ac < K)
    pa = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + ac]);
  *reinterpret_cast<uint4 *>(&sA[0][ar][ac]) = pa;
  uint4 p0 = make_uint4(0, 0, 0, 0);
  if (br < K && col0 + bc < N)
    p0 = *reinterpret_cast<const uint4 *>(&B[br * N + col0 + bc]);
  *reinterpret_cast<uint4 *>(&sB[0][br][bc]) = p0;
  __syncthreads();
  const int tiles = (K + BK - 1) / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; t++) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    const int k1 = (t + 1) * BK;
    if (row0 + ar < M && k1 + ac < K)
      pa = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k1 + ac]);
    uint4 pb = make_uint4(0, 0, 0, 0);
    if (k1 + br < K && col0 + bc < N)
      pb = *reinterpret_cast<const uint4 *>(&B[(k1 + br) * N + col0 + bc]);
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(sA[cur][tRow * TM + i][kk]) *
                       __bfloat162float(sB[cur][kk][tCol * TN + j]);
    if (t + 1 < tiles) {
      *reinterpret_cast<uint4 *>(&sA[nxt][ar][ac]) = pa;
      *reinterpret_cast<uint4 *>(&sB[nxt][br][bc]) = pb;
    }
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
  kept_across<<<grid, 256>>>(M, N, K, A, B, C);
  past_the_vector<<<grid, 256>>>(M, N, K, A, B, C);
  reloaded<<<grid, 256>>>(M, N, K, A, B, C);
  prefetch_kept<<<grid, 256>>>(A, B, C, M, N, K);
}
