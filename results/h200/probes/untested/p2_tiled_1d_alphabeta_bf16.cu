// Shared-memory tiled GEMM with a 1-D thread block split manually,
// C = alpha * A * B + beta * C, bf16 in/out, fp32 accumulate.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

constexpr int BLOCK = 32;

__global__ void sgemm_shared_bf16(int M, int N, int K, float alpha,
                                  const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                  float beta, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[BLOCK * BLOCK];
  __shared__ __nv_bfloat16 Bs[BLOCK * BLOCK];

  const int threadRow = threadIdx.x / BLOCK;
  const int threadCol = threadIdx.x % BLOCK;
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;

  const int globalRow = cRow * BLOCK + threadRow;
  const int globalCol = cCol * BLOCK + threadCol;

  float tmp = 0.0f;
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCK) {
    As[threadRow * BLOCK + threadCol] =
        (globalRow < M && bkIdx + threadCol < K)
            ? A[globalRow * K + bkIdx + threadCol]
            : __float2bfloat16(0.0f);
    Bs[threadRow * BLOCK + threadCol] =
        (bkIdx + threadRow < K && globalCol < N)
            ? B[(bkIdx + threadRow) * N + globalCol]
            : __float2bfloat16(0.0f);
    __syncthreads();

    for (int dotIdx = 0; dotIdx < BLOCK; ++dotIdx) {
      tmp += __bfloat162float(As[threadRow * BLOCK + dotIdx]) *
             __bfloat162float(Bs[dotIdx * BLOCK + threadCol]);
    }
    __syncthreads();
  }

  if (globalRow < M && globalCol < N) {
    const float old = __bfloat162float(C[globalRow * N + globalCol]);
    C[globalRow * N + globalCol] = __float2bfloat16(alpha * tmp + beta * old);
  }
}

void run_sgemm_shared_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
                           const __nv_bfloat16 *B, float beta, __nv_bfloat16 *C) {
  dim3 gridDim((N + BLOCK - 1) / BLOCK, (M + BLOCK - 1) / BLOCK);
  dim3 blockDim(BLOCK * BLOCK);
  sgemm_shared_bf16<<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
