// A's TMA boxes that reach past its last row load only the rows before it
// (tawa/runtime/edge_boxes.cuh) where A's M origin is the store's row
// origin. Where the store's rows start elsewhere, A's end says nothing about
// C's rows, and A's boxes stay whole.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

// CHECK-LABEL: /// same_origin, warp-specialized by tawa-rewrite
// CHECK: tawa::rt::EdgeMaps A_tensor_map_edge
// CHECK: tawa::rt::tma_load_rows<128, false>(
// CHECK: maps = tawa::rt::make_edge_maps(&A_tensor_map_edge, A_aligned, 128, 64,
__global__ void same_origin(tawa::Matrix<const bf16> A,
                            tawa::Matrix<const bf16> B, tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK-LABEL: /// shifted_store, warp-specialized by tawa-rewrite
// CHECK-NOT: EdgeMaps
// CHECK-NOT: tma_load_rows
// CHECK-NOT: make_edge_maps
// CHECK: tawa::rt::tma_load_2d(slot.a, &A_tensor_map,
// CHECK-NOT: EdgeMaps
// CHECK-NOT: tma_load_rows
// CHECK-NOT: make_edge_maps
__global__ void shifted_store(tawa::Matrix<const bf16> A,
                              tawa::Matrix<const bf16> B, tawa::Matrix<bf16> C,
                              int row_offset) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, row_offset + m0, n0, acc);
}
// DIAG-NOT: warning
