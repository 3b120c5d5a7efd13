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
#include "tawa/CompileArgs.h"
#include "tawa/Output.h"
#include "tawa/Rewriter.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <set>

using namespace clang;

namespace {

/// The directory holding tawa/tile.h: next to an installed binary
/// (<prefix>/bin/../include), else the source tree the binary was built from.
std::string tawaIncludeDir(const char *Argv0) {
  std::string Exe =
      llvm::sys::fs::getMainExecutable(Argv0, (void *)&tawaIncludeDir);
  llvm::SmallString<256> Dir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "include");
  llvm::SmallString<256> Probe(Dir);
  llvm::sys::path::append(Probe, "tawa", "tile.h");
  if (llvm::sys::fs::exists(Probe))
    return std::string(Dir);
  return TAWA_BUILD_INCLUDE_DIR;
}

std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

int fail(const llvm::Twine &Msg) {
  llvm::errs() << "tawa-rewrite: error: " << Msg << "\n";
  return 1;
}

struct Options {
  std::vector<std::string> Files;
  std::string BuildPath, Output, OutDir, ExportFixes, DumpArefs;
  std::string ResourceDir = TAWA_CLANG_RESOURCE_DIR, CudaPath = TAWA_CUDA_PATH;
  bool InPlace = false, Check = false, Explain = false, Werror = false;
  bool PrintCommand = false;
};

/// compile_commands.json in `Dir` or, with `Upward`, in the closest parent,
/// as read (the plugin's loader would interpolate missing files before the
/// nvcc options are translated).
std::unique_ptr<tooling::CompilationDatabase>
loadJson(llvm::StringRef Dir, bool Upward, std::string &Err) {
  for (llvm::SmallString<256> D(Dir); !D.empty();
       D = llvm::sys::path::parent_path(D)) {
    llvm::SmallString<256> Json(D);
    llvm::sys::path::append(Json, "compile_commands.json");
    if (llvm::sys::fs::exists(Json))
      return tooling::JSONCompilationDatabase::loadFromFile(
          Json, Err, tooling::JSONCommandLineSyntax::AutoDetect);
    if (!Upward)
      break;
  }
  return nullptr;
}

/// The compilation database: -p, else the flags after `--`, else one found
/// upward from the first file, else no flags. Dropped nvcc options are
/// reported once each.
std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const Options &O, const std::vector<std::string> *Flags) {
  std::string Err;
  std::unique_ptr<tooling::CompilationDatabase> DB;
  if (!O.BuildPath.empty()) {
    DB = loadJson(absolute(O.BuildPath), false, Err);
    if (!DB && Err.empty()) // compile_flags.txt and other plugins
      DB = tooling::CompilationDatabase::autoDetectFromDirectory(O.BuildPath,
                                                                 Err);
    if (!DB) {
      fail("no compilation database in '" + O.BuildPath + "': " + Err);
      return nullptr;
    }
  } else if (Flags) {
    DB = std::make_unique<tooling::FixedCompilationDatabase>(".", *Flags);
  } else {
    DB = loadJson(llvm::sys::path::parent_path(absolute(O.Files.front())), true,
                  Err);
    if (!DB) {
      llvm::errs() << "tawa-rewrite: warning: no usable compile_commands.json "
                      "above '"
                   << O.Files.front() << "'" << (Err.empty() ? "" : ": ") << Err
                   << "; parsing with no flags (give them after '--', or "
                      "-p BUILD_DIR)\n";
      DB = std::make_unique<tooling::FixedCompilationDatabase>(
          ".", std::vector<std::string>());
    }
  }
  auto Seen = std::make_shared<llvm::StringSet<>>();
  DB = tawa::makeCudaCompilationDatabase(
      std::move(DB), [Seen](const tawa::DroppedArg &D) {
        if (Seen->insert(D.Arg).second)
          llvm::errs() << "tawa-rewrite: warning: dropped '" << D.Arg
                       << "' from the compile command: " << D.Why
                       << " [tawa-compile-args]\n";
      });
  // Files the database lacks borrow the (adjusted) command of a similar one.
  if (!O.BuildPath.empty() || !Flags)
    DB = tooling::inferMissingCompileCommands(std::move(DB));
  return DB;
}

/// Writes the outputs of one successfully processed file.
bool writeResult(const Options &O, const tawa::FileResult &R,
                 const std::string &Input, bool ToStdout) {
  llvm::Expected<std::string> Text = tawa::applyEdits(R);
  if (!Text) {
    fail("cannot apply the edits to '" + Input +
         "': " + llvm::toString(Text.takeError()));
    return false;
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
      return false;
    }
  } else if (ToStdout) {
    llvm::outs() << *Text;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM InitLLVM(argc, argv);

  // Everything after "--" is for clang; CLI11 parses the rest. A bare
  // --dump-arefs means --dump-arefs=text (CLI11 would take the next
  // argument as its value).
  std::vector<std::string> Args;
  std::optional<std::vector<std::string>> Flags;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    if (A == "--") {
      Flags.emplace(argv + I + 1, argv + argc);
      break;
    }
    Args.push_back(A == "--dump-arefs" ? "--dump-arefs=text" : A.str());
  }

  Options O;
  CLI::App App{"tawa-rewrite: rewrites CUDA kernels annotated with '#pragma "
               "tawa tile' into warp-specialized Hopper (sm_90a) kernels.\n"
               "Usage: tawa-rewrite [options] FILE... [-- <compile flags>]"};
  App.add_option("FILE", O.Files, "CUDA source files to rewrite")->required();
  App.add_option("-p", O.BuildPath,
                 "Build directory holding compile_commands.json (default: "
                 "found upward from the first FILE unless '--' is given)");
  auto *Out = App.add_option("-o,--output", O.Output,
                             "Write the rewritten file here (one FILE only)");
  auto *InPlace =
      App.add_flag("-i,--in-place", O.InPlace,
                   "Rewrite each FILE in place (only when changed)");
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
  App.add_flag("--explain", O.Explain,
               "Print, per tile loop, each choice of the plan and why");
  App.add_option("--dump-arefs", O.DumpArefs,
                 "Print the aref dataflow graph of each tile loop: text "
                 "(default), json or dot")
      ->check(CLI::IsMember({"text", "json", "dot"}));
  App.add_flag("--werror", O.Werror,
               "Treat warnings (kernels left unconverted) as errors");
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
  for (const std::string &F : O.Files)
    if (!llvm::sys::fs::exists(F))
      return fail("no such file: '" + F + "'");
  if (!O.Output.empty() && O.Files.size() > 1)
    return fail("-o takes one input file; use --out-dir or -i for several");
  bool Reports = O.Explain || !O.DumpArefs.empty() || !O.ExportFixes.empty();
  bool ToStdout = O.Output.empty() && O.OutDir.empty() && !O.InPlace &&
                  !O.Check && !Reports;
  if (ToStdout && O.Files.size() > 1)
    return fail("several input files: give -i, --out-dir or --check");

  std::unique_ptr<tooling::CompilationDatabase> DB =
      loadDatabase(O, Flags ? &*Flags : nullptr);
  if (!DB)
    return 1;
  // Flags the user need not type: CUDA, the host side (which sees kernel
  // bodies and launch sites), the toolkit, the resource directory, tile.h.
  tooling::ArgumentsAdjuster Adjust = tooling::getInsertArgumentAdjuster(
      {"-x", "cuda", "--cuda-host-only", "--cuda-gpu-arch=sm_90a",
       "--cuda-path=" + O.CudaPath, "-resource-dir=" + O.ResourceDir,
       "-Wno-unknown-cuda-version", "-isystem", tawaIncludeDir(argv[0])},
      tooling::ArgumentInsertPosition::BEGIN);
  if (Flags && !O.BuildPath.empty())
    Adjust = tooling::combineAdjusters(
        Adjust, tooling::getInsertArgumentAdjuster(
                    *Flags, tooling::ArgumentInsertPosition::END));
  if (O.PrintCommand) {
    for (const std::string &F : O.Files)
      for (const tooling::CompileCommand &C :
           DB->getCompileCommands(absolute(F))) {
        for (const std::string &A : Adjust(C.CommandLine, C.Filename))
          llvm::outs() << A << " ";
        llvm::outs() << "\n";
      }
    return 0;
  }
  tooling::ClangTool Tool(*DB, O.Files);
  Tool.setPrintErrorMessage(false);
  Tool.appendArgumentsAdjuster(Adjust);

  std::map<std::string, tawa::FileResult> Results;
  tawa::RewriteOptions Opts;
  Opts.DumpArefs = llvm::StringSwitch<tawa::ArefDumpFormat>(O.DumpArefs)
                       .Case("text", tawa::ArefDumpFormat::Text)
                       .Case("json", tawa::ArefDumpFormat::Json)
                       .Case("dot", tawa::ArefDumpFormat::Dot)
                       .Default(tawa::ArefDumpFormat::None);
  Opts.Explain = O.Explain;
  Opts.WarningsAsErrors = O.Werror;
  Tool.run(tawa::makeRewriteActionFactory(Opts, Results).get());

  bool Failed = false;
  std::vector<tooling::Replacement> Fixes;
  std::vector<std::string> Dumps;
  std::set<std::string> Done;
  for (const std::string &Input : O.Files) {
    std::string Abs = absolute(Input);
    if (!Done.insert(Abs).second)
      continue;
    auto It = Results.find(Abs);
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
    if (!O.Check && !writeResult(O, R, Input, ToStdout))
      Failed = true;
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
  if (!O.ExportFixes.empty())
    if (llvm::Error E = tawa::exportFixes(O.ExportFixes,
                                          absolute(O.Files.front()), Fixes)) {
      fail(llvm::toString(std::move(E)));
      Failed = true;
    }
  return Failed ? 1 : 0;
}
