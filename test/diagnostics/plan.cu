// [tawa-shape] diagnostics of the planner not covered by test/plan/.
// RUN: %tawa-rewrite %s --check -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

__global__ void k_mismatch(In A, In B, Out C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, 0, k0);
    // CHECK: plan.cu:[[@LINE+1]]:10: warning: tiles 'a' (128 x 64) and 'b' (256 x 32) disagree on K: a * b^T needs equal column counts [tawa-shape]
    auto b = tawa::load<256, 32>(B, 0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, 0, 0, acc);
}
