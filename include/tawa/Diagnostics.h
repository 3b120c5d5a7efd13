//===- tawa/Diagnostics.h - located diagnostics with a category tag -------===//
//
// Every message of tawa-rewrite is reported through clang's DiagnosticsEngine
// in clang's format, `file:line:col: error: message [tawa-<category>]`, so
// editors and scripts that read clang or clang-tidy output read it too.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_DIAGNOSTICS_H
#define TAWA_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

namespace tawa {

/// The category a diagnostic belongs to; printed as its `[tawa-...]` tag and
/// listed in docs/diagnostics.md.
enum class DiagCategory {
  Pragma, ///< malformed `#pragma tawa`, unknown clause, value out of range
  Shape,  ///< tile shapes the Hopper path cannot execute (wgmma, TMA limits)
  Budget, ///< shared-memory or register budget exceeded
  Unsupported, ///< a construct the rewriter does not convert (yet)
};

/// The tag text without brackets, e.g. "tawa-pragma".
llvm::StringRef categoryTag(DiagCategory C);

/// Reports through a DiagnosticsEngine; counts errors.
class DiagReporter {
public:
  explicit DiagReporter(clang::DiagnosticsEngine &Engine) : Engine(Engine) {}

  void error(clang::SourceLocation Loc, DiagCategory C, const llvm::Twine &Msg,
             clang::SourceRange Range = {});
  void warning(clang::SourceLocation Loc, DiagCategory C,
               const llvm::Twine &Msg, clang::SourceRange Range = {});
  /// A note attached to the diagnostic just reported (no tag).
  void note(clang::SourceLocation Loc, const llvm::Twine &Msg,
            clang::SourceRange Range = {});

  unsigned errorCount() const { return Errors; }

private:
  void report(clang::DiagnosticsEngine::Level Level, clang::SourceLocation Loc,
              const llvm::Twine &Msg, clang::SourceRange Range);
  clang::DiagnosticsEngine &Engine;
  unsigned Errors = 0;
};

} // namespace tawa

#endif
