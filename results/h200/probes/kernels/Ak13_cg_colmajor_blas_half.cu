// BLAS-convention (column-major) GEMM, C = alpha * A * B + beta * C with
// leading dimensions lda, ldb, ldc, fp16 inputs, fp32 C. threadIdx.x walks
// rows so that global accesses are coalesced in column-major storage.
// Block barriers through cooperative groups.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

namespace cg = cooperative_groups;

constexpr int BS = 16;

__global__ void hgemm_nn_colmajor(int m, int n, int k, float alpha,
                                  const __half *A, int lda,
                                  const __half *B, int ldb,
                                  float beta, float *C, int ldc)
{
    cg::thread_block block = cg::this_thread_block();

    __shared__ __half sA[BS][BS];  // sA[kk][i] = A(i0 + i, k0 + kk)
    __shared__ __half sB[BS][BS];  // sB[j][kk] = B(k0 + kk, j0 + j)

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * BS + tx;   // row of C
    const int j = blockIdx.y * BS + ty;   // column of C

    float sum = 0.0f;
#pragma tawa tile
    for (int k0 = 0; k0 < k; k0 += BS) {
        // A(i, k0 + ty): column k0 + ty of A, coalesced over tx
        if (i < m && k0 + ty < k)
            sA[ty][tx] = A[i + (k0 + ty) * lda];
        else
            sA[ty][tx] = __float2half_rn(0.0f);
        // B(k0 + tx, j): column j of B, coalesced over tx
        if (k0 + tx < k && j < n)
            sB[ty][tx] = B[(k0 + tx) + j * ldb];
        else
            sB[ty][tx] = __float2half_rn(0.0f);
        block.sync();

#pragma unroll
        for (int kk = 0; kk < BS; ++kk)
            sum += __half2float(sA[kk][tx]) * __half2float(sB[ty][kk]);
        block.sync();
    }

    if (i < m && j < n)
        C[i + j * ldc] = alpha * sum + beta * C[i + j * ldc];
}

void hgemm_colmajor(int m, int n, int k, float alpha, const __half *A, int lda,
                    const __half *B, int ldb, float beta, float *C, int ldc,
                    cudaStream_t stream)
{
    dim3 threads(BS, BS);
    dim3 blocks((m + BS - 1) / BS, (n + BS - 1) / BS);
    hgemm_nn_colmajor<<<blocks, threads, 0, stream>>>(m, n, k, alpha, A, lda, B,
                                                      ldb, beta, C, ldc);
}
