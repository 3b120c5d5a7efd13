// Register-blocked bf16 split-K GEMM (64 x 64 block tile, 256 threads, 4 x 4 results per
// thread) that shares the 16-element tiles of K out among the grid's layers in the kernel:
// tilesPerSplit = ceil((K / 16) / gridDim.z), through a local copy of gridDim.z. Where K is
// no multiple of 16, the layers' slices end before K's last partial tile, which no layer sums
// (as written). Each layer adds its partial sums into the float C it is given with atomicAdd
// (C += A * B). Rows, columns and K are bounds-checked. Row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__global__ void gemm_regblock_splitk_tiles(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                           float *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  const int splits = gridDim.z;
  const int tilesPerSplit = (K / 16 + splits - 1) / splits;
  const int kBegin = blockIdx.z * tilesPerSplit * 16;
  const int kEnd = min(kBegin + tilesPerSplit * 16, K);
  float acc[4][4] = {};
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += 16) {
    for (int i = 0; i < 4; ++i) {
      const int e = tid + i * 256;
      const int r = row0 + e / 16, ka = k0 + e % 16;
      const int kb = k0 + e / 64, c = col0 + e % 64;
      As[e / 16][e % 16] = r < M && ka < kEnd ? A[r * K + ka] : __float2bfloat16(0.f);
      Bs[e / 64][e % 64] = kb < kEnd && c < N ? B[kb * N + c] : __float2bfloat16(0.f);
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
        atomicAdd(&C[r * N + c], acc[i][j]);
    }
}

void gemm_regblock_splitk_tiles_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                       float *C, int M, int N, int K, int splits,
                                       cudaStream_t stream) {
  dim3 grid((N + 63) / 64, (M + 63) / 64, splits);
  gemm_regblock_splitk_tiles<<<grid, 256, 0, stream>>>(A, B, C, M, N, K);
}
