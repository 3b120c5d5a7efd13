// fp32 SGEMM with precision(tf32): float4 loads into transposed A and
// plain B tiles, float4 temporaries of the tiles' rows in the product,
// copied into register arrays by lists; 64 x 64 x 16 tiles, 16 x 16
// threads, 4 x 4 per thread. For M and N multiples of 64, K of 16.
#include <cassert>
#include <cuda_runtime.h>

constexpr int kBM = 64, kBN = 64, kBK = 16, kTM = 4, kTN = 4;

__global__ void sgemm_vec4_temps(int M, int N, int K,
                                 const float *__restrict__ A,
                                 const float *__restrict__ B,
                                 float *__restrict__ C) {
  static_assert(kBM * kBK == 4 * 256 && kBK * kBN == 4 * 256,
                "one float4 of each tile per thread");
  __shared__ float As[kBK][kBM];
  __shared__ float Bs[kBK][kBN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int aRow = tid / (kBK / 4), aCol = (tid % (kBK / 4)) * 4;
  const int bRow = tid / (kBN / 4), bCol = (tid % (kBN / 4)) * 4;
  const float *Ablk = A + blockIdx.y * kBM * K;
  const float *Bblk = B + blockIdx.x * kBN;
  float c[kTM][kTN] = {};
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += kBK) {
    const float4 va =
        *reinterpret_cast<const float4 *>(&Ablk[aRow * K + k0 + aCol]);
    As[aCol + 0][aRow] = va.x;
    As[aCol + 1][aRow] = va.y;
    As[aCol + 2][aRow] = va.z;
    As[aCol + 3][aRow] = va.w;
    *reinterpret_cast<float4 *>(&Bs[bRow][bCol]) =
        *reinterpret_cast<const float4 *>(&Bblk[(k0 + bRow) * N + bCol]);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kBK; ++k) {
      const float4 a4 = *reinterpret_cast<const float4 *>(&As[k][ty * kTM]);
      const float4 b4 = *reinterpret_cast<const float4 *>(&Bs[k][tx * kTN]);
      const float a[kTM] = {a4.x, a4.y, a4.z, a4.w};
      const float b[kTN] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j)
          c[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  float *Cblk =
      C + (blockIdx.y * kBM + ty * kTM) * N + blockIdx.x * kBN + tx * kTN;
  for (int i = 0; i < kTM; ++i)
    *reinterpret_cast<float4 *>(&Cblk[i * N]) =
        make_float4(c[i][0], c[i][1], c[i][2], c[i][3]);
}

void sgemm_vec4_temps_run(const float *A, const float *B, float *C, int M,
                          int N, int K) {
  assert(M % kBM == 0 && N % kBN == 0 && K % kBK == 0);
  sgemm_vec4_temps<<<dim3(N / kBN, M / kBM), dim3(16, 16)>>>(M, N, K, A, B, C);
}
