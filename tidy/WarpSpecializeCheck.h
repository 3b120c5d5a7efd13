//===- tidy/WarpSpecializeCheck.h - tawa-warp-specialize ------------------===//
//
// Reports each kernel the tool would rewrite, at the kernel's name, with the
// rewrite as its fix: the warp-specialized kernel, the launches that become
// calls of its launcher, and, in the first fix of the file, the runtime's
// #include. Applying every fix of a file gives the tool's output. Nothing is
// offered for a file with an error (the tool writes nothing for it).
//
// Options:
//   Explain (false): add a note per line of the tool's --explain for the
//   kernel (the plan's choices and why).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TIDY_WARPSPECIALIZECHECK_H
#define TAWA_TIDY_WARPSPECIALIZECHECK_H

#include "SharedRewrite.h"

namespace tawa::tidy {

class WarpSpecializeCheck : public TawaCheck {
public:
  WarpSpecializeCheck(llvm::StringRef Name,
                      clang::tidy::ClangTidyContext *Context,
                      std::shared_ptr<SharedRewrites> Runs);
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override;

protected:
  void join(SharedRewrite &Run) override;

private:
  static bool isTrue(llvm::StringRef Value);
  void report(clang::ASTContext &Ctx, const FileResult &R);
  const bool Explain;
};

} // namespace tawa::tidy

#endif
