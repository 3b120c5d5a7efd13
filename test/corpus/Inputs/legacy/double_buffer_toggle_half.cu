// Double-buffered tiles whose buffer index is toggled at the end of each
// iteration ('buf ^= 1'): the next tiles are staged while the current ones
// are multiplied. B is N x K (an "NT" GEMM), __half inputs, float C.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BS 32

__global__ void double_buffer_toggle(const __half *A, const __half *B,
                                     float *C, int M, int N, int K) {
  __shared__ __half a_s[2][BS][BS];
  __shared__ __half b_s[2][BS][BS];
  const int tr = threadIdx.y, tc = threadIdx.x;
  const int m = blockIdx.y * BS + tr;
  const int n = blockIdx.x * BS + tc;
  const int nb = blockIdx.x * BS + tr;
  a_s[0][tr][tc] = (m < M && tc < K) ? A[m * K + tc] : __float2half(0.0f);
  b_s[0][tr][tc] = (nb < N && tc < K) ? B[nb * K + tc] : __float2half(0.0f);
  __syncthreads();
  float sum = 0.0f;
  int buf = 0;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BS) {
    if (k0 + BS < K) {
      a_s[buf ^ 1][tr][tc] = (m < M && k0 + BS + tc < K)
                                 ? A[m * K + k0 + BS + tc]
                                 : __float2half(0.0f);
      b_s[buf ^ 1][tr][tc] = (nb < N && k0 + BS + tc < K)
                                 ? B[nb * K + k0 + BS + tc]
                                 : __float2half(0.0f);
    }
    for (int kk = 0; kk < BS; ++kk)
      sum += __half2float(a_s[buf][tr][kk]) * __half2float(b_s[buf][tc][kk]);
    __syncthreads();
    buf ^= 1;
  }
  if (m < M && n < N)
    C[m * N + n] = sum;
}

void double_buffer_toggle_run(const __half *A, const __half *B, float *C,
                              int M, int N, int K) {
  dim3 block(BS, BS);
  dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
  double_buffer_toggle<<<grid, block>>>(A, B, C, M, N, K);
}
