// C = A * B after the CUDA C Programming Guide's shared-memory example:
// one 16 x 16 block per sub-matrix of C, sub-matrices of A and B declared in
// the loop body. A is M x K, B is K x N, C is M x N, all row-major; M, N and K
// must be multiples of BLOCK_SIZE (no bounds checks).
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define BLOCK_SIZE 16

__global__ void MatMulKernel(const __half *A, const __half *B, float *C,
                             int M, int N, int K)
{
    // Block row and column
    int blockRow = blockIdx.y;
    int blockCol = blockIdx.x;

    // Thread row and column within the sub-matrix
    int row = threadIdx.y;
    int col = threadIdx.x;

    // Each thread computes one element of Csub by accumulating results into Cvalue
    float Cvalue = 0.0f;

    // Loop over all the sub-matrices of A and B required to compute Csub
#pragma tawa tile
    for (int m = 0; m < (K / BLOCK_SIZE); ++m) {
        // Shared memory used to store Asub and Bsub respectively
        __shared__ __half As[BLOCK_SIZE][BLOCK_SIZE];
        __shared__ __half Bs[BLOCK_SIZE][BLOCK_SIZE];

        // Each thread loads one element of each sub-matrix
        As[row][col] = A[(blockRow * BLOCK_SIZE + row) * K + m * BLOCK_SIZE + col];
        Bs[row][col] = B[(m * BLOCK_SIZE + row) * N + blockCol * BLOCK_SIZE + col];

        // Synchronize to make sure the sub-matrices are loaded
        __syncthreads();

        // Multiply Asub and Bsub together
        for (int e = 0; e < BLOCK_SIZE; ++e)
            Cvalue += __half2float(As[row][e]) * __half2float(Bs[e][col]);

        // Synchronize to make sure that the preceding computation is done
        // before loading two new sub-matrices in the next iteration
        __syncthreads();
    }

    // Write Csub to device memory
    C[(blockRow * BLOCK_SIZE + row) * N + blockCol * BLOCK_SIZE + col] = Cvalue;
}

// Host code: matrix dimensions are assumed to be multiples of BLOCK_SIZE.
void MatMul(const __half *dA, const __half *dB, float *dC, int M, int N, int K,
            cudaStream_t stream)
{
    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(N / dimBlock.x, M / dimBlock.y);
    MatMulKernel<<<dimGrid, dimBlock, 0, stream>>>(dA, dB, dC, M, N, K);
}
