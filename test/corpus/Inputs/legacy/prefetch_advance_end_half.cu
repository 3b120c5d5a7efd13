// A double-buffered fp16 GEMM whose pointers are advanced at the end of each
// iteration, after the copies of the next tiles, which read one step on
// (A[... + BK + ...]); the epilogue writes alpha * acc as make_float2 pairs.
// No bounds checks: M and N multiples of 64, K of 16.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define BM 64
#define BN 64
#define BK 16
#define TM 4
#define TN 4
__global__ void prefetch_advance_end(int M, int N, int K, float alpha, const __half *A,
                       const __half *B, float *C) {
  __shared__ __half As[2][BM][BK];
  __shared__ __half Bs[2][BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int e = threadIdx.x; e < BM * BK; e += 256)
    As[0][e / BK][e % BK] = A[(e / BK) * K + e % BK];
  for (int e = threadIdx.x; e < BK * BN; e += 256)
    Bs[0][e / BN][e % BN] = B[(e / BN) * N + e % BN];
  __syncthreads();
  const int tiles = K / BK;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      for (int e = threadIdx.x; e < BM * BK; e += 256)
        As[nxt][e / BK][e % BK] = A[(e / BK) * K + BK + e % BK];
      for (int e = threadIdx.x; e < BK * BN; e += 256)
        Bs[nxt][e / BN][e % BN] = B[(BK + e / BN) * N + e % BN];
    }
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; j += 2)
      *reinterpret_cast<float2 *>(&C[(tRow * TM + i) * N + tCol * TN + j]) =
          make_float2(alpha * acc[i][j], alpha * acc[i][j + 1]);
}
void prefetch_advance_end_run(int M, int N, int K, float alpha, const __half *A,
                              const __half *B, float *C) {
  prefetch_advance_end<<<dim3(N / BN, M / BM), 256>>>(M, N, K, alpha, A, B, C);
}
