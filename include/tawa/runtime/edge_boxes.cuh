//===- tawa/runtime/edge_boxes.cuh - boxes that stop at an operand's end --===//
//
// A TMA box that reaches past the last row of its tensor is zero-filled
// there, and on the H100 those rows cost more than rows that are read: the
// 128 x 64 boxes of a 160 x 4096 A (96 of their 128 rows past the end in the
// second tile row) made a 160 x 4096 x 4096 GEMM take 34.7 us against 20.8
// us with A padded to 256 rows, and the time grew with the rows past the end
// (192 rows 30.6 us, 224 rows 25.0 us, 256 rows 20.4 us;
// results/h100/few-rows/).
//
// Where a K-major operand's rows are the M (or N) rows of the tile, the rows
// past its end reach only accumulator rows that are never stored, so the
// producer need not fill them at all: it loads the rows before the end in
// boxes of 128, 64, 32, 16 and 8 rows (the binary digits of the count
// rounded up to 8, one tensor map each), at their places in the slot, and
// arms the stage's barrier for those bytes only. The rest of the slot keeps
// what it held. Eight rows are one period of the 128-byte swizzle (1024
// bytes), so each smaller box lands in the layout the whole box would have
// given. A box whose rows all lie past the end is not loaded.
//
// In kernels whose consumers each take whole tiles (ping-pong) of fewer
// columns than rows, the edge boxes pay only where many rows lie past the
// end: where fewer than 64 of the last box's did, whole boxes were faster on
// the H100 and the H200 alike (the 128 x 64 tiles at 80-112 rows, 16-48
// past the end: 19.2-24.3 us whole against 28.1-30.4 in edge boxes at 80 x
// 4096 x 4096 .. 112 x 4096 x 4096, bf16 NT and NN on the H100), where
// 80-112 did, slower (144 x 4096 x 4096: 25.7 us against 36.9). With tiles
// of 128 columns they paid also with 48 rows past the end (80 x 11008 x
// 4096 NN: 36.7 us against 39.2; results/h100/row-parts/). The launcher
// passes the bound (make_edge_maps' `min_past`). The 64-row boxes of the
// few-rows twins never have 64 rows past the end: they load whole boxes
// (144-176 rows in 64-row parts: 23.1-23.9 us against 26.5-28.8).
//
// tawa-rewrite loads the mma's A this way in kernels without a cluster,
// where A's M origin is the store's row origin (lib/Emitter.cpp,
// edgeBoxes); B keeps whole boxes, whose edge boxes were measured no faster
// and once slower (4096 x 16 x 4096: 26.3 against 21.7 us;
// results/h100/edge-boxes/).
//
// The boxes of at most 64 rows (the few-rows twins' row parts), which are
// not loaded in edge boxes, are shifted instead (box_row): the last box is
// loaded from the operand's last rows,
// whole and inside it, and the consumers store only the rows of their own
// tile. On the H200 the 64-row boxes of 72 x 4096 x 4096 took 22.8 us with
// 56 of their rows past A's end and 16.2 with A padded so that none were
// (results/h200/row-oob/). The epilogue ops still read their operands (C's
// input, say) at the rows before the tile's own, which another CTA may be
// storing: those values are computed and dropped, never stored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "launch.cuh"
#include "tma.cuh"

namespace tawa::rt {

/// The tensor maps of a K-major operand's edge boxes: map[j] loads boxes of
/// 128 >> j rows (128, 64, 32, 16, 8) with the columns of the operand's
/// whole box (128 bytes); `sizes` has the bit 128 >> j set where map[j] is
/// encoded. `rows` is the operand's row count, or 0 where edge boxes are
/// off and every box is loaded whole.
struct EdgeMaps {
  static constexpr int kMaps = 5;
  CUtensorMap map[kMaps];
  int rows = 0;
  int sizes = 0;
};

/// Fills `*edge` for `m`, whose whole boxes are `box_rows` x `box_cols`
/// elements (make_tensor_map's arguments), where the rows of `m` past its
/// end reach only accumulator rows that are not stored: `stored`, the
/// stored matrix's extent along those rows, is at most `m.rows`. Otherwise,
/// or where every box ends inside `m` (`m.rows` a multiple of `box_rows`),
/// or where fewer than `min_past` rows of the last box lie past the end,
/// edge boxes are off; TAWA_EDGE_BOXES=off in the environment turns them
/// off everywhere (measurements). Only the maps of the last box of a walk
/// whose boxes start at multiples of `box_rows` are encoded, one per binary
/// digit of its rows before the end rounded up to 8 (an encoding took
/// 0.07-0.11 us of host time beside the H100; results/h100/edge-boxes/). A
/// box at another row that would need a map not encoded is loaded whole.
/// Returns make_tensor_map's error.
template <class T>
cudaError_t make_edge_maps(EdgeMaps *edge, Matrix<T> m, int box_rows,
                           int box_cols, long long stored, bool batched = false,
                           int min_past = 0) {
  static const int mode = env_switch("TAWA_EDGE_BOXES");
  *edge = EdgeMaps{};
  if (m.rows <= 0 || m.rows % box_rows == 0 || stored > m.rows || mode == 1)
    return cudaSuccess;
  const int last = ((m.rows % box_rows) + 7) & ~7;
  if (last >= box_rows || box_rows - last < min_past)
    return cudaSuccess;
  for (int j = 0; j < EdgeMaps::kMaps; ++j) {
    const int rows = 128 >> j;
    if (!(last & rows))
      continue;
    if (cudaError_t e =
            make_tensor_map(&edge->map[j], m, rows, box_cols, batched);
        e != cudaSuccess)
      return e;
  }
  edge->rows = m.rows;
  edge->sizes = last;
  return cudaSuccess;
}

/// The rows of the box of `Rows` rows at `row0` that the producer loads:
/// all of them where the box ends inside the operand (or edge boxes are
/// off, or their maps lack a size the box needs), else those before the end
/// rounded up to 8, none where it starts past the end.
template <int Rows>
__device__ __forceinline__ int edge_rows(const EdgeMaps &edge, int row0) {
  if (edge.rows == 0 || row0 + Rows <= edge.rows)
    return Rows;
  const int before = edge.rows - row0;
  if (before <= 0)
    return 0;
  const int rounded = (before + 7) & ~7;
  return rounded < Rows && (rounded & ~edge.sizes) == 0 ? rounded : Rows;
}

/// The bytes the load of the box of `Rows` rows at `row0` brings (rows of
/// 128 bytes): what the stage's barrier is armed for.
template <int Rows>
__device__ __forceinline__ uint32_t edge_bytes(const EdgeMaps &edge, int row0) {
  return static_cast<uint32_t>(edge_rows<Rows>(edge, row0)) * 128u;
}

/// Loads the box of `Rows` x (128 bytes) at (col0, row0[, batch]) of `map`
/// into `dst`, completing on `bar`: whole, or, where it reaches past the
/// operand's end, as edge boxes of the rows before the end (edge_rows).
template <int Rows, bool Batched, class T>
__device__ __forceinline__ void
tma_load_rows(T *dst, const CUtensorMap *map, const EdgeMaps &edge,
              uint64_t *bar, int col0, int row0, int batch) {
  const int rows = edge_rows<Rows>(edge, row0);
  if (rows == Rows) {
    if constexpr (Batched)
      tma_load_3d(dst, map, bar, col0, row0, batch);
    else
      tma_load_2d(dst, map, bar, col0, row0);
    return;
  }
  unsigned char *at = reinterpret_cast<unsigned char *>(dst);
  int row = row0;
#pragma unroll
  for (int j = 0; j < EdgeMaps::kMaps; ++j) {
    const int box = 128 >> j;
    if (box < Rows && (rows & box)) {
      if constexpr (Batched)
        tma_load_3d(at, &edge.map[j], bar, col0, row, batch);
      else
        tma_load_2d(at, &edge.map[j], bar, col0, row);
      at += box * 128;
      row += box;
    }
  }
}

/// The rows of a box that may lie past the operand's end before box_row
/// moves it: on the H200, 16 cost nothing (80 x 4096 x 4096 .. 112 x 4096 x
/// 4096 with A padded, results/h200/row-oob/), and the shifted box's tile,
/// stored without TMA, was then up to 5% slower (112 x 4096 x 4096,
/// results/h200/shifted-boxes/).
constexpr int kBoxRowsPastFree = 16;

/// The row at which a box of `Rows` rows meant for `row0` is loaded: row0
/// where the box ends inside the operand of `rows` rows, or at most
/// kBoxRowsPastFree rows past its end; else `rows - Rows`, so that it ends
/// at the operand's last row and no row of it is zero-filled. The box then
/// holds the rows [box_row, row0) of the tile before, which the consumers
/// compute but do not store (the stores' `first_row`). Kept at row0 where
/// the operand has fewer than Rows rows, or fewer than `stored` (the stored
/// matrix's rows, which the box must still cover). TAWA_SHIFTED_BOXES=0 at
/// compile time keeps every box at row0 (measurements).
template <int Rows>
__host__ __device__ __forceinline__ int box_row(int row0, int rows,
                                                int stored) {
#if defined(TAWA_SHIFTED_BOXES) && !TAWA_SHIFTED_BOXES
  return row0;
#else
  if (row0 + Rows <= rows + kBoxRowsPastFree || rows < Rows || stored > rows)
    return row0;
  return rows - Rows; // before row0, which lies past rows - Rows + 16

#endif
}

/// Whether a consumer whose `Rows` accumulator rows start at `row0` stores
/// none of them: they lie before `first_row` (a shifted box's rows of the tile
/// before, box_row) or from the stored matrix's last row `rows` on.
template <int Rows>
__host__ __device__ __forceinline__ bool rows_idle(int row0, int first_row,
                                                   int rows) {
  return row0 + Rows <= first_row ||
         (first_row > row0 ? first_row : row0) >= rows;
}

} // namespace tawa::rt
