//===- LegacyLoop.cpp - what a hand-written annotated loop looks like -----===//
#include "tawa/LegacyLoop.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace tawa {

StringRef legacyPatternName(LegacyPattern P) {
  switch (P) {
  case LegacyPattern::Wmma:
    return "WMMA GEMM";
  case LegacyPattern::SharedTiled:
    return "shared-memory tiled GEMM";
  case LegacyPattern::SharedRegBlocked:
    return "register-blocked shared-memory GEMM";
  case LegacyPattern::GlobalProduct:
    return "GEMM reading its operands from global memory";
  case LegacyPattern::PtxMma:
    return "GEMM of PTX mma instructions on register fragments";
  case LegacyPattern::None:
    return "no GEMM pattern";
  }
  return "?";
}

namespace {

/// The variables an expression reads or writes through DeclRefExprs.
class VarsOf : public RecursiveASTVisitor<VarsOf> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *VD = dyn_cast<VarDecl>(E->getDecl()))
      Vars.insert(VD);
    return true;
  }
  std::set<const VarDecl *> Vars;
};

std::set<const VarDecl *> varsOf(const Expr *E) {
  VarsOf V;
  V.TraverseStmt(const_cast<Expr *>(E));
  return V.Vars;
}

/// A __shared__ variable, or a local pointer into one (`T *As = smem +
/// off;` of an `extern __shared__` array, or `const T *a = As + off;` of
/// such a pointer).
bool sharedWithin(const VarDecl *VD, unsigned Depth) {
  if (VD->hasAttr<CUDASharedAttr>())
    return true;
  if (isa<ParmVarDecl>(VD) || !VD->getType()->isPointerType() ||
      !VD->hasInit() || Depth > 8)
    return false;
  for (const VarDecl *V : varsOf(VD->getInit()))
    if (V != VD && sharedWithin(V, Depth + 1))
      return true;
  return false;
}
bool isShared(const VarDecl *VD) { return sharedWithin(VD, 0); }
/// A pointer into global memory: a pointer parameter of the kernel, or a
/// local pointer (typically derived from one).
bool isGlobalPointer(const VarDecl *VD) {
  return !isShared(VD) && VD->getType()->isPointerType();
}

/// Whether expressions divide (`/`) and take the remainder (`%`) of values
/// of the loop variable `Var`, directly or through the initializers of the
/// local variables they read: `rs = kk / C` and `c = kk % C` with
/// `kk = t + tx`, in a loop over `t` (an index split into filter taps and
/// channels). A tile number `t / TILE` alone is not such a split.
class LoopDivision {
public:
  static constexpr unsigned kDiv = 1, kRem = 2;

  explicit LoopDivision(const VarDecl *Var) : Var(Var) {}

  /// Whether `E` reads `Var`, or a local variable whose initializer does.
  bool reads(const Expr *E) {
    return llvm::any_of(varsOf(E), [&](const VarDecl *VD) {
      return VD == Var || viaInit(VD, ReadMemo, &LoopDivision::reads);
    });
  }

  /// kDiv | kRem: which of '/' and '%' `E` applies to a value that reads
  /// `Var`, itself or in the initializers of the local variables it reads.
  unsigned divisions(const Expr *E) {
    if (!E)
      return 0;
    class Finder : public RecursiveASTVisitor<Finder> {
    public:
      explicit Finder(LoopDivision &D) : D(D) {}
      bool VisitBinaryOperator(BinaryOperator *B) {
        const BinaryOperatorKind Op = B->getOpcode();
        const unsigned Kind = Op == BO_Div || Op == BO_DivAssign   ? kDiv
                              : Op == BO_Rem || Op == BO_RemAssign ? kRem
                                                                   : 0;
        if (Kind && D.reads(B->getLHS()))
          Found |= Kind;
        return true;
      }
      LoopDivision &D;
      unsigned Found = 0;
    } F(*this);
    F.TraverseStmt(const_cast<Expr *>(E));
    for (const VarDecl *VD : varsOf(E))
      F.Found |= viaInit(VD, DivisionMemo, &LoopDivision::divisions);
    return F.Found;
  }

private:
  /// `Test` of the initializer of the local variable `VD`, memoized; 0
  /// while it is being computed (a variable read in its own initializer).
  template <class T>
  T viaInit(const VarDecl *VD, std::map<const VarDecl *, T> &Memo,
            T (LoopDivision::*Test)(const Expr *)) {
    if (!VD->isLocalVarDecl() || !VD->getInit())
      return T();
    auto [It, New] = Memo.try_emplace(VD, T());
    if (!New)
      return It->second;
    const T Result = (this->*Test)(VD->getInit());
    Memo[VD] = Result;
    return Result;
  }

  const VarDecl *Var;
  std::map<const VarDecl *, bool> ReadMemo;
  std::map<const VarDecl *, unsigned> DivisionMemo;
};

std::string names(const std::set<const VarDecl *> &Vars,
                  bool (*Keep)(const VarDecl *)) {
  std::string Out;
  for (const VarDecl *VD : Vars)
    if (Keep(VD))
      Out += (Out.empty() ? "'" : ", '") + VD->getName().str() + "'";
  return Out;
}

/// Walks the loop body, collecting the evidence of each pattern.
class Classifier : public RecursiveASTVisitor<Classifier> {
public:
  explicit Classifier(const VarDecl *LoopVar) {
    if (LoopVar)
      Division.emplace(LoopVar);
  }

  bool TraverseForStmt(ForStmt *F) {
    ++ForDepth;
    bool Ok = RecursiveASTVisitor::TraverseForStmt(F);
    --ForDepth;
    return Ok;
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return true;
    if (const FunctionDecl *H = deviceHelper(C)) {
      helper(C, H);
      return true;
    }
    const std::string Q = F->getQualifiedNameAsString();
    if (StringRef(Q).starts_with("tawa::")) {
      TileVocabulary = true;
      return false;
    }
    StringRef N = F->getName();
    if (N == "__syncthreads")
      add(Barriers, C->getBeginLoc(),
          "__syncthreads(): a barrier between "
          "the staging and the product");
    else if (StringRef(Q).starts_with("nvcuda::wmma::")) {
      if (N == "mma_sync")
        add(WmmaMma, C->getBeginLoc(), "wmma::mma_sync: a fragment product");
      else if (N == "load_matrix_sync")
        add(WmmaLoads, C->getBeginLoc(),
            "wmma::load_matrix_sync: an operand fragment loaded");
    } else if (N == "__pipeline_memcpy_async" || N == "memcpy_async")
      add(Staging, C->getBeginLoc(), "an asynchronous copy into shared memory");
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *A) {
    const std::string Text = A->getAsmString();
    if (StringRef(Text).contains("cp.async"))
      add(Staging, A->getBeginLoc(),
          "cp.async: an asynchronous copy into shared memory");
    else if (StringRef(Text).contains("bar.sync") ||
             StringRef(Text).contains("barrier.sync"))
      add(Barriers, A->getBeginLoc(),
          "bar.sync: a barrier between the staging and the product");
    else if (StringRef(Text).contains("mma.sync") ||
             StringRef(Text).contains("wgmma.mma_async") ||
             StringRef(Text).contains("mma.sp"))
      add(PtxMma, A->getBeginLoc(),
          "a PTX matrix multiply-accumulate on register fragments");
    else if (StringRef(Text).contains("ldmatrix"))
      add(Staging, A->getBeginLoc(),
          "ldmatrix: register fragments loaded from shared memory");
    return true;
  }

  /// `float a = As[ty][k];`: a register loaded from the tiles, as an
  /// assignment to it would be; also `float a[4] = {v.x, v.y, v.z, v.w};`
  /// of such a register.
  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->isLocalVarDecl() || !VD->getInit() || isShared(VD) ||
        isGlobalPointer(VD) || VD->getType()->isIntegerType())
      return true;
    if (llvm::any_of(resolvedVars(VD->getInit()), [&](const VarDecl *V) {
          return isShared(V) || FromTiles.count(V);
        }))
      FromTiles.insert(VD);
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      assignment(B->getBeginLoc(), B->getLHS(), B->getRHS());
    return true;
  }

  /// `=` and `+=` of class types (bf16, half) are operator calls.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
    if (C->getNumArgs() != 2)
      return true;
    if (C->getOperator() == OO_Equal)
      assignment(C->getBeginLoc(), C->getArg(0), C->getArg(1));
    else if (C->getOperator() == OO_PlusEqual && multiplies(C->getArg(1)))
      product(C, C->getArg(0), C->getArg(1));
    return true;
  }

  bool VisitCompoundAssignOperator(CompoundAssignOperator *B) {
    if (B->getOpcode() == BO_AddAssign && multiplies(B->getRHS()))
      product(B, B->getLHS(), B->getRHS());
    return true;
  }

  bool TileVocabulary = false;
  std::vector<LegacyEvidence> Staging, Barriers, Products, WmmaMma, WmmaLoads,
      PtxMma;
  std::optional<LegacyEvidence> Gather;
  bool ProductFromShared = false, RegisterBlocked = false;

private:
  void add(std::vector<LegacyEvidence> &To, SourceLocation L,
           const std::string &What) {
    To.push_back({L, What});
  }

  /// A call of a `__device__` helper: its body is read as part of the loop,
  /// each pointer parameter standing for the variable its argument names.
  void helper(const CallExpr *C, const FunctionDecl *H) {
    if (llvm::is_contained(Calling, H))
      return;
    const llvm::ArrayRef<const Expr *> Args = helperArguments(C);
    for (unsigned I = 0; I < H->getNumParams() && I < Args.size(); ++I) {
      const ParmVarDecl *P = H->getParamDecl(I);
      if (!P->getType()->isPointerType())
        continue;
      for (const VarDecl *V : varsOf(Args[I]))
        if (V->getType()->isPointerType() || V->getType()->isArrayType())
          Aliases[P] = resolved(V);
    }
    Calling.push_back(H);
    TraverseStmt(H->getBody());
    Calling.pop_back();
  }

  /// The variable `VD` stands for (a helper's parameter: its argument's).
  const VarDecl *resolved(const VarDecl *VD) const {
    auto It = Aliases.find(VD);
    return It != Aliases.end() ? It->second : VD;
  }
  std::set<const VarDecl *> resolvedVars(const Expr *E) const {
    std::set<const VarDecl *> Out;
    for (const VarDecl *VD : varsOf(E))
      Out.insert(resolved(VD));
    return Out;
  }

  /// `smem[...] = ...global[...]...`: a staging copy; `acc = acc + x * y`
  /// or `acc = fmaf(x, y, acc)`: a product.
  void assignment(SourceLocation At, const Expr *LHS, const Expr *RHS) {
    std::set<const VarDecl *> L = resolvedVars(LHS), R = resolvedVars(RHS);
    bool ToShared = llvm::any_of(L, isShared);
    bool FromGlobal = llvm::any_of(R, isGlobalPointer);
    if (ToShared && FromGlobal) {
      add(Staging, At,
          "a staging copy from " + names(R, isGlobalPointer) +
              " into __shared__ " + names(L, isShared));
      if (!Gather && Division &&
          Division->divisions(RHS) == (LoopDivision::kDiv | LoopDivision::kRem))
        Gather =
            LegacyEvidence{At, "a staging copy that gathers from " +
                                   names(R, isGlobalPointer) +
                                   " through '/' and '%' of the loop's index"};
      return;
    }
    // `v = in[...]`, a register set from a gather and staged after.
    if (!Gather && FromGlobal && !ToShared && Division &&
        Division->divisions(RHS) == (LoopDivision::kDiv | LoopDivision::kRem) &&
        llvm::any_of(L, [](const VarDecl *VD) {
          return VD->isLocalVarDecl() && !VD->getType()->isPointerType();
        }))
      Gather = LegacyEvidence{At, "a register loaded from " +
                                      names(R, isGlobalPointer) +
                                      " through '/' and '%' of the loop's "
                                      "index"};
    if (multiplies(RHS))
      for (const VarDecl *VD : L)
        if (R.count(VD)) {
          product(LHS, LHS, RHS);
          return;
        }
    // Registers loaded from the tiles (`*(float4 *)ra = *(float4 *)&As[k][i]`):
    // a product that reads them reads the tiles.
    if (!ToShared && llvm::any_of(R, isShared))
      for (const VarDecl *VD : L)
        if (!isShared(VD) && !isGlobalPointer(VD) &&
            !VD->getType()->isIntegerType())
          FromTiles.insert(VD);
  }

  static bool isAny(const VarDecl *) { return true; }
  std::set<const VarDecl *>
  loadedFromTiles(const std::set<const VarDecl *> &R) const {
    std::set<const VarDecl *> Out;
    for (const VarDecl *VD : R)
      if (FromTiles.count(VD))
        Out.insert(VD);
    return Out;
  }

  void product(const Expr *At, const Expr *Acc, const Expr *Value) {
    std::set<const VarDecl *> R = resolvedVars(Value);
    // A product once per iteration of the tile loop itself is a GEMM's
    // only where it reads global memory and no tile (the naive kernel's
    // `acc += A[r * K + k] * B[k * N + c];`).
    if (ForDepth == 0) {
      if (llvm::any_of(R, isGlobalPointer) && llvm::none_of(R, isShared) &&
          !Acc->getType()->isIntegerType())
        add(Products, At->getBeginLoc(),
            "a product accumulated once per iteration, reading global "
            "memory");
      return;
    }
    // An index stepping by a product of constants (`e += (BM / TM) * 8`)
    // is no product of the GEMM; an integer GEMM's reads memory or arrays.
    if (Acc->getType()->isIntegerType() &&
        llvm::none_of(R, [&](const VarDecl *VD) {
          return isShared(VD) || isGlobalPointer(VD) ||
                 VD->getType()->isArrayType() || FromTiles.count(VD);
        }))
      return;
    const bool Shared =
        llvm::any_of(R, isShared) || llvm::any_of(R, [&](const VarDecl *VD) {
          return FromTiles.count(VD) != 0;
        });
    ProductFromShared |= Shared;
    RegisterBlocked |= isa<ArraySubscriptExpr>(Acc->IgnoreParenImpCasts());
    // Factors of neither kind are local arrays or scalars: registers.
    const bool Direct = llvm::any_of(R, isShared);
    const std::string Read =
        Direct   ? "__shared__ " + names(R, isShared)
        : Shared ? "registers " + names(loadedFromTiles(R), isAny) +
                       " loaded from the __shared__ tiles"
        : llvm::any_of(R, isGlobalPointer)
            ? std::string("global memory")
            : "registers " + names(R, [](const VarDecl *VD) {
                return !VD->getType()->isIntegerType();
              });
    add(Products, At->getBeginLoc(),
        "a product accumulated in an inner loop, reading " + Read);
  }

  int ForDepth = 0;
  std::set<const VarDecl *> FromTiles; ///< registers loaded from the tiles
  std::optional<LoopDivision> Division;
  std::vector<const FunctionDecl *> Calling;
  std::map<const VarDecl *, const VarDecl *> Aliases;
};

/// The variable the loop declares in its init statement, if one.
const VarDecl *loopVariable(const ForStmt *Loop) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  return DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                  : nullptr;
}

} // namespace

std::optional<LegacyLoop> classifyLegacyLoop(const FunctionDecl *Kernel,
                                             const ForStmt *Loop) {
  // Outside a kernel, and for an empty loop, the tile-program analysis says
  // what is missing.
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Loop->getBody());
  // A kernel template's own body is classified only to tell a hand-written
  // loop from one in the tile vocabulary: its dependent expressions may
  // hide the products, which its instantiations show (KernelTemplate.h).
  if (!Kernel->hasAttr<CUDAGlobalAttr>() || (Body && Body->body_empty()))
    return std::nullopt;
  Classifier C(loopVariable(Loop));
  C.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  if (C.TileVocabulary)
    return std::nullopt;
  LegacyLoop L;
  L.Gather = C.Gather;
  if (L.Gather)
    L.GatherLine =
        Kernel->getASTContext().getSourceManager().getExpansionLineNumber(
            L.Gather->Loc);
  auto take = [&](std::vector<LegacyEvidence> &From) {
    L.Evidence.insert(L.Evidence.end(), From.begin(), From.end());
  };
  if (!C.WmmaMma.empty()) {
    L.Pattern = LegacyPattern::Wmma;
    take(C.WmmaLoads);
    take(C.WmmaMma);
    take(C.Staging);
    take(C.Barriers);
  } else if (!C.PtxMma.empty()) {
    L.Pattern = LegacyPattern::PtxMma;
    take(C.PtxMma);
    take(C.Staging);
    take(C.Barriers);
  } else if (!C.Products.empty() && C.ProductFromShared) {
    L.Pattern = C.RegisterBlocked ? LegacyPattern::SharedRegBlocked
                                  : LegacyPattern::SharedTiled;
    take(C.Staging);
    take(C.Barriers);
    take(C.Products);
  } else if (!C.Products.empty()) {
    L.Pattern = LegacyPattern::GlobalProduct;
    take(C.Products);
  }
  llvm::sort(L.Evidence, [](const LegacyEvidence &A, const LegacyEvidence &B) {
    return A.Loc < B.Loc;
  });
  return L;
}

namespace {

/// The verdict on a loop whose staging copy gathers through a division of
/// the loop's index (LegacyLoop::Gather): an implicit-GEMM convolution,
/// which no lifting reads, whatever else breaks the GEMM pattern first.
void reportGather(const LegacyLoop &L, const ForStmt *Loop,
                  const LiftAttempt *Lift, DiagReporter &Diags) {
  if (Lift && !Lift->Message.empty())
    Diags.error(Loop->getForLoc(), DiagCategory::Unsupported,
                "this loop does not match a liftable pattern: it is closest "
                "to an implicit-GEMM convolution (its staging copy at line " +
                    llvm::Twine(L.GatherLine) +
                    " gathers through '/' and '%' of the loop's index), and "
                    "the statement at line " +
                    llvm::Twine(Lift->Line) + " breaks it: " + Lift->Message +
                    " (docs/migration.md, 'Convolutions')");
  else
    Diags.error(Loop->getForLoc(), DiagCategory::Unsupported,
                "this loop does not match a liftable pattern: it is closest "
                "to an implicit-GEMM convolution, and the staging copy at "
                "line " +
                    llvm::Twine(L.GatherLine) +
                    " gathers through '/' and '%' of the loop's index in a "
                    "form tawa-rewrite does not read (docs/migration.md, "
                    "'Convolutions')");
  Diags.note(L.Gather->Loc, L.Gather->What);
  if (Lift && !Lift->Message.empty())
    Diags.note(Lift->Loc, Lift->Message);
  for (const LegacyEvidence &E : L.Evidence)
    Diags.note(E.Loc, E.What);
}

} // namespace

void reportLegacyLoop(const LegacyLoop &L, const ForStmt *Loop,
                      const LiftAttempt *Lift, DiagReporter &Diags) {
  const std::string Pattern = L.name();
  if (L.Gather && !(Lift && Lift->Lifted))
    return reportGather(L, Loop, Lift, Diags);
  // A loop no front end read (no pattern) has no statement to name.
  if (Lift && !Lift->Lifted && Lift->Message.empty())
    Lift = nullptr;
  if (Lift) {
    if (Lift->Lifted && !Lift->Message.empty())
      Diags.error(Loop->getForLoc(), DiagCategory::Unsupported,
                  "this loop is a hand-written " + Pattern +
                      " that tawa-rewrite lifts, but the statement at line " +
                      llvm::Twine(Lift->Line) +
                      " stops its migration: " + Lift->Message);
    else if (Lift->Lifted)
      Diags.error(Loop->getForLoc(), DiagCategory::Unsupported,
                  "this loop is a hand-written " + Pattern +
                      " that tawa-rewrite lifts: 'tawa-rewrite --migrate' "
                      "adds its tile-vocabulary form and launches it "
                      "(docs/migration.md); rewrite that result");
    else
      Diags.error(Loop->getForLoc(), DiagCategory::Unsupported,
                  "this loop does not match a liftable pattern: it is "
                  "closest to a hand-written " +
                      Pattern + ", and the statement at line " +
                      llvm::Twine(Lift->Line) + " breaks it: " + Lift->Message);
    if (!Lift->Message.empty())
      Diags.note(Lift->Loc, Lift->Message);
    for (const LegacyEvidence &E : L.Evidence)
      Diags.note(E.Loc, E.What);
    return;
  }
  std::string Msg = "this loop does not match a liftable pattern: ";
  if (L.Pattern == LegacyPattern::None)
    Msg += "it is not written in the tile vocabulary (no tawa::load or "
           "tawa::mma) and accumulates no product, so it is no GEMM loop";
  else
    Msg += "it is a hand-written " + Pattern +
           ", and tawa-rewrite lifts shared-memory tiled, register-blocked "
           "and WMMA GEMMs only. Write "
           "its tiles with tawa::load and its product with tawa::mma "
           "(docs/tile-language.md, docs/migration.md)";
  Diags.error(Loop->getForLoc(), DiagCategory::Unsupported, Msg);
  for (const LegacyEvidence &E : L.Evidence)
    Diags.note(E.Loc, E.What);
}

} // namespace tawa
