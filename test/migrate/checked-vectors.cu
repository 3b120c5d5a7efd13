// Bounds-checked vector loads in the staging copies: a vector of zeros
// loaded where a bounds check holds (`uint4 v = make_uint4(0, 0, 0, 0); if
// (ok) v = *reinterpret_cast<const uint4 *>(&A[j]);`, the if/else form, or
// `ok ? load : zeros`), then stored into a tile (whole, or member by
// member), holds its elements where the check holds and zeros where it does
// not; so does `*reinterpret_cast<uint4 *>(&tile[i]) = ok ? load : zeros`. As for a
// zero-filling cp.async, one check stands for all eight elements: it may be
// the check of any of them on the axis the vector runs along, the first
// element's column must be a multiple of 8, and the launcher runs the tiled
// form only where K (B: N) is a multiple of 8. (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

// The declared-zeros form for A, the conditional form for B.
// CHECK-LABEL: __global__ void checked_loads_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: where N and K are multiples of 8 (accesses of 8 elements are under
// CHECK: tawa_grid.z == 0 || N % 8 != 0 ||
// CHECK-NEXT: K % 8 != 0 ||
__global__ void checked_loads(int M, int N, int K, const __nv_bfloat16 *A,
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
    if (row0 + ar < M && k0 + ac < K)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    *reinterpret_cast<uint4 *>(&As[ar][ac]) = va;
    const bool okb = k0 + br < K && col0 + bc + 7 < N;
    const uint4 vb =
        okb ? *reinterpret_cast<const uint4 *>(&B[(k0 + br) * N + col0 + bc])
            : make_uint4(0, 0, 0, 0);
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

// The if/else form, with float4 vectors and `{}` as the zeros.
// CHECK-LABEL: __global__ void checked_else_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: tawa_grid.z == 0 || K % 8 != 0 ||
// CHECK-NEXT: N % 8 != 0 ||
__global__ void checked_else(int M, int N, int K, const __nv_bfloat16 *A,
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
    float4 va, vb;
    if (row0 + ar < M && k0 + ac < K)
      va = *reinterpret_cast<const float4 *>(&A[(row0 + ar) * K + k0 + ac]);
    else
      va = {};
    if (k0 + br < K && col0 + bc < N)
      vb = *reinterpret_cast<const float4 *>(&B[(k0 + br) * N + col0 + bc]);
    else
      vb = float4{};
    *reinterpret_cast<float4 *>(&As[ar][ac]) = va;
    *reinterpret_cast<float4 *>(&Bs[br][bc]) = vb;
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

// fp32 under precision(tf32): A's float4 written transposed into its tile
// member by member, each member under the vector's check.
// CHECK-LABEL: __global__ void member_read_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: tawa_grid.z == 0 || K % 4 != 0 ||
// CHECK-NEXT: N % 4 != 0 ||
__global__ void member_read(int M, int N, int K, const float *A,
                            const float *B, float *C) {
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 4), ac = threadIdx.x % (BK / 4) * 4;
  const int br = threadIdx.x / (BN / 4), bc = threadIdx.x % (BN / 4) * 4;
  float acc[TM][TN] = {};
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int h = 0; h < BM; h += 32) {
      float4 va = make_float4(0.f, 0.f, 0.f, 0.f);
      if (row0 + h + ar < M && k0 + ac < K)
        va = *reinterpret_cast<const float4 *>(
            &A[(row0 + h + ar) * K + k0 + ac]);
      As[ac + 0][h + ar] = va.x;
      As[ac + 1][h + ar] = va.y;
      As[ac + 2][h + ar] = va.z;
      As[ac + 3][h + ar] = va.w;
    }
    for (int h = 0; h < BK; h += 16) {
      float4 vb = make_float4(0.f, 0.f, 0.f, 0.f);
      if (k0 + h + br < K && col0 + bc < N)
        vb = *reinterpret_cast<const float4 *>(
            &B[(k0 + h + br) * N + col0 + bc]);
      *reinterpret_cast<float4 *>(&Bs[h + br][bc]) = vb;
    }
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += As[kk][tRow * TM + i] * Bs[kk][tCol * TN + j];
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

void launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
            const float *A32, const float *B32, int M, int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  checked_loads<<<grid, 256>>>(M, N, K, A, B, C);
  checked_else<<<grid, 256>>>(M, N, K, A, B, C);
  member_read<<<grid, 256>>>(M, N, K, A32, B32, C);
}
