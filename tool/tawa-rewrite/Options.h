//===- Options.h - the command line of tawa-rewrite -----------------------===//
//
// docs/cli.md documents every option.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TOOL_OPTIONS_H
#define TAWA_TOOL_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace tawa::tool {

/// The name of standard input on the command line.
inline constexpr const char *kStdin = "-";

struct Options {
  std::vector<std::string> Files;
  std::string BuildPath, Output, OutDir, ExportFixes, DumpArefs, Depfile;
  std::string ResourceDir, CudaPath;
  bool InPlace = false, Check = false, Explain = false, Werror = false;
  bool Migrate = false, Suggest = false;
  bool All = false;   ///< every file of the compilation database (-p)
  std::string Report; ///< batch report: REPORT.md, REPORT.json, REPORT.csv
  bool PrintCommand = false, Quiet = false;
  unsigned Jobs = 1; ///< files parsed at a time; 0: one per hardware thread
  /// The compile flags after `--`, if it was given.
  std::optional<std::vector<std::string>> Flags;

  bool readsStdin() const;
  /// Whether the rewritten source goes to stdout.
  bool toStdout() const;
};

/// Parses the command line into `O`. Returns the exit status when the
/// program is done (--help, --version, a command line in error, reported on
/// stderr), nullopt when it goes on.
std::optional<int> parseCommandLine(int argc, char **argv, Options &O);

/// Prints "tawa-rewrite: error: <Msg>" on stderr; returns 1.
int fail(const std::string &Msg);

} // namespace tawa::tool

#endif
