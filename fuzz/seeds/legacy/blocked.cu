#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;
#define BM 32
#define BN 32
#define BK 8
#define TM 4
#define TN 4
// 64 threads, a 4 x 4 micro-tile each.
#define SETUP                                                                  \
  __shared__ bf16 As[BM * BK];                                                 \
  __shared__ bf16 Bs[BK * BN];                                                 \
  const int threadCol = threadIdx.x % (BN / TN);                               \
  const int threadRow = threadIdx.x / (BN / TN);                               \
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;        \
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;        \
  A += blockIdx.y * BM * K;                                                    \
  B += blockIdx.x * BN;                                                        \
  C += blockIdx.y * BM * N + blockIdx.x * BN;
#define STAGE_A(STRIDE)                                                        \
  for (int o = 0; o < BM; o += STRIDE)                                         \
    As[(innerRowA + o) * BK + innerColA] = A[(innerRowA + o) * K + innerColA];
#define STAGE_B                                                                \
  for (int o = 0; o < BK; o += 2)                                              \
    Bs[(innerRowB + o) * BN + innerColB] = B[(innerRowB + o) * N + innerColB];
#define ADVANCE                                                                \
  A += BK;                                                                     \
  B += BK * N;
#define A_OF(I, K_) __bfloat162float(As[(threadRow * TM + (I)) * BK + (K_)])
#define B_OF(K_, J) __bfloat162float(Bs[(K_) * BN + threadCol * TN + (J)])
#define PRODUCT                                                                \
  for (int k = 0; k < BK; ++k)                                                 \
    for (int i = 0; i < TM; ++i)                                               \
      for (int j = 0; j < TN; ++j)                                             \
        acc[i * TN + j] += A_OF(i, k) * B_OF(k, j);
#define STORE                                                                  \
  for (int i = 0; i < TM; ++i)                                                 \
    for (int j = 0; j < TN; ++j)                                               \
      C[(threadRow * TM + i) * N + threadCol * TN + j] = acc[i * TN + j];

__global__ void control(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
