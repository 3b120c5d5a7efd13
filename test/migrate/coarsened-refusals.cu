// Coarsened loop bodies (coarsened.cu) that differ from ones that lift by one
// defect each: each is refused at the statement that breaks the pattern and
// the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>

// One barrier per round: the next round's staging overwrites B's tile while
// other threads may still read it.
__global__ void one_barrier(const __half *M, const __half *N, float *P, int width) {
  __shared__ __half Mds[32][32], Nds[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, colStart = blockIdx.x * 64 + tx;
  float acc[2] = {0.0f, 0.0f};
#pragma tawa tile
  // CHECK: coarsened-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected a loop body that stages and multiplies tiles several times per iteration as rounds of staging copies, '__syncthreads();', the product, '__syncthreads();'{{.*}}
  for (int ph = 0; ph < width / 32; ++ph) {
    Mds[ty][tx] = M[row * width + ph * 32 + tx];
    for (int c = 0; c < 2; ++c) {
      Nds[ty][tx] = N[(ph * 32 + ty) * width + colStart + c * 32];
      __syncthreads();
      for (int k = 0; k < 32; ++k)
        acc[c] += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
    }
    __syncthreads();
  }
  for (int c = 0; c < 2; ++c)
    P[row * width + colStart + c * 32] = acc[c];
}
// CHECK: note: kernel 'one_barrier' is left unchanged

// A's tile staged again in each round, from the row below the one the
// round's accumulator is stored to: no GEMM.
__global__ void shifted_rows(const __half *M, const __half *N, float *P, int width) {
  __shared__ __half Mds[32][32], Nds[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, colStart = blockIdx.x * 64 + tx;
  float acc[2] = {0.0f, 0.0f};
#pragma tawa tile
  // CHECK: coarsened-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 32 per iteration{{.*}}
  for (int ph = 0; ph < width / 32; ++ph) {
    for (int c = 0; c < 2; ++c) {
      Mds[ty][tx] = M[(row + c) * width + ph * 32 + tx];
      Nds[ty][tx] = N[(ph * 32 + ty) * width + colStart + c * 32];
      __syncthreads();
      for (int k = 0; k < 32; ++k)
        acc[c] += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
      __syncthreads();
    }
  }
  for (int c = 0; c < 2; ++c)
    P[row * width + colStart + c * 32] = acc[c];
}
// CHECK: note: kernel 'shifted_rows' is left unchanged
