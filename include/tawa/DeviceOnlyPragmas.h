//===- tawa/DeviceOnlyPragmas.h - pragmas the host pass never sees --------===//
//
// tawa-rewrite parses the host compilation of a CUDA file, where __CUDA_ARCH__
// is undefined. A `#pragma tawa` inside a region whose condition reads
// __CUDA_ARCH__ (`#if __CUDA_ARCH__ >= 800`, `#ifdef __CUDA_ARCH__`, the
// guard tensor-core samples put around whole kernel bodies) is skipped by the
// preprocessor there, so its loop would silently stay as written. This
// callback finds such pragmas in the skipped text and reports each one
// (a [tawa-unsupported] warning at the pragma, an error under --werror) with
// the condition that hides it and the accepted forms.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_DEVICEONLYPRAGMAS_H
#define TAWA_DEVICEONLYPRAGMAS_H

#include "tawa/Diagnostics.h"

#include "clang/Lex/PPCallbacks.h"

#include <map>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
class LangOptions;
} // namespace clang

namespace tawa {

/// Register on the Preprocessor before the main file is lexed. Regions of
/// system headers and regions skipped under conditions that do not read a
/// `__CUDA_ARCH` macro (`#if 0`, feature switches) are not reported. The
/// conditionals and macros of system headers count, but for those of the
/// CUDA toolkit and of clang's CUDA wrappers (the directories, and below,
/// of cuda_runtime.h, cuda_runtime_api.h, cuda.h and
/// __clang_cuda_runtime_wrapper.h) and of tawa's own (tawa/tile.h,
/// tawa/runtime.cuh): a vendored library included as a system header is the
/// project's own code for the device compilation.
class DeviceOnlyPragmaFinder : public clang::PPCallbacks {
public:
  /// Each conditional that reads a __CUDA_ARCH macro, outside the
  /// toolkit's headers, is added to `ArchConditionals`, from its #if to its
  /// #endif;
  /// each macro that a region skipped under one defines or undefines, to
  /// `ArchMacros`, with the conditional's location.
  DeviceOnlyPragmaFinder(
      const clang::SourceManager &SM, const clang::LangOptions &LO,
      DiagReporter &Diags, std::vector<clang::SourceRange> &ArchConditionals,
      std::map<std::string, clang::SourceLocation> &ArchMacros)
      : SM(SM), LO(LO), Diags(Diags), ArchConditionals(ArchConditionals),
        ArchMacros(ArchMacros) {}

  void If(clang::SourceLocation Loc, clang::SourceRange ConditionRange,
          ConditionValueKind) override;
  void Elif(clang::SourceLocation Loc, clang::SourceRange ConditionRange,
            ConditionValueKind, clang::SourceLocation) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
             const clang::MacroDefinition &) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
              const clang::MacroDefinition &) override;
  void Elifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
               const clang::MacroDefinition &) override;
  void Elifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok,
                const clang::MacroDefinition &) override;
  void Else(clang::SourceLocation Loc, clang::SourceLocation) override;
  void Endif(clang::SourceLocation Loc, clang::SourceLocation) override;
  void SourceRangeSkipped(clang::SourceRange Range,
                          clang::SourceLocation EndifLoc) override;
  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind FileType,
                   clang::FileID PrevFID) override;

private:
  /// One open conditional: its directives' text so far ("#if X", then
  /// "#elif Y"...) and whether any of them reads a __CUDA_ARCH macro.
  struct Conditional {
    clang::SourceLocation Loc;
    std::string Text;
    bool ReadsArch = false;
  };
  void open(clang::SourceLocation Loc, llvm::StringRef Directive,
            llvm::StringRef Condition);
  void extend(llvm::StringRef Directive, llvm::StringRef Condition);
  std::string conditionText(clang::SourceRange R) const;

  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  DiagReporter &Diags;
  std::vector<clang::SourceRange> &ArchConditionals;
  std::map<std::string, clang::SourceLocation> &ArchMacros;
  std::vector<Conditional> Open;
  /// The conditional whose #endif was seen last. The preprocessor reports
  /// the #endif that ends a skipped region before the region itself, so
  /// that region belongs to this one while JustClosed holds.
  Conditional Closed;
  bool JustClosed = false;
  /// The directories of the toolkit's headers found so far, and what system
  /// headers outside them added, with the directory of each: a toolkit
  /// header may be entered after others of its directory, whose additions
  /// are then taken back.
  std::vector<std::string> ToolkitDirs;
  std::vector<std::pair<clang::SourceRange, std::string>> SystemConditionals;
  std::vector<std::tuple<std::string, clang::SourceLocation, std::string>>
      SystemMacros;
  /// The directory of the file of `Loc`.
  std::string directoryOf(clang::SourceLocation Loc) const;
  bool inToolkit(llvm::StringRef Dir) const;
};

} // namespace tawa

#endif
