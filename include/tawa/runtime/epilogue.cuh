//===- tawa/runtime/epilogue.cuh - writing accumulators to global memory --===//
#pragma once

#include "warpgroup.cuh"
#include "wgmma.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <tawa/tile.h>
#include <type_traits>

namespace tawa::rt {

template <class U> __device__ __forceinline__ U convert_from_float(float x) {
  if constexpr (std::is_same_v<U, __nv_bfloat16>)
    return __float2bfloat16_rn(x);
  else if constexpr (std::is_same_v<U, __half>)
    return __float2half_rn(x);
  else
    return static_cast<U>(x);
}

/// Writes a consumer warpgroup's accumulator, converted to U, to the
/// (64*MTiles) x N window of `m` at (row0, col0) in elements; elements outside
/// `m` are skipped. Two adjacent columns are written as one 2-element store
/// where both lie inside `m` and the address is aligned for it. `zero` writes
/// zeros instead (a tile whose K loop ran no step: its accumulator registers
/// were never written).
template <class U, int MTiles, int N>
__device__ __forceinline__ void
store_accumulator(Matrix<U> m, int row0, int col0,
                  const WgmmaAccumulator<MTiles, N> &acc, bool zero = false) {
  const int t = warpgroup_thread();
  const int warp_row = 16 * (t / 32) + (t % 32) / 4;
  const int lane_col = 2 * (t % 4);
#pragma unroll
  for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
    for (int i = 0; i < N / 2; i += 2) {
      const int row = row0 + 64 * mt + warp_row + 8 * ((i / 2) % 2);
      const int col = col0 + 8 * (i / 4) + lane_col;
      if (row >= m.rows)
        continue;
      U *out = m.data + static_cast<size_t>(row) * m.ld + col;
      const float v0 = zero ? 0.0f : acc.d[mt][i];
      const float v1 = zero ? 0.0f : acc.d[mt][i + 1];
      if constexpr (sizeof(U) == 2) {
        if (col + 1 < m.cols && reinterpret_cast<uintptr_t>(out) % 4 == 0) {
          if constexpr (std::is_same_v<U, __nv_bfloat16>)
            *reinterpret_cast<__nv_bfloat162 *>(out) =
                __floats2bfloat162_rn(v0, v1);
          else
            *reinterpret_cast<__half2 *>(out) = __floats2half2_rn(v0, v1);
          continue;
        }
      }
      if (col < m.cols)
        out[0] = convert_from_float<U>(v0);
      if (col + 1 < m.cols)
        out[1] = convert_from_float<U>(v1);
    }
}

} // namespace tawa::rt
