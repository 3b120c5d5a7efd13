// int4 (16-byte) vectorized staging of 8 halves, register-blocked 1-D
// threads, no bounds checks (dimensions multiples of the tiles), half C.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int kBM = 64, kBN = 64, kBK = 32, kTM = 4, kTN = 4;

__global__ void hgemm_int4(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  __shared__ __half sA[kBM][kBK];
  __shared__ __half sB[kBK][kBN];
  const int tid = threadIdx.x;              // 256 threads
  const int tRow = tid / (kBN / kTN);       // 0..15
  const int tCol = tid % (kBN / kTN);       // 0..15
  const int aRow = tid / (kBK / 8), aCol = (tid % (kBK / 8)) * 8;   // 64 rows x 4 vecs
  const int bRow = tid / (kBN / 8), bCol = (tid % (kBN / 8)) * 8;   // 32 rows x 8 vecs
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  float acc[kTM][kTN] = {};
#pragma tawa tile
  for (int k = 0; k < K; k += kBK) {
    *reinterpret_cast<int4 *>(&sA[aRow][aCol]) =
        *reinterpret_cast<const int4 *>(&A[(m0 + aRow) * K + k + aCol]);
    *reinterpret_cast<int4 *>(&sB[bRow][bCol]) =
        *reinterpret_cast<const int4 *>(&B[(k + bRow) * N + n0 + bCol]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBK; ++kk)
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j)
          acc[i][j] += __half2float(sA[tRow * kTM + i][kk]) * __half2float(sB[kk][tCol * kTN + j]);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kTM; ++i)
#pragma unroll
    for (int j = 0; j < kTN; ++j)
      C[(m0 + tRow * kTM + i) * N + n0 + tCol * kTN + j] = __float2half(acc[i][j]);
}

void hgemm_int4_run(const __half *A, const __half *B, __half *C, int M, int N, int K) {
  hgemm_int4<<<dim3(N / kBN, M / kBM), dim3(256)>>>(A, B, C, M, N, K);
}
