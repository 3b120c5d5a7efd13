//===- tawa/Diagnostics.h - located diagnostics with a category tag -------===//
//
// Every message of tawa-rewrite is reported through clang's DiagnosticsEngine
// in clang's format, `file:line:col: error: message [tawa-<category>]`, so
// editors and scripts that read clang or clang-tidy output read it too.
//
// Levels follow clang-tidy: a malformed pragma ([tawa-pragma]) or a bug of
// the tool ([tawa-internal]) is an error and fails the file; a kernel the
// tool cannot convert ([tawa-shape], [tawa-budget], [tawa-unsupported]) is a
// warning, the kernel is left as written and the rest of the file is still
// rewritten. With
// `WarningsAsErrors` (the tool's --werror) those warnings are errors.
// docs/diagnostics.md lists every message.
//
// A DiagSink, when given, receives the diagnostics instead of the engine,
// with their category apart from the text: the clang-tidy checks (tidy/)
// report each category under the check of the same name.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_DIAGNOSTICS_H
#define TAWA_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace tawa {

/// The category a diagnostic belongs to; printed as its `[tawa-...]` tag and
/// listed in docs/diagnostics.md.
enum class DiagCategory {
  Pragma, ///< malformed `#pragma tawa`, unknown clause, value out of range
  Shape,  ///< tile shapes the Hopper path cannot execute (wgmma, TMA limits)
  Budget, ///< shared-memory or register budget exceeded
  Unsupported, ///< a construct the rewriter does not convert (yet)
  Internal,    ///< an inconsistency of the tool itself (a bug)
  Candidate,   ///< --suggest: a loop without a pragma that the tool lifts
};

/// Every category: the clang-tidy module has one check for each (tidy/).
inline constexpr DiagCategory AllCategories[] = {
    DiagCategory::Pragma,      DiagCategory::Shape,    DiagCategory::Budget,
    DiagCategory::Unsupported, DiagCategory::Internal, DiagCategory::Candidate};

/// The tag text without brackets, e.g. "tawa-pragma".
llvm::StringRef categoryTag(DiagCategory C);

/// True for the categories that leave a kernel unconverted (reported as
/// warnings unless promoted), false for [tawa-pragma] and [tawa-internal]
/// (always errors).
bool isConversionFinding(DiagCategory C);

/// Receives the diagnostics of a DiagReporter in place of its engine.
class DiagSink {
public:
  virtual ~DiagSink();
  /// An error or a warning of category `C`; `Message` has no tag.
  virtual void report(clang::DiagnosticsEngine::Level Level, DiagCategory C,
                      clang::SourceLocation Loc, llvm::StringRef Message,
                      clang::SourceRange Range,
                      llvm::ArrayRef<clang::FixItHint> Fixes) = 0;
  /// A note attached to the diagnostic reported last.
  virtual void note(clang::SourceLocation Loc, llvm::StringRef Message,
                    clang::SourceRange Range) = 0;
};

/// Reports through a DiagnosticsEngine (or a DiagSink); counts what stops a
/// conversion.
class DiagReporter {
public:
  explicit DiagReporter(clang::DiagnosticsEngine &Engine,
                        bool WarningsAsErrors = false, DiagSink *Sink = nullptr)
      : Engine(Engine), WarningsAsErrors(WarningsAsErrors), Sink(Sink) {}

  /// Reports that the construct at `Loc` stops the conversion of its
  /// kernel. Printed as an error for [tawa-pragma] or under
  /// WarningsAsErrors, else as a warning (the kernel is left unchanged).
  /// `Fixes` are the edits that would remove the cause (clang prints them
  /// under the source line; clang-tidy applies them).
  void error(clang::SourceLocation Loc, DiagCategory C, const llvm::Twine &Msg,
             clang::SourceRange Range = {},
             llvm::ArrayRef<clang::FixItHint> Fixes = {});
  /// A warning that stops nothing (promoted to an error under
  /// WarningsAsErrors).
  void warning(clang::SourceLocation Loc, DiagCategory C,
               const llvm::Twine &Msg, clang::SourceRange Range = {},
               llvm::ArrayRef<clang::FixItHint> Fixes = {});
  /// A note attached to the diagnostic just reported (no tag).
  void note(clang::SourceLocation Loc, const llvm::Twine &Msg,
            clang::SourceRange Range = {});

  /// Calls of error(), whatever level they were printed at: the stages use
  /// it to tell whether their part of a kernel failed.
  unsigned errorCount() const { return Errors; }
  /// Diagnostics printed at error level: any of them fails the file.
  unsigned fatalCount() const { return Fatal; }
  /// The message (with its tag) of the last call of error(); "" before any.
  const std::string &lastError() const { return LastError; }
  /// Each printed call of error(), in order: what the batch report says a
  /// kernel was left unchanged for.
  struct Finding {
    clang::SourceLocation Loc;
    DiagCategory Category;
    std::string Message; ///< without the tag
  };
  const std::vector<Finding> &findings() const { return Findings; }

  /// A reporter that counts like this one but prints nothing: for trying a
  /// configuration the caller may discard (TileShape.h's shape(auto)).
  DiagReporter quiet() const {
    DiagReporter Q(Engine, WarningsAsErrors, Sink);
    Q.Quiet = true;
    return Q;
  }

private:
  void report(clang::DiagnosticsEngine::Level Level,
              std::optional<DiagCategory> C, clang::SourceLocation Loc,
              const llvm::Twine &Msg, clang::SourceRange Range,
              llvm::ArrayRef<clang::FixItHint> Fixes = {});
  clang::DiagnosticsEngine &Engine;
  bool WarningsAsErrors;
  DiagSink *Sink;
  bool Quiet = false;
  unsigned Errors = 0;
  unsigned Fatal = 0;
  std::string LastError;
  std::vector<Finding> Findings;
};

} // namespace tawa

#endif
