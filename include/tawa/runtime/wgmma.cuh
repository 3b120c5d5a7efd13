//===- tawa/runtime/wgmma.cuh - warpgroup matrix multiply-accumulate ------===//
//
// wgmma.mma_async with both operands in shared memory, 128-byte swizzled and
// K-major, as TMA writes them (PTX ISA 9.7.15, "Asynchronous Warpgroup Level
// Matrix Multiply-Accumulate"). One instruction computes a 64 x N x 16 product
// per warpgroup; the fp32 accumulator is N/2 registers per thread.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

namespace tawa::rt {

/// Shared-memory matrix descriptor (PTX ISA 9.7.15.5.1, "Matrix Descriptor
/// Format") of a K-major tile with 128-byte swizzle whose 8-row x 128-byte
/// swizzle atoms are stacked contiguously: start address bits 0-13, leading
/// byte offset (unused for this layout, 1) bits 16-29, stride byte offset
/// 1024 bytes (8 rows x 128 bytes) bits 32-45, swizzle mode 1 (128B) bits
/// 62-63. `tile` must lie in a 1024-byte aligned buffer (base offset 0).
__device__ __forceinline__ uint64_t smem_descriptor_sw128(const void *tile) {
  const uint64_t addr = smem_addr(tile);
  return ((addr & 0x3FFFF) >> 4) | (uint64_t{1} << 16) |
         (uint64_t{1024 >> 4} << 32) | (uint64_t{1} << 62);
}

/// Orders register accesses to the accumulators before the wgmma that follows.
__device__ __forceinline__ void wgmma_fence() {
#if TAWA_DEVICE_PASS
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

/// Closes the group of wgmma operations issued since the last commit.
__device__ __forceinline__ void wgmma_commit() {
#if TAWA_DEVICE_PASS
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

/// Waits until at most `Pending` committed wgmma groups are still running.
template <int Pending> __device__ __forceinline__ void wgmma_wait() {
#if TAWA_DEVICE_PASS
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
#endif
}

/// Tells the compiler that `r` may change here (the asynchronous wgmma writes
/// it), so no access to it is moved across this point.
__device__ __forceinline__ void fence_operand(float &r) {
  asm volatile("" : "+f"(r)::"memory");
}

// %-operand strings of one wgmma: D registers, A and B descriptors, scale-d
// (a predicate: 0 computes D = A*B, 1 computes D += A*B), transpose-B.
#define TAWA_WGMMA_ASM(SHAPE_TYPES, D, A, B, SCALE_D, TRANS_B)                 \
  "{\n .reg .pred p;\n setp.ne.b32 p, " SCALE_D ", 0;\n"                       \
  " wgmma.mma_async.sync.aligned." SHAPE_TYPES " {" D "}, " A ", " B           \
  ", p, 1, 1, 0, " TRANS_B ";\n}\n"

/// One `wgmma.mma_async.m64nNk16` with fp32 accumulators; N in 8..256, step 8.
template <int N> struct WgmmaM64;
#include "wgmma_ops.inc"
#undef TAWA_WGMMA_ASM

/// The fp32 accumulator of one consumer warpgroup: MTiles stacked 64 x N
/// fragments in the register layout of wgmma's D operand (PTX ISA 9.7.15.5.1,
/// "Register Fragments", m64nNk16 D): register i of thread t holds row
/// 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2), column
/// 8 * (i / 4) + 2 * (t % 4) + i % 2 of its 64 x N fragment.
template <int MTiles, int N> struct WgmmaAccumulator {
  static_assert(N % 8 == 0 && N >= 8 && N <= 256,
                "wgmma N: 8..256, multiple of 8");
  static constexpr int kRows = 64 * MTiles;
  static constexpr int kCols = N;
  float d[MTiles][N / 2];

  __device__ __forceinline__ void zero() {
#pragma unroll
    for (int m = 0; m < MTiles; ++m)
#pragma unroll
      for (int i = 0; i < N / 2; ++i)
        d[m][i] = 0.0f;
  }
  __device__ __forceinline__ void fence() {
#pragma unroll
    for (int m = 0; m < MTiles; ++m)
#pragma unroll
      for (int i = 0; i < N / 2; ++i)
        fence_operand(d[m][i]);
  }
};

/// acc += a * b^T for one stage: `a` is the warpgroup's 64*MTiles x K rows,
/// `b` is N x K, both K-major bf16/fp16 with 128-byte swizzle and K = 64
/// elements (one swizzle atom, 128 bytes). Issues K/16 x MTiles wgmma and
/// commits them as one group; the caller waits with wgmma_wait<>().
/// `accumulate` false computes acc = a * b^T (scale-d 0 on the first k16
/// step), which spares zeroing the accumulators before a tile.
template <int K, class T, int MTiles, int N>
__device__ __forceinline__ void wgmma_nt(WgmmaAccumulator<MTiles, N> &acc,
                                         const T *a, const T *b,
                                         bool accumulate = true) {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "wgmma operands: bf16 or fp16");
  static_assert(K * sizeof(T) == 128,
                "one 128-byte swizzle atom of K per stage");
  constexpr bool kBf16 = std::is_same_v<T, __nv_bfloat16>;
  acc.fence();
  wgmma_fence();
#pragma unroll
  for (int k = 0; k < K / 16; ++k) {
    const uint64_t db = smem_descriptor_sw128(b + 16 * k);
#pragma unroll
    for (int m = 0; m < MTiles; ++m)
      WgmmaM64<N>::template mma<kBf16, 0>(
          acc.d[m], smem_descriptor_sw128(a + m * 64 * K + 16 * k), db,
          k == 0 ? static_cast<uint32_t>(accumulate) : 1u);
  }
  wgmma_commit();
  acc.fence();
}

} // namespace tawa::rt
