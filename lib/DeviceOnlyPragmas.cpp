//===- DeviceOnlyPragmas.cpp - pragmas the host pass never sees -----------===//
#include "tawa/DeviceOnlyPragmas.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {
namespace {

bool readsArch(StringRef Condition) {
  return Condition.contains("__CUDA_ARCH");
}

/// The offsets in `Text` of the lines that start (after blanks) with
/// `#pragma tawa` (blanks allowed around `#`).
std::vector<size_t> tawaPragmaLines(StringRef Text) {
  std::vector<size_t> Found;
  size_t Line = 0;
  while (Line < Text.size()) {
    size_t End = Text.find('\n', Line);
    if (End == StringRef::npos)
      End = Text.size();
    StringRef L = Text.slice(Line, End).ltrim(" \t");
    if (L.consume_front("#")) {
      L = L.ltrim(" \t");
      if (L.consume_front("pragma") && !L.empty() &&
          (L.front() == ' ' || L.front() == '\t')) {
        L = L.ltrim(" \t");
        if (L.consume_front("tawa") &&
            (L.empty() || (!llvm::isAlnum(L.front()) && L.front() != '_')))
          Found.push_back(Text.slice(Line, End).find('#') + Line);
      }
    }
    Line = End + 1;
  }
  return Found;
}

/// The names of the macros that the lines of `Text` define or undefine.
std::vector<std::string> macroDirectives(StringRef Text) {
  std::vector<std::string> Names;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    StringRef L = Line.ltrim(" \t");
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim(" \t");
    if (!L.consume_front("define") && !L.consume_front("undef"))
      continue;
    L = L.ltrim(" \t");
    const size_t End =
        L.find_if_not([](char C) { return llvm::isAlnum(C) || C == '_'; });
    if (End != 0)
      Names.push_back(L.take_front(End).str());
  }
  return Names;
}

} // namespace

std::string DeviceOnlyPragmaFinder::conditionText(SourceRange R) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM, LO)
      .trim()
      .str();
}

void DeviceOnlyPragmaFinder::open(SourceLocation Loc, StringRef Directive,
                                  StringRef Condition) {
  JustClosed = false;
  Open.push_back(
      {Loc, ("#" + Directive + " " + Condition).str(), readsArch(Condition)});
}

void DeviceOnlyPragmaFinder::extend(StringRef Directive, StringRef Condition) {
  JustClosed = false;
  if (Open.empty())
    return;
  Open.back().Text += (", #" + Directive + " " + Condition).str();
  Open.back().ReadsArch |= readsArch(Condition);
}

void DeviceOnlyPragmaFinder::If(SourceLocation Loc, SourceRange Cond,
                                ConditionValueKind) {
  open(Loc, "if", conditionText(Cond));
}
void DeviceOnlyPragmaFinder::Elif(SourceLocation, SourceRange Cond,
                                  ConditionValueKind, SourceLocation) {
  extend("elif", conditionText(Cond));
}
void DeviceOnlyPragmaFinder::Ifdef(SourceLocation Loc, const Token &Name,
                                   const MacroDefinition &) {
  open(Loc, "ifdef", Name.getIdentifierInfo()->getName());
}
void DeviceOnlyPragmaFinder::Ifndef(SourceLocation Loc, const Token &Name,
                                    const MacroDefinition &) {
  open(Loc, "ifndef", Name.getIdentifierInfo()->getName());
}
void DeviceOnlyPragmaFinder::Elifdef(SourceLocation, const Token &Name,
                                     const MacroDefinition &) {
  extend("elifdef", Name.getIdentifierInfo()->getName());
}
void DeviceOnlyPragmaFinder::Elifndef(SourceLocation, const Token &Name,
                                      const MacroDefinition &) {
  extend("elifndef", Name.getIdentifierInfo()->getName());
}
void DeviceOnlyPragmaFinder::Else(SourceLocation, SourceLocation) {
  JustClosed = false;
}
void DeviceOnlyPragmaFinder::Endif(SourceLocation Loc, SourceLocation) {
  JustClosed = !Open.empty();
  if (JustClosed) {
    Closed = Open.back();
    Open.pop_back();
    if (Closed.ReadsArch && !SM.isInSystemHeader(Closed.Loc))
      ArchConditionals.push_back({Closed.Loc, Loc});
    else if (Closed.ReadsArch && !inToolkit(directoryOf(Loc))) {
      SystemConditionals.push_back({{Closed.Loc, Loc}, directoryOf(Loc)});
      ArchConditionals.push_back({Closed.Loc, Loc});
    }
  }
}

void DeviceOnlyPragmaFinder::SourceRangeSkipped(SourceRange Range,
                                                SourceLocation) {
  // The skipped region belongs to the conditional just closed where it ends
  // at an #endif, else to the innermost open one (it ends at #else/#elif).
  const Conditional *Owner = JustClosed     ? &Closed
                             : Open.empty() ? nullptr
                                            : &Open.back();
  JustClosed = false;
  if (!Owner || !Owner->ReadsArch)
    return;
  SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(
      CharSourceRange::getCharRange(Begin, SM.getExpansionLoc(Range.getEnd())),
      SM, LO, &Invalid);
  if (Invalid)
    return;
  const Conditional &C = *Owner;
  if (SM.isInSystemHeader(Begin)) {
    if (inToolkit(directoryOf(Begin)))
      return;
    for (const std::string &Name : macroDirectives(Text))
      if (ArchMacros.try_emplace(Name, C.Loc).second)
        SystemMacros.emplace_back(Name, C.Loc, directoryOf(Begin));
    return;
  }
  for (const std::string &Name : macroDirectives(Text))
    ArchMacros.try_emplace(Name, C.Loc);
  for (size_t Offset : tawaPragmaLines(Text)) {
    Diags.warning(
        Begin.getLocWithOffset(Offset), DiagCategory::Unsupported,
        "'#pragma tawa' in a region the host compilation skips ('" + C.Text +
            "' at line " + llvm::Twine(SM.getPresumedLineNumber(C.Loc)) +
            " reads __CUDA_ARCH__, which only the device compilation "
            "defines): tawa-rewrite reads the host compilation, so this "
            "loop is not rewritten. In the tile vocabulary, let the host "
            "see the region: '#if !defined(__CUDA_ARCH__) || "
            "(<condition>)'; a hand-written kernel is lifted only where the "
            "device compiles the text the host reads, so move it out of the "
            "conditional");
  }
}

std::string DeviceOnlyPragmaFinder::directoryOf(SourceLocation Loc) const {
  return llvm::sys::path::parent_path(SM.getFilename(SM.getExpansionLoc(Loc)))
      .str();
}

bool DeviceOnlyPragmaFinder::inToolkit(StringRef Dir) const {
  return llvm::any_of(ToolkitDirs, [&](const std::string &T) {
    return Dir == T || (Dir.starts_with(T) && Dir.size() > T.size() &&
                        llvm::sys::path::is_separator(Dir[T.size()]));
  });
}

void DeviceOnlyPragmaFinder::FileChanged(SourceLocation Loc,
                                         FileChangeReason Reason,
                                         SrcMgr::CharacteristicKind, FileID) {
  if (Reason != EnterFile || Loc.isInvalid())
    return;
  const StringRef Name = SM.getFilename(SM.getExpansionLoc(Loc));
  const StringRef File = llvm::sys::path::filename(Name);
  const bool Tawa =
      Name.ends_with("tawa/tile.h") || Name.ends_with("tawa/runtime.cuh");
  if ((!Tawa &&
       !llvm::is_contained({"cuda_runtime.h", "cuda_runtime_api.h", "cuda.h",
                            "__clang_cuda_runtime_wrapper.h"},
                           File)) ||
      inToolkit(llvm::sys::path::parent_path(Name)))
    return;
  ToolkitDirs.push_back(llvm::sys::path::parent_path(Name).str());
  // What a system header of that directory added before it was known to
  // be the toolkit's is taken back.
  llvm::erase_if(SystemConditionals, [&](const auto &C) {
    if (!inToolkit(C.second))
      return false;
    llvm::erase(ArchConditionals, C.first);
    return true;
  });
  llvm::erase_if(SystemMacros, [&](const auto &M) {
    if (!inToolkit(std::get<2>(M)))
      return false;
    ArchMacros.erase(std::get<0>(M));
    return true;
  });
}

} // namespace tawa
