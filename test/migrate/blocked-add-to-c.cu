// A register-blocked GEMM that adds its products to a float C, `dW[i] +=
// acc[i]` (a weight gradient accumulated over calls), lifts as `dW[i] =
// dW[i] + acc[i]` does: C's old value added unscaled. `-=` is refused.
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

// CHECK-LABEL: __global__ void add_to_c_tiled(
// CHECK: tawa::store(dW, m0, n0, tawa::load<128, 256>(dW, m0, n0) + acc);
__global__ void add_to_c(float *dW, const __nv_bfloat16 *X,
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
  const int col = n0 + threadCol;
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i;
    if (row < M && col < N)
      dW[row * N + col] += acc[i];
  }
}

// DIAG: blocked-add-to-c.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern{{.*}}line 87 breaks it
__global__ void subtract_from_c(float *dW, const __nv_bfloat16 *X,
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
  const int col = n0 + threadCol;
  for (int i = 0; i < TM; ++i) {
    const int row = m0 + threadRow * TM + i;
    if (row < M && col < N)
      dW[row * N + col] -= acc[i];
  }
}

void launch(float *dW, const __nv_bfloat16 *X, const __nv_bfloat16 *dY, int M,
            int N, int K) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  add_to_c<<<grid, NT>>>(dW, X, dY, M, N, K);
  subtract_from_c<<<grid, NT>>>(dW, X, dY, M, N, K);
}
