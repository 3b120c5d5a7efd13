//===- Options.cpp - the command line of tawa-rewrite ---------------------===//
#include "Options.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace tawa::tool {
namespace {

constexpr const char *kUsage =
    "tawa-rewrite [options] FILE... [-- <compile flags>]";

/// CLI11's help with the tool's usage line (CLI11 would print its own, and
/// neither the program's name nor the compile flags).
class Formatter : public CLI::Formatter {
public:
  std::string make_usage(const CLI::App *, std::string) const override {
    return std::string("Usage: ") + kUsage + "\n";
  }
};

std::string versionText() {
  return std::string("tawa-rewrite version ") + TAWA_VERSION +
         "\n  built with LLVM " LLVM_VERSION_STRING
         "\n  clang resource directory: " TAWA_CLANG_RESOURCE_DIR
         "\n  CUDA toolkit: " TAWA_CUDA_PATH;
}

/// Checks the options that go together; reports the first conflict.
std::optional<int> checkCombinations(const Options &O) {
  if (O.readsStdin()) {
    if (O.Files.size() > 1)
      return fail("'-' (standard input) must be the only FILE");
    if (O.InPlace || !O.OutDir.empty() || !O.ExportFixes.empty())
      return fail("'-' (standard input) is rewritten to stdout or -o; -i, "
                  "--out-dir and --export-fixes need files");
  }
  if (!O.Output.empty() && O.Files.size() > 1)
    return fail("-o takes one input file; use --out-dir or -i for several");
  if (O.toStdout() && O.Files.size() > 1)
    return fail("several input files: give -i, --out-dir or --check");
  if (!O.Depfile.empty() && O.Output.empty() && O.OutDir.empty())
    return fail("--write-depfile lists the dependencies of the files that -o "
                "or --out-dir writes; give one of them");
  return std::nullopt;
}

} // namespace

bool Options::readsStdin() const {
  return std::find(Files.begin(), Files.end(), kStdin) != Files.end();
}

bool Options::toStdout() const {
  bool Reports = Explain || !DumpArefs.empty() || !ExportFixes.empty();
  return Output.empty() && OutDir.empty() && !InPlace && !Check && !Reports;
}

int fail(const std::string &Msg) {
  llvm::errs() << "tawa-rewrite: error: " << Msg << "\n";
  return 1;
}

std::optional<int> parseCommandLine(int argc, char **argv, Options &O) {
  // Everything after "--" is for clang; CLI11 parses the rest. A bare
  // --dump-arefs means --dump-arefs=text (CLI11 would take the next
  // argument as its value).
  std::vector<std::string> Args;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (A == "--") {
      O.Flags.emplace(argv + I + 1, argv + argc);
      break;
    }
    Args.push_back(A == "--dump-arefs" ? "--dump-arefs=text" : A.str());
  }

  O.ResourceDir = TAWA_CLANG_RESOURCE_DIR;
  O.CudaPath = TAWA_CUDA_PATH;
  CLI::App App{"tawa-rewrite: rewrites CUDA kernels annotated with '#pragma "
               "tawa tile' into warp-specialized Hopper (sm_90a) kernels."};
  App.formatter(std::make_shared<Formatter>());
  App.set_version_flag("--version", versionText(),
                       "Print the version, the LLVM version it was built "
                       "with, and the paths it parses with");
  App.add_option("FILE", O.Files,
                 "CUDA source files to rewrite; '-' reads standard input");
  App.add_option("-p", O.BuildPath,
                 "Build directory holding compile_commands.json (default: "
                 "found upward from the first FILE unless '--' is given)");
  auto *Out = App.add_option("-o,--output", O.Output,
                             "Write the rewritten file here (one FILE only)");
  auto *InPlace =
      App.add_flag("-i,--in-place,--fix", O.InPlace,
                   "Rewrite each FILE in place (only when changed); --fix is "
                   "clang-tidy's name for it");
  auto *OutDir = App.add_option(
      "--out-dir", O.OutDir,
      "Write each rewritten FILE under this directory, keeping its path "
      "relative to the current directory");
  auto *Check = App.add_flag("--check", O.Check,
                             "Report diagnostics only; write no source");
  Out->excludes(InPlace, OutDir, Check);
  InPlace->excludes(OutDir, Check);
  OutDir->excludes(Check);
  App.add_option("--export-fixes", O.ExportFixes,
                 "Write the edits as YAML for clang-apply-replacements");
  App.add_option("--write-depfile", O.Depfile,
                 "Write a Make-style depfile: each file that -o or --out-dir "
                 "writes depends on its source and every header it read");
  App.add_flag("--migrate", O.Migrate,
               "Add the tile-vocabulary form of each annotated hand-written "
               "GEMM loop that can be lifted, and launch it from the "
               "kernel's launch sites (docs/migration.md); write no "
               "warp-specialized code");
  App.add_flag("--suggest", O.Suggest,
               "Report each loop of a kernel without a pragma that "
               "tawa-rewrite lifts ([tawa-candidate]), with the fix-it that "
               "inserts '#pragma tawa tile'; -o/-i/--export-fixes apply it");
  App.add_flag("--all", O.All,
               "Run on every file of the compilation database of -p (no "
               "FILE), continuing past files that fail");
  App.add_option("--report", O.Report,
                 "Write the batch report of every kernel as REPORT.md, "
                 "REPORT.json and REPORT.csv; prints progress on stderr");
  App.add_flag("--explain", O.Explain,
               "Print, per tile loop, each choice of the plan and why");
  App.add_option("--dump-arefs", O.DumpArefs,
                 "Print the aref dataflow graph of each tile loop: text "
                 "(default), json or dot")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  App.add_flag("--werror", O.Werror,
               "Treat warnings (kernels left unconverted) as errors");
  App.add_option("-j,--jobs", O.Jobs,
                 "Parse N files at a time (default 1; 0: one per hardware "
                 "thread); each file's diagnostics are printed together");
  App.add_flag("-q,--quiet", O.Quiet,
               "Print errors and the [tawa-*] diagnostics only: no compiler "
               "warnings, no dropped-flag notices, no summary lines");
  App.add_flag("--print-command", O.PrintCommand,
               "Print the clang command each FILE is parsed with; parse "
               "nothing");
  App.add_option("--resource-dir", O.ResourceDir, "Clang resource directory")
      ->capture_default_str();
  App.add_option("--cuda-path", O.CudaPath, "CUDA toolkit to parse with")
      ->capture_default_str();
  try {
    std::reverse(Args.begin(), Args.end()); // CLI11 takes them reversed
    App.parse(Args);
  } catch (const CLI::ParseError &E) {
    return App.exit(E) == 0 ? 0 : 1;
  }
  if (O.All && !O.Files.empty())
    return fail("--all takes the files of the compilation database; give "
                "no FILE");
  if (O.All && O.BuildPath.empty())
    return fail("--all needs -p BUILD_DIR, the compilation database to "
                "read");
  if (O.Files.empty() && !O.All) {
    llvm::errs() << "tawa-rewrite: error: no FILE given\nUsage: " << kUsage
                 << "\nRun with --help for more information.\n";
    return 1;
  }
  return checkCombinations(O);
}

} // namespace tawa::tool
