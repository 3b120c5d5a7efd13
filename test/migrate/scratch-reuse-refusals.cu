// Kernels that reuse a warp's scratch for its fragments after the loop and
// differ from ones that lift (scratch-reuse.cu) by one defect each: each is
// refused at the statement that breaks the pattern and the file is left
// exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub -I%S/Inputs 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>
#include <mma.h>
#include "wmma-scratch.h"
using namespace nvcuda;
#define READ_BACK(I, J, FROM)                                                  \
  for (int e = lane; e < 256; e += 32)                                         \
    C[(row0 + wr + I * 16 + e / 16) * N + col0 + wc + J * 16 + e % 16] =       \
        FROM[e];

// No barrier after the reads: the next fragment's store may overwrite the
// scratch before the other lanes read it.
__global__ void no_second_barrier(const half *A, const half *B, float *C,
                                  int M, int N, int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'scratch' that a later store after the loop writes again with no barrier between the read and that store ('__syncwarp();' after the reads where one warp reuses its scratch, else '__syncthreads();') (matched furthest as a block of 128 threads) [tawa-unsupported]
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'scratch' that a later store
      READ_BACK(i, j, scratch[warp])
    }
}
// CHECK: note: kernel 'no_second_barrier' is left unchanged

// No barrier between the fragment's store and its reads.
__global__ void no_first_barrier(const half *A, const half *B, float *C,
                                 int M, int N, int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}reads an element of 'scratch' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it (matched furthest as a block of 128 threads) [tawa-unsupported]
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
      // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'scratch' that is not written
      READ_BACK(i, j, scratch[warp])
      __syncwarp();
    }
}
// CHECK: note: kernel 'no_first_barrier' is left unchanged

// Every warp uses the same scratch: __syncwarp() orders one warp only.
__global__ void one_scratch(const half *A, const half *B, float *C, int M,
                            int N, int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: {{.*}}'scratch'{{.*}} [tawa-unsupported]
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[0], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: {{.*}}'scratch'
      READ_BACK(i, j, scratch[0])
      __syncwarp();
    }
}
// CHECK: note: kernel 'one_scratch' is left unchanged

// The pointer to the warp's scratch, set before the loop, is moved after it.
__global__ void pointer_moved(const half *A, const half *B, float *C, int M,
                              int N, int K) {
  SCRATCH_PROLOGUE
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+4]]:3: warning: {{.*}}breaks it: the pointer 'ws' into a __shared__ tile is changed{{.*}} [tawa-unsupported]
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:10: note: the pointer 'ws' into a __shared__ tile is changed
  float *ws = scratch[warp];
#pragma tawa tile
  SCRATCH_LOOP
  ws += 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      READ_BACK(i, j, ws)
      __syncwarp();
    }
}
// CHECK: note: kernel 'pointer_moved' is left unchanged

// The warps' scratches, 128 floats apart, overlap: a warp reads what the
// next one wrote.
__global__ void overlapping(const half *A, const half *B, float *C, int M,
                            int N, int K) {
  SCRATCH_PROLOGUE
  float *ws = &scratch[0][0] + warp * 128;
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}reads an element of 'scratch' that is not written before the read: by another thread{{.*}} [tawa-unsupported]
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'scratch'
      READ_BACK(i, j, ws)
      __syncwarp();
    }
}
// CHECK: note: kernel 'overlapping' is left unchanged

// The last warp's scratch, 320 floats apart, reaches past the array.
__global__ void past_end(const half *A, const half *B, float *C, int M, int N,
                         int K) {
  SCRATCH_PROLOGUE
  float *ws = &scratch[0][0] + warp * 320;
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the fragment reaches outside 'scratch'{{.*}} [tawa-unsupported]
  SCRATCH_LOOP
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:7: note: the fragment reaches outside 'scratch'
      wmma::store_matrix_sync(ws, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      READ_BACK(i, j, ws)
      __syncwarp();
    }
}
// CHECK: note: kernel 'past_end' is left unchanged

// A loop with barriers whose trips depend on the thread.
__global__ void thread_trips(const half *A, const half *B, float *C, int M,
                             int N, int K) {
  SCRATCH_PROLOGUE
#pragma tawa tile
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}expected a loop with barriers after the tile loop, 'for (int i = a; i < b; i += c)' with a, b and c integer constants (the same for the whole block){{.*}} [tawa-unsupported]
  SCRATCH_LOOP
  // CHECK: scratch-reuse-refusals.cu:[[@LINE+1]]:3: note: expected a loop with barriers
  for (int i = 0; i < 1 + lane % 2; ++i)
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      READ_BACK(i, j, scratch[warp])
      __syncwarp();
    }
}
// CHECK: note: kernel 'thread_trips' is left unchanged
