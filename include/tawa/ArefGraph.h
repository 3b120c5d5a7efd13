//===- tawa/ArefGraph.h - producer/consumer dataflow of a tile loop -------===//
//
// The aref dataflow model (Tawa, arXiv 2510.14719, section 3): tile loads
// that TMA can perform are producer ops; each feeds its consumer op through
// an aref, a ring of shared-memory slots. Loads consumed by the same op are
// merged into one aref, so one slot carries every tile an iteration needs and
// one pair of barriers guards them. The accumulator is loop-carried and stays
// in the consumers' registers; the store after the loop is the consumers'
// epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_AREFGRAPH_H
#define TAWA_AREFGRAPH_H

#include "tawa/TileProgram.h"

#include "llvm/Support/raw_ostream.h"

namespace tawa {

struct PipelinePlan;

/// One aref: the tiles one slot carries.
struct Aref {
  std::string Name; ///< tile names joined by '_', e.g. "a_b"
  std::vector<unsigned>
      Loads; ///< indices into TileProgram::Loads, in program order
  unsigned BytesPerSlot = 0; ///< sum of the tiles' bytes
  /// Loaded before the loop: filled once per tile (one slot), released when
  /// the tile's last iteration no longer reads it.
  bool OneShot = false;
  /// Why these tiles travel together, or apart from the others.
  std::string Reason;
};

struct ArefGraph {
  std::vector<Aref> Arefs;
  std::vector<unsigned> ArefOfLoad; ///< for each load, the index of its aref
};

/// Builds the arefs of `P`: the loop's loads consumed by the same mma share
/// one (one slot carries what the mma needs), loads consumed by different
/// mma travel apart (the first mma starts before the second's tiles land),
/// and each load before the loop is a one-shot aref. Reports a load no mma
/// consumes.
std::optional<ArefGraph> buildArefGraph(const TileProgram &P,
                                        DiagReporter &Diags);

/// Prints the graph in the stable text form that `--dump-arefs` shows and
/// the tests check. `Plan`, when given, adds the planned stages and roles.
void printArefGraph(const TileProgram &P, const ArefGraph &G,
                    const PipelinePlan *Plan, const clang::SourceManager &SM,
                    const clang::LangOptions &LO, llvm::raw_ostream &OS);

/// The same facts as one JSON object (`--dump-arefs=json`): file, kernel,
/// line, column, loop, loads, arefs, mmas, accumulator, epilogue and, when
/// `Plan` is given, plan (stages, consumers, registers, threads, bytes).
/// Keys are documented in docs/cli.md; sizes in elements, bytes in bytes.
void printArefGraphJson(const TileProgram &P, const ArefGraph &G,
                        const PipelinePlan *Plan,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LO, llvm::raw_ostream &OS);

/// The same facts as a graphviz digraph (`--dump-arefs=dot`): producer
/// loads feed aref nodes, which feed the consumers' mma; the accumulator
/// feeds the epilogue store. `dot -Tsvg` renders it.
void printArefGraphDot(const TileProgram &P, const ArefGraph &G,
                       const PipelinePlan *Plan, const clang::SourceManager &SM,
                       const clang::LangOptions &LO, llvm::raw_ostream &OS);

} // namespace tawa

#endif
