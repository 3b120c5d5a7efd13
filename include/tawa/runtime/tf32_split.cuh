//===- tawa/runtime/tf32_split.cuh - error-compensated tf32 (3xtf32) ------===//
//
// `precision(3xtf32)`: an fp32 GEMM on the tf32 tensor cores at about fp32's
// accuracy. Each fp32 operand x is split into a high part h = tf32(x) and a
// low part l = tf32(x - h), both exact tf32 values, and each product is
// computed as a_l b_h + a_h b_l + a_h b_h, dropping a_l b_l (the 3xTF32
// scheme of NVIDIA's CUTLASS, after the split-float products of Dekker and
// Ogita, Rump and Oishi). Rounding to nearest (`cvt.rna.tf32.f32`, PTX ISA
// 9.7.9.21) leaves |l| <= 2^-11 |x| and |x - h - l| <= 2^-22 |x|, so each
// product is within about 2^-21 of a b before fp32 accumulation; 1xTF32
// is within about 2^-10.
//
// In the rewritten kernel the producer warpgroup's three idle warps split
// each slot once its TMA copies have landed: h in place of the tile, l into
// a second buffer of the slot (the same swizzled layout, element by element),
// then a proxy fence and an arrival on the slot's `split` barrier, which the
// consumers wait on instead of `full`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aref.cuh"
#include "wgmma.cuh"

namespace tawa::rt {

/// The split of one fp32 value x into tf32 parts, x = hi + lo exactly: hi
/// is x with its 13 low mantissa bits cleared (an exact tf32 value, never
/// past the largest float), lo = x - hi, |lo| < 2^-10 |x|, whose own tf32
/// reading costs at most 2^-20 |x|. Where hi is x (x a tf32 value, an
/// infinity) lo is 0, so that an infinity is carried by hi * b as the fp32
/// product carries it (x - hi would be NaN); a NaN stays NaN in lo. Four
/// instructions, no branch: the producer's warps split a slot while the
/// consumers multiply the previous one.
__device__ __forceinline__ void tf32_split(float x, float &hi, float &lo) {
  hi = __uint_as_float(__float_as_uint(x) & 0xFFFFE000u);
  lo = hi == x ? 0.0f : x - hi;
}

/// 16 bytes of shared memory at shared-space address `a`.
__device__ __forceinline__ float4 ld_shared_f4(uint32_t a) {
  float4 v{};
#if TAWA_DEVICE_PASS
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(a));
#endif
  return v;
}
__device__ __forceinline__ void st_shared_f4(uint32_t a, float4 v) {
#if TAWA_DEVICE_PASS
  asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(a), "f"(v.x),
               "f"(v.y), "f"(v.z), "f"(v.w)
               : "memory");
#endif
}

/// Splits `Floats` fp32 values of a tile in shared memory: the high parts
/// replace them in `tile`, the low parts go to `low` (same layout). Called by
/// `Threads` threads, `thread` in [0, Threads); 16 bytes per access,
/// consecutive threads on consecutive vectors (no bank conflict). Both
/// buffers 16-byte aligned, Floats a multiple of 4.
template <int Threads, int Floats>
__device__ __forceinline__ void tf32_split_tile(float *tile, float *low,
                                                int thread) {
  static_assert(Floats % 4 == 0, "whole 16-byte vectors");
  const uint32_t t = smem_addr(tile), l = smem_addr(low);
#pragma unroll 4
  for (int i = thread; i < Floats / 4; i += Threads) {
    const float4 x = ld_shared_f4(t + 16 * i);
    float4 h, s;
    tf32_split(x.x, h.x, s.x);
    tf32_split(x.y, h.y, s.y);
    tf32_split(x.z, h.z, s.z);
    tf32_split(x.w, h.w, s.w);
    st_shared_f4(t + 16 * i, h);
    st_shared_f4(l + 16 * i, s);
  }
}

/// The barriers that mark each slot of an aref ring split: arrival count
/// one per splitting warp. The consumers wait on a slot's barrier with the
/// parity they would wait on its `full` barrier with. The splitting warps
/// follow the ring slot by slot, not the tile walk: they stop at the phase
/// of a `full` barrier that the producer completes with no copies after
/// recording its position in `end` (finish()). The position (stage and
/// phase) names that phase alone among those a splitting warp can be at:
/// it runs at most Stages slots behind the producer, and a position recurs
/// every 2 Stages slots.
template <int Stages> struct SplitBarriers {
  uint64_t done[Stages];
  int end;

  /// Called by one thread before the block barrier that follows the
  /// aref's init.
  __device__ void init(uint32_t warps) {
    end = -1;
    for (int s = 0; s < Stages; ++s)
      mbarrier_init(&done[s], warps);
#if TAWA_DEVICE_PASS
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }

  static __device__ __forceinline__ int position(const ArefCursor<Stages> &c) {
    return static_cast<int>(c.phase) * Stages + c.stage;
  }

  /// A splitting warp: its writes of slot `c.stage` are done. The generic
  /// proxy's writes must be visible to wgmma, an async-proxy read (PTX ISA
  /// 9.7.13.4.1, fence.proxy.async): every lane fences, then one arrives.
  __device__ __forceinline__ void arrive(const ArefCursor<Stages> &c) {
#if TAWA_DEVICE_PASS
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
    __syncwarp();
    if (threadIdx.x % 32 == 0)
      mbarrier_arrive(&done[c.stage]);
  }

  /// The producer, after its last put: once slot `c.stage` is free, records
  /// the position and completes the slot's `full` phase with no data (the
  /// arrival releases the write of `end`, PTX ISA 9.7.13.15.13). `end` is
  /// written and read with atomics, which compute-sanitizer's racecheck
  /// does not take for a race (it does not follow an mbarrier's ordering).
  __device__ __forceinline__ void finish(Aref<Stages> &aref,
                                         const ArefCursor<Stages> &c) {
    mbarrier_wait(&aref.empty[c.stage], c.phase ^ 1u);
    atomicExch(&end, position(c));
    mbarrier_arrive(&aref.full[c.stage]);
  }

  /// A splitting warp, once the `full` phase at `c` completed: whether that
  /// phase is the end rather than data. Lane 0 reads, the warp agrees.
  __device__ __forceinline__ bool done_at(const ArefCursor<Stages> &c) {
    int e = 0;
    if (threadIdx.x % 32 == 0)
      e = atomicAdd(&end, 0);
    return __shfl_sync(0xFFFFFFFFu, e, 0) == position(c);
  }

  /// Consumer: waits until slot `c.stage` is split.
  __device__ __forceinline__ void wait(const ArefCursor<Stages> &c) {
    mbarrier_wait(&done[c.stage], c.phase);
  }
};

/// acc (+)= a * b^T for one stage of fp32 operands split into tf32 parts:
/// `a`, `b` hold the high parts and `a_low`, `b_low` the low parts, each
/// K-major, 128-byte swizzled, K = 32 (wgmma_nt's layout). For each k8 step,
/// issues the products a_low b, a b_low, then a b (the small terms first),
/// 3 x 4 x MTiles wgmma m64nNk8 in all, as one group. A step of 8 fp32
/// elements is 32 bytes, 2 in the descriptor's address field (bits 0-13:
/// the address >> 4), which a 1024-byte aligned tile never carries out of.
template <int K, int MTiles, int N>
__device__ __forceinline__ void
wgmma_nt_3xtf32(WgmmaAccumulator<MTiles, N> &acc, const float *a,
                const float *a_low, const float *b, const float *b_low,
                bool accumulate) {
  static_assert(K == 32, "K: one 128-byte swizzle row of fp32");
  const uint64_t db = smem_descriptor_sw128(b);
  const uint64_t db_low = smem_descriptor_sw128(b_low);
  acc.fence();
  wgmma_fence();
#pragma unroll
  for (int k = 0; k < K / 8; ++k)
#pragma unroll
    for (int m = 0; m < MTiles; ++m) {
      const uint64_t da = smem_descriptor_sw128(a + m * 64 * K);
      const uint64_t da_low = smem_descriptor_sw128(a_low + m * 64 * K);
      WgmmaM64<N>::mma_k8(acc.d[m], da_low + 2 * k, db + 2 * k,
                          k == 0 ? static_cast<uint32_t>(accumulate) : 1u);
      WgmmaM64<N>::mma_k8(acc.d[m], da + 2 * k, db_low + 2 * k, 1u);
      WgmmaM64<N>::mma_k8(acc.d[m], da + 2 * k, db + 2 * k, 1u);
    }
  wgmma_commit();
  acc.fence();
}

} // namespace tawa::rt
