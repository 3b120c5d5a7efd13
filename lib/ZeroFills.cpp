//===- ZeroFills.cpp - a zero store followed by a checked copy ------------===//

#include "ZeroFills.h"

#include "LiftSupport.h"

#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace tawa {
namespace {

/// The variable a place `x` (a variable, or an array element of one,
/// `As[i][j]`) names, with the variables its indices read; null for any
/// other expression or an index with side effects.
const VarDecl *placeOf(const Expr *E, const ASTContext &Ctx,
                       llvm::SmallVectorImpl<const VarDecl *> &Reads) {
  E = E->IgnoreParenImpCasts();
  while (auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *I = S->getIdx();
    if (I->HasSideEffects(Ctx))
      return nullptr;
    struct Collect : RecursiveASTVisitor<Collect> {
      llvm::SmallVectorImpl<const VarDecl *> *Out;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (auto *VD = dyn_cast<VarDecl>(R->getDecl()))
          Out->push_back(VD);
        return true;
      }
    } C;
    C.Out = &Reads;
    C.TraverseStmt(const_cast<Expr *>(I));
    E = S->getBase()->IgnoreParenImpCasts();
  }
  auto *R = dyn_cast<DeclRefExpr>(E);
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

/// The variable `S` declares alone, of a scalar type, with a zero
/// (`float v = 0.0f;`); null for anything else.
const VarDecl *zeroDeclared(const Stmt *S) {
  auto *DS = dyn_cast<DeclStmt>(S);
  auto *VD = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                      : nullptr;
  return VD && VD->isLocalVarDecl() && !VD->getType()->isArrayType() &&
                 !VD->getType()->isReferenceType() && VD->hasInit() &&
                 isZero(VD->getInit())
             ? VD
             : nullptr;
}

bool samePlace(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// Whether `S` may stand between a zero store of `Var`'s place, whose
/// indices read `Reads`, and the copy that overwrites it.
bool keepsPlace(const Stmt *S, const VarDecl *Var,
                llvm::ArrayRef<const VarDecl *> Reads, ASTContext &Ctx) {
  if (mentions(S, Var))
    return false;
  if (llvm::any_of(Reads, [&](const VarDecl *V) { return isModified(V, S); }))
    return false;
  // Only assignments of places, and checks around them, whose values call
  // nothing that may write.
  const Expr *L = nullptr, *R = nullptr;
  if (assignment(S, L, R))
    return !mayWrite(R, Ctx) && !L->HasSideEffects(Ctx);
  if (auto *If = dyn_cast<IfStmt>(S))
    return !If->getInit() && !If->getConditionVariable() && !If->getElse() &&
           !mayWrite(If->getCond(), Ctx) && single(If->getThen()) &&
           keepsPlace(single(If->getThen()), Var, Reads, Ctx);
  return false;
}

} // namespace

llvm::DenseMap<const IfStmt *, const Stmt *>
zeroFilledCopies(llvm::ArrayRef<const Stmt *> Body, ASTContext &Ctx) {
  llvm::DenseMap<const IfStmt *, const Stmt *> Pairs;
  for (size_t I = 0; I < Body.size(); ++I) {
    const Expr *X = nullptr, *Zero = nullptr;
    llvm::SmallVector<const VarDecl *, 4> Reads;
    const VarDecl *Var = assignment(Body[I], X, Zero) && isZero(Zero)
                             ? placeOf(X, Ctx, Reads)
                             : zeroDeclared(Body[I]);
    if (!Var)
      continue;
    // The place the copy writes: x itself, or the variable declared.
    auto Same = [&](const Expr *Y) {
      if (X)
        return samePlace(X, Y, Ctx);
      auto *R = dyn_cast<DeclRefExpr>(Y->IgnoreParenImpCasts());
      return R && R->getDecl() == Var;
    };
    for (size_t J = I + 1; J < Body.size(); ++J) {
      auto *If = dyn_cast<IfStmt>(Body[J]);
      const Expr *Y = nullptr, *V = nullptr;
      if (If && !If->getElse() && !If->getInit() &&
          !If->getConditionVariable() &&
          assignment(single(If->getThen()), Y, V) && Same(Y) &&
          !mentions(If->getCond(), Var) && !mentions(V, Var) &&
          !Pairs.count(If)) {
        Pairs[If] = Body[I];
        break;
      }
      if (!keepsPlace(Body[J], Var, Reads, Ctx))
        break;
    }
  }
  return Pairs;
}

} // namespace tawa
