// Without clauses the planner picks the defaults: one consumer warpgroup per
// 64 rows, as many stages as shared memory allows (at most 6), 40/232 regs;
// fp16 tiles and an fp32 output.
// RUN: %tawa-rewrite %s --dump-arefs -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

__global__ void hgemm(tawa::Matrix<const __half> X, tawa::Matrix<const __half> W,
                      tawa::Matrix<float> Y) {
  tawa::Accumulator<float, 128, 128> y;
#pragma tawa tile
  for (int k = 0; k < X.cols; k += 64) {
    auto x = tawa::load<128, 64>(X, blockIdx.y * 128, k);
    auto w = tawa::load<128, 64>(W, blockIdx.x * 128, k);
    tawa::mma(y, x, tawa::transpose(w));
  }
  tawa::store(Y, blockIdx.y * 128, blockIdx.x * 128, y);
}

// CHECK:      kernel hgemm: tile loop at defaults.cu:11:3
// CHECK-NEXT:   loop: for (int k = 0; k < X.cols; k += 64)
// CHECK-NEXT:   producer: load x = X[128 x 64 f16] at (blockIdx.y * 128, k) -> aref x_w
// CHECK-NEXT:   producer: load w = W[128 x 64 f16] at (blockIdx.x * 128, k) -> aref x_w
// CHECK-NEXT:   aref x_w: {x, w}, 32768 bytes per slot, 6 stages
// CHECK-NEXT:   consumer: mma y += x * w^T <- aref x_w
// CHECK-NEXT:   accumulator y: f32 128 x 128, loop-carried, in consumer registers (2 warpgroups x 64 rows)
// CHECK-NEXT:   epilogue: store y -> Y[f32] at (blockIdx.y * 128, blockIdx.x * 128)
// CHECK-NEXT:   roles: producer warpgroup 0 (setmaxnreg 40), consumer warpgroups 1-2 (setmaxnreg 232), 384 threads, 231424 bytes of shared memory
