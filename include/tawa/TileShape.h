//===- tawa/TileShape.h - the CTA tile of the rewritten kernel ------------===//
//
// The `shape` clause lets the rewritten kernel compute a larger CTA tile than
// the kernel as written: `shape(BM, BN)` a given one, `shape(auto)` the first
// of autoTileShapes() that the planner accepts. The larger tile is X x Y of
// the kernel's tiles, adjacent in the output, so it computes the same
// products in fewer, larger wgmma tiles: along each grid dimension it merges,
// the window an operand or the store moves along must sit at
// `blockIdx.<d> * extent + offset` (offset constant for the store), and
// nothing else of the tile loop may read blockIdx.<d> or gridDim; the code
// before the loop, run once per merged tile, may only declare values.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TILESHAPE_H
#define TAWA_TILESHAPE_H

#include "tawa/ArefGraph.h"
#include "tawa/Plan.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <utility>
#include <vector>

namespace tawa {

/// The CTA tiles shape(auto) tries, largest first, as (rows, columns) of the
/// output in elements; 128 x 256 with two consumer warpgroups is the
/// fastest measured on the H100 (results/README.md).
llvm::ArrayRef<std::pair<int, int>> autoTileShapes();

/// Applies the shape clause of `P`. Without one returns `P`; with one,
/// returns `P` with its operand tiles, accumulator and Merge set to the CTA
/// tile chosen. Reports at the clause, with a note at the construct, and
/// returns nullopt where `shape(BM, BN)` is not a multiple of the kernel's
/// tile or the tiles cannot merge; `shape(auto)` then keeps the kernel's
/// tile and says why in Merge.Reason.
std::optional<TileProgram> applyTileShape(const TileProgram &P,
                                          DiagReporter &Diags);

/// Rows of the few-rows twins' CTA tiles (NarrowTiles::FewRows): one wgmma
/// M extent, a consumer warpgroup's (PTX ISA 9.7.15.5.1).
constexpr int kFewRows = 64;

/// K steps per aref slot in the few-rows twins (TileProgram::StepsPerSlot):
/// each operand row is then read 256 bytes at a time, in half as many slots
/// of twice the bytes. On an H100, bf16 NT 64 x 2048 x 2048 ran in 12.9 us
/// against 14.9 with one step per slot, 16 x 4096 x 1024 in 11.1 against
/// 13.4 and 64 x 4096 x 11008 in 42.0 against 44.5; the other decode-like
/// launches measured moved by at most 2% (results/h100/decode/slots2/).
constexpr int kFewRowsSteps = 2;

/// A narrow kernel: the same work as the wide tiles BM x BN in CTA tiles of
/// BM x w, w < BN (Program.Merge.narrow()). Where w divides BN, a tile's
/// parts move the window of the mma's B and the store's column by p w; where
/// not, the CTA tiles run across the launch's columns (TileMerge::Across),
/// which needs those windows to move with blockIdx.x by the kernel's tile
/// width, as for a merge along x. The code before the loop must only declare
/// values, as for a merge.
struct NarrowKernel {
  TileProgram Program;
  ArefGraph Graph;
  PipelinePlan Plan;
};

/// The further kernels of a rewritten tile loop, for launches whose wide
/// tiles would leave many SMs idle. The launcher runs the narrowest whose
/// tiles fill at most one wave, else, where the wide tiles fill at most half
/// a wave, the widest; a launch of more than a wave runs one of at least half
/// the wide width whose waves are shorter, counted whole, by 15% or more
/// (tawa/runtime/schedule.cuh, narrow_choice).
struct NarrowTiles {
  std::vector<NarrowKernel> Kernels; ///< narrowest first; empty: none
  /// narrow(auto): the same kernels with schedule(pingpong), each consumer
  /// taking whole tiles (Kernels[i]'s twin at i, where the planner accepts
  /// one: a 192-column tile holds too many accumulators), else none. The
  /// launcher runs
  /// a twin where the stored matrix has more than BM / 2 rows: on the H100
  /// it was 1.1-1.2x faster than the cooperative kernel at 128 to 256 rows,
  /// and 0.8x at 16 to 64, where the ping-pong consumer multiplies the empty
  /// half of its tile alone (results/h100/small-shapes/).
  std::vector<std::optional<NarrowKernel>> FullRows;
  /// The kernels with a ping-pong twin again in CTA tiles of their first
  /// kFewRows rows, with one consumer warpgroup and a ring of about the same
  /// bytes in flight, each slot holding kFewRowsSteps K steps of the smaller
  /// tiles (Kernels[i]'s twin at i, else
  /// none). The launcher runs one, in place of Kernels[i], where every row
  /// the launch stores lies in the first kFewRows rows of its tiles
  /// (`C.rows <= Program.Merge.RowOffset + kFewRows`): the rows after them
  /// store nothing there, and the smaller slots keep more of the operand
  /// bytes in flight that the launch does store. Where only the mma's A and
  /// the store move with the rows, a twin computes every kFewRows-row part of
  /// its tiles (TileMerge::RowParts), and the launcher also runs it where the
  /// last row of tiles stores few rows (tawa::rt::choose_row_parts): on an
  /// H100 192 x 4096 x 4096 took 22.6 us so against 25.7 in the ping-pong
  /// twin's whole tiles (results/h100/row-parts/). Decode-like launches are
  /// bound by how fast B streams from memory: on an H200, 64 x 4096 x 4096
  /// ran in 18.3 us so against 21.8 with two consumers, one idle, and 64 x
  /// 4096 x 11008 in 33.5 against 43.5 (results/h200/skinny-choice/).
  std::vector<std::optional<NarrowKernel>> FewRows;
  /// For --explain: the narrow tiles and why, or why there are none.
  std::string Value, Reason;
  /// The wide kernel again with clusters of two CTAs that share B's tile
  /// through a TMA multicast (cluster(2); Program.Merge is the wide
  /// kernel's), where no clause fixes the cluster or the schedule and the
  /// planner accepts it, else none. The launcher runs it instead of the wide
  /// kernel where an operand's rows are an odd number of 16 bytes apart
  /// (tawa/runtime/schedule.cuh, choose_cluster): such rows read five
  /// 32-byte L2 sectors for every four of data, the launch is L2-bound, and
  /// sharing B halves its reads. On the H100 2000 x 2000 x 2008 ran 1.32x
  /// faster so; where rows are aligned, cluster(2) was 3-9% slower
  /// (results/h100/cluster-twin/, results/h100/idle-rows/).
  std::optional<NarrowKernel> Cluster;
  /// The same for Kernels[i], at i, for those without a ping-pong twin (a
  /// cluster cannot ping-pong), else none: 3000^3 ran 1.43x faster as the
  /// 128 x 192 twin, 1536 x 1536 x 1544 1.13x (results/h100/cluster-twin/).
  std::vector<std::optional<NarrowKernel>> Clusters;
  /// The cluster twin of FewRows[0], the narrowest kernel's few-rows twin,
  /// where that runs over two row parts (TileMerge::RowParts == 2), as the
  /// only element, else empty or none: the cluster's two CTAs take the two
  /// row parts of a tile and share B's tile through a multicast, so that a
  /// launch of few rows runs twice the CTAs per B tile read
  /// (tawa::rt::choose_row_cluster; results/h200/row-cluster/).
  std::vector<std::optional<NarrowKernel>> FewRowsClusters;
  /// The cluster twin along x of FullRows[0], the narrowest kernel's
  /// ping-pong twin, as the only element, else empty or none: the cluster's
  /// two CTAs take adjacent narrow parts of one tile, the same rows, and
  /// share A's tile through a multicast, which halves A's reads from L2
  /// (tawa::rt::choose_x_cluster). None for fp8, im2col or transposed-copy
  /// A (lib/TileShape.cpp, clusterAlongXTwin).
  std::vector<std::optional<NarrowKernel>> PingPongClusters;
  /// For --explain: the cluster twins and when they run, or why there are
  /// none.
  std::string ClusterValue;
};

/// The narrow kernels of `P` (planned as `Plan`). `narrow(auto)`, the
/// default, has kernels of 64, 128 and 192 columns, each where it is fewer
/// than the tile's and the planner accepts its tile (measured against the
/// wide tiles and each other in results/README.md); `narrow(off)` keeps
/// none; `narrow(N, ...)` has one of each N, and reports at the clause and
/// returns nullopt where an N is not fewer than the tile's columns, the
/// tile code does not allow it or the planner refuses.
/// Also the cluster twin (NarrowTiles::Cluster) of the wide kernel.
std::optional<NarrowTiles> narrowTiles(const TileProgram &P,
                                       const PipelinePlan &Plan,
                                       DiagReporter &Diags);

} // namespace tawa

#endif
