//===- fuzz/FuzzCommon.h - running the tawa front end on a buffer ---------===//
//
// Shared by the fuzz targets: parses `Code` as the main file `input.cu` with
// the stand-in CUDA headers of the test suite (test/Inputs/cuda) and the
// project's include/, diagnostics discarded.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_FUZZ_COMMON_H
#define TAWA_FUZZ_COMMON_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace tawa::fuzz {

inline std::vector<std::string> parseArgs() {
  return {"tawa-fuzz",
          "-fsyntax-only",
          "-x",
          "cuda",
          "--cuda-host-only",
          "--cuda-gpu-arch=sm_90a",
          "-nocudainc",
          "-nocudalib",
          "-Wno-unknown-cuda-version",
          "-resource-dir=" TAWA_CLANG_RESOURCE_DIR,
          "-isystem",
          TAWA_SOURCE_DIR "/test/Inputs/cuda",
          "-isystem",
          TAWA_SOURCE_DIR "/include",
          "input.cu"};
}

/// Runs `Action` on `Code`; returns whether clang ran it.
inline bool runOnCode(std::unique_ptr<clang::FrontendAction> Action,
                      llvm::StringRef Code) {
  clang::IgnoringDiagConsumer Quiet;
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile("input.cu", 0, llvm::MemoryBuffer::getMemBufferCopy(Code));
  auto Files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), Overlay);
  clang::tooling::ToolInvocation Run(parseArgs(), std::move(Action),
                                     Files.get());
  Run.setDiagnosticConsumer(&Quiet);
  return Run.run();
}

} // namespace tawa::fuzz

#endif
