// --migrate lifts WMMA GEMMs whose epilogue stores each fragment of a warp
// in turn into one 16 x 16 scratch of the warp, reads it back after
// __syncwarp() and stores C from it, with __syncwarp() before the next
// fragment overwrites it: the loops over the fragments, whose bodies hold
// the barriers, are followed iteration by iteration, and each read of the
// scratch takes the last store ordered before it (include/tawa/BlockedLift.h).
// (The outputs are checked without this file's own check lines.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub -I%S/Inputs 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>
#include <mma.h>
#include "wmma-scratch.h"
using namespace nvcuda;

// CHECK-LABEL: __global__ void loops(
// The loops over the fragments; half output under bounds checks.
__global__ void loops(const half *A, const half *B, half *C, int M, int N,
                      int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], 16,
                              wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = row0 + wr + i * 16 + e / 16;
        const int c = col0 + wc + j * 16 + e % 16;
        if (r < M && c < N)
          C[r * N + c] = __float2half_rn(scratch[warp][e]);
      }
      __syncwarp();
    }
}
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: N % 64 != 0 || K % 16 != 0 ||

// CHECK-LABEL: __global__ void through_pointer(
// The warp's scratch through a pointer set in the loop's body, stored
// column-major, scaled by alpha.
__global__ void through_pointer(const half *A, const half *B, float *C, int M,
                                int N, int K, float alpha) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      float *ws = scratch[warp];
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_col_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = e % 16, c = e / 16;
        C[(row0 + wr + i * 16 + r) * N + col0 + wc + j * 16 + c] =
            alpha * ws[c * 16 + r];
      }
      __syncwarp();
    }
  }
}
// CHECK: tawa::store(C, m0, n0, alpha * acc);

// CHECK-LABEL: __global__ void pointer_before(
// The pointer to the warp's scratch set before the loop.
__global__ void pointer_before(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  SCRATCH_PROLOGUE
  float *ws = scratch[warp];
#pragma tawa tile
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32)
        C[(row0 + wr + i * 16 + e / 16) * N + col0 + wc + j * 16 + e % 16] =
            ws[e];
      __syncwarp();
    }
}
// CHECK: tawa::store(C, m0, n0, acc);

// CHECK-LABEL: __global__ void offset_pointer(
// The warp's scratch at an offset from the first element of the array.
__global__ void offset_pointer(const half *A, const half *B, float *C, int M,
                               int N, int K) {
  SCRATCH_PROLOGUE
  float *ws = &scratch[0][0] + warp * 256;
#pragma tawa tile
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32)
        C[(row0 + wr + i * 16 + e / 16) * N + col0 + wc + j * 16 + e % 16] =
            ws[e];
      __syncwarp();
    }
}
// CHECK: tawa::store(C, m0, n0, acc);

// CHECK-LABEL: __global__ void local_from_pointer(
// A float local read from the warp's scratch through the pointer, scaled,
// a row's bias added and ReLU applied before the half store.
__global__ void local_from_pointer(const half *A, const half *B, half *C,
                                   const float *bias, int M, int N, int K,
                                   float alpha) {
  SCRATCH_PROLOGUE
  float *ws = &scratch[0][0] + warp * 256;
#pragma tawa tile
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = row0 + wr + i * 16 + e / 16;
        const int c = col0 + wc + j * 16 + e % 16;
        if (r < M && c < N) {
          const float v = alpha * ws[e] + bias[r];
          C[r * N + c] = __float2half_rn(v > 0.0f ? v : 0.0f);
        }
      }
      __syncwarp();
    }
}
// CHECK: tawa::store(C, m0, n0,
// CHECK-NEXT: tawa::relu(alpha * acc + tawa::load<128, 1>(bias, m0, 0)));

// CHECK-LABEL: __global__ void unrolled(
// The fragments one after another, without loops, and block barriers.
__global__ void unrolled(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  SCRATCH_LOOP
#define STORE_FRAGMENT(I, J)                                                   \
  wmma::store_matrix_sync(scratch[warp], acc[I][J], 16, wmma::mem_row_major); \
  __syncthreads();                                                             \
  for (int e = lane; e < 256; e += 32)                                         \
    C[(row0 + wr + I * 16 + e / 16) * N + col0 + wc + J * 16 + e % 16] =       \
        scratch[warp][e];                                                      \
  __syncthreads();
  STORE_FRAGMENT(0, 0)
  STORE_FRAGMENT(0, 1)
  STORE_FRAGMENT(1, 0)
  STORE_FRAGMENT(1, 1)
}
// CHECK: tawa::store(C, m0, n0, acc);

// DIAG-NOT: warning
