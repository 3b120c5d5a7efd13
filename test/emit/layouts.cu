// Operands stored K x MN: B as K x N (`tawa::mma(acc, a, b)`) and A as K x M
// (`tawa::mma(acc, tawa::transpose(a), b)`). The producer loads such a window
// as 64-column TMA boxes, the tensor map's box is K x 64, and the consumers
// call wgmma_ss with the operand marked MN-major (wgmma's transpose bit).
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub
// RUN: grep -v '^// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite --explain %s --check -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: %tawa-rewrite --dump-arefs=text %s --check -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=AREFS
// RUN: %tawa-rewrite --dump-arefs=json %s --check -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=JSON
#include <tawa/tile.h>

using bf16 = __nv_bfloat16;

// C[M,N] = A[M,K] * B[K,N]
__global__ void gemm_nn(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                        tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) narrow(off)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<64, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK-LABEL: /// Shared memory of gemm_nn: aref `a_b`, 4 stages of {a: 128 x 64, b: 64 x 256
// CHECK-NEXT: /// as 4 boxes of 64 x 64} (49152 bytes each).
// CHECK: tawa::rt::tma_load_rows<128, false>(
// CHECK-NEXT: slot.a, &A_tensor_map, A_tensor_map_edge,
// CHECK-NEXT: smem.a_b_aref.full_barrier(a_b), k0, m0, 0);
// CHECK-NEXT: tawa::rt::tma_load_boxes<4, 64, false>(
// CHECK-NEXT: slot.b, &B_tensor_map, smem.a_b_aref.full_barrier(a_b), n0, k0,
// CHECK-NEXT: 0);
// CHECK: tawa::rt::wgmma_ss<64, /*a_mn_major=*/false, /*b_mn_major=*/true>(
// CHECK-NEXT: acc, slot.a + consumer * 64 * 64, slot.b,
// CHECK: maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 128, 64);
// CHECK: maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 64, 64);

// C[M,N] = A[K,M]^T * B[N,K]^T
__global__ void gemm_tt(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                        tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile narrow(off)
  for (int k0 = 0; k0 < A.rows; k0 += 64) {
    auto a = tawa::load<64, 128>(A, k0, m0);
    auto b = tawa::load<128, 64>(B, n0, k0);
    tawa::mma(acc, tawa::transpose(a), tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK-LABEL: /// Shared memory of gemm_tt: aref `a_b`, {{[0-9]+}} stages of {a: 64 x 128 as 2 boxes of
// CHECK-NEXT: /// 64 x 64, b: 128 x 64} (32768 bytes each).
// CHECK: tawa::rt::tma_load_boxes<2, 64, false>(
// CHECK-NEXT: slot.a, &A_tensor_map, smem.a_b_aref.full_barrier(a_b), m0, k0,
// CHECK-NEXT: 0);
// CHECK-NEXT: tawa::rt::tma_load_2d(slot.b, &B_tensor_map,
// CHECK-NEXT: smem.a_b_aref.full_barrier(a_b), k0, n0);
// CHECK: tawa::rt::wgmma_ss<64, /*a_mn_major=*/true, /*b_mn_major=*/false>(
// CHECK: maps = tawa::rt::make_tensor_map(&A_tensor_map, A_aligned, 64, 64);
// CHECK: maps = tawa::rt::make_tensor_map(&B_tensor_map, B_aligned, 128, 64);

// EXPLAIN: kernel gemm_nn: tile loop at layouts.cu:20:3
// EXPLAIN: tile: 128 x 256 x 64 bf16 (BM x BN x BK, elements) -- the tiles 'a' (128 x 64) and 'b' (64 x 256) of the mma
// EXPLAIN-NEXT: layout: a K-major (M x K), b MN-major (K x N, 4 TMA boxes of 64 x 64) -- from the mma: {{.+}}
// EXPLAIN: kernel gemm_tt: tile loop at layouts.cu:47:3
// EXPLAIN: layout: a MN-major (K x M, 2 TMA boxes of 64 x 64), b K-major (N x K) -- from the mma: {{.+}}

// AREFS: producer: load b = B[64 x 256 bf16, MN-major] at (k0, n0) -> aref a_b
// AREFS: consumer: mma acc += a * b <- aref a_b
// AREFS: producer: load a = A[64 x 128 bf16, MN-major] at (k0, m0) -> aref a_b
// AREFS: consumer: mma acc += a^T * b^T <- aref a_b

// JSON: "major": "k"
// JSON: "major": "mn"
// JSON: "transpose_a": false
// JSON: "transpose_b": false
// JSON: "major": "mn"
// JSON: "major": "k"
// JSON: "transpose_a": true
// JSON: "transpose_b": true
