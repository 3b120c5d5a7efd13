//===- Runner.h - parsing the input files, several at a time --------------===//
#ifndef TAWA_TOOL_RUNNER_H
#define TAWA_TOOL_RUNNER_H

#include "tawa/Rewriter.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tawa::tool {

/// One file to parse.
struct Job {
  std::string Path; ///< absolute; "<cwd>/<stdin>" for standard input
  /// The command to parse it with, the tool's own flags included.
  clang::tooling::CompileCommand Command;
  std::optional<std::string> Content; ///< standard input's text
};

/// Parses each job's file, `Jobs` at a time (one per hardware thread for
/// 0), each in a ClangTool of its own with its own view of the working
/// directory. Each file's diagnostics are printed on stderr as one block
/// when it is done: in the order of the jobs with one at a time, else as
/// they finish. With `Quiet`, only errors and the [tawa-*] diagnostics are
/// printed. Results are keyed by FileResult::Path; a file that could not be
/// parsed has none. With `Progress`, each finished file is counted on
/// stderr: a bar redrawn in place on a terminal, a line per file otherwise.
std::map<std::string, FileResult> runJobs(const std::vector<Job> &Jobs,
                                          const RewriteOptions &Opts,
                                          unsigned Threads, bool Quiet,
                                          bool Progress = false);

} // namespace tawa::tool

#endif
