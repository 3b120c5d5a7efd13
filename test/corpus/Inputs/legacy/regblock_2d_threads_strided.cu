// Register blocking with a 2-D 16x16 thread block, each thread 4x4 outputs
// strided by 16 (C[row0 + i*16][col0 + j*16]), bounds checked everywhere,
// A staged transposed As[k][m].
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BLK 64
#define BKK 16
#define RPT 4

__global__ void gemm_rb(const __half *A, const __half *B, float *C, int M, int N, int K) {
  __shared__ __half As[BKK][BLK];
  __shared__ __half Bs[BKK][BLK];
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
    // 64x16 of A = 1024 elements, 256 threads: 4 each
    for (int e = tid; e < BLK * BKK; e += 256) {
      int m = e / BKK, kk = e % BKK;
      int gr = rowBase + m, gk = k0 + kk;
      As[kk][m] = (gr < M && gk < K) ? A[gr * K + gk] : __float2half(0.0f);
    }
    for (int e = tid; e < BKK * BLK; e += 256) {
      int kk = e / BLK, n = e % BLK;
      int gk = k0 + kk, gc = colBase + n;
      Bs[kk][n] = (gk < K && gc < N) ? B[gk * N + gc] : __float2half(0.0f);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BKK; ++kk) {
      float a[RPT], b[RPT];
#pragma unroll
      for (int i = 0; i < RPT; ++i) a[i] = __half2float(As[kk][ty + i * 16]);
#pragma unroll
      for (int j = 0; j < RPT; ++j) b[j] = __half2float(Bs[kk][tx + j * 16]);
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
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

void gemm_rb_launch(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + BLK - 1) / BLK, (M + BLK - 1) / BLK);
  gemm_rb<<<grid, block>>>(A, B, C, M, N, K);
}
