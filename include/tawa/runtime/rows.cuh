//===- tawa/runtime/rows.cuh - row statistics of wgmma accumulators -------===//
//
// What the tile language's row ops (tawa::RowVector, row_max, row_sum, mask,
// the store of a row vector) become in a consumer warpgroup. In wgmma's D
// fragment (PTX ISA 9.7.15.5.1.1.1) thread t of the warpgroup holds, of each
// 64-row tile mt, the rows 64 mt + 16 (t / 32) + (t % 32) / 4 and 8 more,
// each over the columns 8 c + 2 (t % 4) + {0, 1}: the four threads of a quad
// share their rows, so a row reduction is a thread-local one and two
// shuffles. A RowFragment holds a thread's rows: slot 2 mt + h is row
// 64 mt + 16 (t / 32) + (t % 32) / 4 + 8 h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"
#include "warpgroup.cuh"
#include "wgmma.cuh"

#include <tawa/tile.h>

namespace tawa::rt {

/// The rows of a 64*MTiles-row value that the calling thread holds.
template <int MTiles> struct RowFragment {
  static constexpr int kSize = 2 * MTiles;
  float r[kSize];

  RowFragment() = default;
  /// Every entry `fill`.
  __device__ __forceinline__ explicit RowFragment(float fill) {
#pragma unroll
    for (int i = 0; i < kSize; ++i)
      r[i] = fill;
  }
  __device__ __forceinline__ float &operator[](int i) { return r[i]; }
  __device__ __forceinline__ float operator[](int i) const { return r[i]; }
};

/// The warpgroup's row of slot `slot` of the calling thread, 0..64*MTiles-1.
__device__ __forceinline__ int fragment_row(int slot) {
  const int t = warpgroup_thread();
  return 64 * (slot / 2) + 16 * (t / 32) + (t % 32) / 4 + 8 * (slot % 2);
}

/// x - y for the subtraction of a row vector (tawa/tile.h): an entry y of
/// -inf counts as 0.
__device__ __forceinline__ float minus_row(float x, float y) {
  return x - (y == -INFINITY ? 0.0f : y);
}

/// 2^x with the special-function unit (ex2.approx.ftz.f32, PTX ISA 9.7.4;
/// relative error about 2^-22; MUFU.EX2 in SASS).
__device__ __forceinline__ float exp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// Combines the quad's partial values of each row (lanes 4 q .. 4 q + 3 hold
/// the same rows).
template <int MTiles, class Op>
__device__ __forceinline__ void quad_reduce(RowFragment<MTiles> &v, Op op) {
#pragma unroll
  for (int i = 0; i < RowFragment<MTiles>::kSize; ++i) {
    v.r[i] = op(v.r[i], __shfl_xor_sync(0xffffffffu, v.r[i], 1));
    v.r[i] = op(v.r[i], __shfl_xor_sync(0xffffffffu, v.r[i], 2));
  }
}

/// The maximum of each of the warpgroup's rows of `acc` (fmaxf; -inf for a
/// row of -inf).
template <int MTiles, int N>
__device__ __forceinline__ RowFragment<MTiles>
row_max(const WgmmaAccumulator<MTiles, N> &acc) {
  RowFragment<MTiles> v(-INFINITY);
#pragma unroll
  for (int e = 0; e < WgmmaAccumulator<MTiles, N>::kSize; ++e) {
    float &slot = v.r[WgmmaAccumulator<MTiles, N>::row_of(e)];
    slot = fmaxf(slot, acc.at(e));
  }
  quad_reduce(v, [](float a, float b) { return fmaxf(a, b); });
  return v;
}

/// The sum of each of the warpgroup's rows of `acc`.
template <int MTiles, int N>
__device__ __forceinline__ RowFragment<MTiles>
row_sum(const WgmmaAccumulator<MTiles, N> &acc) {
  RowFragment<MTiles> v(0.0f);
#pragma unroll
  for (int e = 0; e < WgmmaAccumulator<MTiles, N>::kSize; ++e)
    v.r[WgmmaAccumulator<MTiles, N>::row_of(e)] += acc.at(e);
  quad_reduce(v, [](float a, float b) { return a + b; });
  return v;
}

/// The predicate of tawa::mask over a Rows x Cols block: it holds for
/// element (i, j) where RowCoef i + ColCoef j + offset < 0 (Strict) or <= 0.
/// Coefficients are -1, 0 or 1 (tawa::Index).
template <int RowCoef, int ColCoef, bool Strict> struct LinearPredicate {
  static_assert(RowCoef >= -1 && RowCoef <= 1 && ColCoef >= -1 && ColCoef <= 1,
                "tawa::Index coefficients are -1, 0 or 1");
  static __device__ __forceinline__ bool holds(int v) {
    return Strict ? v < 0 : v <= 0;
  }
  /// Whether it holds everywhere in a Rows x Cols block whose element (0, 0)
  /// has the value `offset`.
  template <int Rows, int Cols>
  static __device__ __forceinline__ bool holds_everywhere(int offset) {
    const int top = offset + (RowCoef > 0 ? RowCoef * (Rows - 1) : 0) +
                    (ColCoef > 0 ? ColCoef * (Cols - 1) : 0);
    return holds(top);
  }
  /// Whether it holds nowhere in that block.
  template <int Rows, int Cols>
  static __device__ __forceinline__ bool holds_nowhere(int offset) {
    const int bottom = offset + (RowCoef < 0 ? RowCoef * (Rows - 1) : 0) +
                       (ColCoef < 0 ? ColCoef * (Cols - 1) : 0);
    return !holds(bottom);
  }
};

/// tawa::mask on the warpgroup's 64*MTiles x N slice: sets the elements
/// where the predicate fails to -inf. `offset` is the predicate's value at
/// the slice's element (0, 0), in elements (tile coordinates, which fit an
/// int). A slice where it holds everywhere is left alone at the cost of one
/// test.
template <int RowCoef, int ColCoef, bool Strict, int MTiles, int N>
__device__ __forceinline__ void mask(WgmmaAccumulator<MTiles, N> &acc,
                                     int offset) {
  using P = LinearPredicate<RowCoef, ColCoef, Strict>;
  if (P::template holds_everywhere<64 * MTiles, N>(offset))
    return;
  const int quad_col = 2 * (warpgroup_thread() % 4);
#pragma unroll
  for (int e = 0; e < WgmmaAccumulator<MTiles, N>::kSize; ++e) {
    const int i = fragment_row(WgmmaAccumulator<MTiles, N>::row_of(e));
    const int j = WgmmaAccumulator<MTiles, N>::column_of(e) + quad_col;
    if (!P::holds(offset + RowCoef * i + ColCoef * j))
      acc.at(e) = -INFINITY;
  }
}

/// Writes the warpgroup's rows of `v`, converted to U, as the column of `m`
/// at (row0 + i, col0) for row i of the slice, skipping rows outside `m`
/// (tawa::store of a row vector). One thread of each quad writes.
template <class U, int MTiles>
__device__ __forceinline__ void store_rows(Matrix<U> m, int row0, int col0,
                                           const RowFragment<MTiles> &v) {
  if (warpgroup_thread() % 4 != 0 || col0 < 0 || col0 >= m.cols)
    return;
#pragma unroll
  for (int s = 0; s < RowFragment<MTiles>::kSize; ++s) {
    const int r = row0 + fragment_row(s);
    if (r >= 0 && r < m.rows) {
      U *out = m.data + static_cast<long long>(r) * m.ld + col0;
      if constexpr (std::is_same_v<U, float>)
        *out = v.r[s];
      else if constexpr (std::is_same_v<U, __nv_bfloat16>)
        *out = __float2bfloat16_rn(v.r[s]);
      else
        *out = __float2half_rn(v.r[s]);
    }
  }
}

} // namespace tawa::rt
