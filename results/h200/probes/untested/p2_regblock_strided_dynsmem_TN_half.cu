// Register-blocked GEMM, "TN" layout: A is given transposed (K x M, leading dim lda), B is
// K x N (ldb), C is M x N float (ldc).  C = alpha * A^T B + beta * C with BLAS's beta == 0
// convention.  64x64 block tile, 256 threads, each thread a 4x4 micro-tile strided by 16 so
// that neighbouring threads store neighbouring columns.  Tiles in dynamic shared memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

template <int BM, int BN, int BK>
__global__ void __launch_bounds__(256)
    hgemm_tn_regblock(int M, int N, int K, float alpha, const half *__restrict__ A, int lda,
                      const half *__restrict__ B, int ldb, float beta, float *__restrict__ C,
                      int ldc) {
  extern __shared__ half smem[];
  half *As = smem;            // [BK][BM]
  half *Bs = smem + BK * BM;  // [BK][BN]

  const int tid = threadIdx.x;
  const int tx = tid % 16;
  const int ty = tid / 16;
  const int bm = blockIdx.y * BM;
  const int bn = blockIdx.x * BN;

  float acc[4][4] = {};

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int i = tid; i < BK * BM; i += 256) {
      const int kk = i / BM, m = i % BM;
      As[kk * BM + m] =
          (k0 + kk < K && bm + m < M) ? A[(k0 + kk) * lda + bm + m] : __float2half(0.f);
    }
#pragma unroll
    for (int i = tid; i < BK * BN; i += 256) {
      const int kk = i / BN, n = i % BN;
      Bs[kk * BN + n] =
          (k0 + kk < K && bn + n < N) ? B[(k0 + kk) * ldb + bn + n] : __float2half(0.f);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = __half2float(As[kk * BM + ty + 16 * i]);
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = __half2float(Bs[kk * BN + tx + 16 * j]);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int r = bm + ty + 16 * i;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int c = bn + tx + 16 * j;
      if (r < M && c < N) {
        if (beta == 0.f)
          C[r * ldc + c] = alpha * acc[i][j];
        else
          C[r * ldc + c] = alpha * acc[i][j] + beta * C[r * ldc + c];
      }
    }
  }
}

void hgemm_tn(int M, int N, int K, float alpha, const half *A, int lda, const half *B, int ldb,
              float beta, float *C, int ldc, cudaStream_t stream) {
  constexpr int BM = 64, BN = 64, BK = 32;
  const size_t smem = (BK * BM + BK * BN) * sizeof(half);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  hgemm_tn_regblock<BM, BN, BK><<<grid, 256, smem, stream>>>(M, N, K, alpha, A, lda, B, ldb,
                                                             beta, C, ldc);
}
