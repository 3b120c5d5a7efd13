//===- tawa/LegacyLoop.h - what a hand-written annotated loop looks like --===//
//
// A `#pragma tawa tile` loop without any tile-vocabulary op (no tawa::load,
// tawa::mma, ...) is hand-written SIMT code: a shared-memory tiled GEMM, a
// register-blocked SGEMM, a WMMA kernel. tawa-rewrite rewrites loops written
// in the tile vocabulary; for such a loop it gives one verdict naming the
// pattern the loop is closest to and the constructs that show it, instead of
// one warning per statement the tile vocabulary does not accept.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LEGACYLOOP_H
#define TAWA_LEGACYLOOP_H

#include "tawa/Diagnostics.h"

#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class ForStmt;
} // namespace clang

namespace tawa {

/// The patterns of hand-written GEMM loops, closest first.
enum class LegacyPattern {
  Wmma,             ///< nvcuda::wmma fragments: load_matrix_sync, mma_sync
  SharedTiled,      ///< tiles staged in __shared__, a scalar product loop
  SharedRegBlocked, ///< the same with a register micro-tile of accumulators
  PtxMma,           ///< inline PTX mma.sync / wgmma on register fragments
  GlobalProduct,    ///< a product accumulated from global memory directly
  None,             ///< no product accumulated over the loop
};
llvm::StringRef legacyPatternName(LegacyPattern P);

/// A construct that shows the pattern: where, and what it is.
struct LegacyEvidence {
  clang::SourceLocation Loc;
  std::string What;
};

/// The verdict on a hand-written loop.
struct LegacyLoop {
  LegacyPattern Pattern = LegacyPattern::None;
  std::vector<LegacyEvidence> Evidence; ///< in source order
  /// The first staging copy whose global access both divides and takes the
  /// remainder of expressions of the loop variable, directly or through the
  /// initializers of local variables: the im2col gather of an implicit-GEMM
  /// convolution, whose K index splits into filter taps and channels. Unset
  /// where there is none.
  std::optional<LegacyEvidence> Gather;
  unsigned GatherLine = 0; ///< the line of Gather's copy
  /// In words: the pattern's name, or "implicit-GEMM convolution" where a
  /// staging copy gathers.
  std::string name() const {
    return Gather ? "implicit-GEMM convolution"
                  : legacyPatternName(Pattern).str();
  }
};

/// Classifies the body of `Loop` (in `Kernel`): nullopt where the loop uses
/// a tile-vocabulary op (`tawa::` function), is empty, or is not in a
/// __global__ function, so the tile-program analysis applies and says what
/// is missing; else the pattern it is closest to and its evidence.
std::optional<LegacyLoop> classifyLegacyLoop(const clang::FunctionDecl *Kernel,
                                             const clang::ForStmt *Loop);

/// The outcome of lifting a loop of a pattern that has a lifting (Lift.h):
/// lifted, or not; where lifted, a Message says what stopped its migration.
struct LiftAttempt {
  bool Lifted = false;
  clang::SourceLocation Loc; ///< the statement that breaks the pattern
  unsigned Line = 0;         ///< its line
  std::string Message;       ///< what is expected there
};

/// Reports `L` as one [tawa-unsupported] warning at the loop, then (where
/// `Lift` failed) a note at the statement that breaks the pattern, then a
/// note at each piece of evidence. `Lift` is null for patterns without a
/// lifting.
void reportLegacyLoop(const LegacyLoop &L, const clang::ForStmt *Loop,
                      const LiftAttempt *Lift, DiagReporter &Diags);

} // namespace tawa

#endif
