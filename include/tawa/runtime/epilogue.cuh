//===- tawa/runtime/epilogue.cuh - writing accumulators to global memory --===//
#pragma once

#include "tma.cuh"
#include "warpgroup.cuh"
#include "wgmma.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <tawa/tile.h>
#include <type_traits>
#include <utility>

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
/// were never written). Rows before `first_row` are skipped too (the rows of
/// a shifted box that belong to the tile before, box_row), as are rows
/// before row 0 (a window that starts above the matrix). With `FromCol` > 0
/// (a multiple of 8), only the window's columns from FromCol on: the columns
/// past the whole 128-byte chunks that store_accumulator_tma and
/// store_accumulator_staged write.
template <int FromCol = 0, class U, int MTiles, int N>
__device__ __forceinline__ void
store_accumulator(Matrix<U> m, int row0, int col0,
                  const WgmmaAccumulator<MTiles, N> &acc, bool zero = false,
                  int first_row = 0) {
  static_assert(FromCol % 8 == 0 && FromCol < N,
                "whole 8-column groups of the fragment");
  const int t = warpgroup_thread();
  const int warp_row = 16 * (t / 32) + (t % 32) / 4;
  const int lane_col = 2 * (t % 4);
#pragma unroll
  for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
    for (int i = FromCol / 2; i < N / 2; i += 2) {
      const int row = row0 + 64 * mt + warp_row + 8 * ((i / 2) % 2);
      const int col = col0 + 8 * (i / 4) + lane_col;
      if (row >= m.rows || row < first_row || row < 0)
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

/// Element (row, col) of `m` as float, 0 outside it: an epilogue operand's
/// element (tawa/tile.h reads it the same way).
template <class T>
__device__ __forceinline__ float epilogue_element(const Matrix<T> &m, int row,
                                                  int col) {
  if (row < 0 || row >= m.rows || col < 0 || col >= m.cols)
    return 0.0f;
  return tawa::detail::to_float(m.data[static_cast<size_t>(row) * m.ld + col]);
}

/// The col_values or row_values of an epilogue with no broadcast operand
/// along that dimension.
struct NoValues {
  __device__ __forceinline__ void operator()(int, float *) const {}
};

/// The broadcast operands of an epilogue (a bias per column or per row) of a
/// consumer warpgroup's (64*MTiles) x N accumulator window, read into
/// registers before the tile's main loop (load_epilogue_operands), so that
/// the loads' latency hides behind it rather than stalling the epilogue: at
/// K = 64-256 the epilogue is most of a tile's time.
///
/// Per column, lane l of each warp holds columns l + 32 i of the window
/// (ColOps values each); apply_epilogue hands each thread its columns' values
/// with a shuffle. A warp's 32 lanes together hold every column once, where
/// each thread stores N / 4 of them: N / 32 registers per operand instead of
/// N / 4. Per row, each thread holds its own 2 MTiles rows' values.
template <int ColOps, int RowOps, int MTiles, int N> struct EpilogueOperands {
  static constexpr int kColSlots = ColOps > 0 ? (N + 31) / 32 : 1;
  float by_col[kColSlots][ColOps > 0 ? ColOps : 1];
  float by_row[MTiles][2][RowOps > 0 ? RowOps : 1];
};

/// Reads the broadcast operands of the window at (row0, col0) of the stored
/// matrix (elements): `col_values(col, by_col)` fills by_col[0 .. ColOps)
/// for one column, `row_values(row, by_row)` by_row[0 .. RowOps) for one
/// row. Columns past the window's N (N not a multiple of 32) are read too and
/// never used: the fills read 0 outside the operand (epilogue_element).
template <int ColOps, int RowOps, int MTiles, int N, class ColF, class RowF>
__device__ __forceinline__ EpilogueOperands<ColOps, RowOps, MTiles, N>
load_epilogue_operands(const WgmmaAccumulator<MTiles, N> &, int row0, int col0,
                       ColF col_values, RowF row_values) {
  EpilogueOperands<ColOps, RowOps, MTiles, N> ops;
  const int t = warpgroup_thread();
  if constexpr (ColOps > 0) {
#pragma unroll
    for (int i = 0; i < ops.kColSlots; ++i)
      col_values(col0 + t % 32 + 32 * i, ops.by_col[i]);
  }
  if constexpr (RowOps > 0) {
    const int warp_row = row0 + 16 * (t / 32) + (t % 32) / 4;
#pragma unroll
    for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        row_values(warp_row + 64 * mt + 8 * h, ops.by_row[mt][h]);
  }
  return ops;
}

/// The operands of an epilogue with no broadcast operand.
template <int MTiles, int N>
__device__ __forceinline__ EpilogueOperands<0, 0, MTiles, N>
no_epilogue_operands(const WgmmaAccumulator<MTiles, N> &) {
  return {};
}

/// The epilogue's element-wise ops: replaces each element x of a consumer
/// warpgroup's accumulator, the (64*MTiles) x N window at (row0, col0) of the
/// stored matrix (elements), by f(x, row, col, by_col, by_row), with row and
/// col the element's in the stored matrix; x is 0 where `zero` (a tile whose
/// K loop ran no step). Register i of m-tile mt holds row 16 (t / 32) +
/// (t % 32) / 4 + 8 ((i / 2) % 2) and column 8 (i / 4) + 2 (t % 4) + i % 2 of
/// the window (PTX ISA 9.7.15.5.1, wgmma's m64nNk16 D fragment), as
/// store_accumulator writes them.
///
/// by_col and by_row point at the element's column's and row's broadcast
/// operands, `ops` as load_epilogue_operands read them for the same window.
/// Column 8 j + 2 (t % 4) + c lies in register j / 4 of lane 8 (j % 4) +
/// 2 (t % 4) + c: the register index is the same for the whole warp, as
/// __shfl_sync needs. The loop over column pairs is outermost, so two
/// columns' values are live at a time.
template <int ColOps, int RowOps, int MTiles, int N, class F>
__device__ __forceinline__ void
apply_epilogue(WgmmaAccumulator<MTiles, N> &acc, int row0, int col0, bool zero,
               const EpilogueOperands<ColOps, RowOps, MTiles, N> &ops, F f) {
  static_assert(N % 8 == 0, "wgmma's N is a multiple of 8");
  const int t = warpgroup_thread();
  const int warp_row = row0 + 16 * (t / 32) + (t % 32) / 4;
  const int lane_col = col0 + 2 * (t % 4);
#pragma unroll
  for (int j = 0; j < N / 8; ++j) {
    const int col = lane_col + 8 * j;
    float by_col[2][ColOps > 0 ? ColOps : 1];
#pragma unroll
    for (int c = 0; c < 2; ++c)
#pragma unroll
      for (int o = 0; o < ColOps; ++o)
        by_col[c][o] = __shfl_sync(0xffffffffu, ops.by_col[j / 4][o],
                                   8 * (j % 4) + 2 * (t % 4) + c);
#pragma unroll
    for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int c = 0; c < 2; ++c) {
          float &x = acc.d[mt][4 * j + 2 * h + c];
          x = f(zero ? 0.0f : x, warp_row + 64 * mt + 8 * h, col + c,
                static_cast<const float *>(by_col[c]),
                static_cast<const float *>(ops.by_row[mt][h]));
        }
  }
}

/// Orders this thread's generic-proxy writes to shared memory before later
/// async-proxy reads of it (TMA store, wgmma): PTX ISA, fence.proxy.async.
__device__ __forceinline__ void fence_proxy_async_shared() {
#if TAWA_DEVICE_PASS
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/// The shared-memory staging buffers of a consumer warpgroup's TMA-store
/// epilogue: `Buffers` boxes of Rows x (128 / sizeof(U)) elements, 128 bytes
/// per row, 128-byte swizzled, so that a warp's writes of the wgmma fragment
/// hit 32 distinct banks and the TMA store un-swizzles them.
template <class U, int Rows, int Buffers = 2> struct EpilogueStaging {
  static_assert(Buffers >= 1, "at least one staging buffer");
  static constexpr int kCols = 128 / sizeof(U);
  alignas(1024) U buffer[Buffers][Rows * kCols];
};

/// Stores four 8 x 8 matrices of 16-bit elements to shared memory (PTX ISA,
/// warp-level matrix store instruction `stmatrix`, sm_90): register j of lane l
/// holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix j; lanes 8 j
/// .. 8 j + 7 give the addresses of matrix j's rows. That is the wgmma
/// accumulator's layout, so one instruction writes what four 4-byte stores
/// would.
__device__ __forceinline__ void
stmatrix_x4(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
#if TAWA_DEVICE_PASS
  asm volatile(
      "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::
          "r"(addr),
      "r"(r0), "r"(r1), "r"(r2), "r"(r3)
      : "memory");
#endif
}

/// Writes column chunk `Chunk` (128 bytes per row) of the accumulator,
/// converted to U, into the 128-byte swizzled staging buffer at shared
/// address `buf`. 16-bit outputs go through stmatrix: register pair p of the
/// fragment (registers 2p, 2p + 1) is the 8 x 8 block of rows 8 (p % 2) of
/// the warp's 16 and columns 8 (p / 2); four blocks per instruction.
template <int Chunk, class U, int MTiles, int N>
__device__ __forceinline__ void
stage_chunk(uint32_t buf, const WgmmaAccumulator<MTiles, N> &acc, bool zero) {
  constexpr int kCols = 128 / sizeof(U);
  const int t = warpgroup_thread();
  if constexpr (sizeof(U) == 2) {
    // Lane l addresses row l % 8 of block l / 8 of each group of four.
    const int lane = t % 32, block = lane / 8, r = lane % 8;
#pragma unroll
    for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
      for (int p = Chunk * kCols / 4; p < (Chunk + 1) * kCols / 4; p += 4) {
        const int bp = p + block; // this lane's block (register pair)
        const int row = 64 * mt + 16 * (t / 32) + 8 * (bp % 2) + r;
        const int col16 = bp / 2 - Chunk * (kCols / 8); // 16-byte column
        const uint32_t out = buf + row * 128 + ((col16 ^ r) * 16);
        uint32_t v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
          v[j] = zero ? 0u
                      : pack_pair<U>(acc.d[mt][2 * (p + j)],
                                     acc.d[mt][2 * (p + j) + 1]);
        stmatrix_x4(out, v[0], v[1], v[2], v[3]);
      }
  } else {
    const int warp_row = 16 * (t / 32) + (t % 32) / 4;
#pragma unroll
    for (int mt = 0; mt < MTiles; ++mt)
#pragma unroll
      for (int i = Chunk * kCols / 2; i < (Chunk + 1) * kCols / 2; i += 2) {
        const int row = 64 * mt + warp_row + 8 * ((i / 2) % 2);
        const int byte =
            (8 * (i / 4) + 2 * (t % 4) - Chunk * kCols) * sizeof(U);
        const uint32_t out =
            buf + row * 128 + (((byte / 16) ^ (row % 8)) * 16) + byte % 16;
        const float v0 = zero ? 0.0f : acc.d[mt][i];
        const float v1 = zero ? 0.0f : acc.d[mt][i + 1];
#if TAWA_DEVICE_PASS
        asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(out), "f"(v0),
                     "f"(v1));
#endif
      }
  }
}

/// Stages column chunks First + I of the accumulator into staging buffers I
/// and issues their TMA stores as one bulk group. Thread 0 first waits until
/// the earlier stores have read the buffers: those of the previous batch, or
/// of the previous tile (issued a whole main loop ago).
template <bool Batched, int First, class U, int MTiles, int N, int Buffers,
          int... I>
__device__ __forceinline__ void
store_batch_tma(const CUtensorMap *map,
                EpilogueStaging<U, 64 * MTiles, Buffers> &staging, int row0,
                int col0, int batch, const WgmmaAccumulator<MTiles, N> &acc,
                bool zero, int barrier, std::integer_sequence<int, I...>) {
  constexpr int kCols = EpilogueStaging<U, 64 * MTiles, Buffers>::kCols;
  const bool elected = warpgroup_thread() == 0;
  if (elected)
    tma_store_wait_read<0>();
  named_barrier_sync(barrier, kWarpgroupThreads);
  (stage_chunk<First + I, U>(smem_addr(staging.buffer[I]), acc, zero), ...);
  fence_proxy_async_shared();
  named_barrier_sync(barrier, kWarpgroupThreads);
  if (elected) {
    (tma_store<Batched>(map, staging.buffer[I], col0 + (First + I) * kCols,
                        row0, batch),
     ...);
    tma_store_commit();
  }
}

/// The chunks in batches of `Buffers`, the last batch possibly shorter.
template <bool Batched, int Chunks, class U, int MTiles, int N, int Buffers,
          int... Batches>
__device__ __forceinline__ void store_batches_tma(
    const CUtensorMap *map, EpilogueStaging<U, 64 * MTiles, Buffers> &staging,
    int row0, int col0, int batch, const WgmmaAccumulator<MTiles, N> &acc,
    bool zero, int barrier, std::integer_sequence<int, Batches...>) {
  (store_batch_tma<Batched, Batches * Buffers>(
       map, staging, row0, col0, batch, acc, zero, barrier,
       std::make_integer_sequence<int, (Chunks - Batches * Buffers < Buffers
                                            ? Chunks - Batches * Buffers
                                            : Buffers)>{}),
   ...);
}

/// Writes a consumer warpgroup's accumulator, converted to U, to the
/// (64*MTiles) x N window at (row0, col0) [of matrix `batch`] of the tensor
/// behind `map`, through shared memory and TMA stores: N / (128 / sizeof(U))
/// column chunks, staged `Buffers` at a time (the whole tile at once with a
/// buffer per chunk), each batch between two named barriers. The TMA store
/// skips the elements outside the tensor (ragged edges). `zero` writes zeros
/// (a tile whose K loop ran no step). Uses named barrier `barrier` among the
/// warpgroup's 128 threads. Thread 0 of the warpgroup issues the stores; it
/// must call tma_store_wait_all() before the kernel ends. Where N is not a
/// multiple of the chunk's columns, only the whole chunks are written: the
/// caller stores the last N % (128 / sizeof(U)) columns from the registers
/// (store_accumulator<N - N % (128 / sizeof(U))>).
template <bool Batched, class U, int MTiles, int N, int Buffers>
__device__ __forceinline__ void store_accumulator_tma(
    const CUtensorMap *map, EpilogueStaging<U, 64 * MTiles, Buffers> &staging,
    int row0, int col0, int batch, const WgmmaAccumulator<MTiles, N> &acc,
    bool zero, int barrier) {
  constexpr int kCols = EpilogueStaging<U, 64 * MTiles, Buffers>::kCols;
  static_assert(N >= kCols, "at least one whole 128-byte column chunk");
  constexpr int kChunks = N / kCols;
  store_batches_tma<Batched, kChunks>(
      map, staging, row0, col0, batch, acc, zero, barrier,
      std::make_integer_sequence<int, (kChunks + Buffers - 1) / Buffers>{});
}

/// Copies staging buffer `buf` (column chunk `chunk`: Rows x kCols
/// elements, 128 bytes per row, 128-byte swizzled) to the window at (row0,
/// col0 + chunk * kCols) of `m`, skipping what falls outside it (rows before
/// 0 among it) and the rows before `first_row`. Warp w of the warpgroup writes
/// rows w, w + 4, ...: each row's 128 bytes from one instruction of the warp (4
/// bytes per lane), in order, whatever `m.ld`.
template <class U, int Rows>
__device__ __forceinline__ void copy_staged_chunk(Matrix<U> m, uint32_t buf,
                                                  int row0, int col0, int chunk,
                                                  int first_row) {
  constexpr int kCols = 128 / sizeof(U);
  constexpr int kPerLane = 4 / sizeof(U); // elements in a lane's 4 bytes
  const int t = warpgroup_thread(), lane = t % 32;
  const int col = col0 + chunk * kCols + lane * kPerLane;
#pragma unroll 4
  for (int r = t / 32; r < Rows; r += kWarpgroupThreads / 32) {
    const int row = row0 + r;
    if (row >= m.rows || row < first_row || row < 0 || col >= m.cols)
      continue;
    uint32_t bits = 0;
#if TAWA_DEVICE_PASS
    const int byte = 4 * lane;
    asm volatile(
        "ld.shared.u32 %0, [%1];\n"
        : "=r"(bits)
        : "r"(buf + r * 128 + (((byte / 16) ^ (r % 8)) * 16) + byte % 16));
#endif
    U *out = m.data + static_cast<size_t>(row) * m.ld + col;
    if (col + kPerLane <= m.cols && reinterpret_cast<uintptr_t>(out) % 4 == 0) {
      *reinterpret_cast<uint32_t *>(out) = bits;
    } else {
      const U *v = reinterpret_cast<const U *>(&bits);
#pragma unroll
      for (int e = 0; e < kPerLane; ++e)
        if (col + e < m.cols)
          out[e] = v[e];
    }
  }
}

/// Stages column chunks First + I into staging buffers I, then copies them
/// to `m`. The barrier before staging lets every thread of the warpgroup
/// finish copying the batch before (or the previous tile's last batch);
/// thread 0 first waits until TMA stores of earlier tiles, where the kernel
/// issued any (store_accumulator_tma), have read the buffers.
template <int First, class U, int MTiles, int N, int Buffers, int... I>
__device__ __forceinline__ void store_batch_staged(
    Matrix<U> m, EpilogueStaging<U, 64 * MTiles, Buffers> &staging, int row0,
    int col0, const WgmmaAccumulator<MTiles, N> &acc, bool zero, int barrier,
    int first_row, std::integer_sequence<int, I...>) {
  if (warpgroup_thread() == 0)
    tma_store_wait_read<0>();
  named_barrier_sync(barrier, kWarpgroupThreads);
  (stage_chunk<First + I, U>(smem_addr(staging.buffer[I]), acc, zero), ...);
  named_barrier_sync(barrier, kWarpgroupThreads);
  (copy_staged_chunk<U, 64 * MTiles>(m, smem_addr(staging.buffer[I]), row0,
                                     col0, First + I, first_row),
   ...);
}

template <int Chunks, class U, int MTiles, int N, int Buffers, int... Batches>
__device__ __forceinline__ void store_batches_staged(
    Matrix<U> m, EpilogueStaging<U, 64 * MTiles, Buffers> &staging, int row0,
    int col0, const WgmmaAccumulator<MTiles, N> &acc, bool zero, int barrier,
    int first_row, std::integer_sequence<int, Batches...>) {
  (store_batch_staged<Batches * Buffers>(
       m, staging, row0, col0, acc, zero, barrier, first_row,
       std::make_integer_sequence<int, (Chunks - Batches * Buffers < Buffers
                                            ? Chunks - Batches * Buffers
                                            : Buffers)>{}),
   ...);
}

/// Like store_accumulator_tma, for an output TMA cannot address (a leading
/// dimension that is not a multiple of 16 bytes): the same batches of
/// column chunks are staged, then the warpgroup copies each to the
/// (64*MTiles) x N window at (row0, col0) of `m` row by row
/// (copy_staged_chunk), so that its global writes stay coalesced. Rows
/// before `first_row` are skipped: the rows of a shifted box that belong to the
/// tile before (box_row), which TMA's stores cannot leave out, so kernels
/// that store with TMA store such tiles this way. The columns past the whole
/// chunks (N % (128 / sizeof(U))) are stored from the registers. Uses named
/// barrier `barrier` among the warpgroup's 128 threads.
template <class U, int MTiles, int N, int Buffers>
__device__ __forceinline__ void store_accumulator_staged(
    Matrix<U> m, EpilogueStaging<U, 64 * MTiles, Buffers> &staging, int row0,
    int col0, const WgmmaAccumulator<MTiles, N> &acc, bool zero, int barrier,
    int first_row = 0) {
  constexpr int kCols = EpilogueStaging<U, 64 * MTiles, Buffers>::kCols;
  static_assert(N >= kCols, "at least one whole 128-byte column chunk");
  constexpr int kChunks = N / kCols;
  store_batches_staged<kChunks>(
      m, staging, row0, col0, acc, zero, barrier, first_row,
      std::make_integer_sequence<int, (kChunks + Buffers - 1) / Buffers>{});
  if constexpr (N % kCols != 0)
    store_accumulator<kChunks * kCols>(m, row0, col0, acc, zero, first_row);
}

} // namespace tawa::rt
