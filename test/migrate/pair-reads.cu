// Shared-memory GEMMs whose product reads 16-bit tiles as pairs and widens
// them to float2, '__half22float2(a2[k])' through a pointer of pairs into the
// tile row ('const half2 *a2 = reinterpret_cast<const half2 *>(&As[ty][0])')
// or through the cast itself: each member is the tile element a scalar read
// would give, widened exactly as '__half2float' widens it.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 32

// OUT-LABEL: __global__ void half2_dot_tiled(
// OUT: auto a = tawa::load<128, 64>(A, m0, k0);
// OUT: auto b = tawa::load<64, 256>(B, k0, n0);
// OUT: tawa::store(C, m0, n0, acc);
// OUT-LABEL: half2_dot_migrated_launch(dim3 tawa_grid
// OUT: if (tawa_block.x != 32 || tawa_block.y != 32 || tawa_block.z != 1 ||
// Both tiles k-contiguous (B transposed on the way in, its rows padded by one
// pair), read through pointers of pairs.
__global__ void half2_dot(const half *__restrict__ A, const half *__restrict__ B,
                          half *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) half As[TILE][TILE];
  __shared__ __align__(16) half BsT[TILE][TILE + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  const int bcol = blockIdx.x * TILE + ty;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half(0.0f);
    BsT[ty][tx] = (t + tx < K && bcol < N) ? B[(t + tx) * N + bcol] : __float2half(0.0f);
    __syncthreads();
    const half2 *a2 = reinterpret_cast<const half2 *>(&As[ty][0]);
    const half2 *b2 = reinterpret_cast<const half2 *>(&BsT[tx][0]);
#pragma unroll
    for (int k = 0; k < TILE / 2; ++k) {
      float2 a = __half22float2(a2[k]);
      float2 b = __half22float2(b2[k]);
      acc += a.x * b.x;
      acc += a.y * b.y;
    }
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half(acc);
}
void half2_dot_launch(const half *A, const half *B, half *C, int M, int N, int K) {
  half2_dot<<<dim3((N + TILE - 1) / TILE, (M + TILE - 1) / TILE), dim3(TILE, TILE)>>>(A, B, C, M, N, K);
}

// OUT-LABEL: __global__ void bf162_cast_tiled(
// OUT: tawa::store(C, m0, n0, acc);
// The pairs read through the cast itself, one tile k-contiguous and the other
// k-major, in bf16.
__global__ void bf162_cast(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                           float *C, int M, int N, int K) {
  __shared__ __align__(16) __nv_bfloat16 As[16][16];
  __shared__ __align__(16) __nv_bfloat16 Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; k += 2) {
      float2 a = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(&As[ty][k]));
      acc += a.x * __bfloat162float(Bs[k][tx]);
      acc += a.y * __bfloat162float(Bs[k + 1][tx]);
    }
    __syncthreads();
  }
  C[row * N + col] = acc;
}
