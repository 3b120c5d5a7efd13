// Tiled GEMM whose product reads both 16-bit tiles as pairs: A's tile as
// staged (row-major, k contiguous), B's transposed on the way in and padded
// by one pair per row; each pair widened to float2 with __bfloat1622float2
// through a pointer of __nv_bfloat162 into the tile's row. Zero-filled
// staging and checked stores: any M, N and K. bf16 in, float out.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TS 32

__global__ void pair_dot_kernel(const __nv_bfloat16 *__restrict__ A,
                                const __nv_bfloat16 *__restrict__ B,
                                float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[TS][TS];
  __shared__ __align__(16) __nv_bfloat16 BsT[TS][TS + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  const int bcol = blockIdx.x * TS + ty;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TS) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx]
                                         : __float2bfloat16_rn(0.0f);
    BsT[ty][tx] = (t + tx < K && bcol < N) ? B[(t + tx) * N + bcol]
                                           : __float2bfloat16_rn(0.0f);
    __syncthreads();
    const __nv_bfloat162 *a2 = reinterpret_cast<const __nv_bfloat162 *>(&As[ty][0]);
    const __nv_bfloat162 *b2 = reinterpret_cast<const __nv_bfloat162 *>(&BsT[tx][0]);
#pragma unroll
    for (int k = 0; k < TS / 2; ++k) {
      const float2 a = __bfloat1622float2(a2[k]);
      const float2 b = __bfloat1622float2(b2[k]);
      acc += a.x * b.x;
      acc += a.y * b.y;
    }
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void pair_dot_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                   int M, int N, int K) {
  dim3 block(TS, TS);
  dim3 grid((N + TS - 1) / TS, (M + TS - 1) / TS);
  pair_dot_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
