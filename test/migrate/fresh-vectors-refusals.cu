// Fresh vectors in epilogues that do not store what the kernel computes, or
// that the tool cannot follow, are refused and the file is left as it is:
// a member never set before the store, a statement between the sets and the
// store, a store under a check the sets are not under, a member set twice,
// members that land on the wrong elements of C, a member read after it was
// set, and a float4 made into C of another element type.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the vector 'out' is stored into C with members that were never set
__global__ void member_unset(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected the members of the vector 'out' set one by one
__global__ void statement_between(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    acc[i][2] = 0.0f;
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// A vector stored under a check of its flat index, no bounds check of its
// row and column.
// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the store must write C[row * ldc + col]
__global__ void store_checked(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    if (c < M * N)
      *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected the members of the vector 'out' set one by one
__global__ void set_twice(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    out.x = alpha * acc[i][1];
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}does not gain
__global__ void members_swapped(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][1];
    out.y = alpha * acc[i][0];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected the stored value 'acc'
__global__ void member_read(int M, int N, int K, float alpha,
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
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = out.x + alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    *reinterpret_cast<float4 *>(&C[c]) = out;
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}expected a vector made of stored values
__global__ void made_into_bf16(int M, int N, int K, float alpha,
                            const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C) {
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
    *reinterpret_cast<float4 *>(&C[c]) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
  }
}

// CHECK: fresh-vectors-refusals.cu:[[@LINE+10]]:3: warning: {{.*}}the store must write C
__global__ void made_elsewhere(int M, int N, int K, float alpha,
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
    float4 out = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    *reinterpret_cast<float4 *>(&C[c + 4]) = out;
  }
}

void launch(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
            const __nv_bfloat16 *B, float *C) {
  dim3 grid(N / BN, M / BM);
  member_unset<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  statement_between<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  store_checked<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  set_twice<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  members_swapped<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  member_read<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
  made_into_bf16<<<grid, 256>>>(M, N, K, alpha, A, B, (__nv_bfloat16 *)C);
  made_elsewhere<<<grid, 256>>>(M, N, K, alpha, A, B, (float *)C);
}
