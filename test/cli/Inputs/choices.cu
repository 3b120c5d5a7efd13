// Tiles whose defaults differ from the example's: a staging buffer per
// column chunk, a single one, and the 24/240 register split.
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

// 128 x 192, three stages: three 64-column chunks fit beside the ring.
__global__ void staged(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                       tawa::Matrix<bf16> C) {
  tawa::Accumulator<float, 128, 192> acc;
#pragma tawa tile stages(3)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<192, 64>(B, blockIdx.x * 192, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 192, acc);
}

// One consumer for 128 x 176: 176 accumulator registers + 64 exceed 232.
__global__ void pressure(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                         tawa::Matrix<bf16> C) {
  tawa::Accumulator<float, 128, 176> acc;
#pragma tawa tile consumers(1)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<176, 64>(B, blockIdx.x * 176, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 176, acc);
}

// 256 x 128 with four stages: two 128-row buffers per consumer do not fit.
__global__ void single(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                       tawa::Matrix<bf16> C) {
  tawa::Accumulator<float, 256, 128> acc;
#pragma tawa tile stages(4)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<256, 64>(A, blockIdx.y * 256, k0);
    auto b = tawa::load<128, 64>(B, blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 256, blockIdx.x * 128, acc);
}
