//===- tidy/SharedRewrite.h - one run of the pipeline per translation unit ===//
//
// Every enabled tawa-* check of a translation unit shares one run of the
// tool's pipeline (tawa::FileRewriter): the first check to see the
// preprocessor registers the pragma handler on it, the first to see the
// parsed translation unit runs the pass, and each diagnostic goes to the
// check named after its category (tawa-pragma, tawa-shape, ...). A
// diagnostic whose check is not enabled is dropped with its notes.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TIDY_SHAREDREWRITE_H
#define TAWA_TIDY_SHAREDREWRITE_H

#include "tawa/Diagnostics.h"
#include "tawa/FileRewriter.h"

#include "ClangTidyCheck.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace tawa::tidy {

class SharedRewrite : public DiagSink {
public:
  explicit SharedRewrite(clang::Preprocessor &PP);

  /// Reports the diagnostics of category `C` through `Check`.
  void route(DiagCategory C, clang::tidy::ClangTidyCheck *Check) {
    Checks[C] = Check;
  }
  /// Calls `F` with the file's result once the pipeline has run.
  void
  onResult(std::function<void(clang::ASTContext &, const FileResult &)> F) {
    Listeners.push_back(std::move(F));
  }
  /// Runs the pipeline on the translation unit (once).
  void run(clang::ASTContext &Ctx, clang::tidy::ClangTidyContext &Context);

  void report(clang::DiagnosticsEngine::Level Level, DiagCategory C,
              clang::SourceLocation Loc, llvm::StringRef Message,
              clang::SourceRange Range,
              llvm::ArrayRef<clang::FixItHint> Fixes) override;
  void note(clang::SourceLocation Loc, llvm::StringRef Message,
            clang::SourceRange Range) override;

private:
  FileRewriter Rewriter;
  std::map<DiagCategory, clang::tidy::ClangTidyCheck *> Checks;
  clang::tidy::ClangTidyCheck *Last = nullptr; ///< receives the notes
  std::vector<std::function<void(clang::ASTContext &, const FileResult &)>>
      Listeners;
  bool Ran = false;
};

/// The SharedRewrite of each live preprocessor, for the checks of one
/// module instance.
class SharedRewrites {
public:
  std::shared_ptr<SharedRewrite> get(clang::Preprocessor &PP);

private:
  std::mutex Lock;
  std::map<const clang::Preprocessor *, std::weak_ptr<SharedRewrite>> Runs;
};

/// Base of the tawa-* checks: joins the translation unit's SharedRewrite and
/// runs it from a match on the translation unit.
class TawaCheck : public clang::tidy::ClangTidyCheck {
public:
  TawaCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context,
            std::shared_ptr<SharedRewrites> Runs);

  bool isLanguageVersionSupported(const clang::LangOptions &LO) const override {
    return LO.CUDA;
  }
  void registerPPCallbacks(const clang::SourceManager &SM,
                           clang::Preprocessor *PP,
                           clang::Preprocessor *ModuleExpanderPP) override;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &R) override;

protected:
  /// Says what this check reports: called once per translation unit.
  virtual void join(SharedRewrite &Run) = 0;

private:
  clang::tidy::ClangTidyContext &Context;
  std::shared_ptr<SharedRewrites> Runs;
  std::shared_ptr<SharedRewrite> Run;
};

} // namespace tawa::tidy

#endif
