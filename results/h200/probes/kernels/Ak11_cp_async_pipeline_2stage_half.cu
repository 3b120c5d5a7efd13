// Two-stage cp.async pipeline (Ampere+), fp16 in/out: 64 x 64 x 32 block
// tile, 128 threads, 8 x 4 results per thread. Tile t + 1 is copied with
// __pipeline_memcpy_async while tile t is multiplied. Results written as
// half2 pairs. M, N multiples of 64, K a multiple of 32.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

namespace {
constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 32;
constexpr int TM = 8;
constexpr int TN = 4;
constexpr int THREADS = (BM / TM) * (BN / TN); // 128
}

__global__ void __launch_bounds__(THREADS)
hgemm_cp_async(const __half *__restrict__ A, const __half *__restrict__ B,
               __half *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) __half As[2][BM][BK];
    __shared__ __align__(16) __half Bs[2][BK][BN];

    const int tid = threadIdx.x;
    const int bm = blockIdx.y * BM;
    const int bn = blockIdx.x * BN;
    const int threadRow = tid / (BN / TN); // 0..7
    const int threadCol = tid % (BN / TN); // 0..15

    float acc[TM][TN] = {};

    const int nTiles = K / BK;

    // prologue: tile 0 into stage 0
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        int c = tid + i * THREADS;     // 256 16-byte chunks of A's tile
        int r = c >> 2, col = (c & 3) << 3;
        __pipeline_memcpy_async(&As[0][r][col], &A[(bm + r) * K + col], 16);
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        int c = tid + i * THREADS;     // 256 16-byte chunks of B's tile
        int r = c >> 3, col = (c & 7) << 3;
        __pipeline_memcpy_async(&Bs[0][r][col], &B[r * N + bn + col], 16);
    }
    __pipeline_commit();

#pragma tawa tile
    for (int t = 0; t < nTiles; ++t) {
        const int cur = t & 1;
        if (t + 1 < nTiles) {
            const int nxt = cur ^ 1;
            const int k0 = (t + 1) * BK;
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                int c = tid + i * THREADS;
                int r = c >> 2, col = (c & 3) << 3;
                __pipeline_memcpy_async(&As[nxt][r][col],
                                        &A[(bm + r) * K + k0 + col], 16);
            }
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                int c = tid + i * THREADS;
                int r = c >> 3, col = (c & 7) << 3;
                __pipeline_memcpy_async(&Bs[nxt][r][col],
                                        &B[(k0 + r) * N + bn + col], 16);
            }
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);   // tile t has landed
        __syncthreads();

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = __half2float(As[cur][threadRow * TM + i][k]);
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = __half2float(Bs[cur][k][threadCol * TN + j]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = bm + threadRow * TM + i;
#pragma unroll
        for (int j = 0; j < TN; j += 2) {
            const int col = bn + threadCol * TN + j;
            *reinterpret_cast<__half2 *>(&C[row * N + col]) =
                __floats2half2_rn(acc[i][j], acc[i][j + 1]);
        }
    }
}

void hgemm_async(const __half *A, const __half *B, __half *C, int M, int N,
                 int K, cudaStream_t stream)
{
    dim3 grid(N / BN, M / BM);
    hgemm_cp_async<<<grid, THREADS, 0, stream>>>(A, B, C, M, N, K);
}
