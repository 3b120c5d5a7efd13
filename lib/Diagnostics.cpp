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
  case DiagCategory::Candidate:
    return "tawa-candidate";
  }
  return "tawa";
}

bool isConversionFinding(DiagCategory C) {
  return C != DiagCategory::Pragma && C != DiagCategory::Internal;
}

DiagSink::~DiagSink() = default;

void DiagReporter::report(DiagnosticsEngine::Level Level,
                          std::optional<DiagCategory> C, SourceLocation Loc,
                          const llvm::Twine &Msg, SourceRange Range,
                          llvm::ArrayRef<FixItHint> Fixes) {
  if (Quiet)
    return;
  if (Sink) {
    if (C)
      Sink->report(Level, *C, Loc, Msg.str(), Range, Fixes);
    else
      Sink->note(Loc, Msg.str(), Range);
    return;
  }
  unsigned ID = Engine.getCustomDiagID(Level, "%0");
  auto Builder = Engine.Report(Loc, ID);
  Builder << (C ? (Msg + " [" + categoryTag(*C) + "]").str() : Msg.str());
  if (Range.isValid())
    Builder << CharSourceRange::getTokenRange(Range);
  for (const FixItHint &F : Fixes)
    Builder << F;
}

void DiagReporter::error(SourceLocation Loc, DiagCategory C,
                         const llvm::Twine &Msg, SourceRange Range,
                         llvm::ArrayRef<FixItHint> Fixes) {
  ++Errors;
  std::string Text = Msg.str();
  LastError = Text + " [" + categoryTag(C).str() + "]";
  if (!Quiet)
    Findings.push_back({Loc, C, Text});
  bool AsError = !isConversionFinding(C) || WarningsAsErrors;
  Fatal += AsError;
  report(AsError ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning, C,
         Loc, Text, Range, Fixes);
}

void DiagReporter::warning(SourceLocation Loc, DiagCategory C,
                           const llvm::Twine &Msg, SourceRange Range,
                           llvm::ArrayRef<FixItHint> Fixes) {
  Fatal += WarningsAsErrors;
  report(WarningsAsErrors ? DiagnosticsEngine::Error
                          : DiagnosticsEngine::Warning,
         C, Loc, Msg, Range, Fixes);
}

void DiagReporter::note(SourceLocation Loc, const llvm::Twine &Msg,
                        SourceRange Range) {
  report(DiagnosticsEngine::Note, std::nullopt, Loc, Msg, Range);
}

} // namespace tawa
