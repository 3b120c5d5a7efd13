// Strided batched GEMM, row-major, C[b] = alpha * A[b] * B[b] + beta * C[b]
// (the cublasGemmStridedBatched contract), fp16 in/out, fp32 accumulation.
// The batch index comes from blockIdx.z; strides are in elements.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

constexpr int TILE_DIM = 16;

__global__ void batched_hgemm_kernel(const __half *A, const __half *B, __half *C,
                                     int M, int N, int K,
                                     long long strideA, long long strideB,
                                     long long strideC,
                                     float alpha, float beta)
{
    __shared__ __half tileA[TILE_DIM][TILE_DIM];
    __shared__ __half tileB[TILE_DIM][TILE_DIM];

    const int batch = blockIdx.z;
    A += batch * strideA;
    B += batch * strideB;
    C += batch * strideC;

    const int row = blockIdx.y * TILE_DIM + threadIdx.y;
    const int col = blockIdx.x * TILE_DIM + threadIdx.x;

    float acc = 0.0f;
#pragma tawa tile
    for (int k0 = 0; k0 < K; k0 += TILE_DIM) {
        int ak = k0 + threadIdx.x;
        int bk = k0 + threadIdx.y;
        tileA[threadIdx.y][threadIdx.x] =
            (row < M && ak < K) ? A[row * K + ak] : __float2half_rn(0.0f);
        tileB[threadIdx.y][threadIdx.x] =
            (bk < K && col < N) ? B[bk * N + col] : __float2half_rn(0.0f);
        __syncthreads();

        for (int kk = 0; kk < TILE_DIM; ++kk)
            acc += __half2float(tileA[threadIdx.y][kk]) *
                   __half2float(tileB[kk][threadIdx.x]);
        __syncthreads();
    }

    if (row < M && col < N) {
        const int idx = row * N + col;
        C[idx] = __float2half_rn(alpha * acc + beta * __half2float(C[idx]));
    }
}

void batched_hgemm(const __half *A, const __half *B, __half *C, int M, int N,
                   int K, int batchCount, float alpha, float beta,
                   cudaStream_t stream)
{
    const long long strideA = (long long)M * K;
    const long long strideB = (long long)K * N;
    const long long strideC = (long long)M * N;
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((N + TILE_DIM - 1) / TILE_DIM, (M + TILE_DIM - 1) / TILE_DIM,
              batchCount);
    batched_hgemm_kernel<<<grid, block, 0, stream>>>(
        A, B, C, M, N, K, strideA, strideB, strideC, alpha, beta);
}
