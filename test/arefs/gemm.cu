// The aref graph of the NT GEMM: two producer loads merged into one aref that
// the mma consumes; the accumulator stays in the consumers' registers.
// RUN: %tawa-rewrite %s --dump-arefs -- %cuda-stub | FileCheck %s --match-full-lines
#include <tawa/tile.h>

__global__ void gemm_nt(tawa::Matrix<const __nv_bfloat16> A, tawa::Matrix<const __nv_bfloat16> B,
                        tawa::Matrix<__nv_bfloat16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile stages(4) consumers(2)
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK:      kernel gemm_nt: tile loop at gemm.cu:11:3
// CHECK-NEXT:   loop: for (int k0 = 0; k0 < A.cols; k0 += 64)
// CHECK-NEXT:   producer: load a = A[128 x 64 bf16] at (m0, k0) -> aref a_b
// CHECK-NEXT:   producer: load b = B[256 x 64 bf16] at (n0, k0) -> aref a_b
// CHECK-NEXT:   aref a_b: {a, b}, 49152 bytes per slot, 4 stages
// CHECK-NEXT:   consumer: mma acc += a * b^T <- aref a_b
// CHECK-NEXT:   accumulator acc: f32 128 x 256, loop-carried, in consumer registers (2 warpgroups x 64 rows)
// CHECK-NEXT:   epilogue: store acc -> C[bf16] at (m0, n0)
// CHECK-NEXT:   roles: producer warpgroup 0 (setmaxnreg 40), consumer warpgroups 1-2 (setmaxnreg 232), 384 threads, 231424 bytes of shared memory
// CHECK-NOT: {{.}}
