//===- Commands.h - the compile command of each input ---------------------===//
//
// Where the compile flags come from (-p, `--`, or a compile_commands.json
// found upward), nvcc commands translated (tawa/CompileArgs.h), and the
// flags the tool adds to every parse. docs/cli.md, "Compile flags".
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TOOL_COMMANDS_H
#define TAWA_TOOL_COMMANDS_H

#include "Options.h"
#include "Runner.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tawa::tool {

/// `Path` made absolute against the current directory, without `.` or `..`.
std::string absolute(llvm::StringRef Path);

/// The absolute path of an input: standard input is `<stdin>` in the
/// current directory (its includes are found there).
std::string inputPath(llvm::StringRef Input);

/// The compilation database: -p, else the flags after `--`, else one found
/// upward from the input `First`, else no flags. Dropped nvcc options are
/// reported once each, unless --quiet. Null (reported) when -p names a
/// directory without one.
std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const Options &O, llvm::StringRef First);

/// Flags the user need not type: CUDA, the host side (which sees kernel
/// bodies and launch sites), the toolkit and its CCCL headers, the resource
/// directory, tile.h; then, with -p, the flags after `--`.
clang::tooling::ArgumentsAdjuster toolFlags(const Options &O,
                                            const char *Argv0);

/// The job of each input: its command from `DB`, adjusted by `Adjust`.
/// Standard input (`Stdin`) is named `<stdin>` on its command line, so that
/// diagnostics call it so. An input without a command is reported and has
/// no job.
std::vector<Job> makeJobs(const std::vector<std::string> &Inputs,
                          const clang::tooling::CompilationDatabase &DB,
                          const clang::tooling::ArgumentsAdjuster &Adjust,
                          const std::optional<std::string> &Stdin);

} // namespace tawa::tool

#endif
