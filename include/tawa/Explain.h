//===- tawa/Explain.h - what was chosen for a tile loop, and why ----------===//
//
// `--explain` prints, for each annotated loop, one line per choice of the
// pipeline plan (tile, roles, arefs, stages, registers, shared memory) with
// the reason when one is known: the pragma clause that set it (with its
// location), or the planner's own reason (PipelinePlan::Explain). A loop that
// is not rewritten says why, with the message of the diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_EXPLAIN_H
#define TAWA_EXPLAIN_H

#include "tawa/Plan.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace tawa {

/// Prints the explanation of the tile loop `Loop` of `Kernel`. `P`, `G` and
/// `Plan` are the stages' results so far (null when a stage failed);
/// `Failure` is the message that stopped the conversion ("" when the kernel
/// was rewritten). Format (docs/cli.md):
///   kernel <name>: tile loop at <file>:<line>:<col>
///     <choice>: <value> -- <reason>
void printExplanation(const clang::FunctionDecl *Kernel,
                      const clang::ForStmt *Loop, const TileProgram *P,
                      const ArefGraph *G, const PipelinePlan *Plan,
                      llvm::StringRef Failure, const clang::SourceManager &SM,
                      const clang::LangOptions &LO, llvm::raw_ostream &OS);

} // namespace tawa

#endif
