// cp.async double buffering on fp16 with the pipeline primitives: the copies
// of the next iteration's tiles stay in flight during the product, and each
// iteration waits for all groups but the one it has just committed before
// its first barrier. The epilogue writes alpha * acc as float4 vectors built
// from the accumulators. No bounds checks: M and N multiples of 64, K of 32.
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#define BM 64
#define BN 64
#define BK 32
#define TM 4
#define TN 4
#define NT ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NT)
    cp_async_in_flight(const __half *A, const __half *B, float *C, int M,
                       int N, int K, float alpha) {
  __shared__ __align__(16) __half As[2][BM][BK];
  __shared__ __align__(16) __half Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN), tCol = tid % (BN / TN);
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int ar = tid / (BK / 8), ac = tid % (BK / 8) * 8;
  const int br = tid / (BN / 8), bc = tid % (BN / 8) * 8;
  const int tiles = K / BK;
  float acc[TM][TN] = {};
  __pipeline_memcpy_async(&As[0][ar][ac], &A[(m0 + ar) * K + ac], 16);
  __pipeline_memcpy_async(&Bs[0][br][bc], &B[br * N + n0 + bc], 16);
  __pipeline_commit();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = (t + 1) % 2;
    if (t + 1 < tiles) {
      const int k1 = (t + 1) * BK;
      __pipeline_memcpy_async(&As[nxt][ar][ac], &A[(m0 + ar) * K + k1 + ac],
                              16);
      __pipeline_memcpy_async(&Bs[nxt][br][bc], &B[(k1 + br) * N + n0 + bc],
                              16);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int kk = 0; kk < BK; ++kk)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __half2float(As[cur][tRow * TM + i][kk]) *
                       __half2float(Bs[cur][kk][tCol * TN + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i) {
    float4 out;
    out.x = alpha * acc[i][0];
    out.y = alpha * acc[i][1];
    out.z = alpha * acc[i][2];
    out.w = alpha * acc[i][3];
    *reinterpret_cast<float4 *>(&C[(m0 + tRow * TM + i) * N + n0 + tCol * TN]) =
        out;
  }
}

void cp_async_in_flight_run(const __half *A, const __half *B, float *C, int M,
                            int N, int K, float alpha) {
  dim3 grid(N / BN, M / BM);
  cp_async_in_flight<<<grid, NT>>>(A, B, C, M, N, K, alpha);
}
