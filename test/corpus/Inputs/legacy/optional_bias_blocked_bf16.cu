// A register-blocked bf16 linear layer with an optional bias: each of 256
// threads computes 4 x 4 elements of a 64 x 64 tile of Y from 64 x 16 and
// 16 x 64 tiles staged with bounds checks (0 outside the matrices), and the
// epilogue adds bias[c] only where the bias pointer is not null, as a
// layer without a bias passes nullptr. Any M, N, K.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 16

__global__ void linear_optional_bias(const __nv_bfloat16 *X,
                                     const __nv_bfloat16 *W,
                                     const float *bias, __nv_bfloat16 *Y,
                                     int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 Xs[BM][BK];
  __shared__ __nv_bfloat16 Ws[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4] = {};
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = tid; e < BM * BK; e += 256) {
      const int r = e / BK, c = e % BK;
      Xs[r][c] = row0 + r < M && k0 + c < K ? X[(row0 + r) * K + k0 + c]
                                            : __nv_bfloat16(0.0f);
    }
    for (int e = tid; e < BK * BN; e += 256) {
      const int r = e / BN, c = e % BN;
      Ws[r][c] = k0 + r < K && col0 + c < N ? W[(k0 + r) * N + col0 + c]
                                            : __nv_bfloat16(0.0f);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(Xs[ty * 4 + i][k]) *
                       __bfloat162float(Ws[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < M && c < N)
        Y[r * N + c] = __float2bfloat16(
            alpha * acc[i][j] + (bias != nullptr ? bias[c] : 0.0f));
    }
}

void linear_optional_bias_run(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                              const float *bias, __nv_bfloat16 *Y, int M,
                              int N, int K, float alpha) {
  dim3 block(16, 16);
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  linear_optional_bias<<<grid, block>>>(X, W, bias, Y, M, N, K, alpha);
}
