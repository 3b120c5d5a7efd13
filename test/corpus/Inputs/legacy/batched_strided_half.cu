// Batched strided GEMM via blockIdx.z, pointer offsets, B stored N x K
// (weights, "NT"), half inputs, __half output with __float2half_rn.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int BS = 32;

__global__ void bmm_nt(const __half *__restrict__ A, const __half *__restrict__ B,
                       __half *__restrict__ C, int M, int N, int K, long long unusedTag,
                       int strideA, int strideB, int strideC) {
  __shared__ __half tA[BS][BS];
  __shared__ __half tB[BS][BS];
  const __half *a = A + blockIdx.z * strideA;
  const __half *b = B + blockIdx.z * strideB;
  __half *c = C + blockIdx.z * strideC;
  int r = blockIdx.y * BS + threadIdx.y;
  int cc = blockIdx.x * BS + threadIdx.x;
  int bn = blockIdx.x * BS + threadIdx.y;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < K; kt += BS) {
    tA[threadIdx.y][threadIdx.x] =
        (r < M && kt + threadIdx.x < K) ? a[r * K + kt + threadIdx.x] : __half(0.0f);
    tB[threadIdx.y][threadIdx.x] =
        (bn < N && kt + threadIdx.x < K) ? b[bn * K + kt + threadIdx.x] : __half(0.0f);
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += __half2float(tA[threadIdx.y][k]) * __half2float(tB[threadIdx.x][k]);
    __syncthreads();
  }
  if (r < M && cc < N)
    c[r * N + cc] = __float2half_rn(acc);
}

void bmm_nt_launch(const __half *A, const __half *B, __half *C, int batch, int M, int N,
                   int K) {
  dim3 block(BS, BS);
  dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS, batch);
  bmm_nt<<<grid, block>>>(A, B, C, M, N, K, 0LL, M * K, N * K, M * N);
}
