//===- tawa/Output.h - writing results: files, directories, fix YAML ------===//
//
// Every file the tool writes goes through writeFileAtomically: the text is
// written to a temporary file next to the target and renamed over it, so a
// reader (or a build interrupted by ^C) sees the old file or the new one,
// never half of one. The caller decides whether to write at all: an input
// whose processing failed is never written.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_OUTPUT_H
#define TAWA_OUTPUT_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tawa {

/// Writes `Text` to `Path` through a temporary file in the same directory and
/// a rename. Creates missing parent directories; keeps the permission bits of
/// a file it replaces, and gives a new one 0666 less the umask. Errors: the
/// directory cannot be created, the temporary file cannot be written, or the
/// rename fails (the temporary file is removed and `Path` is unchanged).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// Where `--out-dir Dir` puts the output of `Input`: `Dir` joined with the
/// input's path relative to the current directory (`src/a.cu` ->
/// `Dir/src/a.cu`); an input outside the current directory keeps its
/// absolute path below `Dir` (`/x/a.cu` -> `Dir/x/a.cu`). `..` components are
/// resolved first, so nothing lands outside `Dir`.
std::string outputPathFor(llvm::StringRef Input, llvm::StringRef Dir);

/// Writes `Fixes` as a clang::tooling::TranslationUnitReplacements YAML
/// document (clang/Tooling/ReplacementsYaml.h), the format that
/// clang-apply-replacements reads, with `MainSourceFile` as its main file.
/// Each replacement names its file by absolute path; offsets and lengths are
/// in bytes of the original file.
llvm::Error exportFixes(llvm::StringRef YamlPath,
                        llvm::StringRef MainSourceFile,
                        const std::vector<clang::tooling::Replacement> &Fixes);

/// One rule of a depfile: `Target` depends on each of `Dependencies`.
struct DepfileRule {
  std::string Target;
  std::vector<std::string> Dependencies;
};

/// Writes `Rules` as a Make-style depfile (what `clang -MD` writes, which
/// Make, Ninja and CMake's add_custom_command(DEPFILE) read): one rule per
/// target, `TARGET: DEP \` with one dependency per line, spaces, '#' and
/// '$' escaped. Written atomically (writeFileAtomically).
llvm::Error writeDepfile(llvm::StringRef Path,
                         llvm::ArrayRef<DepfileRule> Rules);

} // namespace tawa

#endif
