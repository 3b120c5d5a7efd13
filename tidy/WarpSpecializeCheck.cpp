//===- tidy/WarpSpecializeCheck.cpp ---------------------------------------===//
#include "WarpSpecializeCheck.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace tawa::tidy {

WarpSpecializeCheck::WarpSpecializeCheck(StringRef Name,
                                         clang::tidy::ClangTidyContext *Context,
                                         std::shared_ptr<SharedRewrites> Runs)
    : TawaCheck(Name, Context, std::move(Runs)),
      Explain(isTrue(Options.get("Explain", "false"))) {}

// The options are read and stored as strings: the templates of
// ClangTidyCheck::OptionsView for bool are mangled differently by GCC and by
// the clang that built clang-tidy, so a module built with GCC cannot use them.
bool WarpSpecializeCheck::isTrue(StringRef Value) {
  return Value.equals_insensitive("true") || Value == "1";
}

void WarpSpecializeCheck::storeOptions(
    clang::tidy::ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "Explain", Explain ? "true" : "false");
}

void WarpSpecializeCheck::join(SharedRewrite &Run) {
  Run.onResult(
      [this](ASTContext &Ctx, const FileResult &R) { report(Ctx, R); });
}

void WarpSpecializeCheck::report(ASTContext &Ctx, const FileResult &R) {
  if (R.Failed)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Start = SM.getLocForStartOfFile(SM.getMainFileID());
  for (const KernelResult &K : R.Kernels) {
    if (!K.Rewritten)
      continue;
    // The edits of this kernel alone, laid out as the tool lays them out.
    FileResult One;
    One.Path = R.Path;
    One.Original = R.Original;
    One.Edits = K.Edits;
    llvm::Expected<tooling::Replacements> Fix = finalReplacements(One);
    {
      DiagnosticBuilder D =
          diag(K.Loc, "kernel '%0' can be rewritten into a warp-specialized "
                      "sm_90a kernel")
          << K.Name;
      if (Fix)
        for (const tooling::Replacement &E : *Fix) {
          SourceLocation B = Start.getLocWithOffset(E.getOffset());
          D << FixItHint::CreateReplacement(
              CharSourceRange::getCharRange(B,
                                            B.getLocWithOffset(E.getLength())),
              E.getReplacementText());
        }
    }
    if (!Fix)
      diag(K.Loc, "no fix: %0", DiagnosticIDs::Note)
          << llvm::toString(Fix.takeError());
    if (!Explain)
      continue;
    // The --explain block: a heading, then one indented line per choice.
    llvm::SmallVector<StringRef> Lines;
    StringRef(K.Explanation).split(Lines, '\n', -1, false);
    for (StringRef L : llvm::drop_begin(Lines))
      diag(K.Loc, "%0", DiagnosticIDs::Note) << L.trim();
  }
}

} // namespace tawa::tidy
