// fp8 GEMMs: e4m3 and e5m2 tiles (also one of each) take 128 elements of K
// per stage, 128 bytes, and are read K-major (wgmma has no transpose for
// 8-bit types: a K x MN window is read from a transposed copy the launcher
// makes); the result is
// stored as bf16, f16 or f32 (tile.h's reference already refuses fp8 mixed
// with other types, and fp8 stores, at compile time). A kernel the tool
// cannot convert is left as it is, with a warning at the construct.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: %tawa-rewrite %s --explain -o %t.cu -- %cuda-stub 2>/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
#include <tawa/tile.h>

using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

// EXPLAIN-LABEL: kernel mixed_fp8:
// EXPLAIN: result: rewritten
// EXPLAIN: tile: 128 x 256 x 128 e4m3 x e5m2 (BM x BN x BK, elements)
// EXPLAIN: aref a_b: {a, b}, 49152 bytes per slot
__global__ void mixed_fp8(tawa::Matrix<const e4m3> A,
                          tawa::Matrix<const e5m2> B,
                          tawa::Matrix<float> C, float scale) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<256, 128>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, scale * acc);
}

// EXPLAIN-LABEL: kernel k_of_64:
// EXPLAIN: result: left unchanged
__global__ void k_of_64(tawa::Matrix<const e4m3> A,
                        tawa::Matrix<const e4m3> B,
                        tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    // CHECK: fp8.cu:[[@LINE+1]]:10: warning: tile 'a' has K extent 64; expected 128 e4m3 elements (128 bytes: one row of the 128-byte swizzle that TMA writes and wgmma reads) [tawa-shape]
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'k_of_64' is left unchanged

// EXPLAIN-LABEL: kernel b_k_by_n:
// EXPLAIN: result: rewritten
// EXPLAIN: layout: a K-major (M x K), b K-major (N x K) from a transposed copy of 'B' (stored K x N) -- from the mma and the element type: wgmma reads fp8 operands K-major only
// OUT-LABEL: b_k_by_n_launch(dim3 grid
// OUT: auto B_transposed = B;
// OUT: maps = copies.transposed(B, &B_transposed);
// OUT: maps = tawa::rt::make_tensor_map(&B_tensor_map, B_transposed, 256, 128);
__global__ void b_k_by_n(tawa::Matrix<const e4m3> A,
                         tawa::Matrix<const e4m3> B,
                         tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 128) {
    auto a = tawa::load<128, 128>(A, m0, k0);
    auto b = tawa::load<128, 256>(B, k0, n0);
    tawa::mma(acc, a, b);
  }
  tawa::store(C, m0, n0, acc);
}

// EXPLAIN-LABEL: kernel a_k_by_m:
// EXPLAIN: result: rewritten
// EXPLAIN: layout: a K-major (M x K) from a transposed copy of 'A' (stored K x M), b K-major (N x K) -- from the mma and the element type: wgmma reads fp8 operands K-major only
// OUT-LABEL: a_k_by_m_launch(dim3 grid
// OUT: auto A_transposed = A;
// OUT: maps = copies.transposed(A, &A_transposed);
// OUT: maps = tawa::rt::make_tensor_map(&A_tensor_map, A_transposed, 128, 128);
__global__ void a_k_by_m(tawa::Matrix<const e5m2> A,
                         tawa::Matrix<const e5m2> B,
                         tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.rows; k0 += 128) {
    auto a = tawa::load<128, 128>(A, k0, m0);
    auto b = tawa::load<256, 128>(B, n0, k0);
    tawa::mma(acc, tawa::transpose(a), tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// One K x M tile as both operands (the Gram matrix A^T A): no transposed copy
// is made for a tile read twice, so the K x MN window is refused.
// EXPLAIN-LABEL: kernel gram:
// EXPLAIN: result: left unchanged
__global__ void gram(tawa::Matrix<const e4m3> A, tawa::Matrix<float> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128;
  tawa::Accumulator<float, 128, 128> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.rows; k0 += 128) {
    // CHECK: fp8.cu:[[@LINE+1]]:10: warning: tile 'a' is e4m3 stored K x M; wgmma reads fp8 operands K-major only (it has no transpose for 8-bit types). Store the matrix M x K (transpose it once, ahead of the GEMM) and load the window with K as its columns [tawa-shape]
    auto a = tawa::load<128, 128>(A, k0, m0);
    tawa::mma(acc, tawa::transpose(a), a);
  }
  tawa::store(C, m0, n0, acc);
}
// CHECK: note: kernel 'gram' is left unchanged
