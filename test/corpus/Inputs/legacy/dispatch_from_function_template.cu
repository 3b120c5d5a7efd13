// A kernel template over its element type and block size, launched from a
// function template that a host function instantiates per block size (the way
// libraries dispatch on tile sizes); bounds-checked, bf16 inputs, float C.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T, int BS>
__global__ void gemm_bs(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C,
                        int M, int N, int K) {
  __shared__ T As[BS][BS];
  __shared__ T Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BS) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : T(0.0f);
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : T(0.0f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k)
      acc += float(As[ty][k]) * float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

template <typename T, int BS>
cudaError_t gemm_launch(const T *A, const T *B, float *C, int M, int N, int K,
                        cudaStream_t stream) {
  const dim3 block(BS, BS), grid((N + BS - 1) / BS, (M + BS - 1) / BS);
  gemm_bs<T, BS><<<grid, block, 0, stream>>>(A, B, C, M, N, K);
  return cudaGetLastError();
}

cudaError_t gemm_dispatch(int block_size, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          float *C, int M, int N, int K) {
  if (block_size == 16)
    return gemm_launch<__nv_bfloat16, 16>(A, B, C, M, N, K, 0);
  return gemm_launch<__nv_bfloat16, 32>(A, B, C, M, N, K, 0);
}
