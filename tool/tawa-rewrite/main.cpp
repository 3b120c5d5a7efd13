//===- tawa-rewrite: warp-specialize annotated CUDA tile kernels ----------===//
//
//   tawa-rewrite [options] FILE... [-- <compile flags>]
//
// Parses each FILE as CUDA with clang, rewrites each kernel whose main loop
// carries `#pragma tawa tile` into a warp-specialized sm_90a kernel, and
// writes the result to stdout, -o, --in-place or --out-dir. Compile flags
// come after `--`, or from a compile_commands.json (-p, or found upward from
// the first FILE). Diagnostics go to stderr in clang's format; the exit
// status is 1 when any error was reported, and then that file is not
// written. docs/cli.md documents every option.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Inputs.h"
#include "Options.h"
#include "Report.h"
#include "Runner.h"

#include "tawa/Output.h"
#include "tawa/Rewriter.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <set>

using namespace clang;
using namespace tawa::tool;

namespace {

/// Writes the outputs of one successfully processed file; returns the file
/// written ("" for none, nullopt on an error, reported).
std::optional<std::string> writeResult(const Options &O,
                                       const tawa::FileResult &R,
                                       const std::string &Input) {
  llvm::Expected<std::string> Text = tawa::applyEdits(R);
  if (!Text) {
    fail("cannot apply the edits to '" + Input +
         "': " + llvm::toString(Text.takeError()));
    return std::nullopt;
  }
  std::string Target;
  if (!O.Output.empty())
    Target = O.Output;
  else if (!O.OutDir.empty())
    Target = tawa::outputPathFor(Input, O.OutDir);
  else if (O.InPlace && *Text != R.Original)
    Target = Input;
  if (!Target.empty()) {
    if (llvm::Error E = tawa::writeFileAtomically(Target, *Text)) {
      fail(llvm::toString(std::move(E)));
      return std::nullopt;
    }
  } else if (O.toStdout()) {
    llvm::outs() << *Text;
  }
  return Target;
}

/// The inputs that can be parsed, each once; the others are reported and
/// set `Failed`. Standard input is read into `Stdin`.
std::vector<std::string> readableInputs(const Options &O,
                                        std::optional<std::string> &Stdin,
                                        bool &Failed) {
  std::vector<std::string> Inputs;
  std::set<std::string> Seen;
  for (const std::string &F : O.Files) {
    if (!Seen.insert(inputPath(F)).second)
      continue;
    bool Ok;
    if (F == kStdin) {
      Stdin = readStdin();
      Ok = Stdin && checkEncoding("<stdin>", *Stdin);
    } else {
      Ok = checkFile(F);
    }
    if (Ok)
      Inputs.push_back(F);
    Failed |= !Ok;
  }
  return Inputs;
}

/// `Path` relative to the current directory where it lies below it.
std::string shownPath(const std::string &Path) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return Path;
  llvm::StringRef P(Path);
  if (P.consume_front(Cwd) && P.consume_front("/"))
    return P.str();
  return Path;
}

/// Writes the batch report of `Inputs` (Report.h); false, reported, where a
/// file cannot be written.
bool writeBatchReport(const std::string &Prefix,
                      const std::vector<std::string> &Inputs,
                      const std::map<std::string, tawa::FileResult> &Results,
                      std::chrono::steady_clock::time_point Start) {
  std::vector<FileReport> Files;
  for (const std::string &Input : Inputs) {
    auto It = Results.find(inputPath(Input));
    const tawa::FileResult *R = It == Results.end() ? nullptr : &It->second;
    Files.push_back({shownPath(Input), R, !R || R->Failed});
  }
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  if (llvm::Error E = writeReports(Prefix, Files, Seconds)) {
    fail(llvm::toString(std::move(E)));
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM InitLLVM(argc, argv);
  Options O;
  if (std::optional<int> Exit = parseCommandLine(argc, argv, O))
    return *Exit;

  const auto Start = std::chrono::steady_clock::now();
  bool Failed = false;
  std::unique_ptr<tooling::CompilationDatabase> DB;
  if (O.All) {
    // Every file of the database, each once, in order.
    if (!(DB = loadDatabase(O, ".")))
      return 1;
    O.Files = DB->getAllFiles();
    llvm::sort(O.Files);
    O.Files.erase(std::unique(O.Files.begin(), O.Files.end()), O.Files.end());
  }
  std::optional<std::string> Stdin;
  std::vector<std::string> Inputs = readableInputs(O, Stdin, Failed);
  if (Inputs.empty())
    return 1;
  if (!DB)
    DB = loadDatabase(O, Inputs.front());
  if (!DB)
    return 1;
  std::vector<Job> Jobs = makeJobs(Inputs, *DB, toolFlags(O, argv[0]), Stdin);
  if (O.PrintCommand) {
    for (const Job &J : Jobs) {
      for (const std::string &A : J.Command.CommandLine)
        llvm::outs() << A << " ";
      llvm::outs() << "\n";
    }
    return Failed ? 1 : 0;
  }

  tawa::RewriteOptions Opts;
  Opts.DumpArefs = llvm::StringSwitch<tawa::ArefDumpFormat>(O.DumpArefs)
                       .Case("text", tawa::ArefDumpFormat::Text)
                       .Case("json", tawa::ArefDumpFormat::Json)
                       .Case("dot", tawa::ArefDumpFormat::Dot)
                       .Default(tawa::ArefDumpFormat::None);
  Opts.Explain = O.Explain;
  Opts.Migrate = O.Migrate;
  Opts.Suggest = O.Suggest;
  Opts.WarningsAsErrors = O.Werror;
  std::map<std::string, tawa::FileResult> Results =
      runJobs(Jobs, Opts, O.Jobs, O.Quiet, O.All || !O.Report.empty());

  std::vector<tooling::Replacement> Fixes;
  std::vector<std::string> Dumps;
  std::vector<tawa::DepfileRule> Depfile;
  bool AnyDone = false;
  for (const std::string &Input : Inputs) {
    auto It = Results.find(inputPath(Input));
    if (It == Results.end() || It->second.Failed) {
      // Not parsed (the driver rejected the command), or an error: the
      // file is not written.
      Failed = true;
      continue;
    }
    const tawa::FileResult &R = It->second;
    llvm::outs() << R.Explanation;
    Dumps.insert(Dumps.end(), R.ArefDumps.begin(), R.ArefDumps.end());
    if (!O.ExportFixes.empty()) {
      llvm::Expected<tooling::Replacements> All = tawa::finalReplacements(R);
      if (!All) {
        Failed = true;
        fail(llvm::toString(All.takeError()));
        continue;
      }
      for (const tooling::Replacement &F : *All)
        Fixes.emplace_back(R.Path, F.getOffset(), F.getLength(),
                           F.getReplacementText());
    }
    AnyDone = true;
    if (O.Check)
      continue;
    std::optional<std::string> Written = writeResult(O, R, Input);
    Failed |= !Written;
    if (Written && !Written->empty()) {
      Depfile.push_back({*Written, {}});
      for (const std::string &D : R.Dependencies)
        if (D != R.Path || !Stdin) // standard input is no file
          Depfile.back().Dependencies.push_back(D);
    }
  }
  if (O.DumpArefs == "json") {
    llvm::outs() << "[";
    for (unsigned I = 0; I < Dumps.size(); ++I)
      llvm::outs() << (I ? ",\n" : "\n") << Dumps[I];
    llvm::outs() << "\n]\n";
  } else {
    for (const std::string &D : Dumps)
      llvm::outs() << D;
  }
  // The fixes of the files done: none at all is no file (a failed input
  // leaves an earlier fixes file as it was).
  if (!O.ExportFixes.empty() && AnyDone)
    if (llvm::Error E = tawa::exportFixes(O.ExportFixes,
                                          inputPath(Inputs.front()), Fixes)) {
      fail(llvm::toString(std::move(E)));
      Failed = true;
    }
  if (!O.Report.empty())
    Failed |= !writeBatchReport(O.Report, Inputs, Results, Start);
  // The depfile describes a successful run: a build reruns a failed one.
  if (!O.Depfile.empty() && !Failed)
    if (llvm::Error E = tawa::writeDepfile(O.Depfile, Depfile)) {
      fail(llvm::toString(std::move(E)));
      Failed = true;
    }
  return Failed ? 1 : 0;
}
