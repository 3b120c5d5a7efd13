// Register prefetch (the "SGEMM with prefetching" tutorials, on half data):
// 128 x 128 x 16 tiles, 256 threads, 8 x 8 per thread; the next tiles are
// read into registers before the product and written to shared memory after
// a barrier; A is stored transposed so that the product reads it by column.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256)
hgemm_prefetch(const half *__restrict__ A, const half *__restrict__ B, float *__restrict__ C,
               int M, int N, int K) {
  __shared__ half As[BK][BM];
  __shared__ half Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const half *a = A + blockIdx.y * BM * K;
  const half *b = B + blockIdx.x * BN;
  // each thread moves 8 elements of each tile
  const int a_row = tid / 2, a_col = (tid % 2) * 8;
  const int b_row = tid / 16, b_col = (tid % 16) * 8;
  half ldg_a[8], ldg_b[8];
  float accum[TM][TN] = {0.0f};

  for (int i = 0; i < 8; ++i) {
    ldg_a[i] = a[a_row * K + a_col + i];
    ldg_b[i] = b[b_row * N + b_col + i];
  }
  for (int i = 0; i < 8; ++i) {
    As[a_col + i][a_row] = ldg_a[i];
    Bs[b_row][b_col + i] = ldg_b[i];
  }
  __syncthreads();

#pragma tawa tile
  for (int k = 0; k < K; k += BK) {
    const int next = k + BK;
    if (next < K) {
      for (int i = 0; i < 8; ++i) {
        ldg_a[i] = a[a_row * K + next + a_col + i];
        ldg_b[i] = b[(next + b_row) * N + b_col + i];
      }
    }
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float frag_a[TM], frag_b[TN];
      for (int i = 0; i < TM; ++i)
        frag_a[i] = __half2float(As[kk][ty * TM + i]);
      for (int j = 0; j < TN; ++j)
        frag_b[j] = __half2float(Bs[kk][tx * TN + j]);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          accum[i][j] += frag_a[i] * frag_b[j];
    }
    __syncthreads();
    if (next < K) {
      for (int i = 0; i < 8; ++i) {
        As[a_col + i][a_row] = ldg_a[i];
        Bs[b_row][b_col + i] = ldg_b[i];
      }
    }
    __syncthreads();
  }

  float *c = C + (blockIdx.y * BM + ty * TM) * N + blockIdx.x * BN + tx * TN;
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      c[i * N + j] = accum[i][j];
}

void hgemm_prefetch_run(const half *A, const half *B, float *C, int M, int N, int K,
                        cudaStream_t stream) {
  dim3 grid(N / BN, M / BM);
  hgemm_prefetch<<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
}
