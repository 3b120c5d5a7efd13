//===- tidy/CategoryCheck.h - tawa-pragma, tawa-shape, ... ----------------===//
//
// One check per category of the tool's diagnostics (tawa/Diagnostics.h),
// named as its tag: tawa-pragma, tawa-shape, tawa-budget, tawa-unsupported,
// tawa-internal. Each reports the messages of its category with the tool's
// level, location, ranges, notes and fix-its.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TIDY_CATEGORYCHECK_H
#define TAWA_TIDY_CATEGORYCHECK_H

#include "SharedRewrite.h"

namespace tawa::tidy {

class CategoryCheck : public TawaCheck {
public:
  CategoryCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
                std::shared_ptr<SharedRewrites> Runs, DiagCategory C)
      : TawaCheck(Name, Context, std::move(Runs)), Category(C) {}

protected:
  void join(SharedRewrite &Run) override { Run.route(Category, this); }

private:
  DiagCategory Category;
};

} // namespace tawa::tidy

#endif
