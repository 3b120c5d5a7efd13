// Epilogue ops a GEMM's consumers cannot apply element by element are
// warnings at the expression; their kernels are left unchanged.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

#define GEMM_LOOP                                                              \
  for (int k0 = 0; k0 < A.cols; k0 += 64) {                                    \
    auto a = tawa::load<128, 64>(A, m0, k0);                                   \
    auto b = tawa::load<256, 64>(B, n0, k0);                                   \
    tawa::mma(acc, a, tawa::transpose(b));                                     \
  }

__global__ void other_window(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:56: warning: the row origin of an epilogue operand as wide as the accumulator must be the store's, 'm0', so that its elements are those of the stored window; a row of one element may be taken at any origin [tawa-unsupported]
  tawa::store(C, m0, n0, acc + tawa::load<128, 256>(A, m0 + 128, n0));
}

__global__ void stored_row(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:32: warning: an epilogue operand of the stored matrix 'C' is the stored window itself (128 x 256 at the store's origin); another window of it is written by other tiles [tawa-unsupported]
  tawa::store(C, m0, n0, acc + tawa::load<1, 256>(C, 0, n0));
}

__global__ void tile_origin(In A, In B, Out C, In bias) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:57: warning: the origin of a broadcast epilogue operand reads 'blockIdx.y'; the rewritten kernel's threads and tiles are not the kernel's, so only its parameters, constants and blockIdx.z may be read there (an origin that moves with the tile is the store's own) [tawa-unsupported]
  tawa::store(C, m0, n0, acc + tawa::load<1, 256>(bias, blockIdx.y, n0));
}

__device__ float next_scale();

__global__ void side_effect(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:32: warning: a scalar of the epilogue has side effects (a call or an assignment); the epilogue evaluates it per element [tawa-unsupported]
  tawa::store(C, m0, n0, acc * next_scale());
}

__global__ void reduction(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:32: warning: row reductions and row vectors are not epilogue ops of a GEMM; its epilogue applies + - * /, 'tawa::exp2', 'tawa::relu', 'tawa::gelu', 'tawa::gelu_tanh', 'tawa::silu', 'tawa::leaky_relu', 'tawa::tanh' and 'tawa::sigmoid' to each element of the accumulator, with scalars and tiles loaded in the store [tawa-unsupported]
  tawa::store(C, m0, n0, acc - tawa::row_max(acc));
}

__global__ void load_in_loop(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto b = tawa::load<256, 64>(B, n0, k0);
    // CHECK: epilogue-ops.cu:[[@LINE+1]]:20: warning: the A operand of an mma is a tile loaded with 'tawa::load', 'tawa::transpose(tile)', or 'tawa::convert<T>(acc)' [tawa-unsupported]
    tawa::mma(acc, tawa::load<128, 64>(A, m0, k0), tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void thread_choice(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  GEMM_LOOP
  // CHECK: epilogue-ops.cu:[[@LINE+1]]:26: warning: a scalar of the epilogue reads 'threadIdx'; the rewritten kernel's threads and tiles are not the kernel's, so only its parameters, constants and blockIdx.z may be read there (an origin that moves with the tile is the store's own) [tawa-unsupported]
  tawa::store(C, m0, n0, threadIdx.x == 0 ? acc : acc * 2.0f);
}

__global__ void choice_in_loop(In A, In B, Out C, int twice) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
    // CHECK: epilogue-ops.cu:[[@LINE+1]]:11: warning: a conditional 'cond ? x : y' of tiles is allowed in the value of 'tawa::store' only, its condition a scalar of the kernel ('beta == 0.0f') [tawa-unsupported]
    acc = twice ? acc * 2.0f : acc;
  }
  tawa::store(C, m0, n0, acc);
}
