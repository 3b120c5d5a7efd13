//===- tawa/Plan.h - roles, ring depth, registers of a tile loop ----------===//
//
// The pipeline plan fixes what the emitter needs: the CTA tile (BM x BN x BK,
// elements), the consumer warpgroups and the rows each owns, the aref depth,
// the setmaxnreg split and the shared-memory footprint. Pragma clauses
// override the defaults; a configuration Hopper cannot run (wgmma shapes,
// TMA box limits, shared-memory or register budget) is reported at the
// clause or op that causes it, with the numbers, before anything is emitted.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_PLAN_H
#define TAWA_PLAN_H

#include "tawa/ArefGraph.h"

namespace tawa {

/// Hopper limits used by the planner.
namespace hopper {
/// Dynamic shared memory per block, bytes (CUDA C Programming Guide, compute
/// capability 9.0: 227 KB).
inline constexpr unsigned kSharedMemoryBytes = 232448;
/// Registers per SM (and per block with one block per SM).
inline constexpr unsigned kRegisters = 65536;
/// Slack for aligning the dynamic shared-memory base to 1024 bytes.
inline constexpr unsigned kSharedAlignSlack = 1024;
} // namespace hopper

struct PipelinePlan {
  ElementType Elem = ElementType::BF16;  ///< A's element type
  ElementType ElemB = ElementType::BF16; ///< B's (differs only for fp8)
  int BM = 0, BN = 0, BK = 0;            ///< CTA tile, elements
  int Consumers = 0;                     ///< consumer warpgroups
  int MTiles = 0;           ///< 64-row wgmma tiles per consumer warpgroup
  int Stages = 0;           ///< aref ring depth
  RegisterSplit Regs{0, 0}; ///< setmaxnreg values
  int Threads = 0;          ///< 128 * (1 + Consumers)
  unsigned StageBytes = 0;  ///< bytes of one aref slot
  /// K steps per slot (TileProgram::StepsPerSlot): a slot holds the tiles of
  /// that many consecutive iterations, filled by one acquire and one commit
  /// and released once; not with PingPong, Cluster or ThreeTf32.
  int StepsPerSlot = 1;
  unsigned SharedBytes = 0; ///< dynamic shared memory requested
  int AccRegisters = 0;     ///< fp32 accumulator registers per consumer thread
  bool Persistent = true;   ///< one CTA per SM walks the output tiles
  /// schedule(pingpong): two consumers take alternate tiles, each the whole
  /// tile (MTiles = BM / 64), their main loops in turn.
  bool PingPong = false;
  /// CTAs per cluster; with 2, the CTAs of vertically adjacent tiles share
  /// the mma's B tile, each loading half with a multicast, or where
  /// ClusterAlongX those of horizontally adjacent tiles share A's.
  int Cluster = 1;
  bool ClusterAlongX = false;
  /// Epilogue through shared memory and TMA stores (else direct stores from
  /// registers); chunks of StoreChunkCols columns (128 bytes per row). The
  /// last StoreTailCols columns of a tile, past its whole chunks (BN mod
  /// StoreChunkCols), are stored from the registers.
  bool TmaStore = false;
  int StoreChunkCols = 0;
  int StoreTailCols = 0;
  /// precision(3xtf32): each slot also holds the tf32 low parts of its fp32
  /// tiles, which the producer warpgroup's idle warps split off once the
  /// tiles land; three tf32 products per step (tawa/runtime/tf32_split.cuh).
  bool ThreeTf32 = false;
  /// Staging buffers per consumer warpgroup, each 64 * MTiles rows x 128
  /// bytes: one per chunk of the tile where that fits beside the ring (the
  /// tile is staged at once), else two used in turn.
  int StagingBuffers = 0;
  unsigned StagingBytes = 0;   ///< shared memory of the epilogue staging
  RasterOrder Raster{true, 8}; ///< order of the tile walk
  /// The last partial wave of the persistent walk may be split by K between
  /// the CTAs that would idle; the launch decides where it pays
  /// (tawa/runtime/split_tail.cuh).
  bool SplitTail = false;
  /// With the split tail: the tile loop's header reads only parameters and
  /// constants, so the kernel counts its trips before the walk, and a launch
  /// of fewer tiles than SMs can split them all from the start (one CTA per
  /// SM, those past the tiles taking pieces).
  bool CountTrips = false;
  /// Why each choice was made, as (choice, reason) in the order decided,
  /// e.g. {"stages", "the most that fit 232448 bytes, capped at 6"}.
  /// --explain prints the reason next to the choice of the same name
  /// (roles, consumers, stages, registers, shared-memory); a choice it does
  /// not know is printed on a line of its own.
  std::vector<std::pair<std::string, std::string>> Explain;
};

/// The tile loop as `for (T v = Init; v < Bound; v += Step)` (or `<=`), its
/// header reading only parameters and constants (the bound and step not v):
/// the form whose iterations a slot of several K steps can take in one trip
/// of a loop stepping Step * StepsPerSlot (TileProgram::StepsPerSlot).
struct SteppedLoop {
  const clang::VarDecl *Var;
  const clang::Expr *Init, *Bound, *Step;
  bool Inclusive; ///< `<=`
};
std::optional<SteppedLoop> steppedLoop(const clang::ForStmt *Loop);

/// Plans the pipeline of `P`; returns nullopt after reporting when a limit is
/// exceeded.
std::optional<PipelinePlan>
planPipeline(const TileProgram &P, const ArefGraph &G, DiagReporter &Diags);

} // namespace tawa

#endif
