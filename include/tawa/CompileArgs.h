//===- tawa/CompileArgs.h - nvcc compile commands made usable by clang ----===//
//
// Compilation databases of CUDA projects hold nvcc command lines: `-gencode
// arch=compute_90a,code=sm_90a`, `-ccbin g++`, `--expt-relaxed-constexpr`,
// `-Xcompiler=-fPIC`, `-x cu`, `--options-file includes.rsp`... The clang
// driver rejects most of them. adjustCompileCommand translates what has a
// clang meaning (architectures, include paths, macros, the language
// standard, relocatable device code, the default stream), drops what only
// matters to nvcc's code generation or its host compiler, and drops any
// remaining option the clang driver does not know, reporting each drop.
// docs/cli.md has the table.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_COMPILEARGS_H
#define TAWA_COMPILEARGS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tawa {

/// An option removed from a compile command, and why.
struct DroppedArg {
  std::string Arg; ///< as written, with its value if it takes one
  std::string Why; ///< e.g. "selects nvcc's host compiler"
};
using DroppedArgHandler = std::function<void(const DroppedArg &)>;

/// True when `Args` (argv[0] first) is an nvcc command: argv[0] is nvcc, or
/// an option that only nvcc spells appears (-gencode, -ccbin, -Xcompiler,
/// --expt-*, -x cu...).
bool isNvccCommand(const std::vector<std::string> &Args);

/// Returns `Args` (argv[0] first, as in a CompileCommand) rewritten for the
/// clang driver. nvcc options are translated or dropped when the command is
/// an nvcc one; options unknown to clang are dropped in any case. Relative
/// `--options-file` paths are resolved against `Directory`. Calls `OnDrop`
/// for every option removed.
std::vector<std::string>
adjustCompileCommand(const std::vector<std::string> &Args,
                     llvm::StringRef Directory,
                     const DroppedArgHandler &OnDrop);

/// adjustCompileCommand as a tooling::ArgumentsAdjuster (relative options
/// files resolve against the current directory).
clang::tooling::ArgumentsAdjuster
getNvccArgumentsAdjuster(DroppedArgHandler OnDrop);

/// Wraps `Inner`: for each file, its first compile command only (a file
/// built twice is parsed once), adjusted by adjustCompileCommand.
std::unique_ptr<clang::tooling::CompilationDatabase>
makeCudaCompilationDatabase(
    std::unique_ptr<clang::tooling::CompilationDatabase> Inner,
    DroppedArgHandler OnDrop);

} // namespace tawa

#endif
