//===- tawa-rewrite: warp-specialize annotated CUDA tile kernels ----------===//
//
//   tawa-rewrite FILE [-o OUT] [--dump-arefs] -- <clang flags>
//
// Parses FILE as CUDA with clang, rewrites each kernel whose main loop
// carries `#pragma tawa tile` into a warp-specialized sm_90a kernel, and
// writes the result to stdout or OUT. Diagnostics go to stderr in clang's
// format; the exit status is 1 when any error was reported, and then no
// output file is written. docs/cli.md documents every option.
//
//===----------------------------------------------------------------------===//
#include "tawa/Rewriter.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

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

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM InitLLVM(argc, argv);

  // Everything after "--" is for clang; CLI11 parses the rest.
  int ToolArgc = argc;
  std::vector<std::string> ClangFlags;
  for (int I = 1; I < argc; ++I)
    if (llvm::StringRef(argv[I]) == "--") {
      ToolArgc = I;
      ClangFlags.assign(argv + I + 1, argv + argc);
      break;
    }

  CLI::App App{"tawa-rewrite: rewrites CUDA kernels annotated with '#pragma "
               "tawa tile' into "
               "warp-specialized Hopper (sm_90a) kernels.\n"
               "Usage: tawa-rewrite FILE [options] -- <clang flags>"};
  std::string File, Output, ResourceDir = TAWA_CLANG_RESOURCE_DIR,
                            CudaPath = TAWA_CUDA_PATH;
  bool DumpArefs = false;
  App.add_option("file", File, "CUDA source file to rewrite")->required();
  App.add_option("-o,--output", Output,
                 "Write the rewritten file here (default: stdout)");
  App.add_flag("--dump-arefs", DumpArefs,
               "Print the aref dataflow graph of each annotated loop to stdout "
               "instead of the "
               "rewritten source (which is still written with -o)");
  App.add_option("--resource-dir", ResourceDir, "Clang resource directory")
      ->capture_default_str();
  App.add_option("--cuda-path", CudaPath, "CUDA toolkit to parse with")
      ->capture_default_str();
  try {
    App.parse(ToolArgc, argv);
  } catch (const CLI::ParseError &E) {
    return App.exit(E) == 0 ? 0 : 1;
  }
  if (!llvm::sys::fs::exists(File)) {
    llvm::errs() << "tawa-rewrite: error: no such file: '" << File << "'\n";
    return 1;
  }

  tooling::FixedCompilationDatabase DB(".", ClangFlags);
  tooling::ClangTool Tool(DB, {File});
  Tool.setPrintErrorMessage(false);
  // Flags the user need not type: CUDA, the host side (which sees kernel
  // bodies and launch sites), the toolkit, the resource directory, tile.h.
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      {"-x", "cuda", "--cuda-host-only", "--cuda-gpu-arch=sm_90a",
       "--cuda-path=" + CudaPath, "-resource-dir=" + ResourceDir,
       "-Wno-unknown-cuda-version", "-isystem", tawaIncludeDir(argv[0])},
      tooling::ArgumentInsertPosition::BEGIN));

  std::map<std::string, tawa::FileResult> Results;
  tawa::RewriteOptions Opts;
  Opts.DumpArefs = DumpArefs;
  int Status = Tool.run(tawa::makeRewriteActionFactory(Opts, Results).get());

  bool Failed = Status != 0 || Results.empty();
  for (auto &[Path, R] : Results)
    Failed |= R.Failed;
  if (Failed)
    return 1;

  for (auto &[Path, R] : Results) {
    if (DumpArefs)
      llvm::outs() << R.ArefDump;
    llvm::Expected<std::string> Text = tawa::applyEdits(R);
    if (!Text) {
      llvm::errs() << Path << ": error: cannot apply the edits: "
                   << llvm::toString(Text.takeError()) << " [tawa-internal]\n";
      return 1;
    }
    if (!Output.empty()) {
      // Written to a temporary file and renamed: never half a file.
      if (llvm::Error E =
              llvm::writeToOutput(Output, [&](llvm::raw_ostream &OS) {
                OS << *Text;
                return llvm::Error::success();
              })) {
        llvm::errs() << "tawa-rewrite: error: cannot write '" << Output
                     << "': " << llvm::toString(std::move(E)) << "\n";
        return 1;
      }
    } else if (!DumpArefs) {
      llvm::outs() << *Text;
    }
  }
  return 0;
}
