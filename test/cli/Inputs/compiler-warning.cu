// A compiler warning (with -Wunused-variable) beside a kernel the tool
// leaves unchanged (a 32-element K extent).
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

int host_only() {
  int unused = 0;
  return 1;
}

__global__ void narrow(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                       tawa::Matrix<bf16> C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 32>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
}
