// BLAS-style: A column-major (A(i,k) = A[i + k*lda]), B row-major with ldb,
// C row-major with ldc. Loop counts tiles. alpha/beta epilogue, half inputs.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int TILE = 16;

__global__ void hgemm_cm(int M, int N, int K, float alpha, const __half *__restrict__ A,
                         int lda, const __half *__restrict__ B, int ldb, float beta,
                         float *__restrict__ C, int ldc) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
#pragma tawa tile
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    const int aCol = t * TILE + tx;
    const int bRow = t * TILE + ty;
    if (row < M && aCol < K)
      sA[ty][tx] = A[row + aCol * lda];
    else
      sA[ty][tx] = __float2half(0.0f);
    if (bRow < K && col < N)
      sB[ty][tx] = B[bRow * ldb + col];
    else
      sB[ty][tx] = __float2half(0.0f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      sum += __half2float(sA[ty][k]) * __half2float(sB[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * ldc + col] = alpha * sum + beta * C[row * ldc + col];
}

void hgemm_cm_launch(int M, int N, int K, float alpha, const __half *A, int lda,
                     const __half *B, int ldb, float beta, float *C, int ldc,
                     cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  hgemm_cm<<<grid, block, 0, stream>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
