// A pragma must sit inside a kernel, right before a for loop.
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
#include <tawa/tile.h>

__global__ void k(tawa::Matrix<const __nv_bfloat16> A, int *out) {
// CHECK: not-a-loop.cu:[[@LINE+2]]:14: error: '#pragma tawa tile' must be followed by a for loop [tawa-pragma]
// CHECK: not-a-loop.cu:[[@LINE+2]]:3: note: the statement after the pragma is here
#pragma tawa tile stages(4)
  int k0 = 0;
  while (k0 < A.cols)
    k0 += 64;
  *out = k0;
}

__global__ void do_while(tawa::Matrix<const __nv_bfloat16> A, int *out) {
  int k0 = 0;
// CHECK: not-a-loop.cu:[[@LINE+2]]:14: error: '#pragma tawa tile' must be followed by a for loop [tawa-pragma]
// CHECK: not-a-loop.cu:[[@LINE+2]]:3: note: a while or do-while loop is not lifted: write the K loop as 'for (int k = 0; k < K; k += TILE)'
#pragma tawa tile
  do {
    k0 += 64;
  } while (k0 < A.cols);
  *out = k0;
}

// CHECK: not-a-loop.cu:[[@LINE+1]]:14: error: '#pragma tawa tile' must be placed inside a __global__ function, immediately before a for loop [tawa-pragma]
#pragma tawa tile
int x;

__global__ void empty_tail(int *p) {
  *p = 1;
// CHECK: not-a-loop.cu:[[@LINE+1]]:14: error: '#pragma tawa tile' must be followed by a for loop [tawa-pragma]
#pragma tawa tile
}
