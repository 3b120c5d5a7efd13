//===- tawa/runtime/wgmma.cuh - warpgroup matrix multiply-accumulate ------===//
//
// wgmma.mma_async with both operands in shared memory, 128-byte swizzled,
// K-major or MN-major, as TMA writes them (PTX ISA 9.7.15, "Asynchronous
// Warpgroup Level Matrix Multiply-Accumulate"). One instruction computes a 64 x
// N x 16 product per warpgroup for 16-bit inputs, 64 x N x 32 for fp8 (e4m3,
// e5m2), 64 x N x 8 for tf32 (fp32 in memory; the tensor cores read it as
// tf32); the fp32 accumulator is N/2 registers per thread.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
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

/// Shared-memory matrix descriptor of an MN-major operand with 128-byte
/// swizzle (PTX ISA 9.7.15.5.1.2, canonical layout ((T,8,m),(8,k)) :
/// ((1,T,LBO),(8T,SBO)) under Swizzle<3,4,3>): the K x N tile is stored as
/// N / 64 boxes of K rows x 64 columns (16-bit elements, 128 bytes per row),
/// as TMA writes a row-major K x N window in boxes of 64 columns. The leading
/// byte offset is the distance between the boxes (K * 128 bytes), the stride
/// byte offset that between groups of 8 rows (1024 bytes). `tile` must lie
/// in a 1024-byte aligned buffer and start at a multiple of 8 rows.
__device__ __forceinline__ uint64_t
smem_descriptor_sw128_mn(const void *tile, uint32_t box_bytes) {
  const uint64_t addr = smem_addr(tile);
  return ((addr & 0x3FFFF) >> 4) |
         (uint64_t{(box_bytes & 0x3FFFF) >> 4} << 16) |
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
// (a predicate: 0 computes D = A*B, 1 computes D += A*B), transpose-A and
// transpose-B (1: the operand is MN-major in shared memory).
#define TAWA_WGMMA_ASM(SHAPE_TYPES, D, A, B, SCALE_D, TRANS_A, TRANS_B)        \
  "{\n .reg .pred p;\n setp.ne.b32 p, " SCALE_D ", 0;\n"                       \
  " wgmma.mma_async.sync.aligned." SHAPE_TYPES " {" D "}, " A ", " B           \
  ", p, 1, 1, " TRANS_A ", " TRANS_B ";\n}\n"

// The same with A in registers (four .b32 registers), which has no
// transpose-A operand.
#define TAWA_WGMMA_RS_ASM(SHAPE_TYPES, D, A, B, SCALE_D, TRANS_B)              \
  "{\n .reg .pred p;\n setp.ne.b32 p, " SCALE_D ", 0;\n"                       \
  " wgmma.mma_async.sync.aligned." SHAPE_TYPES " {" D "}, {" A "}, " B         \
  ", p, 1, 1, " TRANS_B ";\n}\n"

// The fp8 form (m64nNk32, .e4m3/.e5m2 inputs) and the tf32 form (m64nNk8):
// both operands K-major, so no transpose operands (PTX ISA 9.7.15.5.1:
// imm-trans-a/b are for .f16/.bf16).
#define TAWA_WGMMA_K32_ASM(SHAPE_TYPES, D, A, B, SCALE_D)                      \
  "{\n .reg .pred p;\n setp.ne.b32 p, " SCALE_D ", 0;\n"                       \
  " wgmma.mma_async.sync.aligned." SHAPE_TYPES " {" D "}, " A ", " B           \
  ", p, 1, 1;\n}\n"

/// One `wgmma.mma_async.m64nNk16` (16-bit inputs), `m64nNk32` (fp8 inputs,
/// `mma_k32`) or `m64nNk8` (tf32 inputs, `mma_k8`) with fp32 accumulators;
/// N in 8..256, step 8.
template <int N> struct WgmmaM64;
#include "wgmma_ops.inc"
#undef TAWA_WGMMA_ASM
#undef TAWA_WGMMA_RS_ASM
#undef TAWA_WGMMA_K32_ASM

template <class T>
inline constexpr bool kIsFp8 =
    std::is_same_v<T, __nv_fp8_e4m3> || std::is_same_v<T, __nv_fp8_e5m2>;
/// fp32 operands, which wgmma reads as tf32 (`precision(tf32)`).
template <class T> inline constexpr bool kIsTf32 = std::is_same_v<T, float>;
template <class T>
inline constexpr bool kIs16Bit =
    std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>;

/// One wgmma of a 64 x N x (32 bytes of K) step: k16 for 16-bit TA = TB,
/// k32 for fp8 TA, TB, k8 for fp32 TA = TB read as tf32 (fp8 and tf32 only
/// K-major, TransA = TransB = 0).
template <int N, class TA, class TB, int TransA, int TransB>
__device__ __forceinline__ void wgmma_step(float (&d)[N / 2], uint64_t a,
                                           uint64_t b, uint32_t scale_d) {
  if constexpr (kIsFp8<TA>)
    WgmmaM64<N>::template mma_k32<std::is_same_v<TA, __nv_fp8_e4m3>,
                                  std::is_same_v<TB, __nv_fp8_e4m3>>(d, a, b,
                                                                     scale_d);
  else if constexpr (kIsTf32<TA>)
    WgmmaM64<N>::mma_k8(d, a, b, scale_d);
  else
    WgmmaM64<N>::template mma<std::is_same_v<TA, __nv_bfloat16>, TransB,
                              TransA>(d, a, b, scale_d);
}

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

  /// Registers in all, and register e of the flat order (tile e / (N / 2),
  /// register e % (N / 2)), for element-wise code.
  static constexpr int kSize = MTiles * N / 2;
  __device__ __forceinline__ float &at(int e) {
    return d[e / (N / 2)][e % (N / 2)];
  }
  __device__ __forceinline__ float at(int e) const {
    return d[e / (N / 2)][e % (N / 2)];
  }
  /// The row slot (RowFragment) of register e: the thread holds rows
  /// 64 mt + 16 (t / 32) + (t % 32) / 4 and 8 more of each 64-row tile mt.
  static constexpr __device__ __forceinline__ int row_of(int e) {
    return 2 * (e / (N / 2)) + (e % (N / 2) / 2) % 2;
  }
  /// The fragment's column of register e (the same for every thread of a
  /// quad but for 2 (t % 4), added by the caller).
  static constexpr __device__ __forceinline__ int column_of(int e) {
    return 8 * (e % (N / 2) / 4) + e % 2;
  }
};

/// A 64*MTiles x K operand in registers, 16-bit elements, as wgmma's A in
/// registers wants it (PTX ISA 9.7.15.5.1.1.1, m64nNk16 A fragment): for
/// each k16 step, four .b32 registers of two elements. Its layout over the
/// threads is that of a 64 x K fp32 accumulator, so converting an
/// accumulator packs registers 2x and 2x + 1 into register x.
template <int MTiles, int K> struct WgmmaOperandA {
  static_assert(K % 16 == 0, "whole k16 steps");
  uint32_t a[MTiles][K / 4];
  /// Keeps the registers from being reused before this point: a wgmma
  /// reads them asynchronously until the wgmma_wait that covers it (PTX
  /// ISA 9.7.15.6), which the compiler does not know; call after that wait.
  __device__ __forceinline__ void fence() {
#pragma unroll
    for (int m = 0; m < MTiles; ++m)
#pragma unroll
      for (int x = 0; x < K / 4; ++x)
        asm volatile("" : "+r"(a[m][x])::"memory");
  }
};

/// Packs two floats into one .b32 register of two 16-bit elements (the first
/// in the low half), rounding to nearest even.
template <class T>
__device__ __forceinline__ uint32_t pack_pair(float lo, float hi) {
  uint32_t packed = 0;
#if TAWA_DEVICE_PASS
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    __nv_bfloat162 p = __floats2bfloat162_rn(lo, hi);
    packed = *reinterpret_cast<uint32_t *>(&p);
  } else {
    __half2 p = __floats2half2_rn(lo, hi);
    packed = *reinterpret_cast<uint32_t *>(&p);
  }
#endif
  return packed;
}

/// `acc` converted to T as an A operand: the P of O += P V.
template <class T, int MTiles, int K>
__device__ __forceinline__ void
convert_operand(WgmmaOperandA<MTiles, K> &out,
                const WgmmaAccumulator<MTiles, K> &acc) {
#pragma unroll
  for (int m = 0; m < MTiles; ++m)
#pragma unroll
    for (int x = 0; x < K / 4; ++x)
      out.a[m][x] = pack_pair<T>(acc.d[m][2 * x], acc.d[m][2 * x + 1]);
}

/// acc (+)= a * b for one stage, each operand K-major or MN-major, 128-byte
/// swizzled, as TMA writes them (PTX ISA 9.7.15.5.1.2):
///   a: the warpgroup's 64*MTiles rows of M. K-major (`AMnMajor` false): an
///      M x K tile, 64*MTiles rows of K elements (128 bytes). MN-major: a
///      K x M tile stored as boxes of K rows x 64 columns of M, one per
///      64-row wgmma tile, `a` at the warpgroup's first box.
///   b: K-major, an N x K tile (the b^T of the NT GEMM); MN-major, a K x N
///      tile stored as N / 64 boxes of K rows x 64 columns.
/// Element types: TA = TB, bf16 or fp16 (K = 64), each of TA, TB e4m3 or
/// e5m2 (K = 128), or TA = TB = float read as tf32 (K = 32); fp8 and tf32
/// operands K-major only (wgmma has no transpose for 8- and 32-bit types). Both
/// layouts take 64 * K elements per 64 rows of M, so the warpgroup's offset
/// into the tile is the same. Issues K * sizeof(TA) / 32 x MTiles wgmma (one
/// per 32 bytes of K) as one group; `accumulate` false computes acc = a * b.
template <int K, bool AMnMajor, bool BMnMajor, class TA, class TB, int MTiles,
          int N>
__device__ __forceinline__ void wgmma_ss(WgmmaAccumulator<MTiles, N> &acc,
                                         const TA *a, const TB *b,
                                         bool accumulate) {
  static_assert(((kIs16Bit<TA> || kIsTf32<TA>)&&std::is_same_v<TA, TB>) ||
                    (kIsFp8<TA> && kIsFp8<TB>),
                "wgmma operands: both bf16, both fp16, each e4m3/e5m2, or "
                "both float (tf32)");
  static_assert(kIs16Bit<TA> || (!AMnMajor && !BMnMajor),
                "fp8 and tf32 wgmma operands are K-major only");
  static_assert(K * sizeof(TA) == 128, "K: one 128-byte swizzle row");
  static_assert(!BMnMajor || N % 64 == 0, "MN-major B: whole 64-column boxes");
  constexpr int kStep = 32 / sizeof(TA);  // elements of K per wgmma: 8-32
  constexpr uint32_t kBoxBytes = K * 128; // one K x 64 box (16-bit)
  acc.fence();
  wgmma_fence();
#pragma unroll
  for (int k = 0; k < K / kStep; ++k) {
    // A step is 32 bytes along a K-major row, 16 rows of an MN-major box.
    const uint64_t db =
        BMnMajor ? smem_descriptor_sw128_mn(b + k * kStep * 64, kBoxBytes)
                 : smem_descriptor_sw128(b + kStep * k);
#pragma unroll
    for (int m = 0; m < MTiles; ++m) {
      const TA *am = a + m * 64 * K;
      const uint64_t da =
          AMnMajor ? smem_descriptor_sw128_mn(am + k * kStep * 64, kBoxBytes)
                   : smem_descriptor_sw128(am + kStep * k);
      wgmma_step<N, TA, TB, AMnMajor ? 1 : 0, BMnMajor ? 1 : 0>(
          acc.d[m], da, db, k == 0 ? static_cast<uint32_t>(accumulate) : 1u);
    }
  }
  wgmma_commit();
  acc.fence();
}

/// acc += a * b^T for one stage: `a` is the warpgroup's 64*MTiles x K rows,
/// `b` is N x K, both K-major with 128-byte swizzle and K * sizeof(TA) = 128
/// bytes (one swizzle atom: 64 bf16/fp16 or 128 fp8 elements). Issues 4 x
/// MTiles wgmma and commits them as one group; the caller waits with
/// wgmma_wait<>(). `accumulate` false computes acc = a * b^T (scale-d 0 on
/// the first step), which spares zeroing the accumulators before a tile.
template <int K, class TA, class TB, int MTiles, int N>
__device__ __forceinline__ void wgmma_nt(WgmmaAccumulator<MTiles, N> &acc,
                                         const TA *a, const TB *b,
                                         bool accumulate = true) {
  wgmma_ss<K, /*AMnMajor=*/false, /*BMnMajor=*/false>(acc, a, b, accumulate);
}

/// acc (+)= a * b^T for K-major 128-byte swizzled operands of any K (a
/// multiple of 64 for 16-bit types): each operand is stored as K / 64 boxes
/// of [rows][64], box b at b * ABoxRows * 64 (b * BBoxRows * 64) elements
/// from box 0, as TMA writes a window of 64-column boxes. `a` points at the
/// warpgroup's first row inside box 0 (a multiple of 8 rows); the warpgroup
/// reads 64*MTiles rows. Issues K/16 x MTiles wgmma as one group; the caller
/// waits with wgmma_wait<>(). `accumulate` false computes acc = a * b^T.
template <int K, int ABoxRows, int BBoxRows, class T, int MTiles, int N>
__device__ __forceinline__ void
wgmma_ss_kmajor(WgmmaAccumulator<MTiles, N> &acc, const T *a, const T *b,
                bool accumulate) {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "wgmma operands: bf16 or fp16");
  static_assert(K % 64 == 0, "K: whole 128-byte boxes");
  constexpr bool kBf16 = std::is_same_v<T, __nv_bfloat16>;
  acc.fence();
  wgmma_fence();
#pragma unroll
  for (int k = 0; k < K / 16; ++k) {
    const int box = k / 4, inner = 16 * (k % 4);
    const uint64_t db = smem_descriptor_sw128(b + box * BBoxRows * 64 + inner);
#pragma unroll
    for (int m = 0; m < MTiles; ++m)
      WgmmaM64<N>::template mma<kBf16, 0>(
          acc.d[m],
          smem_descriptor_sw128(a + box * ABoxRows * 64 + m * 64 * 64 + inner),
          db, k == 0 ? static_cast<uint32_t>(accumulate) : 1u);
  }
  wgmma_commit();
  acc.fence();
}

/// acc += a * b with a: 64*MTiles x K in registers and b: K x N in shared
/// memory, MN-major (row-major K x N, stored as N / 64 boxes of K rows x 64
/// columns, 128-byte swizzled: the V of O += P V as TMA loads it). Issues
/// K/16 x MTiles wgmma as one group.
template <class T, int MTiles, int K, int N>
__device__ __forceinline__ void
wgmma_rs_mnmajor(WgmmaAccumulator<MTiles, N> &acc,
                 const WgmmaOperandA<MTiles, K> &a, const T *b) {
  static_assert(std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, __half>,
                "wgmma operands: bf16 or fp16");
  static_assert(N % 64 == 0, "N: whole 128-byte boxes");
  constexpr bool kBf16 = std::is_same_v<T, __nv_bfloat16>;
  acc.fence();
  wgmma_fence();
#pragma unroll
  for (int k = 0; k < K / 16; ++k) {
    const uint64_t db = smem_descriptor_sw128_mn(b + k * 16 * 64, K * 128);
#pragma unroll
    for (int m = 0; m < MTiles; ++m) {
      const uint32_t(&ak)[4] =
          *reinterpret_cast<const uint32_t(*)[4]>(&a.a[m][4 * k]);
      WgmmaM64<N>::template mma_rs<kBf16, 1>(acc.d[m], ak, db, 1u);
    }
  }
  wgmma_commit();
  acc.fence();
}

} // namespace tawa::rt
