// A register-blocked SGEMM-style kernel on fp16 data whose epilogue goes
// through shared memory: 256 threads each accumulate a 4 x 4 micro-tile of a
// 64 x 64 block tile, write it into a padded __shared__ array, and after a
// barrier the block stores C = alpha * acc row by row, each warp writing
// consecutive columns. Every load and store is bounds-checked.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define TS 64
#define TK 16
#define TT 4

__global__ void hgemm_staged_store(int M, int N, int K, float alpha, const __half *A,
                                   const __half *B, __half *C) {
  __shared__ __half As[TS][TK];
  __shared__ __half Bs[TK][TS];
  __shared__ float Cs[TS][TS + 1];
  const int tx = threadIdx.x % (TS / TT), ty = threadIdx.x / (TS / TT);
  const int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
  float acc[TT][TT] = {{0.0f}};

#pragma tawa tile
  for (int t = 0; t < K; t += TK) {
    for (int i = threadIdx.x; i < TS * TK; i += 256) {
      const int r = i / TK, c = i % TK;
      As[r][c] = (row0 + r < M && t + c < K) ? A[(row0 + r) * K + t + c] : __float2half(0.0f);
    }
    for (int i = threadIdx.x; i < TK * TS; i += 256) {
      const int r = i / TS, c = i % TS;
      Bs[r][c] = (t + r < K && col0 + c < N) ? B[(t + r) * N + col0 + c] : __float2half(0.0f);
    }
    __syncthreads();
    for (int k = 0; k < TK; ++k)
      for (int i = 0; i < TT; ++i)
        for (int j = 0; j < TT; ++j)
          acc[i][j] += __half2float(As[ty * TT + i][k]) * __half2float(Bs[k][tx * TT + j]);
    __syncthreads();
  }

  for (int i = 0; i < TT; ++i)
    for (int j = 0; j < TT; ++j)
      Cs[ty * TT + i][tx * TT + j] = acc[i][j];
  __syncthreads();
  for (int e = threadIdx.x; e < TS * TS; e += 256) {
    const int r = e / TS, c = e % TS;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2half(alpha * Cs[r][c]);
  }
}

void launch_hgemm_staged_store(int M, int N, int K, float alpha, const __half *A, const __half *B,
                               __half *C) {
  dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
  hgemm_staged_store<<<grid, 256>>>(M, N, K, alpha, A, B, C);
}
