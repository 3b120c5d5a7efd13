// Tile size as a template parameter, tiles in dynamic shared memory, a 1-D
// thread block of TILE*TILE threads split into (row, col). The host picks
// TILE = 16 or 32 at run time. fp16 in/out.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <int TILE>
__global__ void hgemm_dyn_smem(const __half *__restrict__ A,
                               const __half *__restrict__ B,
                               __half *__restrict__ C, int M, int N, int K)
{
    extern __shared__ __half smem[];
    __half *As = smem;                 // TILE x TILE
    __half *Bs = smem + TILE * TILE;   // TILE x TILE

    const int ty = threadIdx.x / TILE;
    const int tx = threadIdx.x % TILE;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
#pragma tawa tile
    for (int t = 0; t < K; t += TILE) {
        As[ty * TILE + tx] = (row < M && t + tx < K) ? A[row * K + t + tx]
                                                     : __float2half_rn(0.0f);
        Bs[ty * TILE + tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col]
                                                     : __float2half_rn(0.0f);
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += __half2float(As[ty * TILE + k]) * __half2float(Bs[k * TILE + tx]);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = __float2half_rn(acc);
}

void hgemm_dyn(const __half *A, const __half *B, __half *C, int M, int N, int K,
               int tile, cudaStream_t stream)
{
    if (tile == 32) {
        dim3 grid((N + 31) / 32, (M + 31) / 32);
        size_t shmem = 2 * 32 * 32 * sizeof(__half);
        hgemm_dyn_smem<32><<<grid, 32 * 32, shmem, stream>>>(A, B, C, M, N, K);
    } else {
        dim3 grid((N + 15) / 16, (M + 15) / 16);
        size_t shmem = 2 * 16 * 16 * sizeof(__half);
        hgemm_dyn_smem<16><<<grid, 16 * 16, shmem, stream>>>(A, B, C, M, N, K);
    }
}
