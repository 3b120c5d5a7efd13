// Kernels whose tile loop the front ends cannot read for what lies around it,
// each refused with the reason and what would lift: a persistent loop over
// output tiles around it, and matrices read from arrays of pointers (a
// pointer-array batch). The file is left exactly as written. (Loops inside an
// `if`: test/migrate/loop-guard.cu and loop-guard-refusals.cu.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 32

// CHECK: outside-refusals.cu:[[@LINE+14]]:5: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+14]] breaks it: the annotated loop must be a statement of the kernel body, and this one is nested in the loop at line [[@LINE+9]], which stores results after it: a persistent loop over output tiles; the front ends read one output tile per block (the rewritten kernel walks the tiles itself): write the body for the tile of blockIdx and launch a block per tile [tawa-unsupported]
__global__ void persistent_tiles(const __nv_bfloat16 *A,
                                 const __nv_bfloat16 *B, __nv_bfloat16 *C,
                                 int M, int N, int K) {
  __shared__ __nv_bfloat16 sA[TILE][TILE];
  __shared__ __nv_bfloat16 sB[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tilesN = (N + TILE - 1) / TILE;
  const int tilesM = (M + TILE - 1) / TILE;
  for (int tile = blockIdx.x; tile < tilesM * tilesN; tile += gridDim.x) {
    const int row = (tile / tilesN) * TILE + ty;
    const int col = (tile % tilesN) * TILE + tx;
    float sum = 0.f;
#pragma tawa tile
    for (int t = 0; t < K; t += TILE) {
      sA[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx]
                                         : __float2bfloat16_rn(0.f);
      sB[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col]
                                         : __float2bfloat16_rn(0.f);
      __syncthreads();
      for (int k = 0; k < TILE; ++k)
        sum += __bfloat162float(sA[ty][k]) * __bfloat162float(sB[k][tx]);
      __syncthreads();
    }
    if (row < M && col < N)
      C[row * N + col] = __float2bfloat16_rn(sum);
  }
}

// CHECK: outside-refusals.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line [[@LINE+4]] breaks it: 'A' is a pointer read from an array of pointers (a pointer-array batch, as cublasGemmBatched takes): the rewritten kernel builds its TMA tensor maps on the host from pointer parameters, so each matrix must be a pointer parameter, a batch at a stride from it ('A + blockIdx.z * strideA') [tawa-unsupported]
__global__ void pointer_array(const half *const *A_array,
                              const half *const *B_array,
                              float *const *C_array, int M, int N, int K) {
  const half *A = A_array[blockIdx.z];
  const half *B = B_array[blockIdx.z];
  float *C = C_array[blockIdx.z];
  const int row0 = (blockIdx.y * 4 + threadIdx.x / 32) * 16;
  const int col0 = blockIdx.x * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
#pragma tawa tile
  for (int k = 0; k < K; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::load_matrix_sync(a, A + row0 * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col0, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + row0 * N + col0, acc, N, wmma::mem_row_major);
}
