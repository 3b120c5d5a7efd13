// A misspelled clause or directive: an error that names the closest word,
// with the fix-it that replaces the misspelling (clang prints it under the
// caret; the tawa-pragma check of clang-tidy applies it, test/tidy/).
// RUN: not %tawa-rewrite %s -- %cuda-stub 2>&1 | FileCheck %s --strict-whitespace --implicit-check-not=error:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void k1(tawa::Matrix<const bf16> A) {
// CHECK: did-you-mean.cu:[[@LINE+4]]:19: error: unknown clause 'stagez' in '#pragma tawa tile'; did you mean 'stages'? [tawa-pragma]
// CHECK-NEXT: {{ *}}[[@LINE+3]] | #pragma tawa tile stagez(4) Consumers(2)
// CHECK-NEXT: {{ *}}| {{                  }}^~~~~~
// CHECK-NEXT: {{ *}}| {{                  }}stages
#pragma tawa tile stagez(4) Consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
// CHECK: did-you-mean.cu:[[@LINE-4]]:29: error: unknown clause 'Consumers' in '#pragma tawa tile'; did you mean 'consumers'? [tawa-pragma]

__global__ void k2(tawa::Matrix<const bf16> A) {
// CHECK: did-you-mean.cu:[[@LINE+2]]:19: error: unknown clause 'shcedule' in '#pragma tawa tile'; did you mean 'schedule'? [tawa-pragma]
// CHECK: did-you-mean.cu:[[@LINE+1]]:38: error: unknown clause 'persistant' in '#pragma tawa tile'; did you mean 'persistent'? [tawa-pragma]
#pragma tawa tile shcedule(pingpong) persistant
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}

__global__ void k3(tawa::Matrix<const bf16> A) {
// CHECK: did-you-mean.cu:[[@LINE+3]]:14: error: unknown '#pragma tawa' directive 'tiles'; did you mean 'tile'? [tawa-pragma]
// CHECK-NEXT: {{ *}}[[@LINE+2]] | #pragma tawa tiles stages(4)
// CHECK: {{ *}}| {{             }}tile
#pragma tawa tiles stages(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
  }
}
