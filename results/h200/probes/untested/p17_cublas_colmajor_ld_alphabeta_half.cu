// cuBLAS-convention HGEMM written by hand: column-major A (m x k, lda >= m), B (k x n,
// ldb >= k) and C (m x n, ldc >= m), C = alpha * A * B + beta * C, fp16 in and out, fp32
// accumulation. 32 x 32 shared tiles, threadIdx.x walks the rows (coalesced in column-major),
// bounds checks everywhere.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define IDX2C(i, j, ld) (((j) * (ld)) + (i))
#define TS 32

__global__ void hgemm_colmajor_kernel(int m, int n, int k, float alpha, const __half *A, int lda,
                                      const __half *B, int ldb, float beta, __half *C, int ldc) {
  __shared__ __half As[TS][TS + 1];  // As[p][i]: column p of the A tile
  __shared__ __half Bs[TS][TS + 1];  // Bs[j][p]: column j of the B tile

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int i = blockIdx.x * TS + tx;  // row of C
  const int j = blockIdx.y * TS + ty;  // column of C

  float acc = 0.0f;
#pragma tawa tile
  for (int p = 0; p < k; p += TS) {
    As[ty][tx] = (i < m && p + ty < k) ? A[IDX2C(i, p + ty, lda)] : __float2half(0.0f);
    const int bi = blockIdx.y * TS + ty;  // column of B staged by this thread
    Bs[ty][tx] = (p + tx < k && bi < n) ? B[IDX2C(p + tx, bi, ldb)] : __float2half(0.0f);
    __syncthreads();
    for (int q = 0; q < TS; ++q)
      acc += __half2float(As[q][tx]) * __half2float(Bs[ty][q]);
    __syncthreads();
  }

  if (i < m && j < n) {
    const float c = __half2float(C[IDX2C(i, j, ldc)]);
    C[IDX2C(i, j, ldc)] = __float2half(alpha * acc + beta * c);
  }
}

void hgemm_colmajor(int m, int n, int k, float alpha, const __half *A, int lda, const __half *B,
                    int ldb, float beta, __half *C, int ldc, cudaStream_t stream) {
  dim3 block(TS, TS);
  dim3 grid((m + TS - 1) / TS, (n + TS - 1) / TS);
  hgemm_colmajor_kernel<<<grid, block, 0, stream>>>(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
