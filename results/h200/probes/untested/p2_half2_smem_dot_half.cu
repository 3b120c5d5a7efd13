// Tiled GEMM that keeps both tiles k-contiguous in shared memory (B transposed on the way in)
// and reads them as __half2 pairs in the inner product. C (half) = A (M x K) * B (K x N).
// K must be even (pairs never straddle the tile: TILE is even).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 32

__global__ void hgemm_half2_dot(const half *__restrict__ A, const half *__restrict__ B,
                                half *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) half As[TILE][TILE];      // As[m][k]
  __shared__ __align__(16) half BsT[TILE][TILE + 2];  // BsT[n][k], padded by one half2

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const int bcol = blockIdx.x * TILE + ty;  // column of B this thread stages

  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
    // thread (ty, tx) stages B(t + tx, bcol) into BsT[ty][tx]
    BsT[ty][tx] = (t + tx < K && bcol < N) ? B[(t + tx) * N + bcol] : __float2half(0.0f);
    __syncthreads();

    const half2 *a2 = reinterpret_cast<const half2 *>(&As[ty][0]);
    const half2 *b2 = reinterpret_cast<const half2 *>(&BsT[tx][0]);
#pragma unroll
    for (int k = 0; k < TILE / 2; ++k) {
      float2 a = __half22float2(a2[k]);
      float2 b = __half22float2(b2[k]);
      acc += a.x * b.x;
      acc += a.y * b.y;
    }
    __syncthreads();
  }

  if (row < M && col < N) C[row * N + col] = __float2half(acc);
}

void hgemm_half2(const half *A, const half *B, half *C, int M, int N, int K,
                 cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hgemm_half2_dot<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
