// Type-generic tiled GEMM + bias + LeakyReLU, instantiated for half and bf16.
// out = leaky_relu(A @ B + bias), out has the input type.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T, int BLOCK_SIZE>
__global__ void gemm_bias_lrelu(const T *__restrict__ A, const T *__restrict__ B,
                                const T *__restrict__ bias, T *__restrict__ out, int M, int N,
                                int K, float negative_slope) {
  __shared__ T sA[BLOCK_SIZE][BLOCK_SIZE];
  __shared__ T sB[BLOCK_SIZE][BLOCK_SIZE];

  const int row = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  const int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  float acc = 0.f;

#pragma tawa tile
  for (int t = 0; t < (K + BLOCK_SIZE - 1) / BLOCK_SIZE; ++t) {
    const int aCol = t * BLOCK_SIZE + threadIdx.x;
    const int bRow = t * BLOCK_SIZE + threadIdx.y;
    sA[threadIdx.y][threadIdx.x] = (row < M && aCol < K) ? A[row * K + aCol] : T(0.f);
    sB[threadIdx.y][threadIdx.x] = (bRow < K && col < N) ? B[bRow * N + col] : T(0.f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k)
      acc += static_cast<float>(sA[threadIdx.y][k]) * static_cast<float>(sB[k][threadIdx.x]);
    __syncthreads();
  }

  if (row < M && col < N) {
    float v = acc + static_cast<float>(bias[col]);
    v = v > 0.f ? v : negative_slope * v;
    out[row * N + col] = static_cast<T>(v);
  }
}

template <typename T>
void launch_gemm_bias_lrelu(const T *A, const T *B, const T *bias, T *out, int M, int N, int K,
                            float slope, cudaStream_t stream) {
  constexpr int BS = 16;
  dim3 block(BS, BS);
  dim3 grid((N + BS - 1) / BS, (M + BS - 1) / BS);
  gemm_bias_lrelu<T, BS><<<grid, block, 0, stream>>>(A, B, bias, out, M, N, K, slope);
}

template void launch_gemm_bias_lrelu<__half>(const __half *, const __half *, const __half *,
                                             __half *, int, int, int, float, cudaStream_t);
template void launch_gemm_bias_lrelu<__nv_bfloat16>(const __nv_bfloat16 *,
                                                    const __nv_bfloat16 *,
                                                    const __nv_bfloat16 *, __nv_bfloat16 *,
                                                    int, int, int, float, cudaStream_t);
