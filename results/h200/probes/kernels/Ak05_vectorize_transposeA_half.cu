// Vectorized 2-D blocktiling (after siboehm's SGEMM kernel 6) on fp16:
// 128-bit global loads (8 halves), A transposed into shared memory while it
// is staged, C updated with float4 read-modify-write (alpha/beta).
// M, N multiples of 128, K a multiple of 16; pointers 16-byte aligned.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
    hgemmVectorize(int M, int N, int K, float alpha, const __half *A,
                   const __half *B, float beta, float *C) {
  const uint cRow = blockIdx.y;
  const uint cCol = blockIdx.x;

  // BN/TN are the number of threads to span a column
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);

  // As is stored transposed: As[k * BM + m]
  __shared__ __align__(16) __half As[BM * BK];
  __shared__ __align__(16) __half Bs[BK * BN];

  // Move blocktile to beginning of A's row and B's column
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  // each thread loads 128 bit = 8 halves per step
  const uint innerRowA = threadIdx.x / (BK / 8);
  const uint innerColA = threadIdx.x % (BK / 8);
  const uint innerRowB = threadIdx.x / (BN / 8);
  const uint innerColB = threadIdx.x % (BN / 8);

  float threadResults[TM * TN] = {0.0};
  float regM[TM] = {0.0};
  float regN[TN] = {0.0};

#pragma tawa tile
  for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
    // transpose A while loading it
    uint4 tmp =
        reinterpret_cast<const uint4 *>(&A[innerRowA * K + innerColA * 8])[0];
    const __half *h = reinterpret_cast<const __half *>(&tmp);
#pragma unroll
    for (int e = 0; e < 8; ++e)
      As[(innerColA * 8 + e) * BM + innerRowA] = h[e];

    reinterpret_cast<uint4 *>(&Bs[innerRowB * BN + innerColB * 8])[0] =
        reinterpret_cast<const uint4 *>(&B[innerRowB * N + innerColB * 8])[0];
    __syncthreads();

    // advance blocktile
    A += BK;     // move BK columns to right
    B += BK * N; // move BK rows down

    // calculate per-thread results
    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
      // block into registers
      for (uint i = 0; i < TM; ++i)
        regM[i] = __half2float(As[dotIdx * BM + threadRow * TM + i]);
      for (uint i = 0; i < TN; ++i)
        regN[i] = __half2float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (uint resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (uint resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] +=
              regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }

  // write out the results
  for (uint resIdxM = 0; resIdxM < TM; resIdxM += 1) {
    for (uint resIdxN = 0; resIdxN < TN; resIdxN += 4) {
      // load C vector into registers
      float4 tmp = reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0];
      // perform GEMM update in reg
      tmp.x = alpha * threadResults[resIdxM * TN + resIdxN] + beta * tmp.x;
      tmp.y = alpha * threadResults[resIdxM * TN + resIdxN + 1] + beta * tmp.y;
      tmp.z = alpha * threadResults[resIdxM * TN + resIdxN + 2] + beta * tmp.z;
      tmp.w = alpha * threadResults[resIdxM * TN + resIdxN + 3] + beta * tmp.w;
      // write back
      reinterpret_cast<float4 *>(
          &C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN])[0] =
          tmp;
    }
  }
}

void runHgemmVectorize(int M, int N, int K, float alpha, const __half *A,
                       const __half *B, float beta, float *C) {
  const uint BK = 16;
  const uint TM = 8;
  const uint TN = 8;
  const uint BM = 128;
  const uint BN = 128;
  dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
  dim3 blockDim((BM * BN) / (TM * TN));
  hgemmVectorize<BM, BN, BK, TM, TN>
      <<<gridDim, blockDim>>>(M, N, K, alpha, A, B, beta, C);
}
