// Register-blocked GEMMs whose epilogue builds a vector from the
// accumulators and stores it whole, as the vectorized SGEMM tutorials do:
// a float4 declared without a value with its members set one by one, a
// float4 made by make_float4 (with beta * C read member by member), and
// make_float2 stored directly; a vector made before the bounds check and
// stored alone under it. Each member is a store of its element of C.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK-LABEL: __global__ void members_set_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void members_set(int M, int N, int K, float alpha,
                            const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            float *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      As[e / BK][e % BK] = A[(row0 + e / BK) * K + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    *reinterpret_cast<float4 *>(
        &C[(row0 + tRow * TM + i) * N + col0 + tCol * TN]) = out;
  }
}

// CHECK-LABEL: __global__ void made_with_beta_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
__global__ void made_with_beta(int M, int N, int K, float alpha, float beta,
                               const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               float *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      As[e / BK][e % BK] = A[(row0 + e / BK) * K + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int c = (row0 + tRow * TM + i) * N + col0 + tCol * TN;
    float4 out = make_float4(alpha * acc[i][0] + beta * C[c],
                             alpha * acc[i][1] + beta * C[c + 1],
                             alpha * acc[i][2] + beta * C[c + 2],
                             alpha * acc[i][3] + beta * C[c + 3]);
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK-LABEL: __global__ void made_in_place_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void made_in_place(int M, int N, int K, const __nv_bfloat16 *A,
                              const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      As[e / BK][e % BK] = A[(row0 + e / BK) * K + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2)
      reinterpret_cast<float2 *>(
          &C[(row0 + tRow * TM + i) * N + col0 + tCol * TN + j])[0] =
          make_float2(acc[i][j], acc[i][j + 1]);
}

// CHECK-LABEL: __global__ void made_before_check_tiled(
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: N % 4 != 0
__global__ void made_before_check(int M, int N, int K, float alpha, float beta,
                                  const __nv_bfloat16 *A,
                                  const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[BM][BK];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      As[e / BK][e % BK] = A[(row0 + e / BK) * K + k0 + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + tRow * TM + i, col = col0 + tCol * TN;
    float4 out;
    out.x = alpha * acc[i][0] + beta * C[r * N + col];
    out.y = alpha * acc[i][1] + beta * C[r * N + col + 1];
    out.z = alpha * acc[i][2] + beta * C[r * N + col + 2];
    out.w = alpha * acc[i][3] + beta * C[r * N + col + 3];
    if (r < M && col < N)
      *reinterpret_cast<float4 *>(&C[r * N + col]) = out;
  }
}

void launch(int M, int N, int K, float alpha, float beta,
            const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C) {
  dim3 grid(N / BN, M / BM);
  members_set<<<grid, 256>>>(M, N, K, alpha, A, B, C);
  made_with_beta<<<grid, 256>>>(M, N, K, alpha, beta, A, B, C);
  made_in_place<<<grid, 256>>>(M, N, K, A, B, C);
  made_before_check<<<grid, 256>>>(M, N, K, alpha, beta, A, B, C);
}
