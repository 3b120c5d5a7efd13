// The K windows of the mma's tiles must move with the loop: a warning when
// they are loaded at different K offsets or the step differs from their K
// extent (the kernel is still rewritten: it computes what it says).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=REWRITTEN < %t.cu
// REWRITTEN-COUNT-3: tawa::rt::warpgroup_release_registers<40>();
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;
using Out = tawa::Matrix<__nv_bfloat16>;

__global__ void overlap(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  // CHECK: k-walk.cu:[[@LINE+1]]:33: warning: the loop advances 'k0' by 32 but tiles 'a' and 'b' cover 64 elements of K: consecutive iterations overlap [tawa-shape]
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    // CHECK: k-walk.cu:[[@LINE+1]]:40: note: the K offset of 'a'
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void skip(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  // CHECK: k-walk.cu:[[@LINE+1]]:31: warning: the loop advances 'k' by 128 but tiles 'a' and 'b' cover 64 elements of K: consecutive iterations skip elements [tawa-shape]
  for (int k = 0; k < A.cols; k = k + 128) {
    // CHECK: k-walk.cu:[[@LINE+1]]:40: note: the K offset of 'a'
    auto a = tawa::load<128, 64>(A, 0, k);
    auto b = tawa::load<256, 64>(B, 0, k);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}

__global__ void apart(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    // CHECK: k-walk.cu:[[@LINE+3]]:40: warning: tiles 'a' and 'b' are contracted over K but loaded at different K offsets [tawa-shape]
    // CHECK: k-walk.cu:[[@LINE+1]]:40: note: the K offset of 'a'
    auto a = tawa::load<128, 64>(A, 0, k0);
    auto b = tawa::load<256, 64>(B, 0, k0 + 64);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}
