// The epilogue: through shared memory and TMA stores in 128-byte column
// chunks (64 bf16 or 32 fp32 columns), the columns past the last whole chunk
// from registers, and a tile narrower than one chunk from registers whole;
// batched matrices (`M.batch(b)`) get 3-D tensor maps.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;

// N = 120 is one whole 64-column chunk and 56 columns: the chunk through
// TMA, the 56 columns from the registers.
__global__ void tail(In A, In B, tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 120> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<120, 64>(B, blockIdx.x * 120, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 120, acc);
}

// CHECK:      __global__ void __launch_bounds__(384, 1)
// CHECK-NEXT: tail(In A, In B, tawa::Matrix<__nv_bfloat16> C,
// CHECK:           tawa::rt::store_accumulator_tma<false>(
// CHECK-NEXT:             &C_store_map, smem.epilogue[consumer],
// CHECK-NEXT:             (tile.y * 128) + consumer * 64, tile.x * 120, 0, acc,
// CHECK-NEXT:             /*zero=*/k_steps == 0, /*barrier=*/1 + consumer);
// CHECK-NEXT:         // The last 56 columns are not a whole 128-byte chunk: stored from the
// CHECK-NEXT:         // registers.
// CHECK-NEXT:         tawa::rt::store_accumulator<64>(C, (tile.y * 128) + consumer * 64,
// CHECK-NEXT:                                         tile.x * 120, acc,
// CHECK-NEXT:                                         /*zero=*/k_steps == 0);
// CHECK-NEXT:       } else {

// N = 48 is less than one 64-column chunk: direct stores.
__global__ void narrow(In A, In B, tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 48> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<48, 64>(B, blockIdx.x * 48, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 48, acc);
}

// CHECK-LABEL: __global__ void narrow_reference(In A, In B, tawa::Matrix<__nv_bfloat16> C) {
// CHECK:       tawa::rt::Aref<8> a_b_aref;
// CHECK-NEXT: };
// CHECK:       tawa::rt::store_accumulator(C, (tile.y * 128) + consumer * 64,
// CHECK-NEXT:                                   tile.x * 48, acc, /*zero=*/k_steps == 0);

// fp32, N = 144: four 32-column chunks through TMA, 16 columns from the
// registers of the batch's matrix.
__global__ void batched_tail(In A, In B, tawa::Matrix<float> C) {
  const int z = blockIdx.z;
  tawa::Accumulator<float, 128, 144> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A.batch(z), blockIdx.y * 128, k0);
    auto b = tawa::load<144, 64>(B.batch(z), blockIdx.x * 144, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C.batch(z), blockIdx.y * 128, blockIdx.x * 144, acc);
}

// CHECK-LABEL: __global__ void batched_tail_reference(In A, In B, tawa::Matrix<float> C) {
// CHECK:         // The last 16 columns are not a whole 128-byte chunk: stored from the
// CHECK-NEXT:         // registers.
// CHECK-NEXT:         tawa::rt::store_accumulator<128>(
// CHECK-NEXT:             C.batch(z), (tile.y * 128) + consumer * 64, tile.x * 144, acc,
// CHECK-NEXT:             /*zero=*/k_steps == 0);

// Batched: the batch index becomes the third TMA coordinate.
__global__ void batched(In A, In B, tawa::Matrix<float> C) {
  const int z = blockIdx.z;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A.batch(z), blockIdx.y * 128, k0);
    auto b = tawa::load<128, 64>(B.batch(z), blockIdx.x * 128, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C.batch(z), blockIdx.y * 128, blockIdx.x * 128, acc);
}

// CHECK:   tawa::rt::EpilogueStaging<float, 64, 2> epilogue[2];
// CHECK:         const int z = tile.z;
// CHECK:           tawa::rt::tma_load_rows<128, true>(
// CHECK-NEXT:               slot.a, &A_tensor_map, A_tensor_map_edge,
// CHECK-NEXT:               smem.a_b_aref.full_barrier(a_b), k0, tile.y * 128, z);
// CHECK:         tawa::rt::store_accumulator_tma<true>(
// CHECK-NEXT:             &C_store_map, smem.epilogue[consumer],
// CHECK-NEXT:             (tile.y * 128) + consumer * 64, tile.x * 128, z, acc,
// CHECK:     maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64,
// CHECK-NEXT:                                      /*batched=*/true);
// CHECK:       tawa::rt::make_tensor_map(&C_store_map, C, 64, 32, /*batched=*/true) ==
