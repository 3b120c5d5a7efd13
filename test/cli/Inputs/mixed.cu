// One kernel the tool converts, one it cannot (a 32-element K extent).
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

__global__ void good(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                     tawa::Matrix<bf16> C) {
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 128, acc);
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
