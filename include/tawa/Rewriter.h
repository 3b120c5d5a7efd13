//===- tawa/Rewriter.h - the frontend action that rewrites one file -------===//
//
// Parses a CUDA file (host side, `--cuda-host-only`, which sees kernel bodies
// and launch sites), binds each `#pragma tawa tile` to the `for` loop that
// follows it, runs TileProgram -> ArefGraph -> PipelinePlan -> Emitter on it
// and collects the edits of the main file as tooling::Replacements.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_REWRITER_H
#define TAWA_REWRITER_H

#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"

#include <map>
#include <string>

namespace tawa {

struct RewriteOptions {
  bool DumpArefs = false; ///< fill FileResult::ArefDump
};

/// What the action produced for one main file.
struct FileResult {
  std::string Path;                   ///< as the compilation database names it
  std::string Original;               ///< the file's content when parsed
  clang::tooling::Replacements Edits; ///< edits of the main file
  std::string ArefDump;               ///< --dump-arefs text of every tile loop
  unsigned TileLoops = 0;             ///< annotated loops found
  bool Failed = false;                ///< a compile or tawa error was reported
};

/// A factory of the rewriting action; results land in `Results`, keyed by the
/// main file's path.
std::unique_ptr<clang::tooling::FrontendActionFactory>
makeRewriteActionFactory(const RewriteOptions &Opts,
                         std::map<std::string, FileResult> &Results);

/// Applies `R.Edits` to `R.Original`.
llvm::Expected<std::string> applyEdits(const FileResult &R);

} // namespace tawa

#endif
