// Register blocking (256 threads, 64 x 64 x 16 tiles, 4 x 4 outputs per
// thread) for multiples of the tiles: the staging a lambda copying what it
// captures, the product one row of the micro-tile per call of a lambda
// declared in the loop over rows and copying that row's index.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void matmul_row_lambdas(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                                   int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  auto copy = [=](int k0) {
    for (int i = tid; i < 64 * 16; i += 256) {
      As[i / 16][i % 16] = A[(row0 + i / 16) * K + k0 + i % 16];
      Bs[i / 64][i % 64] = B[(k0 + i / 64) * N + col0 + i % 64];
    }
  };
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    copy(k0);
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
      auto row = [=, &acc](int j) {
        for (int k = 0; k < 16; ++k)
          acc[i][j] += __bfloat162float(As[tr * 4 + i][k]) * __bfloat162float(Bs[k][tc * 4 + j]);
      };
      for (int j = 0; j < 4; ++j)
        row(j);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + tr * 4 + i) * N + col0 + tc * 4 + j] = acc[i][j];
}

void matmul_row_lambdas_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                               int N, int K, cudaStream_t stream) {
  matmul_row_lambdas<<<dim3(N / 64, M / 64), 256, 0, stream>>>(A, B, C, M, N, K);
}
