// Register-blocked bf16 GEMM (64 x 64 block tile, 256 threads, 4 x 4 results per thread) whose
// K loop counts whole tiles with a floor division, through a local: `tiles = K / 16`. Rows and
// columns are bounds-checked, K is not (the loop never reaches a partial tile: for K not a
// multiple of 16 the kernel sums the first 16 * (K / 16) products). fp32 out, row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void gemm_regblock_floor(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                                    int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    for (int i = 0; i < 4; ++i) {
      const int e = tid + i * 256;
      const int r = row0 + e / 16, c = col0 + e % 64;
      As[e / 16][e % 16] = r < M ? A[r * K + t * 16 + e % 16] : __float2bfloat16(0.f);
      Bs[e / 64][e % 64] = c < N ? B[(t * 16 + e / 64) * N + c] : __float2bfloat16(0.f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) * __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}

void gemm_regblock_floor_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
                                int N, int K, cudaStream_t stream) {
  dim3 grid((N + 63) / 64, (M + 63) / 64);
  gemm_regblock_floor<<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
}
