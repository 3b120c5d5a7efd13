// The epilogue: through shared memory and TMA stores where the tile splits
// into 128-byte column chunks (64 bf16 or 32 fp32 columns), else direct
// stores from registers; batched matrices (`M.batch(b)`) get 3-D tensor maps.
// RUN: %tawa-rewrite %s -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

using In = tawa::Matrix<const __nv_bfloat16>;

// N = 120 is no multiple of 64: direct stores.
__global__ void narrow(In A, In B, tawa::Matrix<__nv_bfloat16> C) {
  tawa::Accumulator<float, 128, 120> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, blockIdx.y * 128, k0);
    auto b = tawa::load<120, 64>(B, blockIdx.x * 120, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, blockIdx.y * 128, blockIdx.x * 120, acc);
}

// CHECK:   tawa::rt::Aref<7> a_b_aref;
// CHECK-NEXT: };
// CHECK:       tawa::rt::store_accumulator(C, (tile.y * 128) + consumer * 64,
// CHECK-NEXT:                                   tile.x * 120, acc, /*zero=*/k_steps == 0);

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
