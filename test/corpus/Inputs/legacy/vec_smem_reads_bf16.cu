// A register-blocked GEMM on bf16 whose product reads each thread's eight
// elements of A and of B from the tiles as one 16-byte vector each (A staged
// transposed, As[k][m], so that a thread's rows are consecutive). No bounds
// checks: M and N multiples of 64, K of 16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16
#define TM 8
#define TN 8
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    vec_smem_reads(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                   int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[BK][BM];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  __align__(16) __nv_bfloat16 ra[TM];
  __align__(16) __nv_bfloat16 rb[TN];
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BM * BK; e += NT)
      As[e % BK][e / BK] = A[(m0 + e / BK) * K + k0 + e % BK];
    for (int e = tid; e < BK * BN; e += NT)
      Bs[e / BN][e % BN] = B[(k0 + e / BN) * N + n0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk) {
      *reinterpret_cast<float4 *>(ra) =
          *reinterpret_cast<const float4 *>(&As[kk][tRow * TM]);
      *reinterpret_cast<float4 *>(rb) =
          *reinterpret_cast<const float4 *>(&Bs[kk][tCol * TN]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(ra[i]) * __bfloat162float(rb[j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(m0 + tRow * TM + i) * N + n0 + tCol * TN + j] = acc[i][j];
}

void vec_smem_reads_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K) {
  dim3 grid(N / BN, M / BM);
  vec_smem_reads<<<grid, NT>>>(A, B, C, M, N, K);
}
