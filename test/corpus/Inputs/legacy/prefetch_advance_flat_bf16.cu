// A register-blocked bf16 GEMM in the SGEMM tutorials' style (pointers moved
// to the block's tiles, then advanced by BK each iteration) that stages the
// next iteration's tiles during the product into the other half of two
// one-dimensional buffers, As[2][BM * BK]. No bounds checks: M and N
// multiples of 64, K of 16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void prefetch_advance_flat(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[2][BM * BK];
  __shared__ __nv_bfloat16 Bs[2][BK * BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    A += BK;
    B += BK * N;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e] = A[(e / BK) * K + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e] = B[(e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[cur][(tRow * TM + i) * BK + kk]) *
                       __bfloat162float(Bs[cur][kk * BN + tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(tRow * TM + i) * N + tCol * TN + j] = alpha * acc[i][j];
}
void prefetch_advance_flat_run(int M, int N, int K, float alpha,
                               const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               float *C) {
  prefetch_advance_flat<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
}
