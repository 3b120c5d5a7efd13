//===- Report.h - the batch report of a run over many files ---------------===//
//
// `--report PREFIX` writes what became of every kernel of every input:
// PREFIX.md (a summary and a table), PREFIX.json and PREFIX.csv (one row per
// kernel). A refused kernel carries its first finding, its location and the
// link to that finding's section of docs/diagnostics.md. docs/cli.md shows
// an example.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TOOL_REPORT_H
#define TAWA_TOOL_REPORT_H

#include "tawa/Rewriter.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tawa::tool {

/// One input of the run: its path as given, and its result (null where the
/// file could not be parsed; `Failed` where it had an error).
struct FileReport {
  std::string Path;
  const FileResult *Result = nullptr;
  bool Failed = false;
};

/// Writes `Prefix`.md, .json and .csv; `Seconds` is the run's wall time.
llvm::Error writeReports(const std::string &Prefix,
                         const std::vector<FileReport> &Files, double Seconds);

} // namespace tawa::tool

#endif
