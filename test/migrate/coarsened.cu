// Shared-memory GEMMs with thread coarsening (PMPP, 4th ed., ch. 6): each
// iteration stages A's tile once, then, in a loop of constant bounds, B's
// tile, a barrier, the product into one of several accumulators, a barrier.
// The loop is unrolled into rounds of staging and product followed in order;
// A's tile is read in every round as the first staged it, B's as the round's
// own staging left it.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE_WIDTH 32
#define COARSE_FACTOR 4

// OUT-LABEL: __global__ void pmpp_coarsened_tiled(
// OUT: tawa::store(P, m0, n0, acc);
// OUT-LABEL: static void pmpp_coarsened_migrated_launch(
// OUT: const long long tawa_rows_covered = 1LL * tawa_grid.y * 32,
// OUT-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 128;
// OUT: if (tawa_block.x != 32 || tawa_block.y != 32 || tawa_block.z != 1 ||
// The book's kernel on 16-bit data: square width x width matrices, width a
// multiple of TILE_WIDTH * COARSE_FACTOR, no bounds checks.
__global__ void pmpp_coarsened(const __half *M, const __half *N, float *P,
                               int width) {
  __shared__ __half Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * TILE_WIDTH + ty;
  int colStart = bx * TILE_WIDTH * COARSE_FACTOR + tx;
  float Pvalue[COARSE_FACTOR];
  for (int c = 0; c < COARSE_FACTOR; ++c)
    Pvalue[c] = 0.0f;
#pragma tawa tile
  for (int ph = 0; ph < width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[row * width + ph * TILE_WIDTH + tx];
    for (int c = 0; c < COARSE_FACTOR; ++c) {
      int col = colStart + c * TILE_WIDTH;
      Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * width + col];
      __syncthreads();
      for (int k = 0; k < TILE_WIDTH; ++k)
        Pvalue[c] += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
      __syncthreads();
    }
  }
  for (int c = 0; c < COARSE_FACTOR; ++c) {
    int col = colStart + c * TILE_WIDTH;
    P[row * width + col] = Pvalue[c];
  }
}
void pmpp_launch(const __half *M, const __half *N, float *P, int width) {
  pmpp_coarsened<<<dim3(width / (TILE_WIDTH * COARSE_FACTOR), width / TILE_WIDTH),
                   dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, width);
}

// OUT-LABEL: __global__ void coarse_rows_checked_tiled(
// OUT: tawa::store(C, m0, n0, acc);
// Coarsened over rows instead, B's tile staged once and A's per round, with
// zero-filled staging and checked stores: any M, N and K.
__global__ void coarse_rows_checked(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                    __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[16][16], Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * 16 + tx;
  const int rowStart = blockIdx.y * 16 * 2 + ty;
  float acc[2] = {0.0f, 0.0f};
#pragma tawa tile
  for (int t = 0; t < K; t += 16) {
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2bfloat16_rn(0.0f);
#pragma unroll
    for (int r = 0; r < 2; ++r) {
      const int row = rowStart + r * 16;
      As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16_rn(0.0f);
      __syncthreads();
      for (int k = 0; k < 16; ++k)
        acc[r] += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
      __syncthreads();
    }
  }
  for (int r = 0; r < 2; ++r) {
    const int row = rowStart + r * 16;
    if (row < M && col < N)
      C[row * N + col] = __float2bfloat16_rn(acc[r]);
  }
}
