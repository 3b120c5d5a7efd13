//===- tidy/SharedRewrite.cpp ---------------------------------------------===//
#include "SharedRewrite.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace tawa::tidy {
namespace {

RewriteOptions tidyOptions() {
  RewriteOptions O;
  O.Explain = true; // tawa-warp-specialize's Explain option shows it
  O.Suggest = true; // tawa-candidate's findings and fixes
  return O;
}

DiagnosticIDs::Level idLevel(DiagnosticsEngine::Level L) {
  switch (L) {
  case DiagnosticsEngine::Error:
  case DiagnosticsEngine::Fatal:
    return DiagnosticIDs::Error;
  case DiagnosticsEngine::Note:
    return DiagnosticIDs::Note;
  case DiagnosticsEngine::Remark:
    return DiagnosticIDs::Remark;
  default:
    return DiagnosticIDs::Warning;
  }
}

/// A diagnostic of `Check` whose text is `Message` as it is (not a format).
DiagnosticBuilder say(clang::tidy::ClangTidyCheck &Check, SourceLocation Loc,
                      StringRef Message, DiagnosticIDs::Level Level) {
  DiagnosticBuilder D =
      Loc.isInvalid() ? Check.diag("%0", Level) : Check.diag(Loc, "%0", Level);
  D << Message;
  return D;
}

} // namespace

SharedRewrite::SharedRewrite(Preprocessor &PP)
    : Rewriter(PP.getDiagnostics(), tidyOptions(), this) {
  Rewriter.registerPPCallbacks(PP);
}

void SharedRewrite::run(ASTContext &Ctx,
                        clang::tidy::ClangTidyContext &Context) {
  if (Ran)
    return;
  Ran = true;
  if (Ctx.getLangOpts().CUDAIsDevice) {
    // The tool reads the host side, which holds the launches too.
    Context.configurationDiag(
        "the tawa-* checks read the host side of a CUDA file, and this one "
        "is parsed for the GPU; add '--cuda-host-only' to its compile flags "
        "(ExtraArgsBefore in .clang-tidy, or --extra-arg-before)");
    return;
  }
  Rewriter.run(Ctx);
  for (auto &F : Listeners)
    F(Ctx, Rewriter.result());
}

void SharedRewrite::report(DiagnosticsEngine::Level Level, DiagCategory C,
                           SourceLocation Loc, StringRef Message,
                           SourceRange Range, ArrayRef<FixItHint> Fixes) {
  auto It = Checks.find(C);
  Last = It == Checks.end() ? nullptr : It->second;
  if (!Last)
    return;
  DiagnosticBuilder D = say(*Last, Loc, Message, idLevel(Level));
  if (Range.isValid())
    D << CharSourceRange::getTokenRange(Range);
  for (const FixItHint &F : Fixes)
    D << F;
}

void SharedRewrite::note(SourceLocation Loc, StringRef Message,
                         SourceRange Range) {
  if (!Last)
    return;
  DiagnosticBuilder D = say(*Last, Loc, Message, DiagnosticIDs::Note);
  if (Range.isValid())
    D << CharSourceRange::getTokenRange(Range);
}

std::shared_ptr<SharedRewrite> SharedRewrites::get(Preprocessor &PP) {
  std::lock_guard<std::mutex> Guard(Lock);
  for (auto I = Runs.begin(); I != Runs.end();)
    I = I->second.expired() ? Runs.erase(I) : std::next(I);
  if (auto Live = Runs[&PP].lock())
    return Live;
  auto Run = std::make_shared<SharedRewrite>(PP);
  Runs[&PP] = Run;
  return Run;
}

TawaCheck::TawaCheck(StringRef Name, clang::tidy::ClangTidyContext *Context,
                     std::shared_ptr<SharedRewrites> Runs)
    : ClangTidyCheck(Name, Context), Context(*Context), Runs(std::move(Runs)) {}

void TawaCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                                    Preprocessor *) {
  Run = Runs->get(*PP);
  join(*Run);
}

void TawaCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl(), this);
}

void TawaCheck::check(const MatchFinder::MatchResult &R) {
  if (Run)
    Run->run(*R.Context, Context);
}

} // namespace tawa::tidy
