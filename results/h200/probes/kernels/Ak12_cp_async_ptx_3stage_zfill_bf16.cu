// Three-stage cp.async ring in inline PTX, bf16 in/out: 128 x 64 x 32 block
// tile, 256 threads, 8 x 4 results per thread, one __syncthreads per
// iteration. Out-of-range 16-byte chunks are zero-filled (src-size 0).
// Any M, N; K and N multiples of 8 (16-byte aligned rows).
#include <cuda_runtime.h>
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

#define BM 128
#define BN 64
#define BK 32
#define STAGES 3
#define PAD 8

__device__ __forceinline__ void cp_async_16(void *smem, const void *gmem, bool pred)
{
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
    int src_size = pred ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                 :: "r"(s), "l"(gmem), "r"(src_size));
}

__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" :: "n"(N));
}

__global__ void __launch_bounds__(256)
gemm_bf16_cp_async3(const bf16 *__restrict__ A, const bf16 *__restrict__ B,
                    bf16 *__restrict__ C, int M, int N, int K, float alpha)
{
    __shared__ __align__(16) bf16 sA[STAGES][BM][BK + PAD];
    __shared__ __align__(16) bf16 sB[STAGES][BK][BN + PAD];

    const int tid = threadIdx.x;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int tr = tid >> 4;   // 0..15 -> 8 rows each
    const int tc = tid & 15;   // 0..15 -> 4 cols each

    // this thread's 16-byte chunks: two of A's tile, one of B's
    const int a_r0 = tid >> 2, a_c = (tid & 3) << 3;   // rows 0..63 and 64..127
    const int b_r = tid >> 3, b_c = (tid & 7) << 3;     // rows 0..31

    const int ktiles = (K + BK - 1) / BK;
    float acc[8][4] = {0.f};

    // prologue: first STAGES-1 tiles
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ktiles) {
            const int k0 = s * BK;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = a_r0 + h * 64;
                const bool ok = (m0 + r < M) && (k0 + a_c < K);
                cp_async_16(&sA[s][r][a_c], ok ? &A[(m0 + r) * K + k0 + a_c] : A, ok);
            }
            const bool okb = (k0 + b_r < K) && (n0 + b_c < N);
            cp_async_16(&sB[s][b_r][b_c], okb ? &B[(k0 + b_r) * N + n0 + b_c] : B, okb);
        }
        cp_async_commit();
    }

#pragma tawa tile
    for (int kt = 0; kt < ktiles; ++kt) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();

        // refill the stage that was consumed in iteration kt - 1
        const int fetch = kt + STAGES - 1;
        if (fetch < ktiles) {
            const int ws = fetch % STAGES;
            const int k0 = fetch * BK;
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int r = a_r0 + h * 64;
                const bool ok = (m0 + r < M) && (k0 + a_c < K);
                cp_async_16(&sA[ws][r][a_c], ok ? &A[(m0 + r) * K + k0 + a_c] : A, ok);
            }
            const bool okb = (k0 + b_r < K) && (n0 + b_c < N);
            cp_async_16(&sB[ws][b_r][b_c], okb ? &B[(k0 + b_r) * N + n0 + b_c] : B, okb);
        }
        cp_async_commit();

        const int rs = kt % STAGES;
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[8], b[4];
#pragma unroll
            for (int i = 0; i < 8; ++i) a[i] = __bfloat162float(sA[rs][tr * 8 + i][k]);
#pragma unroll
            for (int j = 0; j < 4; ++j) b[j] = __bfloat162float(sB[rs][k][tc * 4 + j]);
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = m0 + tr * 8 + i;
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int col = n0 + tc * 4 + j;
            if (row < M && col < N)
                C[row * N + col] = __float2bfloat16_rn(alpha * acc[i][j]);
        }
    }
}

void gemm_bf16_async(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K,
                     float alpha, cudaStream_t stream)
{
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    dim3 block(256);
    gemm_bf16_cp_async3<<<grid, block, 0, stream>>>(A, B, C, M, N, K, alpha);
}
