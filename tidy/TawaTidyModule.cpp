//===- tidy/TawaTidyModule.cpp - the tawa-* checks of clang-tidy ----------===//
//
//   clang-tidy --load=libtawa-tidy.so -checks='-*,tawa-*' kernel.cu -- FLAGS
//
// A clang-tidy module that reports tawa-rewrite's diagnostics as it does,
// each category under the check of its name, and offers each rewrite as the
// fix of tawa-warp-specialize. docs/editors.md shows its use.
//
//===----------------------------------------------------------------------===//
#include "CategoryCheck.h"
#include "WarpSpecializeCheck.h"

#include "ClangTidyModule.h"

using namespace clang::tidy;

namespace tawa::tidy {
namespace {

class TawaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    // The checks of one translation unit share one run of the pipeline.
    auto Runs = std::make_shared<SharedRewrites>();
    for (DiagCategory C : AllCategories)
      Factories.registerCheckFactory(
          categoryTag(C),
          [Runs, C](llvm::StringRef Name, ClangTidyContext *Context) {
            return std::make_unique<CategoryCheck>(Name, Context, Runs, C);
          });
    Factories.registerCheckFactory(
        "tawa-warp-specialize",
        [Runs](llvm::StringRef Name, ClangTidyContext *Context) {
          return std::make_unique<WarpSpecializeCheck>(Name, Context, Runs);
        });
  }
};

} // namespace
} // namespace tawa::tidy

static ClangTidyModuleRegistry::Add<tawa::tidy::TawaModule>
    X("tawa-module", "Checks of tawa-rewrite: warp specialization of "
                     "'#pragma tawa tile' kernels for Hopper.");
