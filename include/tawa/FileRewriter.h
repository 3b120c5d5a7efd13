//===- tawa/FileRewriter.h - the rewrite of one main file, for any driver -===//
//
// The pipeline of one main file in two halves: preprocessor callbacks that
// record each `#pragma tawa tile` and the main file's #include directives,
// and a pass over the parsed translation unit that runs TileProgram ->
// ArefGraph -> PipelinePlan -> Emitter on each annotated loop (Rewriter.cpp).
// Two drivers run it: the tool's frontend action (makeRewriteActionFactory)
// and the clang-tidy checks (tidy/), which register the callbacks from
// ClangTidyCheck::registerPPCallbacks and run the pass from a matcher on the
// translation unit. Both therefore report the same diagnostics and produce
// the same edits.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_FILEREWRITER_H
#define TAWA_FILEREWRITER_H

#include "tawa/Diagnostics.h"
#include "tawa/Pragma.h"
#include "tawa/Rewriter.h"

#include "clang/Basic/SourceLocation.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
class Preprocessor;
} // namespace clang

namespace tawa {

/// What the preprocessor saw of the main file: its #include directives, and
/// the conditionals that read `__CUDA_ARCH__` (DeviceOnlyPragmas.h).
struct MainFileRecord {
  clang::SourceLocation Tile;              ///< after `<tawa/tile.h>`, if any
  std::vector<clang::SourceLocation> Ends; ///< after the file name of each
  /// Each conditional that reads a __CUDA_ARCH macro, outside system
  /// headers, from its `#if` to its `#endif`: what is inside differs
  /// between the host compilation tawa-rewrite reads and the device's.
  std::vector<clang::SourceRange> ArchConditionals;
  /// The macros that a region the host compilation skips under such a
  /// conditional defines or undefines (for the device only), each with the
  /// conditional's location.
  std::map<std::string, clang::SourceLocation> ArchMacros;
};

/// Runs the pipeline on a parsed translation unit whose preprocessor
/// recorded `Pragmas` and `Includes` (Rewriter.cpp): fills `Result`.
void runRewritePipeline(clang::ASTContext &Ctx, const RewriteOptions &Opts,
                        FileResult &Result, std::vector<TilePragma> &Pragmas,
                        const MainFileRecord &Includes, DiagReporter &Diags);

/// The rewrite of one main file. Call registerPPCallbacks() before the main
/// file is lexed, then run() (or let the consumer of createASTConsumer() do
/// it) once the translation unit is parsed.
class FileRewriter {
public:
  /// Diagnostics go to `Engine` in clang's format with `[tawa-<category>]`
  /// tags, or to `Sink` when one is given.
  FileRewriter(clang::DiagnosticsEngine &Engine, const RewriteOptions &Opts,
               DiagSink *Sink = nullptr);
  ~FileRewriter();

  /// Adds the `#pragma tawa` handler and the #include recorder to `PP`.
  void registerPPCallbacks(clang::Preprocessor &PP);
  /// Runs the pipeline on the translation unit of `Ctx` (once).
  void run(clang::ASTContext &Ctx);
  /// A consumer whose HandleTranslationUnit calls run().
  std::unique_ptr<clang::ASTConsumer> createASTConsumer();

  /// The result: valid after run(). Result.Path is the main file's absolute
  /// path, without `.` or `..`.
  FileResult &result() { return Result; }

private:
  RewriteOptions Opts;
  DiagReporter Diags;
  std::vector<TilePragma> Pragmas;
  MainFileRecord Includes;
  FileResult Result;
  bool Ran = false;
};

} // namespace tawa

#endif
