//===- Rewriter.cpp - wiring the pipeline into a frontend action ----------===//
#include "tawa/Rewriter.h"
#include "tawa/ArefGraph.h"
#include "tawa/Emitter.h"
#include "tawa/Explain.h"
#include "tawa/Plan.h"
#include "tawa/Pragma.h"
#include "tawa/TileProgram.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Format/Format.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tawa {
namespace {

/// Records where the main file includes <tawa/tile.h>.
class IncludeFinder : public PPCallbacks {
public:
  IncludeFinder(SourceManager &SM, SourceLocation &Out) : SM(SM), Out(Out) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (FileName == "tawa/tile.h" && SM.isInMainFile(HashLoc) &&
        Out.isInvalid())
      Out = FilenameRange.getEnd();
  }

private:
  SourceManager &SM;
  SourceLocation &Out;
};

/// Functions, compound statements and kernel launches of the main file.
class Collector : public RecursiveASTVisitor<Collector> {
public:
  explicit Collector(SourceManager &SM) : SM(SM) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() &&
        SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())))
      Functions.push_back(FD);
    return true;
  }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    if (SM.isInMainFile(SM.getExpansionLoc(CS->getLBracLoc())))
      Compounds.push_back(CS);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    if (SM.isInMainFile(SM.getExpansionLoc(E->getBeginLoc())))
      Launches.push_back(E);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return false; }

  std::vector<FunctionDecl *> Functions;
  std::vector<CompoundStmt *> Compounds;
  std::vector<CUDAKernelCallExpr *> Launches;

private:
  SourceManager &SM;
};

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(CompilerInstance &CI, const RewriteOptions &Opts,
                  FileResult &Result, std::vector<TilePragma> &Pragmas,
                  SourceLocation &TileInclude, DiagReporter &Diags)
      : CI(CI), Opts(Opts), Result(Result), Pragmas(Pragmas),
        TileInclude(TileInclude), Diags(Diags) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    SourceManager &SM = Ctx.getSourceManager();
    Result.Original = SM.getBufferData(SM.getMainFileID()).str();
    if (CI.getDiagnostics().hasErrorOccurred()) {
      Result.Failed = true;
      return;
    }
    Collector C(SM);
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Kernels already taken, with the pragma that took each.
    std::vector<std::pair<const FunctionDecl *, SourceLocation>> Taken;
    for (const TilePragma &P : Pragmas) {
      SourceLocation Loc = SM.getExpansionLoc(P.Loc);
      if (!SM.isInMainFile(Loc)) {
        Diags.warning(P.Loc, DiagCategory::Unsupported,
                      "'#pragma tawa tile' in an included file is not "
                      "rewritten; run the tool on "
                      "the file that holds the kernel");
        continue;
      }
      ++Result.TileLoops;
      if (!P.Valid)
        continue;
      const ForStmt *Loop = nullptr;
      const FunctionDecl *Kernel = nullptr;
      if (!bind(P, C, SM, Loop, Kernel))
        continue;
      auto First = llvm::find_if(
          Taken, [&](const auto &T) { return T.first == Kernel; });
      if (First != Taken.end()) {
        Diags.error(P.Loc, DiagCategory::Unsupported,
                    "a second '#pragma tawa tile' in kernel '" +
                        Kernel->getName() +
                        "'; one tile loop per kernel is supported");
        Diags.note(First->second, "the first '#pragma tawa tile' of '" +
                                      Kernel->getName() + "' is here");
        continue;
      }
      Taken.push_back({Kernel, P.Loc});
      rewrite(Ctx, P, Kernel, Loop, C);
    }
    // Conversion findings are warnings (their kernel is left as written);
    // errors, including promoted warnings, fail the whole file.
    if (Diags.fatalCount() || CI.getDiagnostics().hasErrorOccurred())
      Result.Failed = true;
  }

private:
  /// Finds the statement that follows the pragma in its innermost block.
  bool bind(const TilePragma &P, Collector &C, SourceManager &SM,
            const ForStmt *&Loop, const FunctionDecl *&Kernel) {
    SourceLocation Loc = SM.getExpansionLoc(P.Loc);
    auto Before = [&](SourceLocation A, SourceLocation B) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                          SM.getExpansionLoc(B));
    };
    for (const FunctionDecl *FD : C.Functions) {
      SourceRange R = FD->getBody()->getSourceRange();
      if (Before(Loc, R.getBegin()) || Before(R.getEnd(), Loc))
        continue;
      Kernel = FD;
    }
    const CompoundStmt *Inner = nullptr;
    for (const CompoundStmt *CS : C.Compounds) {
      if (Before(Loc, CS->getLBracLoc()) || Before(CS->getRBracLoc(), Loc))
        continue;
      if (!Inner || Before(Inner->getLBracLoc(), CS->getLBracLoc()))
        Inner = CS;
    }
    const Stmt *Next = nullptr;
    if (Inner)
      for (const Stmt *S : Inner->body())
        if (Before(Loc, S->getBeginLoc())) {
          Next = S;
          break;
        }
    if (!Kernel || !Inner) {
      Diags.error(P.Loc, DiagCategory::Pragma,
                  "'#pragma tawa tile' must be placed inside a __global__ "
                  "function, immediately "
                  "before a for loop");
      return false;
    }
    Loop = dyn_cast_or_null<ForStmt>(Next);
    if (!Loop) {
      Diags.error(P.Loc, DiagCategory::Pragma,
                  "'#pragma tawa tile' must be followed by a for loop");
      if (Next)
        Diags.note(Next->getBeginLoc(),
                   "the statement after the pragma is here");
      return false;
    }
    return true;
  }

  void rewrite(ASTContext &Ctx, const TilePragma &Pragma,
               const FunctionDecl *Kernel, const ForStmt *Loop, Collector &C) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    std::optional<TileProgram> P =
        extractTileProgram(Ctx, Kernel, Loop, Pragma, Diags);
    std::optional<ArefGraph> G;
    std::optional<PipelinePlan> Plan;
    if (P)
      G = buildArefGraph(*P, Diags);
    if (G)
      Plan = planPipeline(*P, *G, Diags);
    if (G && Opts.DumpArefs != ArefDumpFormat::None) {
      std::string Dump;
      llvm::raw_string_ostream OS(Dump);
      const PipelinePlan *PP = Plan ? &*Plan : nullptr;
      if (Opts.DumpArefs == ArefDumpFormat::Json)
        printArefGraphJson(*P, *G, PP, SM, LO, OS);
      else if (Opts.DumpArefs == ArefDumpFormat::Dot)
        printArefGraphDot(*P, *G, PP, SM, LO, OS);
      else
        printArefGraph(*P, *G, PP, SM, LO, OS);
      Result.ArefDumps.push_back(std::move(Dump));
    }
    bool Ok = Plan && namesAreFree(*P, *G);
    if (!Ok)
      Diags.note(Kernel->getLocation(),
                 "kernel '" + Kernel->getName() + "' is left unchanged");
    if (Opts.Explain) {
      llvm::raw_string_ostream OS(Result.Explanation);
      printExplanation(Kernel, Loop, P ? &*P : nullptr, G ? &*G : nullptr,
                       Plan ? &*Plan : nullptr, Ok ? "" : Diags.lastError(), SM,
                       LO, OS);
    }
    if (!Ok)
      return;
    for (CUDAKernelCallExpr *L : C.Launches)
      if (L->getDirectCallee() && L->getDirectCallee()->getCanonicalDecl() ==
                                      Kernel->getCanonicalDecl())
        P->Launches.push_back({L});

    std::string KernelText = emitKernel(*P, *G, *Plan, SM, LO);
    CharSourceRange KernelRange =
        SM.getExpansionRange(Kernel->getSourceRange());
    if (TileInclude.isValid())
      edit(SM, CharSourceRange::getCharRange(TileInclude, TileInclude),
           "\n#include <tawa/runtime.cuh>", LO);
    else
      KernelText = "#include <tawa/runtime.cuh>\n\n" + KernelText;
    // The emitted text ends with a newline; the kernel's closing brace is
    // followed by one already.
    if (!KernelText.empty() && KernelText.back() == '\n')
      KernelText.pop_back();
    edit(SM, KernelRange, KernelText, LO);
    for (const LaunchSite &L : P->Launches)
      edit(SM, SM.getExpansionRange(L.Call->getSourceRange()),
           emitLaunch(*P, L.Call, SM, LO), LO);
    ++Result.Rewritten;
  }

  bool namesAreFree(const TileProgram &P, const ArefGraph &G) {
    struct Names : RecursiveASTVisitor<Names> {
      std::vector<const NamedDecl *> Decls;
      bool VisitVarDecl(VarDecl *VD) {
        Decls.push_back(VD);
        return true;
      }
    } N;
    N.TraverseDecl(const_cast<FunctionDecl *>(P.Kernel));
    for (const std::string &Name : emittedNames(P, G))
      for (const NamedDecl *D : N.Decls)
        if (D->getName() == Name && D != P.Acc.Decl) {
          Diags.error(
              D->getLocation(), DiagCategory::Unsupported,
              "the name '" + Name +
                  "' is used by the rewritten kernel; rename this variable");
          return false;
        }
    return true;
  }

  void edit(SourceManager &SM, CharSourceRange R, StringRef Text,
            const LangOptions &LO) {
    tooling::Replacement Rep(SM, R, Text, LO);
    if (llvm::Error E = Result.Edits.add(Rep)) {
      // Identical edits at one place are merged, not concatenated.
      llvm::consumeError(std::move(E));
    }
  }

  CompilerInstance &CI;
  const RewriteOptions &Opts;
  FileResult &Result;
  std::vector<TilePragma> &Pragmas;
  SourceLocation &TileInclude;
  DiagReporter &Diags;
};

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(const RewriteOptions &Opts,
                std::map<std::string, FileResult> &Results)
      : Opts(Opts), Results(Results) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Diags = std::make_unique<DiagReporter>(CI.getDiagnostics(),
                                           Opts.WarningsAsErrors);
    Preprocessor &PP = CI.getPreprocessor();
    PP.AddPragmaHandler(new TawaPragmaHandler(Pragmas, *Diags));
    PP.addPPCallbacks(
        std::make_unique<IncludeFinder>(CI.getSourceManager(), TileInclude));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    // Keyed by absolute path, whatever directory the command ran in.
    llvm::SmallString<256> Abs(File);
    CI.getFileManager().makeAbsolutePath(Abs);
    llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
    FileResult &R = Results[std::string(Abs)];
    R = FileResult(); // a file parsed twice keeps its last result
    R.Path = std::string(Abs);
    return std::make_unique<RewriteConsumer>(CI, Opts, R, Pragmas, TileInclude,
                                             *Diags);
  }

  void EndSourceFileAction() override {
    // Pragma handlers are owned by the Preprocessor, which is destroyed with
    // the compiler instance.
  }

private:
  const RewriteOptions &Opts;
  std::map<std::string, FileResult> &Results;
  std::vector<TilePragma> Pragmas;
  SourceLocation TileInclude;
  std::unique_ptr<DiagReporter> Diags;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const RewriteOptions &Opts,
          std::map<std::string, FileResult> &Results)
      : Opts(Opts), Results(Results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Opts, Results);
  }

private:
  RewriteOptions Opts;
  std::map<std::string, FileResult> &Results;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
makeRewriteActionFactory(const RewriteOptions &Opts,
                         std::map<std::string, FileResult> &Results) {
  return std::make_unique<Factory>(Opts, Results);
}

llvm::Expected<tooling::Replacements> finalReplacements(const FileResult &R) {
  if (R.Edits.empty())
    return R.Edits;
  llvm::Expected<std::string> Text =
      tooling::applyAllReplacements(R.Original, R.Edits);
  if (!Text)
    return Text.takeError();
  // Lay out the emitted code like the rest of the file: the file's
  // .clang-format if it has one, else LLVM style. Only the edited ranges are
  // touched.
  llvm::Expected<format::FormatStyle> Style =
      format::getStyle("file", R.Path, "LLVM");
  if (!Style) {
    llvm::consumeError(Style.takeError());
    Style = format::getLLVMStyle();
  }
  tooling::Replacements Layout;
  for (const tooling::Replacement &L :
       format::reformat(*Style, *Text, R.Edits.getAffectedRanges(), R.Path))
    // Under the path of the edits, so that the two sets compose.
    llvm::cantFail(Layout.add(
        tooling::Replacement(R.Edits.begin()->getFilePath(), L.getOffset(),
                             L.getLength(), L.getReplacementText())));
  return R.Edits.merge(Layout);
}

llvm::Expected<std::string> applyEdits(const FileResult &R) {
  llvm::Expected<tooling::Replacements> All = finalReplacements(R);
  if (!All)
    return All.takeError();
  return tooling::applyAllReplacements(R.Original, *All);
}

} // namespace tawa
