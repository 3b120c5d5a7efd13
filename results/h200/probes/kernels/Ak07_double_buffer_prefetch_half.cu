// Double-buffered shared-memory tiled GEMM (one element per thread): while
// the block multiplies tile t out of buffer t & 1, each thread already loads
// its element of tile t + 1 into the other buffer. fp16 in and out, any
// M, N, K (zero-padded edges).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE 16

__global__ void hgemm_double_buffer(const half *__restrict__ A,
                                    const half *__restrict__ B,
                                    half *__restrict__ C, int M, int N, int K)
{
    __shared__ half As[2][TILE][TILE];
    __shared__ half Bs[2][TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int nTiles = (K + TILE - 1) / TILE;
    const half zero = __float2half_rn(0.0f);

    // prologue: tile 0 into buffer 0
    As[0][ty][tx] = (row < M && tx < K) ? A[row * K + tx] : zero;
    Bs[0][ty][tx] = (ty < K && col < N) ? B[ty * N + col] : zero;
    __syncthreads();

    float acc = 0.0f;
#pragma tawa tile
    for (int t = 0; t < nTiles; ++t) {
        int cur = t & 1;
        int nxt = cur ^ 1;
        // prefetch the next tile into the other buffer
        if (t + 1 < nTiles) {
            int k0 = (t + 1) * TILE;
            As[nxt][ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : zero;
            Bs[nxt][ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : zero;
        }
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += __half2float(As[cur][ty][k]) * __half2float(Bs[cur][k][tx]);
        __syncthreads();
    }

    if (row < M && col < N)
        C[row * N + col] = __float2half_rn(acc);
}

void hgemm(const half *A, const half *B, half *C, int M, int N, int K,
           cudaStream_t stream)
{
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    hgemm_double_buffer<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}
