// fp32 GEMMs: the tensor cores take no fp32 inputs, so fp32 tiles need
// 'precision(tf32)', which reads them as tf32 (wgmma .tf32, 32 elements of K
// per stage, 128 bytes) and, as for fp8, K-major only: a K x MN window is read
// from a transposed copy the launcher makes, or 'precision(3xtf32)', which
// splits each tile into tf32 high and low parts (the low parts in the same
// slot, twice its bytes) and sums three tf32 products per step. Without a
// clause an fp32 mma is refused at its tile; the clause on 16-bit tiles is an
// error. A kernel the tool cannot convert is left as it is, with a warning at
// the construct.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %tawa-rewrite %s --explain -o %t.cu -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <tawa/tile.h>

// EXPLAIN-LABEL: kernel sgemm_nt:
// EXPLAIN: result: rewritten
// EXPLAIN: tile: 128 x 256 x 32 f32 read as tf32 (precision(tf32)) (BM x BN x BK, elements)
// EXPLAIN: aref a_b: {a, b}, 49152 bytes per slot
// OUT-LABEL: __global__ void __launch_bounds__(384, 1) sgemm_nt(
// OUT: tawa::rt::wgmma_nt<32>(
__global__ void sgemm_nt(tawa::Matrix<const float> A,
                         tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<256, 32>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// EXPLAIN-LABEL: kernel no_clause:
// EXPLAIN: result: left unchanged
__global__ void no_clause(tawa::Matrix<const float> A,
                          tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    // CHECK: tf32.cu:[[@LINE+1]]:10: warning: tile 'a' is f32; the tensor cores take no fp32 inputs, and multiplying them as tf32 (10-bit mantissas) would change the kernel's results. Add 'precision(3xtf32)' to the pragma for about fp32's accuracy (three tf32 products per step), or 'precision(tf32)' where tf32's is acceptable (docs/tile-language.md) [tawa-shape]
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<256, 32>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'no_clause' is left unchanged

__global__ void k_of_64(tawa::Matrix<const float> A,
                        tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    // CHECK: tf32.cu:[[@LINE+1]]:10: warning: tile 'a' has K extent 64; expected 32 f32 elements (128 bytes: one row of the 128-byte swizzle that TMA writes and wgmma reads) [tawa-shape]
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'k_of_64' is left unchanged

// A K x N (or K x M) window is read from a transposed copy of its matrix.
// EXPLAIN-LABEL: kernel b_k_by_n:
// EXPLAIN: result: rewritten
// EXPLAIN: layout: a K-major (M x K), b K-major (N x K) from a transposed copy of 'B' (stored K x N) -- from the mma and the element type: wgmma reads tf32 operands K-major only
// OUT-LABEL: cudaError_t b_k_by_n_launch(
// OUT: auto B_transposed = B;
// OUT: maps = copies.transposed(B, &B_transposed);
// OUT: maps = tawa::rt::make_tensor_map(&B_tensor_map, B_transposed, 256, 32);
__global__ void b_k_by_n(tawa::Matrix<const float> A,
                         tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<32, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

// EXPLAIN-LABEL: kernel both_k_by_mn:
// EXPLAIN: result: rewritten
// EXPLAIN: layout: a K-major (M x K) from a transposed copy of 'A' (stored K x M), b K-major (N x K) from a transposed copy of 'B' (stored K x N)
// OUT-LABEL: cudaError_t both_k_by_mn_launch(
// OUT: cudaError_t maps = cudaSuccess;
// OUT: maps = copies.transposed(A, &A_transposed);
// OUT: maps = copies.transposed(B, &B_transposed);
// OUT: maps = tawa::rt::make_tensor_map(&A_tensor_map, A_transposed, 128, 32);
__global__ void both_k_by_mn(tawa::Matrix<const float> A,
                             tawa::Matrix<const float> B,
                             tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.rows; k0 += 32) {
    auto a = tawa::load<32, 128>(A, k0, m0);
    auto b = tawa::load<32, 256>(B, k0, n0);
    tawa::mma(acc, tawa::transpose(a), b);
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void clause_on_bf16(tawa::Matrix<const __nv_bfloat16> A,
                               tawa::Matrix<const __nv_bfloat16> B,
                               tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  // CHECK: tf32.cu:[[@LINE+1]]:19: warning: clause 'precision' applies to fp32 operands; the mma's are bf16 and bf16 [tawa-shape]
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'clause_on_bf16' is left unchanged

// precision(3xtf32): the slot holds the tiles' low parts too; the producer
// warpgroup's warps 1-3 split each slot, the consumers wait for that and
// issue three products per step.
// EXPLAIN-LABEL: kernel three_tf32:
// EXPLAIN: result: rewritten
// EXPLAIN: tile: 128 x 256 x 32 f32 split into tf32 high and low parts, three products per step (precision(3xtf32)) (BM x BN x BK, elements)
// EXPLAIN: aref a_b: {a, b}, 98304 bytes per slot
// EXPLAIN: stages: 2 slots of 98304 bytes
// EXPLAIN: registers: setmaxnreg 40 (producer), 232 (consumers)
// OUT-LABEL: struct three_tf32_shared {
// OUT: alignas(1024) float a_low[128 * 32];
// OUT-NEXT: alignas(1024) float b_low[256 * 32];
// OUT: tawa::rt::SplitBarriers<2> a_b_split;
// OUT: /// consume it with wgmma m64n256k8 (three per step: precision(3xtf32)),
// OUT: smem.a_b_split.init(/*warps=*/3); // warps 1-3 split
// OUT: smem.a_b_split.finish(smem.a_b_aref, a_b);
// OUT-NEXT: } else if (threadIdx.x >= 32) {
// OUT: for (tawa::rt::ArefCursor<kStages> a_b;; a_b.advance()) {
// OUT-NEXT: smem.a_b_aref.get(a_b);
// OUT-NEXT: if (smem.a_b_split.done_at(a_b)) {
// OUT: tawa::rt::tf32_split_tile<96, 128 * 32>(slot.a, slot.a_low,
// OUT: tawa::rt::tf32_split_tile<96, 256 * 32>(slot.b, slot.b_low,
// OUT: smem.a_b_split.arrive(a_b);
// OUT: smem.a_b_split.wait(a_b);
// OUT-NEXT: if (!idle) {
// OUT-NEXT: tawa::rt::wgmma_nt_3xtf32<32>(acc, slot.a + consumer * 64 * 32,
// OUT-NEXT: slot.a_low + consumer * 64 * 32, slot.b,
// OUT-NEXT: slot.b_low, /*accumulate=*/k_steps > 0);
__global__ void three_tf32(tawa::Matrix<const float> A,
                           tawa::Matrix<const float> B, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile precision(3xtf32)
  for (int k0 = 0; k0 < A.cols; k0 += 32) {
    auto a = tawa::load<128, 32>(A, m0, k0);
    auto b = tawa::load<256, 32>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// precision(3xtf32) on 16-bit tiles is the same error as precision(tf32).
__global__ void three_on_bf16(tawa::Matrix<const __nv_bfloat16> A,
                              tawa::Matrix<const __nv_bfloat16> B,
                              tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  // CHECK: tf32.cu:[[@LINE+1]]:19: warning: clause 'precision' applies to fp32 operands; the mma's are bf16 and bf16 [tawa-shape]
#pragma tawa tile precision(3xtf32)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'three_on_bf16' is left unchanged
