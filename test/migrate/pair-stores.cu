// Results stored two at a time as 16-bit pairs: `*reinterpret_cast<__half2
// *>(&C[j]) = __floats2half2_rn(x, y);` is a store of x into C[j] and of y
// into C[j + 1], each rounded to nearest as a store of a float into C is
// (also `__halves2half2`, and the bf16 pairs of cuda_bf16.h), also through
// a local pair stored right after it is made or its members set, alone or
// under a bounds check of its own, and a pair stored at its index in pairs.
// (The outputs
// are checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void half_pairs_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void half_pairs(int M, int N, int K, float alpha, const __half *A,
                           const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN + j;
      *reinterpret_cast<__half2 *>(&C[c]) =
          __floats2half2_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
    }
}

// bf16 pairs indexed through a pair pointer, made of converted halves.
// CHECK-LABEL: __global__ void bf16_pairs_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void bf16_pairs(int M, int N, int K, const __nv_bfloat16 *A,
                           const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN / 2; ++j)
      reinterpret_cast<__nv_bfloat162 *>(
          &C[(row0 + tRow * TM + i) * N + col0 + tCol * TN])[j] =
          __halves2bfloat162(__float2bfloat16_rn(acc[i][2 * j]),
                             __float2bfloat16_rn(acc[i][2 * j + 1]));
}

// Bounds-checked pairs: the check of a pair's first column stands for both
// where N is even, which the launcher requires.
// CHECK-LABEL: __global__ void checked_pairs_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: where N is a multiple of 2 (accesses of 2 elements are under one
// CHECK: N % 2 != 0
__global__ void checked_pairs(int M, int N, int K, const __half *A,
                              const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256) {
      const int r = row0 + i / BK, c = k0 + i % BK;
      As[i / BK][i % BK] = r < M && c < K ? A[r * K + c] : __float2half_rn(0.0f);
    }
    for (int i = threadIdx.x; i < BK * BN; i += 256) {
      const int r = k0 + i / BN, c = col0 + i % BN;
      Bs[i / BN][i % BN] = r < K && c < N ? B[r * N + c] : __float2half_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        *reinterpret_cast<__half2 *>(&C[r * N + c]) =
            __floats2half2_rn(acc[i][j], acc[i][j + 1]);
    }
}

// A pair held in a local first, under the bounds check.
// CHECK-LABEL: __global__ void pair_locals_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void pair_locals(int M, int N, int K, float alpha, const __half *A,
                            const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256) {
      const int r = row0 + i / BK, c = k0 + i % BK;
      As[i / BK][i % BK] = r < M && c < K ? A[r * K + c] : __float2half_rn(0.0f);
    }
    for (int i = threadIdx.x; i < BK * BN; i += 256) {
      const int r = k0 + i / BN, c = col0 + i % BN;
      Bs[i / BN][i % BN] = r < K && c < N ? B[r * N + c] : __float2half_rn(0.0f);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N) {
        const __half2 h =
            __floats2half2_rn(alpha * acc[i][j], alpha * acc[i][j + 1]);
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = h;
      }
    }
}

// A bf16 pair declared without a value, its members set one by one.
// CHECK-LABEL: __global__ void pair_members_tiled(
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc));
__global__ void pair_members(int M, int N, int K, const __nv_bfloat16 *A,
                             const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      __nv_bfloat162 p;
      p.x = __float2bfloat16_rn(fmaxf(acc[i][j], 0.0f));
      p.y = __float2bfloat16_rn(fmaxf(acc[i][j + 1], 0.0f));
      *reinterpret_cast<__nv_bfloat162 *>(
          &C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j]) = p;
    }
}

void launch(const __half *A, const __half *B, __half *C,
            const __nv_bfloat16 *A2, const __nv_bfloat16 *B2,
            __nv_bfloat16 *C2, int M, int N, int K) {
  dim3 grid(N / BN, M / BM);
  half_pairs<<<grid, 256>>>(M, N, K, 1.5f, A, B, C);
  bf16_pairs<<<grid, 256>>>(M, N, K, A2, B2, C2);
  checked_pairs<<<grid, 256>>>(M, N, K, A, B, C);
  pair_locals<<<grid, 256>>>(M, N, K, 1.5f, A, B, C);
  pair_members<<<grid, 256>>>(M, N, K, A2, B2, C2);
}

// A local pair made before the bounds check that guards its store: the
// store stands alone under the check right after it, so the pair's stores
// are made under that check.
// CHECK-LABEL: __global__ void pair_local_apart_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: N % 2 != 0
__global__ void pair_local_apart(int M, int N, int K, const __half *A,
                                 const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      const __half2 h = __floats2half2_rn(acc[i][j], acc[i][j + 1]);
      if (r < M && c < N)
        *reinterpret_cast<__half2 *>(&C[r * N + c]) = h;
    }
}

// Members set one by one, then the pair stored under a check of its own.
// CHECK-LABEL: __global__ void pair_members_apart_tiled(
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc));
// CHECK: N % 2 != 0
__global__ void pair_members_apart(int M, int N, int K,
                                   const __nv_bfloat16 *A,
                                   const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      __nv_bfloat162 p;
      p.x = __float2bfloat16_rn(fmaxf(acc[i][j], 0.0f));
      p.y = __float2bfloat16_rn(fmaxf(acc[i][j + 1], 0.0f));
      if (r < M && c < N) {
        *reinterpret_cast<__nv_bfloat162 *>(&C[r * N + c]) = p;
      }
    }
}

// A pair stored through its index in pairs, `reinterpret_cast<__half2
// *>(C)[(r * N + c) / 2]`: the first element's index halved, even where N
// is, which the launcher requires.
// CHECK-LABEL: __global__ void pair_halved_index_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: N is even (a pair's
// CHECK: N % 2 != 0
__global__ void pair_halved_index(int M, int N, int K, const __half *A,
                                  const __half *B, __half *C) {
  __shared__ __half As[BM][BK];
  __shared__ __half Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += 256)
      As[i / BK][i % BK] = A[(row0 + i / BK) * K + k0 + i % BK];
    for (int i = threadIdx.x; i < BK * BN; i += 256)
      Bs[i / BN][i % BN] = B[(k0 + i / BN) * N + col0 + i % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[tRow * TM + i][kk]) *
                       __half2float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      reinterpret_cast<__half2 *>(C)[(r * N + c) / 2] =
          __floats2half2_rn(acc[i][j], acc[i][j + 1]);
    }
}

void launch_apart(const __half *A, const __half *B, __half *C,
                  const __nv_bfloat16 *A2, const __nv_bfloat16 *B2,
                  __nv_bfloat16 *C2, int M, int N, int K) {
  dim3 grid(N / BN, M / BM);
  pair_local_apart<<<grid, 256>>>(M, N, K, A, B, C);
  pair_members_apart<<<grid, 256>>>(M, N, K, A2, B2, C2);
  pair_halved_index<<<grid, 256>>>(M, N, K, A, B, C);
}
