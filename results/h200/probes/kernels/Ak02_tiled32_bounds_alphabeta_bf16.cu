// General-size tiled GEMM, C = alpha * A * B + beta * C, bf16 in and out,
// fp32 accumulation. 32 x 32 tiles, ceil-div tile count, zero-padded edges.
#include <cuda_runtime.h>
#include <cuda_bf16.h>

#define TILE 32

__global__ void gemm_tiled_bf16(int M, int N, int K, float alpha,
                                const __nv_bfloat16 *__restrict__ A,
                                const __nv_bfloat16 *__restrict__ B,
                                float beta, __nv_bfloat16 *__restrict__ C)
{
    __shared__ __nv_bfloat16 sA[TILE][TILE];
    __shared__ __nv_bfloat16 sB[TILE][TILE];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    const int numTiles = (K + TILE - 1) / TILE;

    float sum = 0.f;
#pragma tawa tile
    for (int t = 0; t < numTiles; ++t) {
        const int aCol = t * TILE + tx;
        const int bRow = t * TILE + ty;

        if (row < M && aCol < K)
            sA[ty][tx] = A[row * K + aCol];
        else
            sA[ty][tx] = __float2bfloat16_rn(0.f);

        if (bRow < K && col < N)
            sB[ty][tx] = B[bRow * N + col];
        else
            sB[ty][tx] = __float2bfloat16_rn(0.f);

        __syncthreads();

#pragma unroll
        for (int k = 0; k < TILE; ++k)
            sum += __bfloat162float(sA[ty][k]) * __bfloat162float(sB[k][tx]);

        __syncthreads();
    }

    if (row < M && col < N) {
        const float c = __bfloat162float(C[row * N + col]);
        C[row * N + col] = __float2bfloat16_rn(alpha * sum + beta * c);
    }
}

void gemm_bf16(int M, int N, int K, float alpha, const __nv_bfloat16 *A,
               const __nv_bfloat16 *B, float beta, __nv_bfloat16 *C,
               cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    gemm_tiled_bf16<<<grid, block, 0, stream>>>(M, N, K, alpha, A, B, beta, C);
}
