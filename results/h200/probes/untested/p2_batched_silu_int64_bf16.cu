// Batched GEMM (one matrix per blockIdx.z), PyTorch-style int64 strides and indexing:
// out[b] = silu(A[b] @ B[b] + bias), bf16 in/out, float bias (optional), fp32 accumulate.
#include <cstdint>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define TILE 16

__device__ __forceinline__ float silu(float x) { return x / (1.0f + expf(-x)); }

__global__ void bmm_bias_silu_kernel(const __nv_bfloat16 *__restrict__ A,
                                     const __nv_bfloat16 *__restrict__ B,
                                     const float *__restrict__ bias,
                                     __nv_bfloat16 *__restrict__ out, int M, int N, int K,
                                     int64_t strideA, int64_t strideB, int64_t strideC) {
  __shared__ __nv_bfloat16 tileA[TILE][TILE];
  __shared__ __nv_bfloat16 tileB[TILE][TILE];

  const int64_t batch = blockIdx.z;
  const __nv_bfloat16 *Ab = A + batch * strideA;
  const __nv_bfloat16 *Bb = B + batch * strideB;
  __nv_bfloat16 *Cb = out + batch * strideC;

  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;

  float acc = 0.f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE) {
    const int ak = k0 + threadIdx.x;
    const int bk = k0 + threadIdx.y;
    tileA[threadIdx.y][threadIdx.x] =
        (row < M && ak < K) ? Ab[static_cast<int64_t>(row) * K + ak] : __float2bfloat16(0.f);
    tileB[threadIdx.y][threadIdx.x] =
        (bk < K && col < N) ? Bb[static_cast<int64_t>(bk) * N + col] : __float2bfloat16(0.f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(tileA[threadIdx.y][k]) * __bfloat162float(tileB[k][threadIdx.x]);
    __syncthreads();
  }

  if (row < M && col < N) {
    const float b = bias != nullptr ? bias[col] : 0.f;
    Cb[static_cast<int64_t>(row) * N + col] = __float2bfloat16(silu(acc + b));
  }
}

void bmm_bias_silu(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *bias,
                   __nv_bfloat16 *out, int batch, int M, int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, batch);
  bmm_bias_silu_kernel<<<grid, block, 0, stream>>>(A, B, bias, out, M, N, K,
                                                   (int64_t)M * K, (int64_t)K * N,
                                                   (int64_t)M * N);
}
