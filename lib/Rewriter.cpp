//===- Rewriter.cpp - wiring the pipeline into a frontend action ----------===//
#include "tawa/Rewriter.h"
#include "LiftSupport.h"
#include "tawa/ArefGraph.h"
#include "tawa/AttentionEmitter.h"
#include "tawa/AttentionReport.h"
#include "tawa/BlockedLift.h"
#include "tawa/ConvLift.h"
#include "tawa/Emitter.h"
#include "tawa/Explain.h"
#include "tawa/FileRewriter.h"
#include "tawa/KernelTemplate.h"
#include "tawa/LegacyLoop.h"
#include "tawa/Lift.h"
#include "tawa/Migrate.h"
#include "tawa/Plan.h"
#include "tawa/Pragma.h"
#include "tawa/TileProgram.h"
#include "tawa/TileShape.h"
#include "tawa/WmmaLift.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Format/Format.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tawa {
namespace {

/// Whether the loop calls a `__device__` helper or a lambda, which only the
/// register-blocked front end follows (deviceHelper): its reason stands.
bool callsHelpers(const ForStmt *Loop) {
  return !deviceHelpers(Loop->getBody()).empty();
}

/// The lifting of a hand-written loop of pattern `L` by the front ends
/// that read it (Lift.h, BlockedLift.h, WmmaLift.h), with `Named` taken as
/// symbols; nullopt, with why in `Why`, where it does not lift.

std::optional<LiftedGemm> liftOnce(const LegacyLoop &L,
                                   const FunctionDecl *Kernel,
                                   const ForStmt *Loop, ASTContext &Ctx,
                                   LiftFailure &Why, const NamedExtents *Named,
                                   bool Tf32) {
  // A staging copy that gathers through '/' and '%' of the loop's index:
  // an implicit-GEMM convolution.
  // The convolution front end reads one pixel per thread of TILE x TILE
  // blocks; the register-blocked one follows other blocks thread by thread
  // (cooperative staging loops, micro-tiles, WMMA fragments). Its reason
  // stands where the loop is none of the first's form.
  if (L.Gather) {
    std::optional<LiftedGemm> G =
        liftConvGemm(Kernel, Loop, Ctx, Why, Named, Tf32);
    LiftFailure Blocked;
    if (!G)
      if (std::optional<LiftedGemm> B =
              liftBlockedGemm(Kernel, Loop, Ctx, Blocked, Named, Tf32))
        return B;
    if (!G && (L.Pattern != LegacyPattern::SharedTiled || stagesInLoop(Loop)))
      Why = Blocked;
    return G;
  }
  if (L.Pattern == LegacyPattern::SharedTiled) {
    // One element of C per thread, else the same loop followed thread by
    // thread (several staging copies per thread, say); the first front
    // end's reason stands where neither lifts.
    std::optional<LiftedGemm> G =
        liftSharedGemm(Kernel, Loop, Ctx, Why, Named, Tf32);
    LiftFailure Blocked;
    if (!G)
      if (std::optional<LiftedGemm> B =
              liftBlockedGemm(Kernel, Loop, Ctx, Blocked, Named, Tf32))
        return B;
    if (!G &&
        (stagesResultsAfterLoop(Kernel, Loop) || loopInsideIf(Kernel, Loop) ||
         blockedLoopBody(Loop) || stagesInLoop(Loop) || callsHelpers(Loop)))
      Why = Blocked;
    // Loops over a convolution's filter taps and a channel tile: its
    // reason stands where its header read as one.
    LiftFailure Conv;
    bool ConvHeader = false;
    if (!G)
      if (std::optional<LiftedGemm> C =
              liftConvGemm(Kernel, Loop, Ctx, Conv, Named, Tf32, &ConvHeader))
        return C;
    if (!G && ConvHeader)
      Why = Conv;
    return G;
  }
  if (L.Pattern == LegacyPattern::SharedRegBlocked)
    return liftBlockedGemm(Kernel, Loop, Ctx, Why, Named, Tf32);
  if (L.Pattern == LegacyPattern::Wmma) {
    // One fragment per warp, else followed thread by thread (several
    // fragments per warp, fragments in shared memory).
    std::optional<LiftedGemm> G = liftWmmaGemm(Kernel, Loop, Ctx, Why, Named);
    LiftFailure Blocked;
    if (!G)
      if (std::optional<LiftedGemm> B =
              liftBlockedGemm(Kernel, Loop, Ctx, Blocked, Named))
        return B;
    if (!G && (wmmaBeyondOneFragment(Kernel) ||
               stagesResultsAfterLoop(Kernel, Loop) ||
               loopInsideIf(Kernel, Loop) || callsHelpers(Loop)))
      Why = Blocked;
    return G;
  }
  return std::nullopt;
}

/// Why the launcher of a lifted `Kernel` could not forward its parameters
/// (it passes each by name to the kernel as written and to the tiled
/// form, and its own locals are named tawa_*), or nullopt.
std::optional<LiftFailure> unforwardableParameter(const FunctionDecl *Kernel) {
  for (const ParmVarDecl *P : Kernel->parameters()) {
    const std::string N = P->getName().str();
    if (N.empty())
      return LiftFailure{P->getLocation(),
                         "a parameter of the kernel has no name: its launcher "
                         "forwards each parameter by name; name it"};
    if (P->hasDefaultArg())
      return LiftFailure{P->getLocation(),
                         "the parameter '" + N +
                             "' has a default argument, which the kernel's "
                             "launcher cannot forward; pass it at the launch"};
    if (llvm::StringRef(N).starts_with("tawa_"))
      return LiftFailure{P->getLocation(),
                         "the parameter '" + N +
                             "' starts with 'tawa_', as the launcher's own "
                             "names do; rename it"};
  }
  return std::nullopt;
}

/// The lifting of a hand-written loop of pattern `L`; nullopt, with why in
/// `Why`, where it does not lift or `L` has none. A kernel written for
/// fixed extents is tried again with its named constants as symbols
/// (namedExtents); where neither try lifts, the second try's reason stands
/// where the first stopped at the loop's header (which the second reads
/// further), else the reason of the one that got further into the kernel.
/// A kernel that reads text under a `__CUDA_ARCH__` conditional of `File` is
/// refused first.
std::optional<LiftedGemm> lift(const LegacyLoop &L, const FunctionDecl *Kernel,
                               const ForStmt *Loop, ASTContext &Ctx,
                               const MainFileRecord &File, LiftFailure &Why,
                               bool Tf32) {
  if (std::optional<LiftFailure> F = unforwardableParameter(Kernel)) {
    Why = *F;
    return std::nullopt;
  }
  if (std::optional<LiftFailure> F = structMatrix(Loop)) {
    Why = *F;
    return std::nullopt;
  }
  if (std::optional<LiftFailure> F = unliftableConstruct(Kernel, Ctx)) {
    Why = *F;
    return std::nullopt;
  }
  if (std::optional<LiftFailure> F = deviceDependentText(
          Kernel, Ctx, File.ArchConditionals, File.ArchMacros)) {
    Why = *F;
    return std::nullopt;
  }
  // A front end that lifts after another failed leaves no failure behind.
  if (std::optional<LiftedGemm> G =
          liftOnce(L, Kernel, Loop, Ctx, Why, nullptr, Tf32)) {
    Why = {};
    return G;
  }
  const NamedExtents Named = namedExtents(Kernel, Loop, Ctx);
  if (Named.empty())
    return std::nullopt;
  LiftFailure Second;
  if (std::optional<LiftedGemm> G =
          liftOnce(L, Kernel, Loop, Ctx, Second, &Named, Tf32)) {
    Why = {};
    return G;
  }
  const SourceManager &SM = Ctx.getSourceManager();
  auto at = [&](SourceLocation L) { return SM.getExpansionLoc(L); };
  const bool InHeader =
      Why.Loc.isValid() &&
      !SM.isBeforeInTranslationUnit(at(Why.Loc), at(Loop->getForLoc())) &&
      !SM.isBeforeInTranslationUnit(at(Loop->getRParenLoc()), at(Why.Loc));
  if (Second.Loc.isValid() &&
      (InHeader || (Why.Loc.isValid() &&
                    SM.isBeforeInTranslationUnit(at(Why.Loc), at(Second.Loc)))))
    Why = Second;
  return std::nullopt;
}

/// True when most lines of `Text` end in "\r\n".
bool usesCRLF(StringRef Text) {
  return Text.count("\r\n") * 2 > Text.count('\n');
}

/// Functions, compound statements and kernel launches of the main file, and
/// every reference to a kernel.
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
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
        FD && FD->hasAttr<CUDAGlobalAttr>())
      KernelRefs.push_back(E);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return false; }

  /// Collects, besides what the traversal finds, the launches of the main
  /// file inside instantiations of function templates
  /// (InstantiatedLaunches).
  void collect(TranslationUnitDecl *TU) {
    TraverseDecl(TU);
    struct All : RecursiveASTVisitor<All> {
      explicit All(Collector &C)
          : C(C), Seen(C.Launches.begin(), C.Launches.end()) {}
      bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
        if (C.SM.isInMainFile(C.SM.getExpansionLoc(E->getBeginLoc())) &&
            !Seen.contains(E))
          C.InstantiatedLaunches.push_back(E);
        return true;
      }
      bool shouldVisitTemplateInstantiations() const { return true; }
      Collector &C;
      llvm::SmallPtrSet<const CUDAKernelCallExpr *, 16> Seen;
    } A(*this);
    A.TraverseDecl(TU);
  }

  /// Launches and InstantiatedLaunches in source order: the launches in
  /// instantiations of a function template take the place of its own.
  std::vector<const CUDAKernelCallExpr *> allLaunches() const {
    std::vector<const CUDAKernelCallExpr *> All(Launches.begin(),
                                                Launches.end());
    All.insert(All.end(), InstantiatedLaunches.begin(),
               InstantiatedLaunches.end());
    llvm::stable_sort(All, [&](const CUDAKernelCallExpr *X,
                               const CUDAKernelCallExpr *Y) {
      return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(X->getBeginLoc()),
                                          SM.getExpansionLoc(Y->getBeginLoc()));
    });
    return All;
  }

  std::vector<FunctionDecl *> Functions;
  std::vector<CompoundStmt *> Compounds;
  std::vector<CUDAKernelCallExpr *> Launches;
  /// The launches written in function templates, as each instantiation of
  /// one makes them: `k<BS><<<...>>>` in `run<BS>` is `k<32><<<...>>>` in
  /// `run<32>`, with the text and locations of the template's launch.
  std::vector<CUDAKernelCallExpr *> InstantiatedLaunches;
  std::vector<DeclRefExpr *> KernelRefs;

private:
  SourceManager &SM;
};

class RewriteConsumer : public ASTConsumer {
public:
  RewriteConsumer(const RewriteOptions &Opts, FileResult &Result,
                  std::vector<TilePragma> &Pragmas,
                  const MainFileRecord &Includes, DiagReporter &Diags)
      : Opts(Opts), Result(Result), Pragmas(Pragmas), Includes(Includes),
        Diags(Diags) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    forgetLambdaVerdicts();
    SourceManager &SM = Ctx.getSourceManager();
    Result.Original = SM.getBufferData(SM.getMainFileID()).str();
    CRLF = usesCRLF(Result.Original);
    if (Ctx.getDiagnostics().hasErrorOccurred()) {
      Result.Failed = true;
      return;
    }
    Collector C(SM);
    C.collect(Ctx.getTranslationUnitDecl());
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
      rewriteAndRecord(Ctx, P, Kernel, Loop, C);
    }
    if (Opts.Suggest)
      suggest(Ctx, C, Taken);
    // The kernels without a pragma, for the report.
    for (const FunctionDecl *FD : C.Functions)
      if (FD->hasAttr<CUDAGlobalAttr>() &&
          llvm::none_of(Taken, [&](const auto &T) { return T.first == FD; }))
        record(Ctx, FD,
               llvm::is_contained(Candidates, FD)
                   ? KernelRecord::Status::Candidate
                   : KernelRecord::Status::NotAnnotated,
               Diags.findings().size());
    llvm::sort(Result.Records,
               [](const KernelRecord &A, const KernelRecord &B) {
                 return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
               });
    // Conversion findings are warnings (their kernel is left as written);
    // errors, including promoted warnings, fail the whole file.
    if (Diags.fatalCount() || Ctx.getDiagnostics().hasErrorOccurred())
      Result.Failed = true;
  }

private:
  /// Adds the record of `Kernel`, with the first finding reported since
  /// `Found` findings as the reason where it was refused.
  void record(ASTContext &Ctx, const FunctionDecl *Kernel,
              KernelRecord::Status State, size_t Found) {
    SourceManager &SM = Ctx.getSourceManager();
    KernelRecord R;
    R.Name = Kernel->getNameAsString();
    PresumedLoc P =
        SM.getPresumedLoc(SM.getExpansionLoc(Kernel->getLocation()));
    R.Line = P.isValid() ? P.getLine() : 0;
    R.Column = P.isValid() ? P.getColumn() : 0;
    R.State = State;
    if (State == KernelRecord::Status::Refused) {
      R.Reason = Opts.Migrate ? "already in the tile vocabulary; --migrate "
                                "leaves it as it is"
                              : "left unchanged";
      if (Found < Diags.findings().size()) {
        const DiagReporter::Finding &F = Diags.findings()[Found];
        R.Category = categoryTag(F.Category).str();
        R.Reason = F.Message;
        PresumedLoc FP = SM.getPresumedLoc(SM.getExpansionLoc(F.Loc));
        R.ReasonLine = FP.isValid() ? FP.getLine() : 0;
        R.ReasonColumn = FP.isValid() ? FP.getColumn() : 0;
      }
    }
    Result.Records.push_back(std::move(R));
  }

  /// --suggest: each loop of the body of a kernel without a pragma that is a
  /// shared-memory tiled GEMM the tool lifts is a [tawa-candidate] finding,
  /// with the fix-it and the edit that put '#pragma tawa tile' before it.
  void
  suggest(ASTContext &Ctx, const Collector &C,
          const std::vector<std::pair<const FunctionDecl *, SourceLocation>>
              &Taken) {
    SourceManager &SM = Ctx.getSourceManager();
    const std::vector<const CUDAKernelCallExpr *> AllLaunches = C.allLaunches();
    for (const FunctionDecl *FD : C.Functions) {
      auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
      const bool Template = FD->isTemplated();
      if (!Body || !FD->hasAttr<CUDAGlobalAttr>() ||
          (Template && !isKernelTemplate(FD)) ||
          llvm::any_of(Taken, [&](const auto &T) { return T.first == FD; }))
        continue;
      for (const Stmt *S : Body->body()) {
        auto *Loop = hintedLoop(S);
        if (!Loop || Loop->getForLoc().isMacroID())
          continue;
        // A kernel template's loop is a candidate where it lifts in every
        // instantiation the file launches (KernelTemplate.h).
        // Each kernel to lift (the instantiations, for a template) with its
        // copy of the loop and that loop's classification.
        struct Try {
          const FunctionDecl *Kernel;
          const ForStmt *Loop;
          LegacyLoop Legacy;
        };
        std::vector<Try> Tries;
        bool Classified = true;
        auto add = [&](const FunctionDecl *K, const ForStmt *KL) {
          std::optional<LegacyLoop> L =
              KL ? classifyLegacyLoop(K, KL) : std::nullopt;
          if (L)
            Tries.push_back({K, KL, std::move(*L)});
          Classified &= L.has_value();
        };
        if (!Template)
          add(FD, Loop);
        else
          for (const KernelInstance &I :
               kernelInstances(FD, Loop, AllLaunches, Ctx))
            add(I.Kernel, I.Loop);
        if (!Classified || Tries.empty())
          continue;
        // An SGEMM lifts only under a precision clause: the candidate's
        // pragma carries precision(3xtf32), the one that keeps about fp32's
        // accuracy, and the finding says what it changes.
        auto liftsAll = [&](bool Tf32) {
          return llvm::all_of(Tries, [&](const Try &T) {
            LiftFailure Why;
            return lift(T.Legacy, T.Kernel, T.Loop, Ctx, Includes, Why, Tf32)
                .has_value();
          });
        };
        bool Tf32 = false;
        if (!liftsAll(/*Tf32=*/false)) {
          if (!liftsAll(/*Tf32=*/true))
            continue;
          Tf32 = true;
        }
        const SourceLocation For = Loop->getForLoc();
        const SourceLocation LineStart =
            For.getLocWithOffset(1 - int(SM.getSpellingColumnNumber(For)));
        const std::string Clause = Tf32 ? " precision(3xtf32)" : "";
        const std::string Pragma = "#pragma tawa tile" + Clause + "\n";
        Diags.warning(
            For, DiagCategory::Candidate,
            "this loop of kernel '" + FD->getName() + "' is a hand-written " +
                Tries.front().Legacy.name() +
                " that tawa-rewrite lifts; '#pragma tawa tile" + Clause +
                "' before it lets 'tawa-rewrite --migrate' re-express it in "
                "the tile vocabulary (docs/migration.md)" +
                (Tf32 ? "; it multiplies fp32 operands, which the tensor "
                        "cores read as tf32 (10 mantissa bits): the clause "
                        "splits each into two tf32 parts, three products per "
                        "step, for about fp32's accuracy ('precision(tf32)', "
                        "one product, is faster and rounds each operand to "
                        "tf32)"
                      : ""),
            SourceRange(), {FixItHint::CreateInsertion(LineStart, Pragma)});
        edit(SM, CharSourceRange::getCharRange(LineStart, LineStart), Pragma,
             Ctx.getLangOpts());
        ++Result.Candidates;
        Candidates.push_back(FD);
      }
    }
  }

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
    // The first statement after the pragma; a loop under `#pragma unroll`
    // written before the pragma begins at that hint but follows the pragma.
    const Stmt *Next = nullptr;
    if (Inner)
      for (const Stmt *S : Inner->body()) {
        const ForStmt *L = hintedLoop(S);
        if (Before(Loc, S->getBeginLoc()) ||
            (L && Before(Loc, L->getForLoc()))) {
          Next = S;
          break;
        }
      }
    if (!Kernel || !Inner) {
      Diags.error(P.Loc, DiagCategory::Pragma,
                  "'#pragma tawa tile' must be placed inside a __global__ "
                  "function, immediately "
                  "before a for loop");
      return false;
    }
    // `#pragma unroll` may stand between the pragma and its loop.
    Loop = hintedLoop(Next);
    if (!Loop) {
      Diags.error(P.Loc, DiagCategory::Pragma,
                  "'#pragma tawa tile' must be followed by a for loop");
      if (Next && isa<DoStmt, WhileStmt>(Next))
        Diags.note(Next->getBeginLoc(),
                   "a while or do-while loop is not lifted: write the K loop "
                   "as 'for (int k = 0; k < K; k += TILE)'");
      else if (Next)
        Diags.note(Next->getBeginLoc(),
                   "the statement after the pragma is here");
      return false;
    }
    return true;
  }

  /// rewrite(), recording what it added to the file's result for this
  /// kernel (FileResult::Kernels).
  void rewriteAndRecord(ASTContext &Ctx, const TilePragma &Pragma,
                        const FunctionDecl *Kernel, const ForStmt *Loop,
                        Collector &C) {
    tooling::Replacements Before = Result.Edits;
    size_t Explained = Result.Explanation.size();
    unsigned Rewritten = Result.Rewritten;
    const size_t Found = Diags.findings().size();
    rewrite(Ctx, Pragma, Kernel, Loop, C);
    record(Ctx, Kernel,
           Result.Rewritten > Rewritten
               ? (Opts.Migrate ? KernelRecord::Status::Migrated
                               : KernelRecord::Status::Rewritten)
               : KernelRecord::Status::Refused,
           Found);
    KernelResult K;
    K.Name = Kernel->getName().str();
    K.Loc = Ctx.getSourceManager().getExpansionLoc(Kernel->getLocation());
    K.Rewritten = Result.Rewritten > Rewritten;
    for (const tooling::Replacement &R : Result.Edits)
      if (!llvm::is_contained(Before, R))
        llvm::cantFail(K.Edits.add(R));
    K.Explanation = Result.Explanation.substr(Explained);
    Result.Kernels.push_back(std::move(K));
  }

  void rewrite(ASTContext &Ctx, const TilePragma &Pragma,
               const FunctionDecl *Kernel, const ForStmt *Loop, Collector &C) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    if (isKernelTemplate(Kernel) &&
        rewriteTemplate(Ctx, Pragma, Kernel, Loop, C))
      return;
    std::vector<const CUDAKernelCallExpr *> Launches;
    for (const CUDAKernelCallExpr *L : C.Launches)
      if (L->getDirectCallee() && L->getDirectCallee()->getCanonicalDecl() ==
                                      Kernel->getCanonicalDecl())
        Launches.push_back(L);
    // References to the kernel other than the callees of its launches.
    std::vector<const DeclRefExpr *> OtherUses;
    for (const DeclRefExpr *E : C.KernelRefs)
      if (E->getDecl()->getCanonicalDecl() == Kernel->getCanonicalDecl() &&
          llvm::none_of(Launches,
                        [&](const CUDAKernelCallExpr *L) {
                          return L->getCallee()->IgnoreParenImpCasts() == E;
                        }) &&
          !configuresKernel(Ctx, E))
        OtherUses.push_back(E);
    std::optional<TileProgram> P;
    // A hand-written loop gets one verdict; --explain adds every construct
    // the tile vocabulary does not accept after it.
    std::string Verdict;
    const bool Template =
        Kernel->isTemplated() || Kernel->isTemplateInstantiation();
    // A template that rewriteTemplate() does not take is refused as one.
    std::optional<LegacyLoop> Legacy =
        Template ? std::nullopt : classifyLegacyLoop(Kernel, Loop);
    if (Opts.Migrate && !Legacy && !Template)
      return; // already in the tile vocabulary
    if (Legacy) {
      std::optional<LiftAttempt> Lift;
      if (Legacy->Pattern == LegacyPattern::SharedTiled ||
          Legacy->Pattern == LegacyPattern::SharedRegBlocked ||
          Legacy->Pattern == LegacyPattern::Wmma) {
        LiftFailure Why;
        std::optional<LiftedGemm> G =
            lift(*Legacy, Kernel, Loop, Ctx, Includes, Why,
                 static_cast<bool>(Pragma.Precision));
        if (G && Pragma.Precision)
          G->Precision = *Pragma.Precision;
        if (G && Opts.Migrate &&
            migrate(Ctx, Pragma, Kernel,
                    {Migration{Kernel, *G, migratedNames(Kernel), Launches}},
                    Why))
          return;
        if (G && !Opts.Migrate && !pragmaLine(SM, Ctx.getLangOpts(), Pragma))
          Why = pragmaInMacro(SM, Pragma);
        else if (G && !Opts.Migrate)
          ++Result.Liftable;
        Lift = LiftAttempt{G.has_value(), Why.Loc,
                           Why.Loc.isValid() ? SM.getPresumedLineNumber(
                                                   SM.getExpansionLoc(Why.Loc))
                                             : 0,
                           Why.Message};
      }
      reportLegacyLoop(*Legacy, Loop, Lift ? &*Lift : nullptr, Diags);
      Verdict = Diags.lastError();
      if (Opts.Explain)
        (void)extractTileProgram(Ctx, Kernel, Loop, Pragma, Diags);
    } else if (isEditable(Ctx, Pragma, Kernel, Launches, OtherUses)) {
      P = extractTileProgram(Ctx, Kernel, Loop, Pragma, Diags);
      if (P && Opts.PragmaLabel)
        P->Where =
            Opts.PragmaLabel(SM.getFileOffset(SM.getExpansionLoc(Pragma.Loc)));
    }
    if (P && P->Family == KernelFamily::Attention) {
      rewriteAttention(Ctx, *P, Launches);
      return;
    }
    if (P)
      P = applyTileShape(*P, Diags);
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
    // The narrow kernels for launches of few tiles, and the cluster twin
    // (TileShape.h).
    std::optional<NarrowTiles> Narrow;
    if (Plan) {
      Narrow = narrowTiles(*P, *Plan, Diags);
      if (Narrow) {
        Plan->Explain.push_back(
            {"narrow", Narrow->Value + " -- " + Narrow->Reason});
        Plan->Explain.push_back({"cluster twin", Narrow->ClusterValue});
      }
    }
    bool Ok = Plan && Narrow && namesAreFree(*P, emittedNames(*P, *G));
    if (!Ok)
      Diags.note(Kernel->getLocation(),
                 "kernel '" + Kernel->getName() + "' is left unchanged");
    if (Opts.Explain) {
      llvm::raw_string_ostream OS(Result.Explanation);
      printExplanation(Kernel, Loop, P ? &*P : nullptr, G ? &*G : nullptr,
                       Plan ? &*Plan : nullptr,
                       Ok                ? ""
                       : Verdict.empty() ? Diags.lastError()
                                         : Verdict,
                       SM, LO, OS);
    }
    if (!Ok)
      return;
    for (const CUDAKernelCallExpr *L : Launches)
      P->Launches.push_back({L});
    replaceKernel(Ctx, *P, emitKernel(*P, *G, *Plan, SM, LO, &*Narrow),
                  Launches);
  }

  /// The attention family: analysis, plan, reports, emission.
  void rewriteAttention(ASTContext &Ctx, TileProgram &P,
                        llvm::ArrayRef<const CUDAKernelCallExpr *> Launches) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    std::optional<AttentionProgram> A = analyzeAttention(P, Diags);
    std::optional<ArefGraph> G;
    std::optional<AttentionPlan> Plan;
    if (A)
      G = buildArefGraph(P, Diags);
    if (G)
      Plan = planAttention(P, *A, Diags);
    if (G && Opts.DumpArefs != ArefDumpFormat::None) {
      std::string Dump;
      llvm::raw_string_ostream OS(Dump);
      const AttentionPlan *PP = Plan ? &*Plan : nullptr;
      if (Opts.DumpArefs == ArefDumpFormat::Json)
        printAttentionJson(P, *A, *G, PP, SM, LO, OS);
      else if (Opts.DumpArefs == ArefDumpFormat::Dot)
        printAttentionDot(P, *A, *G, PP, SM, LO, OS);
      else
        printAttentionText(P, *A, *G, PP, SM, LO, OS);
      Result.ArefDumps.push_back(std::move(Dump));
    }
    const bool Ok = Plan && namesAreFree(P, attentionEmittedNames(P, *A));
    if (!Ok)
      Diags.note(P.Kernel->getLocation(),
                 "kernel '" + P.Kernel->getName() + "' is left unchanged");
    if (Opts.Explain) {
      llvm::raw_string_ostream OS(Result.Explanation);
      printAttentionExplanation(P, A ? &*A : nullptr, G ? &*G : nullptr,
                                Plan ? &*Plan : nullptr,
                                Ok ? "" : Diags.lastError(), SM, OS);
    }
    if (!Ok)
      return;
    replaceKernel(Ctx, P, emitAttention(P, *A, *G, *Plan, SM, LO), Launches);
  }

  /// Replaces the kernel with `KernelText` and its launches with calls of
  /// the launcher.
  void replaceKernel(ASTContext &Ctx, TileProgram &P, std::string KernelText,
                     llvm::ArrayRef<const CUDAKernelCallExpr *> Launches) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    CharSourceRange KernelRange =
        SM.getExpansionRange(P.Kernel->getSourceRange());
    includeRuntime(Ctx, KernelRange.getBegin());
    // The emitted text ends with a newline; the kernel's closing brace is
    // followed by one already.
    if (!KernelText.empty() && KernelText.back() == '\n')
      KernelText.pop_back();
    edit(SM, KernelRange, KernelText, LO);
    for (const CUDAKernelCallExpr *L : Launches) {
      std::string Text = emitLaunch(P, L, SM, LO);
      // The launcher returns an error code where the launch had no value.
      if (valueIsUsed(Ctx, L))
        Text = "(void)" + Text;
      edit(SM, SM.getExpansionRange(L->getSourceRange()), Text, LO);
    }
    ++Result.Rewritten;
  }

  /// A lifted kernel to migrate: the kernel lifted (for a kernel template,
  /// one of its instantiations), its lifting, its names and its launches.
  struct Migration {
    const FunctionDecl *Kernel = nullptr;
    LiftedGemm G;
    MigratedNames Names;
    std::vector<const CUDAKernelCallExpr *> Launches;
  };

  /// The whole line of `Pragma` with its end of line, or nullopt where the
  /// pragma comes from a macro or ends the file. A `_Pragma("tawa tile")`
  /// operator written in the file is its text, or its whole line where
  /// nothing else stands on it.
  static std::optional<CharSourceRange> pragmaLine(const SourceManager &SM,
                                                   const LangOptions &LO,
                                                   const TilePragma &Pragma) {
    SourceLocation At = Pragma.Loc;
    std::optional<CharSourceRange> Operator;
    if (At.isMacroID()) {
      // The operator's tokens expand from `_Pragma` to `)` (Lexer's
      // pragma lexer); through a macro, that expansion is in another.
      const CharSourceRange R = SM.getImmediateExpansionRange(At);
      if (!R.getBegin().isFileID() || !R.getEnd().isFileID())
        return std::nullopt;
      At = R.getBegin();
      Operator = CharSourceRange::getCharRange(
          R.getBegin(), Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
    }
    const FileID F = SM.getFileID(At);
    const unsigned Line = SM.getSpellingLineNumber(At);
    const SourceLocation Begin = SM.translateLineCol(F, Line, 1);
    const SourceLocation Next = SM.translateLineCol(F, Line + 1, 1);
    if (Next == Begin)
      return std::nullopt;
    if (Operator) {
      const StringRef Before = Lexer::getSourceText(
          CharSourceRange::getCharRange(Begin, Operator->getBegin()), SM, LO);
      const StringRef After = Lexer::getSourceText(
          CharSourceRange::getCharRange(Operator->getEnd(), Next), SM, LO);
      if (!Before.trim().empty() || !After.trim().empty())
        return Operator;
    }
    return CharSourceRange::getCharRange(Begin, Next);
  }

  /// Why the migration cannot drop `Pragma` from the kernel as written.
  static LiftFailure pragmaInMacro(const SourceManager &SM,
                                   const TilePragma &Pragma) {
    return {SM.getExpansionLoc(Pragma.Loc),
            "the pragma comes from a macro's expansion: the migration drops "
            "it from the kernel as written, which it cannot do inside a "
            "macro; write '#pragma tawa tile' (or '_Pragma(\"tawa tile\")') "
            "before the loop"};
  }

  /// Where text added after kernel `K` (its definition) goes.
  static SourceLocation afterKernel(const SourceManager &SM,
                                    const LangOptions &LO,
                                    const FunctionDecl *K) {
    const CharSourceRange R = SM.getExpansionRange(K->getSourceRange());
    return R.isTokenRange() ? Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO)
                            : R.getEnd();
  }

  /// Adds the tile-vocabulary form of each migration of kernel `Written`
  /// (as written: a template's pattern) after it, drops its pragma, and
  /// turns each launch into a call of its launcher (Migrate.h). Returns
  /// false, with the obstacle in `Why`, where a launch cannot be edited.
  bool migrate(ASTContext &Ctx, const TilePragma &Pragma,
               const FunctionDecl *Written, llvm::ArrayRef<Migration> Ms,
               LiftFailure &Why) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    if (std::string H = headerMessage(SM, Written); !H.empty()) {
      Why = {Written->getLocation(), H};
      return false;
    }
    for (const Migration &M : Ms)
      for (const CUDAKernelCallExpr *L : M.Launches)
        if (L->getBeginLoc().isMacroID() || L->getEndLoc().isMacroID() ||
            !enclosingFunction(Ctx, *L) ||
            enclosingFunction(Ctx, *L)->hasAttr<CUDAGlobalAttr>() ||
            enclosingFunction(Ctx, *L)->hasAttr<CUDADeviceAttr>()) {
          Why = {L->getBeginLoc(),
                 "this launch of '" + M.Names.Callee +
                     "' cannot become a call of its migrated launcher (a "
                     "host function): write it as 'k<<<...>>>(...)' in host "
                     "code, outside a macro"};
          return false;
        }
    // The pragma's whole line goes: the migrated kernel carries it.
    std::optional<CharSourceRange> PragmaLine = pragmaLine(SM, LO, Pragma);
    if (!PragmaLine) {
      Why = pragmaInMacro(SM, Pragma);
      return false;
    }
    if (Written->getEndLoc().isMacroID())
      return false;
    includeHeader(Ctx, Written->getBeginLoc(), "tawa/tile.h");
    edit(SM, *PragmaLine, "", LO);
    const SourceLocation After = afterKernel(SM, LO, Written);
    std::string Text;
    for (const Migration &M : Ms)
      Text +=
          migratedKernelText(M.Kernel, M.G, M.Names, SM, LO, &M == &Ms.front());
    edit(SM, CharSourceRange::getCharRange(After, After), Text, LO);
    for (const Migration &M : Ms)
      for (const CUDAKernelCallExpr *L : M.Launches)
        edit(SM, SM.getExpansionRange(L->getSourceRange()),
             migratedLaunchText(L, M.Names, SM, LO), LO);
    ++Result.Rewritten;
    return true;
  }

  /// A kernel template whose loop is hand-written (KernelTemplate.h): each
  /// instantiation that a launch of the file makes is classified and lifted
  /// with its template arguments as constants. The verdict is that of the
  /// first instantiation that does not lift, with a note at its launch,
  /// else that they all lift; with --migrate each gets its tiled form and
  /// launcher. Returns false, reporting nothing, where the loop is not
  /// hand-written (a template in the tile vocabulary, which
  /// extractTileProgram refuses).
  bool rewriteTemplate(ASTContext &Ctx, const TilePragma &Pragma,
                       const FunctionDecl *Kernel, const ForStmt *Loop,
                       Collector &C) {
    SourceManager &SM = Ctx.getSourceManager();
    const std::vector<const CUDAKernelCallExpr *> All = C.allLaunches();
    std::vector<KernelInstance> Is = kernelInstances(Kernel, Loop, All, Ctx);
    if (Is.empty()) {
      if (!classifyLegacyLoop(Kernel, Loop))
        return false;
      if (const CUDAKernelCallExpr *L = dependentLaunch(Kernel, All)) {
        Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                    "kernel template '" + Kernel->getName() +
                        "' is launched only from function templates that "
                        "the file does not instantiate: tawa-rewrite lifts "
                        "each instantiation of the kernel that a launch of "
                        "the file makes, with constant template arguments "
                        "('" +
                        Kernel->getName() +
                        "<...><<<...>>>(...)', in a function or an "
                        "instantiated function template)");
        Diags.note(L->getBeginLoc(), "launched here, in a function template");
        finishTemplateReport(Ctx, Kernel, Loop, Pragma);
        return true;
      }
      Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                  "kernel template '" + Kernel->getName() +
                      "' is not launched in this file: tawa-rewrite lifts "
                      "each instantiation that a launch of the file makes "
                      "('" +
                      Kernel->getName() +
                      "<...><<<...>>>(...)'), with its template arguments "
                      "as constants");
      finishTemplateReport(Ctx, Kernel, Loop, Pragma);
      return true;
    }
    std::vector<Migration> Ms;
    std::optional<LegacyLoop> First;
    if (const CUDAKernelCallExpr *L = launchOfInstantiations(C, Is);
        L && !canCallFromTemplates(Loop, Is)) {
      Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                  "kernel template '" + Kernel->getName() +
                      "' is launched from a function template, whose one "
                      "launch text stands for all of its instantiations: "
                      "that launch can call one launcher template, which " +
                      (callsTileVocabulary(Loop)
                           ? std::string("a kernel template in the tile "
                                         "vocabulary does not get (each "
                                         "instantiation becomes a kernel of "
                                         "its own)")
                           : std::string("a kernel template declared more "
                                         "than once, over a parameter "
                                         "pack or with an unnamed "
                                         "parameter does not get")) +
                      "; launch it with constant template arguments from a "
                      "function that is not a template");
      Diags.note(SM.getExpansionLoc(L->getBeginLoc()),
                 "launched here, in a function template");
      finishTemplateReport(Ctx, Kernel, Loop, Pragma);
      return true;
    }
    if (callsTileVocabulary(Loop))
      return instantiateTemplate(Ctx, Pragma, Kernel, Loop, Is);
    for (const KernelInstance &I : Is) {
      std::optional<LegacyLoop> L =
          I.Loop ? classifyLegacyLoop(I.Kernel, I.Loop) : std::nullopt;
      if (!L)
        return false;
      LiftFailure Why;
      std::optional<LiftedGemm> G =
          lift(*L, I.Kernel, I.Loop, Ctx, Includes, Why,
               static_cast<bool>(Pragma.Precision));
      if (G && Pragma.Precision)
        G->Precision = *Pragma.Precision;
      if (!G) {
        reportTemplateLift(Ctx, *L, I, /*Lifted=*/false, Why);
        finishTemplateReport(Ctx, Kernel, Loop, Pragma);
        return true;
      }
      if (!First)
        First = std::move(L);
      Ms.push_back({I.Kernel, std::move(*G), {I.Base, I.Callee}, I.Launches});
    }
    LiftFailure Why;
    if (Opts.Migrate && migrate(Ctx, Pragma, Kernel, Ms, Why))
      return true;
    if (!Opts.Migrate)
      ++Result.Liftable;
    // Every instantiation lifts; `Why`, where set, stopped the migration.
    reportTemplateLift(Ctx, *First, Is.front(), /*Lifted=*/true, Why);
    finishTemplateReport(Ctx, Kernel, Loop, Pragma);
    return true;
  }

  /// Whether `Loop` calls a function of namespace tawa (the tile
  /// vocabulary, tawa/tile.h).
  static bool callsTileVocabulary(const ForStmt *Loop) {
    struct Finder : RecursiveASTVisitor<Finder> {
      bool Found = false;
      bool VisitCallExpr(CallExpr *C) {
        const FunctionDecl *F = C->getDirectCallee();
        Found |=
            F && StringRef(F->getQualifiedNameAsString()).starts_with("tawa::");
        return !Found;
      }
      bool VisitUnresolvedLookupExpr(UnresolvedLookupExpr *E) {
        for (const NamedDecl *D : E->decls())
          Found |=
              StringRef(D->getQualifiedNameAsString()).starts_with("tawa::");
        return !Found;
      }
    } F;
    F.TraverseStmt(const_cast<ForStmt *>(Loop));
    return F.Found;
  }

  /// A kernel template in the tile vocabulary, launched in the file as
  /// instantiations `Is`: under --migrate, each becomes a kernel of its own
  /// (instantiatedKernelText, named I.Base) after the template, whose
  /// pragma goes, and each launch calls its copy; the rewrite of the
  /// migrated file then takes the copies one by one. Without --migrate, the
  /// kernel counts as liftable (the run rewrites its migrated form) and the
  /// template's refusal stands where that fails: returns false. Where a copy
  /// cannot be made (instantiatedKernelText), refuses the template.
  bool instantiateTemplate(ASTContext &Ctx, const TilePragma &Pragma,
                           const FunctionDecl *Kernel, const ForStmt *Loop,
                           llvm::ArrayRef<KernelInstance> Is) {
    SourceManager &SM = Ctx.getSourceManager();
    const LangOptions &LO = Ctx.getLangOpts();
    std::string Text;
    for (const KernelInstance &I : Is) {
      std::optional<std::string> Copy = instantiatedKernelText(Kernel, I, Ctx);
      if (!Copy) {
        Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                    "kernel template '" + Kernel->getName() +
                        "' in the tile vocabulary is not rewritten: no copy "
                        "of it for '" +
                        I.Callee +
                        "' can be made, which needs every template "
                        "argument to be an integer or a type without "
                        "pointer, reference or array parts, and every "
                        "template parameter named in the kernel's own text, "
                        "not inside a macro's expansion");
        finishTemplateReport(Ctx, Kernel, Loop, Pragma);
        return true;
      }
      for (const CUDAKernelCallExpr *L : I.Launches)
        if (L->getCallee()->getBeginLoc().isMacroID() ||
            L->getCallee()->getEndLoc().isMacroID())
          return false;
      if (!Opts.Migrate)
        continue;
      Text += "\n\n" + std::string(kInstantiationComment) + " '" + I.Callee +
              "', which tawa-rewrite rewrites: a kernel template is "
              "rewritten per instantiation.\n" +
              *Copy;
    }
    if (!Opts.Migrate) {
      ++Result.Liftable;
      return false;
    }
    std::optional<CharSourceRange> PragmaLine = pragmaLine(SM, LO, Pragma);
    if (!PragmaLine || Kernel->getEndLoc().isMacroID() ||
        !headerMessage(SM, Kernel).empty())
      return false;
    // The copies carry the pragma; the template keeps none.
    edit(SM, *PragmaLine, "", LO);
    const SourceLocation After = afterKernel(SM, LO, Kernel);
    edit(SM, CharSourceRange::getCharRange(After, After), Text, LO);
    for (const KernelInstance &I : Is)
      for (const CUDAKernelCallExpr *L : I.Launches)
        edit(SM,
             CharSourceRange::getTokenRange(
                 L->getCallee()->IgnoreParenImpCasts()->getSourceRange()),
             I.Base, LO);
    Result.Rewritten += Is.size();
    return true;
  }

  /// A launch of instantiations `Is` inside an instantiation of a function
  /// template (Collector::InstantiatedLaunches), or null.
  static const CUDAKernelCallExpr *
  launchOfInstantiations(const Collector &C,
                         llvm::ArrayRef<KernelInstance> Is) {
    for (const KernelInstance &I : Is)
      for (const CUDAKernelCallExpr *L : I.Launches)
        if (llvm::is_contained(C.InstantiatedLaunches, L))
          return L;
    return nullptr;
  }

  /// Whether a launch of a kernel template written in a function template
  /// can become one call for all of its instantiations `Is`: the
  /// migrated launchers of `Is` are explicit specializations of one
  /// function template (launcherTemplate), which the launch calls with the
  /// template arguments it was written with.
  static bool canCallFromTemplates(const ForStmt *Loop,
                                   llvm::ArrayRef<KernelInstance> Is) {
    return !callsTileVocabulary(Loop) &&
           llvm::all_of(Is, [](const KernelInstance &I) {
             return !launcherTemplate(I.Kernel).empty();
           });
  }

  /// A launch of kernel template `Kernel` among `Launches` whose callee is
  /// still dependent (`k<BS><<<...>>>` in a function template over BS), or
  /// null.
  static const CUDAKernelCallExpr *
  dependentLaunch(const FunctionDecl *Kernel,
                  llvm::ArrayRef<const CUDAKernelCallExpr *> Launches) {
    const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
    for (const CUDAKernelCallExpr *L : Launches) {
      const auto *U =
          dyn_cast<UnresolvedLookupExpr>(L->getCallee()->IgnoreParenImpCasts());
      if (T && U && llvm::any_of(U->decls(), [&](const NamedDecl *D) {
            return D->getCanonicalDecl() == T->getCanonicalDecl();
          }))
        return L;
    }
    return nullptr;
  }

  /// The verdict on instantiation `I`: it lifts (`Lifted`; `Why`, where
  /// set, says what stopped its migration), or `Why` says what breaks the
  /// pattern; a note names the instantiation at its first launch.
  void reportTemplateLift(ASTContext &Ctx, const LegacyLoop &L,
                          const KernelInstance &I, bool Lifted,
                          const LiftFailure &Why) {
    SourceManager &SM = Ctx.getSourceManager();
    LiftAttempt A{Lifted, Why.Loc,
                  Why.Loc.isValid()
                      ? SM.getPresumedLineNumber(SM.getExpansionLoc(Why.Loc))
                      : 0,
                  Why.Message};
    reportLegacyLoop(L, I.Loop, &A, Diags);
    Diags.note(SM.getExpansionLoc(I.Launches.front()->getBeginLoc()),
               (Lifted ? "instantiations such as '" : "instantiation '") +
                   I.Callee + "' launched here" +
                   (Lifted ? ", each lifted with its template arguments taken "
                             "as constants"
                           : "; the verdict is on it, its template arguments "
                             "taken as constants"));
  }

  /// The end of a kernel template's report: --explain's reasons and the
  /// note that the kernel is left unchanged.
  void finishTemplateReport(ASTContext &Ctx, const FunctionDecl *Kernel,
                            const ForStmt *Loop, const TilePragma &Pragma) {
    const std::string Verdict = Diags.lastError();
    if (Opts.Explain)
      (void)extractTileProgram(Ctx, Kernel, Loop, Pragma, Diags);
    Diags.note(Kernel->getLocation(),
               "kernel '" + Kernel->getName() + "' is left unchanged");
    if (Opts.Explain) {
      llvm::raw_string_ostream OS(Result.Explanation);
      printExplanation(Kernel, Loop, nullptr, nullptr, nullptr, Verdict,
                       Ctx.getSourceManager(), Ctx.getLangOpts(), OS);
    }
  }

  /// Where the main file is a header (.cuh, .h, .hpp, ...), why its kernel
  /// is not rewritten: the files that include it launch the kernel, and
  /// their launches, which this run does not see, would keep the old
  /// parameters (and a kernel added to a header is defined in each of them).
  static std::string headerMessage(const SourceManager &SM,
                                   const FunctionDecl *Kernel) {
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    StringRef Ext =
        Main ? llvm::sys::path::extension(Main->getName()) : StringRef();
    if (!llvm::is_contained({".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl"}, Ext))
      return "";
    return "kernel '" + Kernel->getNameAsString() + "' is defined in a " +
           Ext.str() +
           " header, which other files include and launch it from; their "
           "launches would keep the kernel's old parameters. Move the "
           "kernel and its launches into one .cu file and run tawa-rewrite "
           "on that file";
  }

  /// Whether the kernel, its pragma and its launches can be edited in place:
  /// reports why not, at the first obstacle.
  bool isEditable(ASTContext &Ctx, const TilePragma &Pragma,
                  const FunctionDecl *Kernel,
                  llvm::ArrayRef<const CUDAKernelCallExpr *> Launches,
                  llvm::ArrayRef<const DeclRefExpr *> OtherUses) {
    SourceManager &SM = Ctx.getSourceManager();
    if (std::string H = headerMessage(SM, Kernel); !H.empty()) {
      Diags.error(Kernel->getLocation(), DiagCategory::Unsupported, H);
      return false;
    }
    // The emitter drops the pragma's line from its copy of the kernel.
    SourceLocation PragmaLoc = SM.getExpansionLoc(Pragma.Loc);
    auto [File, Offset] = SM.getDecomposedLoc(PragmaLoc);
    StringRef Before = SM.getBufferData(File).take_front(Offset);
    StringRef Line = Before.substr(Before.find_last_of("\r\n") + 1);
    if (Pragma.Loc.isMacroID() || !Line.ltrim(" \t").starts_with("#")) {
      Diags.error(PragmaLoc, DiagCategory::Unsupported,
                  "'#pragma tawa tile' must stand on its own line; a "
                  "'_Pragma' operator or a pragma after other code on its "
                  "line is not rewritten");
      return false;
    }
    const Stmt *Body = Kernel->getBody();
    if (Kernel->getLocation().isMacroID() || Body->getBeginLoc().isMacroID() ||
        Body->getEndLoc().isMacroID() ||
        llvm::any_of(Kernel->parameters(), [](const ParmVarDecl *PV) {
          return PV->getDeclName() && PV->getLocation().isMacroID();
        })) {
      Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                  "kernel '" + Kernel->getName() +
                      "' is declared through a macro; the rewriter edits "
                      "the kernel's own text and cannot rewrite a macro");
      return false;
    }
    if (const FunctionDecl *First = Kernel->getFirstDecl(); First != Kernel) {
      Diags.error(Kernel->getLocation(), DiagCategory::Unsupported,
                  "kernel '" + Kernel->getName() +
                      "' is declared before its definition; the rewritten "
                      "kernel takes other parameters and its launcher is "
                      "declared with the definition only: remove the "
                      "earlier declaration");
      Diags.note(First->getLocation(), "the earlier declaration of '" +
                                           Kernel->getName() + "' is here");
      return false;
    }
    for (const CUDAKernelCallExpr *L : Launches)
      if (std::string Why = launchObstacle(Ctx, Kernel->getName(), L);
          !Why.empty()) {
        Diags.error(SM.getExpansionLoc(L->getBeginLoc()),
                    DiagCategory::Unsupported,
                    "a launch of '" + Kernel->getName() + "' " + Why);
        return false;
      }
    // A pointer to the kernel would reach the rewritten kernel with the old
    // parameters (cudaLaunchKernel, a function pointer launched later).
    if (!OtherUses.empty()) {
      Diags.error(SM.getExpansionLoc(OtherUses.front()->getBeginLoc()),
                  DiagCategory::Unsupported,
                  "kernel '" + Kernel->getName() +
                      "' is used other than in a '<<<...>>>' launch; the "
                      "rewritten kernel takes other parameters, so this use "
                      "would reach it with the old ones: launch it with "
                      "'<<<...>>>', which becomes a call of '" +
                      Kernel->getName() + "_launch'");
      return false;
    }
    return true;
  }

  /// Why the launch `L` of kernel `K` cannot become a call of its launcher
  /// (the end of a message), or "".
  static std::string launchObstacle(ASTContext &Ctx, StringRef K,
                                    const CUDAKernelCallExpr *L) {
    const SourceManager &SM = Ctx.getSourceManager();
    auto OwnText = [&](const Expr *E) {
      return hasOwnText(E, SM, Ctx.getLangOpts());
    };
    const auto *Callee =
        dyn_cast<DeclRefExpr>(L->getCallee()->IgnoreParenImpCasts());
    if (!Callee)
      return ("that does not name it cannot be rewritten; write '" + K +
              "<<<...>>>(...)'")
          .str();
    const FunctionDecl *Caller = enclosingFunction(Ctx, *L);
    if (Caller && (Caller->hasAttr<CUDAGlobalAttr>() ||
                   (Caller->hasAttr<CUDADeviceAttr>() &&
                    !Caller->hasAttr<CUDAHostAttr>())))
      return "from device code cannot be rewritten; the launcher is a host "
             "function";
    if (L->getBeginLoc().isMacroID() || L->getEndLoc().isMacroID() ||
        Callee->getBeginLoc().isMacroID() || Callee->getEndLoc().isMacroID() ||
        !llvm::all_of(L->getConfig()->arguments(), OwnText) ||
        !llvm::all_of(L->arguments(), OwnText))
      return ("inside a macro cannot be rewritten; the rewritten kernel takes "
              "other parameters, so write the launch outside the macro, "
              "where it becomes a call of '" +
              K + "_launch'")
          .str();
    return "";
  }

  /// Whether the text of `E` is its own: written in the file or a whole
  /// macro expansion, not part of one. A default argument has no text at
  /// the call and passes.
  static bool hasOwnText(const Expr *E, const SourceManager &SM,
                         const LangOptions &LO) {
    if (isa<CXXDefaultArgExpr>(E))
      return true;
    SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
    return !SM.isMacroArgExpansion(B) && !SM.isMacroArgExpansion(End) &&
           Lexer::makeFileCharRange(CharSourceRange::getTokenRange(B, End), SM,
                                    LO)
               .isValid();
  }

  /// Whether `E` (a reference to a kernel) is an argument of a CUDA runtime
  /// call that configures or queries the kernel (cudaFuncSetAttribute,
  /// cudaFuncGetAttributes, cudaOccupancy...), not one that launches it:
  /// such a call keeps working on the rewritten kernel.
  static bool configuresKernel(ASTContext &Ctx, const Expr *E) {
    DynTypedNodeList Parents = Ctx.getParents(*E);
    while (!Parents.empty()) {
      if (const auto *Call = Parents[0].get<CallExpr>()) {
        const FunctionDecl *F = Call->getDirectCallee();
        StringRef Name = F && F->getIdentifier() ? F->getName() : "";
        return Name.starts_with("cudaFunc") ||
               Name.starts_with("cudaOccupancy");
      }
      if (!Parents[0].get<CastExpr>() && !Parents[0].get<ParenExpr>() &&
          !Parents[0].get<UnaryOperator>())
        return false;
      Parents = Ctx.getParents(Parents[0]);
    }
    return false;
  }

  /// The function whose body holds `S`, if any.
  static const FunctionDecl *enclosingFunction(ASTContext &Ctx, const Stmt &S) {
    DynTypedNodeList Parents = Ctx.getParents(S);
    while (!Parents.empty()) {
      if (const auto *FD = Parents[0].get<FunctionDecl>())
        return FD;
      Parents = Ctx.getParents(Parents[0]);
    }
    return nullptr;
  }

  /// Whether the value of `Call` is used: anything but a statement of its
  /// own (or an explicit cast to void).
  static bool valueIsUsed(ASTContext &Ctx, const Expr *Call) {
    const Stmt *S = Call;
    DynTypedNodeList Parents = Ctx.getParents(*S);
    while (!Parents.empty() && Parents[0].get<FullExpr>()) {
      S = Parents[0].get<FullExpr>();
      Parents = Ctx.getParents(*S);
    }
    const Stmt *Parent = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!Parent)
      return true;
    if (isa<CompoundStmt>(Parent))
      return false;
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
      return !Cast->getType()->isVoidType();
    if (const auto *If = dyn_cast<IfStmt>(Parent))
      return If->getThen() != S && If->getElse() != S;
    if (const auto *For = dyn_cast<ForStmt>(Parent))
      return For->getBody() != S;
    if (const auto *While = dyn_cast<WhileStmt>(Parent))
      return While->getBody() != S;
    if (const auto *Do = dyn_cast<DoStmt>(Parent))
      return Do->getBody() != S;
    if (const auto *Case = dyn_cast<SwitchCase>(Parent))
      return Case->getSubStmt() != S;
    if (const auto *Label = dyn_cast<LabelStmt>(Parent))
      return Label->getSubStmt() != S;
    return true;
  }

  /// Inserts `#include <tawa/runtime.cuh>` once per file, at file scope
  /// before `Kernel`: after the file's `#include <tawa/tile.h>`, else after
  /// its last #include before the kernel, else at the start of the file.
  void includeRuntime(ASTContext &Ctx, SourceLocation Kernel) {
    if (RuntimeIncluded)
      return;
    RuntimeIncluded = true;
    includeHeader(Ctx, Kernel, "tawa/runtime.cuh");
  }

  /// Inserts `#include <Header>` at file scope before `Kernel`, as
  /// includeRuntime does; <tawa/tile.h> only where the file lacks it.
  void includeHeader(ASTContext &Ctx, SourceLocation Kernel, StringRef Header) {
    if (Header == "tawa/tile.h" && (Includes.Tile.isValid() || TileIncluded))
      return;
    TileIncluded |= Header == "tawa/tile.h";
    SourceManager &SM = Ctx.getSourceManager();
    // An #include inside a namespace, a linkage block or a function is not
    // at file scope.
    std::vector<SourceRange> Nested;
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (SM.isInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
        Nested.push_back(
            SM.getExpansionRange(D->getSourceRange()).getAsRange());
    auto Usable = [&](SourceLocation L) {
      return L.isValid() && SM.isBeforeInTranslationUnit(L, Kernel) &&
             llvm::none_of(Nested, [&](SourceRange R) {
               return SM.isBeforeInTranslationUnit(R.getBegin(), L) &&
                      SM.isBeforeInTranslationUnit(L, R.getEnd());
             });
    };
    SourceLocation At = Includes.Tile;
    if (!Usable(At)) {
      At = SourceLocation();
      for (SourceLocation L : Includes.Ends)
        if (Usable(L))
          At = L;
    }
    std::string Text = ("\n#include <" + Header + ">").str();
    if (At.isInvalid()) {
      At = SM.getLocForStartOfFile(SM.getMainFileID());
      Text = ("#include <" + Header + ">\n").str();
    }
    edit(SM, CharSourceRange::getCharRange(At, At), Text, Ctx.getLangOpts());
  }

  bool namesAreFree(const TileProgram &P,
                    const std::vector<std::string> &Emitted) {
    // The kernel's own variables, and the names it refers to from outside
    // (a namespace-scope variable, a function), which the emitted locals
    // would shadow.
    struct Names : RecursiveASTVisitor<Names> {
      std::vector<std::pair<const NamedDecl *, SourceLocation>> Decls;
      bool VisitVarDecl(VarDecl *VD) {
        Decls.push_back({VD, VD->getLocation()});
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (E->getDecl()->getIdentifier() &&
            !E->getDecl()->getDeclContext()->isFunctionOrMethod())
          Decls.push_back({E->getDecl(), E->getLocation()});
        return true;
      }
    } N;
    N.TraverseDecl(const_cast<FunctionDecl *>(P.Kernel));
    for (const std::string &Name : Emitted)
      for (auto [D, Loc] : N.Decls)
        // A GEMM's accumulator keeps its name in the emitted kernel.
        if (D->getName() == Name && D != P.Acc.Decl) {
          Diags.error(Loc, DiagCategory::Unsupported,
                      "the name '" + Name + "' is used by the rewritten " +
                          (isa<VarDecl>(D) && D->getDeclContext() == P.Kernel
                               ? "kernel; rename this variable"
                               : "kernel; rename what it names"));
          return false;
        }
    return true;
  }

  /// Adds an edit of the main file, its text with the file's line endings.
  /// An edit made already is not made twice; any other overlap is a bug.
  void edit(SourceManager &SM, CharSourceRange R, StringRef Text,
            const LangOptions &LO) {
    std::string Own;
    for (char Ch : Text) {
      // Copied lines of the file end in "\r\n" already.
      if (CRLF && Ch == '\n' && (Own.empty() || Own.back() != '\r'))
        Own += '\r';
      Own += Ch;
    }
    tooling::Replacement Rep(SM, R, Own, LO);
    if (llvm::is_contained(Result.Edits, Rep))
      return;
    if (llvm::Error E = Result.Edits.add(Rep))
      Diags.error(R.getBegin(), DiagCategory::Internal,
                  "conflicting edits: " + llvm::toString(std::move(E)) +
                      "; this is a bug of tawa-rewrite");
  }

  const RewriteOptions &Opts;
  FileResult &Result;
  std::vector<TilePragma> &Pragmas;
  const MainFileRecord &Includes;
  DiagReporter &Diags;
  bool CRLF = false;            ///< the file's lines end in "\r\n"
  bool RuntimeIncluded = false; ///< <tawa/runtime.cuh> is inserted
  bool TileIncluded = false;    ///< <tawa/tile.h> is inserted
  std::vector<const FunctionDecl *> Candidates; ///< --suggest's kernels
};

} // namespace

void runRewritePipeline(ASTContext &Ctx, const RewriteOptions &Opts,
                        FileResult &Result, std::vector<TilePragma> &Pragmas,
                        const MainFileRecord &Includes, DiagReporter &Diags) {
  RewriteConsumer(Opts, Result, Pragmas, Includes, Diags)
      .HandleTranslationUnit(Ctx);
}

StringRef statusName(KernelRecord::Status S) {
  switch (S) {
  case KernelRecord::Status::Rewritten:
    return "rewritten";
  case KernelRecord::Status::Migrated:
    return "migrated";
  case KernelRecord::Status::Refused:
    return "refused";
  case KernelRecord::Status::NotAnnotated:
    return "not annotated";
  case KernelRecord::Status::Candidate:
    return "candidate";
  }
  return "?";
}

llvm::Expected<tooling::Replacements> finalReplacements(const FileResult &R) {
  if (R.Edits.empty() || R.LaidOut)
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
  // Keep the file's line endings, whatever the style would derive.
  Style->LineEnding = usesCRLF(R.Original) ? format::FormatStyle::LE_CRLF
                                           : format::FormatStyle::LE_LF;
  // A pure deletion (the pragma a migration removes) leaves an empty range:
  // laying it out would reflow the user's lines around it.
  std::vector<tooling::Range> Ranges;
  for (const tooling::Range &Changed : R.Edits.getAffectedRanges())
    if (Changed.getLength())
      Ranges.push_back(Changed);
  tooling::Replacements Layout;
  for (const tooling::Replacement &L :
       format::reformat(*Style, *Text, Ranges, R.Path))
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
