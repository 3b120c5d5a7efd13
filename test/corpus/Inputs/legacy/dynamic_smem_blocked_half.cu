// A 1-D block-tiling kernel (8 results per thread) whose tiles live in a
// byte array of dynamic shared memory, cast to __half; B's tile follows A's.
// No bounds checks: M and N multiples of 64, K of 8.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

constexpr int BM = 64, BN = 64, BK = 8, TM = 8;

__global__ void blocktile_dynamic(int M, int N, int K, const __half *A,
                                  const __half *B, __half *C) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  __half *As = reinterpret_cast<__half *>(shared_bytes);
  __half *Bs = As + BM * BK;
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float results[TM] = {0.0f};
#pragma tawa tile
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int k = 0; k < BK; ++k) {
      const float b = __half2float(Bs[k * BN + threadCol]);
      for (int r = 0; r < TM; ++r)
        results[r] += __half2float(As[(threadRow * TM + r) * BK + k]) * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    C[(threadRow * TM + r) * N + threadCol] = __float2half(results[r]);
}

void blocktile_dynamic_run(int M, int N, int K, const __half *A,
                           const __half *B, __half *C) {
  dim3 grid(N / BN, M / BM), block(BM * BN / TM);
  const size_t shared = (BM * BK + BK * BN) * sizeof(__half);
  blocktile_dynamic<<<grid, block, shared>>>(M, N, K, A, B, C);
}
