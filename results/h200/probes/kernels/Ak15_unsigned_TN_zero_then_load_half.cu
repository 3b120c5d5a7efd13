// C = A^T * B with A stored K x M (e.g. a weight-gradient dW = X^T * dY),
// B stored K x N, all row-major; fp16 inputs, fp32 output. unsigned
// indices; tiles zeroed first, then filled where in range; __ldg loads.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE_W 16

__global__ void hgemm_tn(const __half *__restrict__ A,
                         const __half *__restrict__ B,
                         float *__restrict__ C,
                         unsigned M, unsigned N, unsigned K)
{
    __shared__ __half sAt[TILE_W][TILE_W];   // sAt[kk][i] = A(k0 + kk, i)
    __shared__ __half sB[TILE_W][TILE_W];    // sB[kk][j]  = B(k0 + kk, j)

    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    const unsigned row = blockIdx.y * TILE_W + ty;
    const unsigned col = blockIdx.x * TILE_W + tx;
    const unsigned aCol = blockIdx.y * TILE_W + tx;   // column of A staged by this thread

    float acc = 0.0f;
#pragma tawa tile
    for (unsigned k0 = 0; k0 < K; k0 += TILE_W) {
        sAt[ty][tx] = __float2half_rn(0.0f);
        sB[ty][tx] = __float2half_rn(0.0f);
        if (k0 + ty < K && aCol < M)
            sAt[ty][tx] = __ldg(&A[(k0 + ty) * M + aCol]);
        if (k0 + ty < K && col < N)
            sB[ty][tx] = __ldg(&B[(k0 + ty) * N + col]);
        __syncthreads();
        for (unsigned kk = 0; kk < TILE_W; ++kk)
            acc += __half2float(sAt[kk][ty]) * __half2float(sB[kk][tx]);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

void hgemm_at_b(const __half *A, const __half *B, float *C, unsigned M,
                unsigned N, unsigned K)
{
    dim3 block(TILE_W, TILE_W);
    dim3 grid((N + TILE_W - 1) / TILE_W, (M + TILE_W - 1) / TILE_W);
    hgemm_tn<<<grid, block>>>(A, B, C, M, N, K);
}
