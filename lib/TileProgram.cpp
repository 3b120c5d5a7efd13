//===- TileProgram.cpp - extracting the tile program from the AST ---------===//
#include "tawa/TileProgram.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace tawa {

StringRef elementName(ElementType T) {
  switch (T) {
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  case ElementType::F32:
    return "f32";
  }
  return "?";
}

unsigned elementBytes(ElementType T) { return T == ElementType::F32 ? 4 : 2; }

namespace {

/// Strips the implicit nodes around a value: casts, temporaries, copies.
const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (auto *C = dyn_cast<CXXConstructExpr>(E);
        C && C->getNumArgs() == 1 &&
        (C->getConstructor()->isCopyOrMoveConstructor() ||
         C->getConstructor()->isConvertingConstructor(false)))
      E = C->getArg(0);
    if (auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    if (E == Prev)
      break;
  }
  return E;
}

/// The fully qualified name of the function a call names directly ("" if none).
std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr)
    return FD->getQualifiedNameAsString();
  return "";
}

const CallExpr *asCallTo(const Expr *E, StringRef Name) {
  auto *Call = dyn_cast_or_null<CallExpr>(strip(E));
  return Call && calleeName(Call) == Name ? Call : nullptr;
}

/// The specialization of class template `Name` that `T` is, or null.
const ClassTemplateSpecializationDecl *specializationOf(QualType T,
                                                        StringRef Name) {
  auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec ||
      Spec->getSpecializedTemplate()->getQualifiedNameAsString() != Name)
    return nullptr;
  return Spec;
}

std::optional<ElementType> classify(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return ElementType::F32;
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    StringRef N = RD->getName();
    if (N == "__nv_bfloat16")
      return ElementType::BF16;
    if (N == "__half")
      return ElementType::F16;
  }
  return std::nullopt;
}

const VarDecl *referencedVar(const Expr *E) {
  if (auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<int> integralArg(const TemplateArgumentList *Args, unsigned I) {
  if (!Args || I >= Args->size() ||
      Args->get(I).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<int>(Args->get(I).getAsIntegral().getExtValue());
}

/// Finds where code the rewritten kernel copies reads the CUDA built-in
/// coordinates in a way the copy cannot rename: through a macro, or inside a
/// function it calls.
class HiddenBuiltinFinder : public RecursiveASTVisitor<HiddenBuiltinFinder> {
public:
  explicit HiddenBuiltinFinder(const SourceManager &SM) : SM(SM) {}
  SourceLocation Loc;
  std::string Why;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Loc.isValid() || !isBuiltin(E->getDecl()))
      return true;
    if (E->getLocation().isMacroID()) {
      Loc = SM.getExpansionLoc(E->getLocation());
      Why = "'" + E->getDecl()->getName().str() +
            "' is used inside a macro, where the rewritten kernel cannot "
            "replace it with the coordinates of its tile walk; write it out";
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    if (Loc.isValid() || !FD || !FD->hasBody() ||
        StringRef(FD->getQualifiedNameAsString()).starts_with("tawa::"))
      return true;
    if (const DeclRefExpr *Use = builtinIn(FD, 0)) {
      Loc = SM.getExpansionLoc(E->getBeginLoc());
      Why = "'" + FD->getNameAsString() + "' reads '" +
            Use->getDecl()->getName().str() +
            "', which the rewritten kernel takes from its tile walk, not from "
            "the hardware; compute it in the kernel and pass it in";
    }
    return true;
  }

private:
  static bool isBuiltin(const ValueDecl *D) {
    StringRef N = D->getName();
    return N == "blockIdx" || N == "gridDim" || N == "threadIdx" ||
           N == "blockDim";
  }
  /// A use of a built-in in `FD`'s body or the functions it calls.
  const DeclRefExpr *builtinIn(const FunctionDecl *FD, int Depth) {
    struct Uses : RecursiveASTVisitor<Uses> {
      const DeclRefExpr *Found = nullptr;
      std::vector<const FunctionDecl *> Callees;
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (!Found && isBuiltin(E->getDecl()))
          Found = E;
        return true;
      }
      bool VisitCallExpr(CallExpr *E) {
        if (const FunctionDecl *C = E->getDirectCallee(); C && C->hasBody())
          Callees.push_back(C);
        return true;
      }
    } U;
    if (Depth > 4 || !Seen.insert(FD).second)
      return nullptr;
    U.TraverseStmt(FD->getBody());
    if (U.Found)
      return U.Found;
    for (const FunctionDecl *C : U.Callees)
      if (const DeclRefExpr *Use = builtinIn(C, Depth + 1))
        return Use;
    return nullptr;
  }
  const SourceManager &SM;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
};

/// Finds uses of names whose meaning changes in the rewritten kernel.
class RoleHazardFinder : public RecursiveASTVisitor<RoleHazardFinder> {
public:
  const Expr *Found = nullptr;
  const Stmt *Return = nullptr;
  std::string What;
  bool VisitReturnStmt(ReturnStmt *S) {
    if (!Return)
      Return = S;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Found)
      return true;
    StringRef N = E->getDecl()->getName();
    if (N == "threadIdx" || N == "blockDim") {
      Found = E;
      What = N.str();
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (!Found && calleeName(E) == "__syncthreads") {
      Found = E;
      What = "__syncthreads()";
    }
    return true;
  }
};

class Extractor {
public:
  Extractor(ASTContext &Ctx, DiagReporter &Diags, TileProgram &P)
      : Ctx(Ctx), Diags(Diags), P(P) {}

  bool run() {
    const FunctionDecl *K = P.Kernel;
    if (!K->hasAttr<CUDAGlobalAttr>()) {
      unsupported(P.Pragma.Loc,
                  "'#pragma tawa tile' must be inside a __global__ function");
      return false;
    }
    if (K->isTemplated() || K->isTemplateInstantiation()) {
      unsupported(K->getLocation(), "kernel templates are not rewritten yet");
      return false;
    }
    auto *Body = dyn_cast_or_null<CompoundStmt>(K->getBody());
    auto It = Body ? llvm::find(Body->body(), P.Loop) : nullptr;
    if (!Body || It == Body->body_end()) {
      unsupported(P.Loop->getForLoc(), "the annotated loop must be a statement "
                                       "of the kernel body itself, not "
                                       "nested in another statement");
      return false;
    }
    bool Ok = true;
    for (auto I = Body->body_begin(); I != It; ++I)
      Ok &= prologueStmt(*I);
    if (!P.Acc.Decl) {
      unsupported(P.Loop->getForLoc(), "no 'tawa::Accumulator<float, M, N>' is "
                                       "declared before the annotated loop");
      return false;
    }
    Ok &= loopBody();
    Ok &= epilogue(It + 1, Body->body_end());
    if (Ok)
      Ok &= builtinsAreVisible(Body, It);
    return Ok && Diags.errorCount() == ErrorsAtStart;
  }

  unsigned ErrorsAtStart = 0;

private:
  /// The copied code (prologue, loop header, op coordinates, store) must use
  /// blockIdx/gridDim where the rewrite can rename them.
  bool builtinsAreVisible(const CompoundStmt *Body,
                          CompoundStmt::const_body_iterator Loop) {
    HiddenBuiltinFinder F(Ctx.getSourceManager());
    for (auto I = Body->body_begin(); I != Loop; ++I)
      F.TraverseStmt(const_cast<Stmt *>(*I));
    const Stmt *Header[] = {P.Loop->getInit(), P.Loop->getCond(),
                            P.Loop->getInc()};
    for (const Stmt *S : Header)
      F.TraverseStmt(const_cast<Stmt *>(S));
    for (const TileLoad &L : P.Loads)
      for (const Expr *E : {L.Row0, L.Col0, L.Batch})
        F.TraverseStmt(const_cast<Expr *>(E));
    F.TraverseStmt(const_cast<CallExpr *>(P.Store.Call));
    if (F.Loc.isInvalid())
      return true;
    unsupported(F.Loc, F.Why);
    return false;
  }

  void unsupported(SourceLocation Loc, const Twine &Msg, SourceRange R = {}) {
    Diags.error(Loc, DiagCategory::Unsupported, Msg, R);
  }

  bool prologueStmt(const Stmt *S) {
    if (auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
      if (auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
        if (auto *Spec = specializationOf(VD->getType(), "tawa::Accumulator")) {
          const TemplateArgumentList &Args = Spec->getTemplateArgs();
          if (Args.size() != 3 || !classify(Args[0].getAsType()) ||
              *classify(Args[0].getAsType()) != ElementType::F32) {
            unsupported(
                VD->getLocation(),
                "accumulators must be 'tawa::Accumulator<float, M, N>'");
            return false;
          }
          if (P.Acc.Decl) {
            unsupported(VD->getLocation(),
                        "only one accumulator per tile loop is supported");
            Diags.note(P.Acc.Decl->getLocation(),
                       "first accumulator declared here");
            return false;
          }
          P.Acc = {VD->getNameAsString(), VD, DS, *integralArg(&Args, 1),
                   *integralArg(&Args, 2)};
          return true;
        }
    RoleHazardFinder F;
    F.TraverseStmt(const_cast<Stmt *>(S));
    if (F.Return && !P.PrologueReturn)
      P.PrologueReturn = F.Return;
    if (F.Found) {
      unsupported(F.Found->getBeginLoc(),
                  "the code before the tile loop uses '" + F.What +
                      "'; the rewritten kernel gives threads other roles and a "
                      "different block "
                      "size, so only blockIdx, gridDim and the parameters may "
                      "be used there");
      return false;
    }
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->hasAttr<CUDASharedAttr>()) {
          unsupported(VD->getLocation(),
                      "__shared__ variables are not supported in tile kernels");
          return false;
        }
    return true;
  }

  /// The kernel parameter `E` names, directly or as `param.batch(b)` (then
  /// `Batch` is b).
  const ParmVarDecl *matrixParam(const Expr *E, ElementType &Elem, StringRef Op,
                                 const Expr *&Batch) {
    const Expr *Base = E;
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(strip(E));
        MC && MC->getMethodDecl() &&
        MC->getMethodDecl()->getName() == "batch" && MC->getNumArgs() == 1) {
      Base = MC->getImplicitObjectArgument();
      Batch = MC->getArg(0);
    }
    auto *PV = dyn_cast_or_null<ParmVarDecl>(referencedVar(Base));
    if (!PV || PV->getDeclContext() != P.Kernel) {
      unsupported(E->getBeginLoc(),
                  "the matrix of '" + Op +
                      "' must be a 'tawa::Matrix' parameter of the kernel (or "
                      "'param.batch(b)'), so that the launcher can build its "
                      "tensor map",
                  E->getSourceRange());
      return nullptr;
    }
    auto *Spec = specializationOf(PV->getType(), "tawa::Matrix");
    std::optional<ElementType> T =
        Spec ? classify(Spec->getTemplateArgs()[0].getAsType()) : std::nullopt;
    if (!T) {
      unsupported(
          E->getBeginLoc(),
          "element type of '" + PV->getName() +
              "' is not supported; expected __nv_bfloat16, __half or float",
          E->getSourceRange());
      return nullptr;
    }
    Elem = *T;
    return PV;
  }

  bool load(const VarDecl *VD, const CallExpr *Call) {
    TileLoad L;
    L.Var = VD->getNameAsString();
    L.Decl = VD;
    const FunctionDecl *FD = Call->getDirectCallee();
    auto R = integralArg(FD->getTemplateSpecializationArgs(), 0);
    auto C = integralArg(FD->getTemplateSpecializationArgs(), 1);
    if (!R || !C || Call->getNumArgs() != 3) {
      unsupported(Call->getBeginLoc(),
                  "expected 'tawa::load<ROWS, COLS>(matrix, row0, col0)'");
      return false;
    }
    L.Rows = *R;
    L.Cols = *C;
    L.Matrix = matrixParam(Call->getArg(0), L.Elem, "tawa::load", L.Batch);
    if (!L.Matrix) {
      FailedLoads.push_back(VD);
      return false;
    }
    L.Row0 = Call->getArg(1);
    L.Col0 = Call->getArg(2);
    P.Loads.push_back(L);
    return true;
  }

  std::optional<unsigned> tileOperand(const Expr *E) {
    const VarDecl *VD = referencedVar(E);
    for (unsigned I = 0; I < P.Loads.size(); ++I)
      if (P.Loads[I].Decl == VD)
        return I;
    if (llvm::is_contained(FailedLoads, VD))
      return std::nullopt; // reported at the load
    unsupported(E->getBeginLoc(),
                "mma operands must be tiles loaded with 'tawa::load' in the "
                "same iteration",
                E->getSourceRange());
    return std::nullopt;
  }

  bool mma(const CallExpr *Call) {
    if (Call->getNumArgs() != 3 ||
        referencedVar(Call->getArg(0)) != P.Acc.Decl) {
      unsupported(Call->getBeginLoc(), "expected 'tawa::mma(" + P.Acc.Var +
                                           ", a, b)' accumulating into '" +
                                           P.Acc.Var + "'");
      return false;
    }
    TileMma M;
    M.Call = Call;
    auto A = tileOperand(Call->getArg(1));
    const Expr *BArg = Call->getArg(2);
    if (const CallExpr *T = asCallTo(BArg, "tawa::transpose")) {
      M.TransposeB = true;
      BArg = T->getArg(0);
    }
    auto B = tileOperand(BArg);
    if (!A || !B)
      return false;
    M.A = *A;
    M.B = *B;
    P.Mmas.push_back(M);
    return true;
  }

  bool loopBody() {
    auto *Body = dyn_cast<CompoundStmt>(P.Loop->getBody());
    if (!Body) {
      unsupported(P.Loop->getBody()->getBeginLoc(),
                  "the tile loop body must be a block { ... }");
      return false;
    }
    bool Ok = true;
    for (const Stmt *S : Body->body()) {
      if (isa<NullStmt>(S))
        continue;
      if (auto *DS = dyn_cast<DeclStmt>(S); DS && DS->isSingleDecl())
        if (auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl()))
          if (const CallExpr *Call = asCallTo(VD->getInit(), "tawa::load")) {
            Ok &= load(VD, Call);
            continue;
          }
      if (auto *E = dyn_cast<Expr>(S))
        if (const CallExpr *Call = asCallTo(E, "tawa::mma")) {
          Ok &= mma(Call);
          continue;
        }
      unsupported(
          S->getBeginLoc(),
          "statement not supported in a tile loop; the loop body may hold "
          "'auto t = tawa::load<R, C>(...)' declarations and 'tawa::mma(...)' "
          "calls",
          S->getSourceRange());
      Ok = false;
    }
    if (Ok && P.Mmas.empty()) {
      unsupported(P.Loop->getForLoc(), "the tile loop has no 'tawa::mma'");
      Ok = false;
    }
    if (Ok && P.Mmas.size() > 1) {
      unsupported(P.Mmas[1].Call->getBeginLoc(),
                  "one 'tawa::mma' per tile loop is supported");
      Ok = false;
    }
    return Ok;
  }

  bool epilogue(CompoundStmt::const_body_iterator I,
                CompoundStmt::const_body_iterator E) {
    bool Ok = true;
    for (; I != E; ++I) {
      if (isa<NullStmt>(*I))
        continue;
      const CallExpr *Call =
          isa<Expr>(*I) ? asCallTo(cast<Expr>(*I), "tawa::store") : nullptr;
      if (Call && !P.Store.Call && Call->getNumArgs() == 4 &&
          referencedVar(Call->getArg(3)) == P.Acc.Decl) {
        P.Store.Call = Call;
        P.Store.Matrix = matrixParam(Call->getArg(0), P.Store.Elem,
                                     "tawa::store", P.Store.Batch);
        P.Store.MatrixArg = Call->getArg(0);
        P.Store.Row0 = Call->getArg(1);
        P.Store.Col0 = Call->getArg(2);
        Ok &= P.Store.Matrix != nullptr;
        continue;
      }
      unsupported((*I)->getBeginLoc(),
                  "statement not supported after the tile loop; expected one "
                  "'tawa::store(C, "
                  "row0, col0, " +
                      P.Acc.Var + ")'",
                  (*I)->getSourceRange());
      Ok = false;
    }
    if (Ok && !P.Store.Call) {
      unsupported(P.Loop->getForLoc(),
                  "the accumulator '" + P.Acc.Var +
                      "' is never stored; expected 'tawa::store(C, row0, "
                      "col0, " +
                      P.Acc.Var + ")' after the loop");
      Ok = false;
    }
    return Ok;
  }

  ASTContext &Ctx;
  DiagReporter &Diags;
  TileProgram &P;
  std::vector<const VarDecl *> FailedLoads;
};

} // namespace

const Expr *ignoreOpaque(const Expr *E) {
  while (E) {
    E = E->IgnoreImpCasts();
    auto *O = dyn_cast<OpaqueValueExpr>(E);
    if (!O || !O->getSourceExpr())
      break;
    E = O->getSourceExpr();
  }
  return E;
}

namespace {
class BuiltinReader : public RecursiveASTVisitor<BuiltinReader> {
public:
  BuiltinReader(StringRef Builtin, StringRef Member)
      : Builtin(Builtin), Member(Member) {}
  const Expr *Found = nullptr;
  bool VisitMemberExpr(MemberExpr *E) {
    check(E, E->getBase(), E->getMemberDecl()->getName());
    return true;
  }
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
    check(E, E->getBaseExpr(), E->getPropertyDecl()->getName());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (VD && !isa<ParmVarDecl>(VD) && VD->hasInit() && Seen.insert(VD).second)
      TraverseStmt(const_cast<Expr *>(VD->getInit()));
    return true;
  }

private:
  void check(const Expr *E, const Expr *Base, StringRef Name) {
    auto *DRE = dyn_cast<DeclRefExpr>(ignoreOpaque(Base));
    if (!Found && DRE && DRE->getDecl()->getName() == Builtin &&
        (Member.empty() || Name == Member))
      Found = E;
  }
  StringRef Builtin, Member;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
};
} // namespace

const Expr *findBuiltinRead(const Stmt *S, StringRef Builtin,
                            StringRef Member) {
  if (!S)
    return nullptr;
  BuiltinReader V(Builtin, Member);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Found;
}

bool readsBuiltin(const Stmt *S, StringRef Builtin, StringRef Member) {
  return findBuiltinRead(S, Builtin, Member) != nullptr;
}

std::optional<TileProgram> extractTileProgram(ASTContext &Ctx,
                                              const FunctionDecl *Kernel,
                                              const ForStmt *Loop,
                                              const TilePragma &Pragma,
                                              DiagReporter &Diags) {
  TileProgram P;
  P.Kernel = Kernel;
  P.Loop = Loop;
  P.Pragma = Pragma;
  Extractor X(Ctx, Diags, P);
  X.ErrorsAtStart = Diags.errorCount();
  if (!X.run())
    return std::nullopt;
  return P;
}

} // namespace tawa
