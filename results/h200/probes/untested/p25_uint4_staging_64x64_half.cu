// 64 x 64 block tile, BK = 32, 256 threads; each thread stages one 16-byte vector (8 halves)
// of A and one of B through uint4, and computes a 4 x 4 strided micro-tile (rows ty + 16 i,
// columns tx + 16 j). fp16 in and out, fp32 accumulation. M, N multiples of 64, K of 32;
// A, B 16-byte aligned.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32

__global__ void __launch_bounds__(256)
    hgemm_vec8(const __half *__restrict__ A, const __half *__restrict__ B, __half *__restrict__ C,
               int M, int N, int K) {
  __shared__ __align__(16) __half As[BM][BK];
  __shared__ __align__(16) __half Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

  // A tile: 64 rows x 4 vectors, B tile: 32 rows x 8 vectors.
  const int aRow = tid / 4, aVec = tid % 4;
  const int bRow = tid / 8, bVec = tid % 8;

  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.f;

#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    *reinterpret_cast<uint4 *>(&As[aRow][aVec * 8]) =
        *reinterpret_cast<const uint4 *>(&A[(size_t)(bm + aRow) * K + k0 + aVec * 8]);
    *reinterpret_cast<uint4 *>(&Bs[bRow][bVec * 8]) =
        *reinterpret_cast<const uint4 *>(&B[(size_t)(k0 + bRow) * N + bn + bVec * 8]);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = __half2float(As[ty + 16 * i][k]);
      for (int j = 0; j < 4; ++j) b[j] = __half2float(Bs[k][tx + 16 * j]);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(size_t)(bm + ty + 16 * i) * N + bn + tx + 16 * j] = __float2half(acc[i][j]);
}

void hgemm_vec8_launch(const __half *A, const __half *B, __half *C, int M, int N, int K,
                       cudaStream_t stream) {
  dim3 grid(N / BN, M / BM);
  hgemm_vec8<<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
}
