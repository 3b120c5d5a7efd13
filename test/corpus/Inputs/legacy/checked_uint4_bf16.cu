// A register-blocked bf16 GEMM whose staging copies are bounds-checked
// 16-byte vector loads: A's into a vector of zeros under an if, B's through
// `ok ? load : zeros`, each stored whole into its tile. Float C, alpha.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4

__global__ void __launch_bounds__(256)
    checked_uint4(int M, int N, int K, const __nv_bfloat16 *A,
                  const __nv_bfloat16 *B, float *C, float alpha) {
  __shared__ __align__(16) __nv_bfloat16 As[BM][BK];
  __shared__ __align__(16) __nv_bfloat16 Bs[BK][BN];
  const int tRow = threadIdx.x / (BN / TN), tCol = threadIdx.x % (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int ar = threadIdx.x / (BK / 8), ac = threadIdx.x % (BK / 8) * 8;
  const int br = threadIdx.x / (BN / 8), bc = threadIdx.x % (BN / 8) * 8;
  float acc[TM][TN] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    uint4 va = make_uint4(0, 0, 0, 0);
    if (row0 + ar < M && k0 + ac < K)
      va = *reinterpret_cast<const uint4 *>(&A[(row0 + ar) * K + k0 + ac]);
    *reinterpret_cast<uint4 *>(&As[ar][ac]) = va;
    const bool okb = k0 + br < K && col0 + bc + 7 < N;
    const uint4 vb =
        okb ? *reinterpret_cast<const uint4 *>(&B[(k0 + br) * N + col0 + bc])
            : make_uint4(0, 0, 0, 0);
    *reinterpret_cast<uint4 *>(&Bs[br][bc]) = vb;
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk)
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[tRow * TM + i][kk]) *
                       __bfloat162float(Bs[kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      const int r = row0 + tRow * TM + i, c = col0 + tCol * TN + j;
      if (r < M && c < N)
        C[r * N + c] = alpha * acc[i][j];
    }
}

void checked_uint4_run(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                       float *C, int M, int N, int K, float alpha) {
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  checked_uint4<<<grid, 256>>>(M, N, K, A, B, C, alpha);
}
