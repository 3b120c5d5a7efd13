// Hand-written shared-memory GEMMs whose statements hold a block of several
// statements where the liftable form has one (the guarded store, a staging
// branch): each gets one verdict at its loop and is
// left exactly as written, with --migrate too; --suggest reports none of them.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
// RUN: %tawa-rewrite %s -o %t.ws.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.ws.cu
// RUN: sed '/pragma tawa tile/d' %s > %t.bare.cu
// RUN: %tawa-rewrite --suggest %t.bare.cu -o %t.suggested.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=SUGGEST --allow-empty
#include <cuda_fp16.h>

#define TILE 32

// CHECK: block-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+19]] breaks it: expected the stored value
// SUGGEST-NOT: store_through_local
__global__ void store_through_local(const __half *A, const __half *B, float *C,
                                    int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : __float2half_rn(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N) {
    float v = acc;
    v *= 2.0f;
    C[row * N + col] = v;
  }
}

// CHECK: block-refusals.cu:[[@LINE+8]]:3: warning: this loop does not match a liftable pattern
__global__ void staging_block(const __half *A, const __half *B, float *C,
                              int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    if (row < M && t + tx < K) {
      __half v = A[row * K + t + tx];
      As[ty][tx] = v;
    } else {
      As[ty][tx] = __float2half_rn(0.0f);
    }
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void run(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  store_through_local<<<grid, block>>>(A, B, C, M, N, K);
  staging_block<<<grid, block>>>(A, B, C, M, N, K);
}
