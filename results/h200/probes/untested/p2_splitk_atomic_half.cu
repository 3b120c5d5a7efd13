// Split-K GEMM: blockIdx.z selects a slice of K; every slice adds its partial sum into a
// zero-initialised float C with atomicAdd. A, B half, row-major.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 32

__global__ void gemm_splitk_kernel(const half *A, const half *B, float *C, int M, int N,
                                   int K, int kChunk) {
  __shared__ half As[TILE][TILE];
  __shared__ half Bs[TILE][TILE];

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;

  const int kBegin = blockIdx.z * kChunk;
  const int kEnd = min(kBegin + kChunk, K);

  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < kEnd) ? A[row * K + k0 + tx] : __float2half(0.0f);
    Bs[ty][tx] = (k0 + ty < kEnd && col < N) ? B[(k0 + ty) * N + col] : __float2half(0.0f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }

  if (row < M && col < N) atomicAdd(&C[row * N + col], acc);
}

void gemm_splitk(const half *A, const half *B, float *C, int M, int N, int K, int splits,
                 cudaStream_t stream) {
  // chunk rounded up to a multiple of TILE
  int kChunk = ((K + splits - 1) / splits + TILE - 1) / TILE * TILE;
  cudaMemsetAsync(C, 0, sizeof(float) * M * N, stream);
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, (K + kChunk - 1) / kChunk);
  gemm_splitk_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K, kChunk);
}
