//===- Commands.cpp - the compile command of each input -------------------===//
#include "Commands.h"

#include "tawa/CompileArgs.h"

#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tawa::tool {
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

/// The toolkit's CCCL headers (<cuda/std/...>, <cuda/pipeline>, CUB,
/// Thrust), which CUDA 13 keeps in include/cccl and nvcc adds itself; "" if
/// the toolkit has none.
std::string cudaCcclDir(llvm::StringRef CudaPath) {
  for (const char *Sub : {"include/cccl", "targets/x86_64-linux/include/cccl",
                          "targets/sbsa-linux/include/cccl"}) {
    llvm::SmallString<256> Dir(CudaPath);
    llvm::sys::path::append(Dir, Sub);
    if (llvm::sys::fs::is_directory(Dir))
      return std::string(Dir);
  }
  return "";
}

} // namespace

std::string absolute(llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string inputPath(llvm::StringRef Input) {
  return absolute(Input == kStdin ? "<stdin>" : Input);
}

namespace {

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

} // namespace

std::unique_ptr<tooling::CompilationDatabase>
loadDatabase(const Options &O, llvm::StringRef First) {
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
  } else if (O.Flags) {
    DB = std::make_unique<tooling::FixedCompilationDatabase>(".", *O.Flags);
  } else {
    DB = loadJson(llvm::sys::path::parent_path(inputPath(First)), true, Err);
    if (!DB) {
      if (!O.Quiet)
        llvm::errs() << "tawa-rewrite: warning: no usable "
                        "compile_commands.json above '"
                     << First << "'" << (Err.empty() ? "" : ": ") << Err
                     << "; parsing with no flags (give them after '--', or "
                        "-p BUILD_DIR)\n";
      DB = std::make_unique<tooling::FixedCompilationDatabase>(
          ".", std::vector<std::string>());
    }
  }
  auto Seen = std::make_shared<llvm::StringSet<>>();
  bool Quiet = O.Quiet;
  DB = tawa::makeCudaCompilationDatabase(
      std::move(DB), [Seen, Quiet](const tawa::DroppedArg &D) {
        if (Seen->insert(D.Arg).second && !Quiet)
          llvm::errs() << "tawa-rewrite: warning: dropped '" << D.Arg
                       << "' from the compile command: " << D.Why
                       << " [tawa-compile-args]\n";
      });
  // Files the database lacks borrow the (adjusted) command of a similar one.
  if (!O.BuildPath.empty() || !O.Flags)
    DB = tooling::inferMissingCompileCommands(std::move(DB));
  return DB;
}

tooling::ArgumentsAdjuster toolFlags(const Options &O, const char *Argv0) {
  std::vector<std::string> Flags = {"-x",
                                    "cuda",
                                    "--cuda-host-only",
                                    "--cuda-gpu-arch=sm_90a",
                                    "--cuda-path=" + O.CudaPath,
                                    "-resource-dir=" + O.ResourceDir,
                                    "-Wno-unknown-cuda-version",
                                    "-isystem",
                                    tawaIncludeDir(Argv0)};
  std::string Cccl = cudaCcclDir(O.CudaPath);
  std::vector<std::string> After;
  if (O.Flags && !O.BuildPath.empty())
    After = *O.Flags;
  return [=](const tooling::CommandLineArguments &Args, StringRef) {
    if (Args.empty())
      return Args;
    tooling::CommandLineArguments Out = {Args.front()};
    Out.insert(Out.end(), Flags.begin(), Flags.end());
    if (!Cccl.empty() && !llvm::is_contained(Args, "-nocudainc"))
      Out.insert(Out.end(), {"-isystem", Cccl});
    Out.insert(Out.end(), Args.begin() + 1, Args.end());
    Out.insert(Out.end(), After.begin(), After.end());
    return Out;
  };
}

std::vector<Job> makeJobs(const std::vector<std::string> &Inputs,
                          const tooling::CompilationDatabase &DB,
                          const tooling::ArgumentsAdjuster &Adjust,
                          const std::optional<std::string> &Stdin) {
  std::vector<Job> Jobs;
  for (const std::string &Input : Inputs) {
    Job J;
    J.Path = inputPath(Input);
    std::vector<tooling::CompileCommand> Cmds = DB.getCompileCommands(J.Path);
    if (Cmds.empty()) {
      fail("no compile command for '" + Input + "' in the database");
      continue;
    }
    J.Command = Cmds.front();
    J.Command.CommandLine = Adjust(J.Command.CommandLine, J.Path);
    if (Input == kStdin) {
      J.Content = Stdin;
      J.Command.Directory = std::string(llvm::sys::path::parent_path(J.Path));
      for (std::string &A : J.Command.CommandLine)
        if (A == J.Path || A == J.Command.Filename)
          A = "<stdin>";
    }
    Jobs.push_back(std::move(J));
  }
  return Jobs;
}

} // namespace tawa::tool
