// `if (row >= M) continue;` in a loop of the epilogue puts the rest of the
// loop's body under `row < M` (and `row >= M || col >= N` under `row < M &&
// col < N`): the stores lift as under `if (row < M && col < N)`. A
// `continue` in a nested block, or one that skips the rows inside C, is
// refused.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 8
#define NT (BM * BN / TM)

// CHECK-LABEL: __global__ void row_continue_tiled(
// CHECK: tawa::store(dW, m0, n0, acc);
__global__ void row_continue(float *dW, const __nv_bfloat16 *X,
                         const __nv_bfloat16 *dY, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int threadCol = tid % BN, threadRow = tid / BN;
  float acc[TM] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BK * BM; e += NT) {
      const int k = e / BM, m = e % BM;
      As[k][m] = k0 + k < K && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                           : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < BK * BN; e += NT) {
      const int k = e / BN, n = e % BN;
      Bs[k][n] = k0 + k < K && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                           : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < TM; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * TM + i]) * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i;
    if (row >= M)
      continue;
    const int col = n0 + threadCol;
    if (col < N)
      dW[row * N + col] = acc[i];
  }
}


// An `if` whose body is a block of several statements is no `continue`.
// CHECK-LABEL: __global__ void block_then_tiled(
// CHECK: tawa::store(dW, m0, n0, acc);
__global__ void block_then(float *dW, const __nv_bfloat16 *X,
                         const __nv_bfloat16 *dY, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int threadCol = tid % BN, threadRow = tid / BN;
  float acc[TM] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BK * BM; e += NT) {
      const int k = e / BM, m = e % BM;
      As[k][m] = k0 + k < K && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                           : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < BK * BN; e += NT) {
      const int k = e / BN, n = e % BN;
      Bs[k][n] = k0 + k < K && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                           : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < TM; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * TM + i]) * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i;
    if (row < M) {
      const int col = n0 + threadCol;
      if (col < N)
        dW[row * N + col] = acc[i];
    }
  }
}


// CHECK-LABEL: __global__ void both_continue_tiled(
// CHECK: tawa::store(dW, m0, n0, acc);
__global__ void both_continue(float *dW, const __nv_bfloat16 *X,
                         const __nv_bfloat16 *dY, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int threadCol = tid % BN, threadRow = tid / BN;
  float acc[TM] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BK * BM; e += NT) {
      const int k = e / BM, m = e % BM;
      As[k][m] = k0 + k < K && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                           : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < BK * BN; e += NT) {
      const int k = e / BN, n = e % BN;
      Bs[k][n] = k0 + k < K && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                           : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < TM; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * TM + i]) * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i, col = n0 + threadCol;
    if (row >= M || col >= N)
      continue;
    dW[row * N + col] = acc[i];
  }
}


// DIAG: epilogue-continue.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern
__global__ void nested_continue(float *dW, const __nv_bfloat16 *X,
                         const __nv_bfloat16 *dY, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int threadCol = tid % BN, threadRow = tid / BN;
  float acc[TM] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BK * BM; e += NT) {
      const int k = e / BM, m = e % BM;
      As[k][m] = k0 + k < K && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                           : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < BK * BN; e += NT) {
      const int k = e / BN, n = e % BN;
      Bs[k][n] = k0 + k < K && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                           : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < TM; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * TM + i]) * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i, col = n0 + threadCol;
    {
      if (row >= M)
        continue;
    }
    if (col < N)
      dW[row * N + col] = acc[i];
  }
}


// DIAG: epilogue-continue.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern
__global__ void inside_skipped(float *dW, const __nv_bfloat16 *X,
                         const __nv_bfloat16 *dY, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[BK][BM];
  __shared__ __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int threadCol = tid % BN, threadRow = tid / BN;
  float acc[TM] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BK * BM; e += NT) {
      const int k = e / BM, m = e % BM;
      As[k][m] = k0 + k < K && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                           : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < BK * BN; e += NT) {
      const int k = e / BN, n = e % BN;
      Bs[k][n] = k0 + k < K && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                           : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < TM; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * TM + i]) * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i, col = n0 + threadCol;
    if (row < M)
      continue;
    if (col < N)
      dW[row * N + col] = acc[i];
  }
}


void launch(float *dW, const __nv_bfloat16 *X, const __nv_bfloat16 *dY, int M,
            int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  row_continue<<<grid, NT>>>(dW, X, dY, M, N, K);
  both_continue<<<grid, NT>>>(dW, X, dY, M, N, K);
  block_then<<<grid, NT>>>(dW, X, dY, M, N, K);
  nested_continue<<<grid, NT>>>(dW, X, dY, M, N, K);
  inside_skipped<<<grid, NT>>>(dW, X, dY, M, N, K);
}
