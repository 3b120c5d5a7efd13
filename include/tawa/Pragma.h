//===- tawa/Pragma.h - `#pragma tawa tile` and its clauses ----------------===//
//
// Grammar (docs/tile-language.md):
//   #pragma tawa tile [clause [[,] clause]...]
//   clause := stages(N) | consumers(N) | regs(P, C)
//           | persistent | persistent(on|off) | raster(m|n [, G])
//           | cluster(N) | schedule(cooperative|pingpong)
//           | tail(split|whole) | shape(auto) | shape(BM, BN)
//           | narrow(auto|off|N[, N]...) | overlap(on|off)
// The handler records each pragma with the location of every clause so that
// later stages can point a diagnostic at the clause at fault.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_PRAGMA_H
#define TAWA_PRAGMA_H

#include "tawa/Diagnostics.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <optional>
#include <vector>

namespace tawa {

/// A clause value with the location of the clause name.
template <class T> struct Clause {
  std::optional<T> Value;
  clang::SourceLocation Loc;
  explicit operator bool() const { return Value.has_value(); }
  const T &operator*() const { return *Value; }
  const T *operator->() const { return &*Value; }
};

struct RegisterSplit {
  int Producer; ///< setmaxnreg value of the producer warpgroup
  int Consumer; ///< setmaxnreg value of each consumer warpgroup
};

/// Tile order of the walk over the output tiles: `Group` consecutive tiles
/// along the grid's y dimension (m: rows of tiles) or x dimension (n).
struct RasterOrder {
  bool AlongM; ///< true: raster(m, G), groups along grid y
  int Group;   ///< tiles per group, 1..64
};

/// How the consumer warpgroups share the output tiles.
enum class ConsumerSchedule {
  /// Every consumer works on every tile, on its own rows of it.
  Cooperative,
  /// Two consumers take alternate tiles, each the whole tile, their main
  /// loops in turn: one's epilogue runs under the other's main loop (the
  /// "ping-pong" kernels of CUTLASS).
  PingPong,
};

/// How a GEMM of fp32 operands multiplies on the tensor cores, which take
/// no fp32 inputs: `precision(tf32)` reads each operand as TF32 (8-bit
/// exponent, 10-bit mantissa: wgmma's .tf32 type, PTX ISA 9.7.15.5.1),
/// `precision(3xtf32)` the error-compensated form, three TF32 products per
/// step (about fp32 accuracy). Without the clause, fp32 operands are
/// refused: the tool does not lower a kernel's precision on its own.
enum class MmaPrecision { Tf32, ThreeTf32 };

/// The CTA tile the rewritten kernel computes: `shape(BM, BN)`, or
/// `shape(auto)` (Auto set, BM = BN = 0): the tool chooses. Either is a
/// multiple of the kernel's own tile (TileShape.h).
struct TileShapeClause {
  bool Auto = false;
  int BM = 0, BN = 0; ///< output rows and columns, elements
};

/// The narrow tiles of small launches (TileShape.h): `narrow(auto)` (the
/// default: Columns empty, the tool chooses), `narrow(off)` (Off) or
/// `narrow(N[, N]...)`, the columns of the output of each narrow kernel's
/// CTA tile, elements, in ascending order.
struct NarrowClause {
  bool Off = false;
  std::vector<int> Columns;
};

/// One `#pragma tawa tile` as written.
struct TilePragma {
  clang::SourceLocation Loc; ///< the `tile` keyword
  Clause<int> Stages;        ///< aref ring depth D, 2..16
  Clause<int> Consumers;     ///< consumer warpgroups, 1..3
  Clause<RegisterSplit> Regs;
  Clause<bool> Persistent; ///< persistent grid walking the output tiles
  Clause<int> Cluster;     ///< CTAs per thread-block cluster, 1..2
  /// The cluster's CTAs take horizontally adjacent tiles and share A's tile
  /// (else vertically adjacent ones sharing B's). No clause sets it: the
  /// tool's cluster twins along x do (TileShape.h).
  bool ClusterAlongX = false;
  Clause<RasterOrder> Raster;
  Clause<ConsumerSchedule> Schedule;
  /// tail(split|whole): whether the last partial wave of the persistent walk
  /// may be split by K between the CTAs that would idle.
  Clause<bool> SplitTail;
  Clause<TileShapeClause> Shape;
  Clause<NarrowClause> Narrow;
  /// overlap(on|off), attention: whether a consumer warpgroup runs the
  /// softmax of one iteration while the P V wgmma of the previous one runs.
  Clause<bool> Overlap;
  Clause<MmaPrecision> Precision;
  bool Valid = true; ///< false when a clause had an error (already reported)
};

/// Handles `#pragma tawa ...`: parses `tile` pragmas into `Out` and reports
/// malformed ones as [tawa-pragma] errors located at the offending token, with
/// the accepted form in the message. Register on the Preprocessor before
/// parsing; the pragma itself produces no tokens.
class TawaPragmaHandler : public clang::PragmaHandler {
public:
  TawaPragmaHandler(std::vector<TilePragma> &Out, DiagReporter &Diags)
      : clang::PragmaHandler("tawa"), Out(Out), Diags(Diags) {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;

private:
  std::vector<TilePragma> &Out;
  DiagReporter &Diags;
};

} // namespace tawa

#endif
