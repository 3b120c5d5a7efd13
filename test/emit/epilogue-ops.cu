// The epilogue's ops on the accumulator's registers: a broadcast operand (a
// bias per column, 1 x BN, or per row, BM x 1) is read before the tile's main
// loop (load_epilogue_operands), into tawa_by_col[] or tawa_by_row[] once per
// column or row, the same operand once however often the expression names
// it; the stored window of C and an operand of one element are read per
// element, after the main loop.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;

__global__ void both(In A, In B, In col_bias, tawa::Matrix<const float> scale,
                     In row_bias, tawa::Matrix<float> C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256,
              tawa::relu(acc + tawa::load<1, 256>(col_bias, 0, blockIdx.x * 256)) *
                      tawa::load<1, 1>(scale, 0, 0) +
                  tawa::load<128, 1>(row_bias, blockIdx.y * 128, 0) +
                  tawa::load<1, 256>(col_bias, 0, blockIdx.x * 256) -
                  tawa::load<128, 256>(C, blockIdx.y * 128, blockIdx.x * 256));
}
// The broadcast operands before the main loop.
// CHECK:      // The epilogue's broadcast operands, read before the main loop so that
// CHECK-NEXT: // their loads overlap it.
// CHECK-NEXT: const auto tawa_operands = tawa::rt::load_epilogue_operands<1, 1>(
// CHECK-NEXT:     acc, (tile.y * 128) + consumer * 64, tile.x * 256,
// CHECK-NEXT:     [&](int tawa_col, float *tawa_by_col) {
// CHECK-NEXT:       tawa_by_col[0] = tawa::rt::epilogue_element(col_bias, 0, tawa_col);
// CHECK-NEXT:     },
// CHECK-NEXT:     [&](int tawa_row, float *tawa_by_row) {
// CHECK-NEXT:       tawa_by_row[0] = tawa::rt::epilogue_element(row_bias, tawa_row, 0);
// CHECK-NEXT:     });
// CHECK-NEXT: int k_steps = 0;
// The source of the epilogue, its lines joined, as a comment; then the ops.
// CHECK:      // The epilogue: tawa::relu(acc + tawa::load<1, 256>(col_bias, 0,
// CHECK-NEXT: // blockIdx.x * 256)) * tawa::load<1, 1>(scale, 0, 0) + tawa::load<128,
// CHECK-NEXT: // 1>(row_bias, blockIdx.y * 128, 0) + tawa::load<1, 256>(col_bias, 0,
// CHECK-NEXT: // blockIdx.x * 256) - tawa::load<128, 256>(C, blockIdx.y * 128,
// CHECK-NEXT: // blockIdx.x * 256)
// CHECK-NEXT: tawa::rt::apply_epilogue(
// CHECK-NEXT:     acc, (tile.y * 128) + consumer * 64, tile.x * 256,
// CHECK-NEXT:     /*zero=*/k_steps == 0, tawa_operands,
// CHECK-NEXT:     [&](float tawa_acc, int tawa_row, int tawa_col,
// CHECK-NEXT:         const float *tawa_by_col, const float *tawa_by_row) {
// CHECK-NEXT:       return tawa::relu(tawa_acc + tawa_by_col[0]) *
// CHECK-NEXT:                  tawa::rt::epilogue_element(scale, 0, 0) +
// CHECK-NEXT:              tawa_by_row[0] + tawa_by_col[0] -
// CHECK-NEXT:              tawa::rt::epilogue_element(C, tawa_row, tawa_col);
// CHECK-NEXT:     });

// Only a bias per column: no row values.
__global__ void bias_relu(In A, In B, In bias, tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256,
              tawa::relu(acc + tawa::load<1, 256>(bias, 0, blockIdx.x * 256)));
}
// CHECK:      const auto tawa_operands = tawa::rt::load_epilogue_operands<1, 0>(
// CHECK-NEXT:     acc, (tile.y * 128) + consumer * 64, tile.x * 256,
// CHECK-NEXT:     [&](int tawa_col, float *tawa_by_col) {
// CHECK-NEXT:       tawa_by_col[0] = tawa::rt::epilogue_element(bias, 0, tawa_col);
// CHECK-NEXT:     },
// CHECK-NEXT:     tawa::rt::NoValues{});
// CHECK:      // The epilogue: tawa::relu(acc + tawa::load<1, 256>(bias, 0, blockIdx.x *
// CHECK-NEXT: // 256))
// CHECK-NEXT: tawa::rt::apply_epilogue(
// CHECK-NEXT:     acc, (tile.y * 128) + consumer * 64, tile.x * 256,
// CHECK-NEXT:     /*zero=*/k_steps == 0, tawa_operands,
// CHECK-NEXT:     [&](float tawa_acc, int tawa_row, int tawa_col,
// CHECK-NEXT:         const float *tawa_by_col, const float *tawa_by_row) {
// CHECK-NEXT:       return tawa::relu(tawa_acc + tawa_by_col[0]);
// CHECK-NEXT:     });

// A conditional on a scalar: only the value chosen is evaluated, and an
// operand read in a chosen value is read per element where it is chosen,
// never ahead into an array (its pointer may be null where the other value
// is chosen).
__global__ void chosen(In A, In B, In bias, tawa::Matrix<float> C, float beta,
                       int has_bias) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(
      C, blockIdx.y * 128, blockIdx.x * 256,
      beta == 0.0f
          ? (has_bias ? acc + tawa::load<1, 256>(bias, 0, blockIdx.x * 256)
                      : acc)
          : acc + beta * tawa::load<128, 256>(C, blockIdx.y * 128,
                                              blockIdx.x * 256));
}
// CHECK:      const auto tawa_operands = tawa::rt::no_epilogue_operands(acc);
// CHECK:      tawa::rt::apply_epilogue(
// CHECK-NEXT:     acc, (tile.y * 128) + consumer * 64, tile.x * 256,
// CHECK-NEXT:     /*zero=*/k_steps == 0, tawa_operands,
// CHECK-NEXT:     [&](float tawa_acc, int tawa_row, int tawa_col,
// CHECK-NEXT:         const float *tawa_by_col, const float *tawa_by_row) {
// CHECK-NEXT:       return (beta == 0.0f)
// CHECK-NEXT:                  ? (has_bias ? tawa_acc + tawa::rt::epilogue_element(
// CHECK-NEXT:                                               bias, 0, tawa_col)
// CHECK-NEXT:                              : tawa_acc)
// CHECK-NEXT:                  : tawa_acc + beta * tawa::rt::epilogue_element(
// CHECK-NEXT:                                          C, tawa_row, tawa_col);
// CHECK-NEXT:     });

// tawa::tanh and tawa::sigmoid, printed as written.
__global__ void tanh_bias(In A, In B, In bias, tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256,
              tawa::tanh(acc + tawa::load<1, 256>(bias, 0, blockIdx.x * 256)));
}
// CHECK:      const auto tawa_operands = tawa::rt::load_epilogue_operands<1, 0>(
// CHECK:      return tawa::tanh(tawa_acc + tawa_by_col[0]);
__global__ void sigmoid_scaled(In A, In B, tawa::Matrix<float> C, float alpha) {
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<256, 64>(B, blockIdx.x * 256, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 256, tawa::sigmoid(alpha * acc));
}
// CHECK:      return tawa::sigmoid(alpha * tawa_acc);
