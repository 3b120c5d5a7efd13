// Double-buffered shared memory with 16-byte register prefetch: while the
// product reads buffer cur, the next tiles go global -> float4 registers ->
// buffer cur ^ 1; one barrier per iteration. 128 x 128 x 32 tiles, 256
// threads, 8 x 8 per thread, alpha scaling and a bf16 output.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define FETCH_FLOAT4(p) (*reinterpret_cast<float4 *>(&(p)))
#define LDG_FLOAT4(p) (*reinterpret_cast<const float4 *>(&(p)))

__global__ void gemm_db_vec(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            __nv_bfloat16 *C, int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 sA[2][128][32];
  __shared__ __nv_bfloat16 sB[2][32][128];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  const int by = blockIdx.y * 128, bx = blockIdx.x * 128;
  // A: 128 rows x 4 float4; B: 32 rows x 16 float4; two of each per thread.
  const int ar0 = tid / 4, ac = (tid % 4) * 8, ar1 = ar0 + 64;
  const int br0 = tid / 16, bc = (tid % 16) * 8, br1 = br0 + 16;
  float acc[8][8] = {};
  float4 pa0, pa1, pb0, pb1;

  FETCH_FLOAT4(sA[0][ar0][ac]) = LDG_FLOAT4(A[(by + ar0) * K + ac]);
  FETCH_FLOAT4(sA[0][ar1][ac]) = LDG_FLOAT4(A[(by + ar1) * K + ac]);
  FETCH_FLOAT4(sB[0][br0][bc]) = LDG_FLOAT4(B[br0 * N + bx + bc]);
  FETCH_FLOAT4(sB[0][br1][bc]) = LDG_FLOAT4(B[br1 * N + bx + bc]);
  __syncthreads();

  const int ntiles = K / 32;
#pragma tawa tile
  for (int t = 0; t < ntiles; t++) {
    const int cur = t % 2;
    const int nxt = (t + 1) % 2;
    if (t + 1 < ntiles) {
      const int k1 = (t + 1) * 32;
      pa0 = LDG_FLOAT4(A[(by + ar0) * K + k1 + ac]);
      pa1 = LDG_FLOAT4(A[(by + ar1) * K + k1 + ac]);
      pb0 = LDG_FLOAT4(B[(k1 + br0) * N + bx + bc]);
      pb1 = LDG_FLOAT4(B[(k1 + br1) * N + bx + bc]);
    }
    for (int k = 0; k < 32; k++) {
      __nv_bfloat16 ra[8], rb[8];
      for (int i = 0; i < 8; i++) ra[i] = sA[cur][ty * 8 + i][k];
      for (int j = 0; j < 8; j++) rb[j] = sB[cur][k][tx * 8 + j];
      for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
          acc[i][j] += __bfloat162float(ra[i]) * __bfloat162float(rb[j]);
    }
    if (t + 1 < ntiles) {
      FETCH_FLOAT4(sA[nxt][ar0][ac]) = pa0;
      FETCH_FLOAT4(sA[nxt][ar1][ac]) = pa1;
      FETCH_FLOAT4(sB[nxt][br0][bc]) = pb0;
      FETCH_FLOAT4(sB[nxt][br1][bc]) = pb1;
    }
    __syncthreads();
  }

  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      C[(by + ty * 8 + i) * N + bx + tx * 8 + j] = __float2bfloat16(alpha * acc[i][j]);
}

void gemm_db_vec_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                        int M, int N, int K, float alpha) {
  gemm_db_vec<<<dim3(N / 128, M / 128), dim3(256)>>>(A, B, C, M, N, K, alpha);
}
