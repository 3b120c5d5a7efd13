// Register blocking (4x4 outputs per thread, strided by 16) on bf16 data with
// a bf16 C and BLAS's beta convention written as an update of a local: the
// value starts as alpha * acc, and beta * C is added to it only where beta
// is not 0, so that C is not read where beta is 0.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BLK 64
#define BKK 16
#define RPT 4

__global__ void gemm_beta_if_rb(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                __nv_bfloat16 *C, int M, int N, int K,
                                float alpha, float beta) {
  __shared__ __nv_bfloat16 As[BKK][BLK];
  __shared__ __nv_bfloat16 Bs[BKK][BLK];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 16 + tx;
  const int rowBase = blockIdx.y * BLK;
  const int colBase = blockIdx.x * BLK;
  float acc[RPT][RPT];
#pragma unroll
  for (int i = 0; i < RPT; ++i)
#pragma unroll
    for (int j = 0; j < RPT; ++j)
      acc[i][j] = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BKK) {
    for (int e = tid; e < BLK * BKK; e += 256) {
      int m = e / BKK, kk = e % BKK;
      int gr = rowBase + m, gk = k0 + kk;
      As[kk][m] = (gr < M && gk < K) ? A[gr * K + gk] : __float2bfloat16(0.0f);
    }
    for (int e = tid; e < BKK * BLK; e += 256) {
      int kk = e / BLK, n = e % BLK;
      int gk = k0 + kk, gc = colBase + n;
      Bs[kk][n] = (gk < K && gc < N) ? B[gk * N + gc] : __float2bfloat16(0.0f);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BKK; ++kk) {
      float a[RPT], b[RPT];
#pragma unroll
      for (int i = 0; i < RPT; ++i)
        a[i] = __bfloat162float(As[kk][ty + i * 16]);
#pragma unroll
      for (int j = 0; j < RPT; ++j)
        b[j] = __bfloat162float(Bs[kk][tx + j * 16]);
#pragma unroll
      for (int i = 0; i < RPT; ++i)
#pragma unroll
        for (int j = 0; j < RPT; ++j)
          acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < RPT; ++i)
    for (int j = 0; j < RPT; ++j) {
      int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;
      if (r < M && c < N) {
        float v = alpha * acc[i][j];
        if (beta != 0.0f)
          v += beta * __bfloat162float(C[r * N + c]);
        C[r * N + c] = __float2bfloat16(v);
      }
    }
}

void gemm_beta_if_rb_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C, int M, int N, int K, float alpha,
                            float beta) {
  dim3 block(16, 16);
  dim3 grid((N + BLK - 1) / BLK, (M + BLK - 1) / BLK);
  gemm_beta_if_rb<<<grid, block>>>(A, B, C, M, N, K, alpha, beta);
}
