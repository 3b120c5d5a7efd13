// The 64 x 64 register-blocked bf16 loop of blocked-beta-updates.cu,
// early-return.cu and cooperative-groups.cu: 16 x 16 threads, 4 x 4 per
// thread strided by 16, its barriers SYNC (LOOP: __syncthreads()).
#pragma once
#include <cuda_bf16.h>

using bf16 = __nv_bfloat16;
// 64 x 64 tiles, 16 x 16 threads, 4 x 4 per thread strided by 16.
#define BODY                                                                   \
  __shared__ bf16 As[16][64];                                                  \
  __shared__ bf16 Bs[16][64];                                                  \
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;            \
  const int rowBase = blockIdx.y * 64, colBase = blockIdx.x * 64;              \
  float acc[4][4] = {};
#define LOOP_SYNC(SYNC)                                                        \
  for (int k0 = 0; k0 < K; k0 += 16) {                                         \
    for (int e = tid; e < 1024; e += 256) {                                    \
      const int m = e / 16, kk = e % 16;                                       \
      As[kk][m] = rowBase + m < M && k0 + kk < K ? A[(rowBase + m) * K + k0 + kk] \
                                                 : bf16();                     \
      const int r = e / 64, n = e % 64;                                        \
      Bs[r][n] = k0 + r < K && colBase + n < N ? B[(k0 + r) * N + colBase + n] \
                                               : bf16();                       \
    }                                                                          \
    SYNC;                                                                      \
    for (int kk = 0; kk < 16; ++kk)                                            \
      for (int i = 0; i < 4; ++i)                                              \
        for (int j = 0; j < 4; ++j)                                            \
          acc[i][j] += __bfloat162float(As[kk][ty + i * 16]) *                 \
                       __bfloat162float(Bs[kk][tx + j * 16]);                  \
    SYNC;                                                                      \
  }
#define LOOP LOOP_SYNC(__syncthreads())
#define EACH                                                                   \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j)
#define AT                                                                     \
  const int r = rowBase + ty + i * 16, c = colBase + tx + j * 16;              \
  if (r < M && c < N)
