//===- Inputs.cpp - the input files, checked before clang sees them -------===//
#include "Inputs.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;

namespace tawa::tool {

bool checkFile(llvm::StringRef Path) {
  fs::file_status Status;
  if (fs::status(Path, Status) || !fs::exists(Status)) {
    llvm::errs() << Path << ": error: no such file or directory\n";
    return false;
  }
  if (fs::is_directory(Status)) {
    llvm::errs() << Path
                 << ": error: is a directory; give the CUDA files in it, "
                    "e.g. $(find "
                 << Path << " -name '*.cu')\n";
    return false;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf) {
    llvm::errs() << Path
                 << ": error: cannot read it: " << Buf.getError().message()
                 << "\n";
    return false;
  }
  return checkEncoding(Path, (*Buf)->getBuffer());
}

bool checkEncoding(llvm::StringRef Name, llvm::StringRef Text) {
  // The byte order marks of the encodings clang rejects before it parses
  // (clang's Lexer: UTF-32 first, whose little-endian mark starts like
  // UTF-16's).
  llvm::StringRef Encoding =
      llvm::StringSwitch<llvm::StringRef>(Text)
          .StartsWith(llvm::StringLiteral::withInnerNUL("\x00\x00\xFE\xFF"),
                      "UTF-32 (BE)")
          .StartsWith(llvm::StringLiteral::withInnerNUL("\xFF\xFE\x00\x00"),
                      "UTF-32 (LE)")
          .StartsWith("\xFE\xFF", "UTF-16 (BE)")
          .StartsWith("\xFF\xFE", "UTF-16 (LE)")
          .Default("");
  if (Encoding.empty())
    return true;
  llvm::errs() << Name << ":1:1: error: " << Encoding
               << " byte order mark detected, but clang reads UTF-8 only; "
                  "convert the file, e.g. iconv -f "
               << Encoding.take_front(6) << " -t UTF-8\n";
  return false;
}

std::optional<std::string> readStdin() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getSTDIN();
  if (!Buf) {
    llvm::errs() << "<stdin>: error: cannot read standard input: "
                 << Buf.getError().message() << "\n";
    return std::nullopt;
  }
  return (*Buf)->getBuffer().str();
}

} // namespace tawa::tool
