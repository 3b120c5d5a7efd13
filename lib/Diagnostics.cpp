//===- Diagnostics.cpp ----------------------------------------------------===//
#include "tawa/Diagnostics.h"

using namespace clang;

namespace tawa {

StringRef categoryTag(DiagCategory C) {
  switch (C) {
  case DiagCategory::Pragma:
    return "tawa-pragma";
  case DiagCategory::Shape:
    return "tawa-shape";
  case DiagCategory::Budget:
    return "tawa-budget";
  case DiagCategory::Unsupported:
    return "tawa-unsupported";
  case DiagCategory::Internal:
    return "tawa-internal";
  }
  return "tawa";
}

bool isConversionFinding(DiagCategory C) {
  return C != DiagCategory::Pragma && C != DiagCategory::Internal;
}

void DiagReporter::report(DiagnosticsEngine::Level Level, SourceLocation Loc,
                          const llvm::Twine &Msg, SourceRange Range) {
  if (Quiet)
    return;
  unsigned ID = Engine.getCustomDiagID(Level, "%0");
  auto Builder = Engine.Report(Loc, ID);
  Builder << Msg.str();
  if (Range.isValid())
    Builder << CharSourceRange::getTokenRange(Range);
}

void DiagReporter::error(SourceLocation Loc, DiagCategory C,
                         const llvm::Twine &Msg, SourceRange Range) {
  ++Errors;
  LastError = (Msg + " [" + categoryTag(C) + "]").str();
  bool AsError = !isConversionFinding(C) || WarningsAsErrors;
  Fatal += AsError;
  report(AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, Loc,
         LastError, Range);
}

void DiagReporter::warning(SourceLocation Loc, DiagCategory C,
                           const llvm::Twine &Msg, SourceRange Range) {
  Fatal += WarningsAsErrors;
  report(WarningsAsErrors ? DiagnosticsEngine::Error
                          : DiagnosticsEngine::Warning,
         Loc, Msg + " [" + categoryTag(C) + "]", Range);
}

void DiagReporter::note(SourceLocation Loc, const llvm::Twine &Msg,
                        SourceRange Range) {
  report(DiagnosticsEngine::Note, Loc, Msg, Range);
}

} // namespace tawa
