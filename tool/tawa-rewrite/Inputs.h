//===- Inputs.h - the input files, checked before clang sees them ---------===//
//
// A FILE that cannot be parsed gets one error located at it, and the other
// files of the call are still processed. Clang itself would report a
// directory or a UTF-16 file without a location, and then a second line.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TOOL_INPUTS_H
#define TAWA_TOOL_INPUTS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tawa::tool {

/// Whether `Path` is a readable file (not a directory) in an encoding clang
/// reads (checkEncoding). Reports why not on stderr as "PATH: error: ..."
/// and returns false.
bool checkFile(llvm::StringRef Path);

/// Whether `Text`, the content of `Name`, is in an encoding clang reads (not
/// UTF-16 or UTF-32, which a byte order mark announces). Reports why not as
/// "NAME:1:1: error: ..." and returns false.
bool checkEncoding(llvm::StringRef Name, llvm::StringRef Text);

/// Standard input, read to its end; nullopt (reported) on a read error.
std::optional<std::string> readStdin();

} // namespace tawa::tool

#endif
