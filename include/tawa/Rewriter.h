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

#include <functional>
#include <map>
#include <string>

namespace tawa {

/// Forms of `--dump-arefs` (lib/ArefGraph.cpp prints each).
enum class ArefDumpFormat { None, Text, Json, Dot };

struct RewriteOptions {
  ArefDumpFormat DumpArefs = ArefDumpFormat::None; ///< fill ArefDumps
  bool Explain = false; ///< fill FileResult::Explanation
  /// Lifted hand-written loops get their tile-vocabulary form (Migrate.h);
  /// tile-vocabulary kernels are left as they are.
  bool Migrate = false;
  /// Report each loop of a kernel without a pragma that the tool lifts, with
  /// the fix-it (and edit) inserting '#pragma tawa tile' before it.
  bool Suggest = false;
  bool WarningsAsErrors = false; ///< conversion warnings become errors
  /// Where set, names the pragma at file offset `Offset` of the parsed text
  /// in the emitted comments (TileProgram::Where); the rewrite of a migrated
  /// text names the lines of the file as the user has it.
  std::function<std::string(unsigned Offset)> PragmaLabel;
  /// Where clang's closing line ("1 warning generated when compiling for
  /// host.") goes; stderr when null.
  llvm::raw_ostream *Log = nullptr;
};

/// One kernel of the main file, for the batch report (tawa-rewrite
/// --report): what became of it and, where it was left unchanged, the first
/// finding that says why (line and column are 1-based, 0 where unknown).
struct KernelRecord {
  enum class Status { Rewritten, Migrated, Refused, NotAnnotated, Candidate };
  std::string Name;
  unsigned Line = 0, Column = 0;
  Status State = Status::NotAnnotated;
  std::string Category; ///< the finding's tag, e.g. "tawa-unsupported"
  std::string Reason;
  unsigned ReasonLine = 0, ReasonColumn = 0;
};
llvm::StringRef statusName(KernelRecord::Status S); ///< "rewritten", ...

/// What the rewrite of one annotated kernel added to its file's result.
struct KernelResult {
  std::string Name;                   ///< the kernel's name
  clang::SourceLocation Loc;          ///< its name in the main file; valid
                                      ///< while the file's SourceManager is
  bool Rewritten = false;             ///< false: left unchanged, with why
  clang::tooling::Replacements Edits; ///< its share of FileResult::Edits
  std::string Explanation;            ///< its share of the --explain text
};

/// What the action produced for one main file.
struct FileResult {
  std::string Path;                   ///< absolute, without . or ..
  std::string Original;               ///< the file's content when parsed
  clang::tooling::Replacements Edits; ///< edits of the main file
  /// One --dump-arefs document per tile loop, in the requested format.
  std::vector<std::string> ArefDumps;
  std::string Explanation; ///< --explain text of every tile loop
  unsigned TileLoops = 0;  ///< annotated loops found
  unsigned Candidates = 0; ///< --suggest: loops given a pragma
  unsigned Rewritten = 0;  ///< kernels rewritten
  /// Hand-written annotated loops that lift but were left as written: the
  /// rewrite without --migrate reports them; the tool then rewrites their
  /// migrated form (tool/tawa-rewrite/Runner.cpp).
  unsigned Liftable = 0;
  bool Failed = false; ///< an error was reported: write nothing
  /// Edits already laid out (the migrated and rewritten text): written as
  /// they are, not formatted again.
  bool LaidOut = false;
  /// Each annotated kernel that reached the pipeline, in source order. The
  /// edits of the first one rewritten include the runtime's #include (as
  /// clang-tidy's include inserter does: once per file, first fix first).
  std::vector<KernelResult> Kernels;
  /// Every __global__ function defined in the main file, in source order.
  std::vector<KernelRecord> Records;
  /// Every file the parse read: the main file, then the headers in the order
  /// they were entered (system headers included); for --write-depfile.
  std::vector<std::string> Dependencies;
};

/// A factory of the rewriting action; results land in `Results`, keyed by the
/// main file's absolute path (FileResult::Path).
std::unique_ptr<clang::tooling::FrontendActionFactory>
makeRewriteActionFactory(const RewriteOptions &Opts,
                         std::map<std::string, FileResult> &Results);

/// The edits of `R` with the emitted code laid out like the rest of the file
/// (its .clang-format, else LLVM style), as replacements of `R.Original`:
/// what --export-fixes writes.
llvm::Expected<clang::tooling::Replacements>
finalReplacements(const FileResult &R);

/// Applies finalReplacements(R) to `R.Original`.
llvm::Expected<std::string> applyEdits(const FileResult &R);

} // namespace tawa

#endif
