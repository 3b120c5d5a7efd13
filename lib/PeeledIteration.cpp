//===- PeeledIteration.cpp - a tile loop's last iteration after it --------===//
#include "PeeledIteration.h"
#include "LiftSupport.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseMap.h"

#include <set>

using namespace clang;

namespace tawa {
namespace {

/// Structural equality of a body statement and a statement after the loop:
/// the same kinds of nodes with the same operators, literals, casts, types
/// and declarations, but for the counter's reads and the variables declared
/// within the compared statements.
class SameStatement {
public:
  SameStatement(const VarDecl *Counter, const PeelReading &R, ASTContext &Ctx)
      : Counter(Counter), R(R), Ctx(Ctx) {}

  /// Whether a buffer number stands for a parity of the counter.
  bool EvenBound = false;

  /// What the comparisons so far recorded, to undo later ones.
  struct Snapshot {
    llvm::DenseMap<const Decl *, const Decl *> Pairs;
    std::set<const Decl *> Read;
    bool EvenBound;
  };
  Snapshot snapshot() const { return {Pairs, Read, EvenBound}; }
  void restore(const Snapshot &S) {
    Pairs = S.Pairs;
    Read = S.Read;
    EvenBound = S.EvenBound;
  }

  /// same(), with the pairs of variables that a failed comparison made
  /// undone.
  bool sameStatement(const Stmt *B, const Stmt *A) {
    const llvm::DenseMap<const Decl *, const Decl *> Before = Pairs;
    const std::set<const Decl *> ReadBefore = Read;
    const bool EvenBefore = EvenBound;
    if (same(B, A))
      return true;
    Pairs = Before;
    Read = ReadBefore;
    EvenBound = EvenBefore;
    return false;
  }

  /// The body's variables whose reads a statement after the loop repeats.
  std::set<const Decl *> Read;

  bool same(const Stmt *B, const Stmt *A) {
    B = withoutHints(B);
    A = withoutHints(A);
    if (!B || !A)
      return B == A;
    if (auto *EB = dyn_cast<Expr>(B)) {
      auto *EA = dyn_cast<Expr>(A);
      if (!EA)
        return false;
      // A read of the counter, t = tiles after the loop.
      if (auto *D = dyn_cast<DeclRefExpr>(EB->IgnoreParenImpCasts());
          D && D->getDecl() == Counter)
        return EA->getType()->isIntegerType() && R.IsBound(EA);
      // A buffer number for the counter's parity (`s_a[1]` for `s_a[(t -
      // 1) & 1]`), which holds where the bound is even.
      if (auto *L = dyn_cast<IntegerLiteral>(EA->IgnoreParenImpCasts());
          L && EB->getType()->isIntegerType() &&
          !isa<IntegerLiteral>(EB->IgnoreParenImpCasts()))
        if (std::optional<int64_t> V = R.ParityIfEven(EB)) {
          EvenBound |= L->getValue() == uint64_t(*V);
          return L->getValue() == uint64_t(*V);
        }
      B = EB->IgnoreParens();
      A = EA->IgnoreParens();
      if (!Ctx.hasSameType(cast<Expr>(B)->getType(), cast<Expr>(A)->getType()))
        return false;
    }
    if (B->getStmtClass() != A->getStmtClass() || !sameNode(B, A))
      return false;
    auto CB = B->children(), CA = A->children();
    auto IB = CB.begin(), IA = CA.begin();
    for (; IB != CB.end() && IA != CA.end(); ++IB, ++IA)
      if (!same(*IB, *IA))
        return false;
    return IB == CB.end() && IA == CA.end();
  }

private:
  /// `S` without loop hints (`#pragma unroll`), which change no value.
  static const Stmt *withoutHints(const Stmt *S) {
    while (auto *A = dyn_cast_or_null<AttributedStmt>(S)) {
      if (!llvm::all_of(A->getAttrs(),
                        [](const Attr *X) { return isa<LoopHintAttr>(X); }))
        return S;
      S = A->getSubStmt();
    }
    return S;
  }

  bool sameDecl(const Decl *B, const Decl *A) const {
    if (B == A)
      return true;
    auto It = Pairs.find(B);
    return It != Pairs.end() && It->second == A;
  }

  /// The node's own content (its children are compared after); false for
  /// a kind of node not listed, whose content is not compared.
  bool sameNode(const Stmt *B, const Stmt *A) {
    if (auto *L = dyn_cast<InitListExpr>(B))
      return L->getInitializedFieldInUnion() ==
             cast<InitListExpr>(A)->getInitializedFieldInUnion();
    if (isa<CompoundStmt, NullStmt, ForStmt, IfStmt, WhileStmt, DoStmt,
            BreakStmt, ContinueStmt, ArraySubscriptExpr, ConditionalOperator,
            CallExpr, ImplicitValueInitExpr, MaterializeTemporaryExpr,
            ExprWithCleanups, CXXBindTemporaryExpr, ConstantExpr>(B) &&
        !isa<CXXOperatorCallExpr>(B))
      return true;
    if (auto *D = dyn_cast<DeclStmt>(B))
      return sameDecls(D, cast<DeclStmt>(A));
    if (auto *D = dyn_cast<DeclRefExpr>(B)) {
      Read.insert(D->getDecl());
      return sameDecl(D->getDecl(), cast<DeclRefExpr>(A)->getDecl());
    }
    if (auto *L = dyn_cast<IntegerLiteral>(B))
      return L->getValue() == cast<IntegerLiteral>(A)->getValue();
    if (auto *L = dyn_cast<FloatingLiteral>(B))
      return L->getValue().bitwiseIsEqual(cast<FloatingLiteral>(A)->getValue());
    if (auto *L = dyn_cast<CXXBoolLiteralExpr>(B))
      return L->getValue() == cast<CXXBoolLiteralExpr>(A)->getValue();
    if (auto *L = dyn_cast<CharacterLiteral>(B))
      return L->getValue() == cast<CharacterLiteral>(A)->getValue();
    if (auto *O = dyn_cast<BinaryOperator>(B))
      return O->getOpcode() == cast<BinaryOperator>(A)->getOpcode();
    if (auto *O = dyn_cast<UnaryOperator>(B))
      return O->getOpcode() == cast<UnaryOperator>(A)->getOpcode();
    if (auto *C = dyn_cast<CastExpr>(B))
      return C->getCastKind() == cast<CastExpr>(A)->getCastKind();
    if (auto *M = dyn_cast<MemberExpr>(B))
      return M->getMemberDecl() == cast<MemberExpr>(A)->getMemberDecl() &&
             M->isArrow() == cast<MemberExpr>(A)->isArrow();
    if (auto *O = dyn_cast<CXXOperatorCallExpr>(B))
      return O->getOperator() == cast<CXXOperatorCallExpr>(A)->getOperator();
    if (auto *C = dyn_cast<CXXConstructExpr>(B))
      return C->getConstructor() == cast<CXXConstructExpr>(A)->getConstructor();
    if (auto *D = dyn_cast<CXXDefaultArgExpr>(B))
      return D->getParam() == cast<CXXDefaultArgExpr>(A)->getParam();
    if (auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(B))
      return S->getParameter() ==
             cast<SubstNonTypeTemplateParmExpr>(A)->getParameter();
    if (auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(B)) {
      auto *V = cast<UnaryExprOrTypeTraitExpr>(A);
      return U->getKind() == V->getKind() &&
             U->isArgumentType() == V->isArgumentType() &&
             (!U->isArgumentType() ||
              Ctx.hasSameType(U->getArgumentType(), V->getArgumentType()));
    }
    return false;
  }

  /// Declarations of variables of the same types and storage, each of the
  /// body's then standing for its counterpart after the loop.
  bool sameDecls(const DeclStmt *B, const DeclStmt *A) {
    auto DB = B->decls(), DA = A->decls();
    if (std::distance(DB.begin(), DB.end()) !=
        std::distance(DA.begin(), DA.end()))
      return false;
    for (auto IB = DB.begin(), IA = DA.begin(); IB != DB.end(); ++IB, ++IA) {
      auto *VB = dyn_cast<VarDecl>(*IB), *VA = dyn_cast<VarDecl>(*IA);
      if (!VB || !VA || !sameVariable(VB, VA))
        return false;
      Pairs[VB] = VA;
    }
    return true;
  }

public:
  /// Whether `VB` of the body and `VA` after the loop are variables of the
  /// same type and storage.
  bool sameVariable(const VarDecl *VB, const VarDecl *VA) const {
    if (!Ctx.hasSameType(VB->getType(), VA->getType()) ||
        VB->getStorageClass() != VA->getStorageClass() ||
        VB->hasAttr<CUDASharedAttr>() || VA->hasAttr<CUDASharedAttr>() ||
        VB->hasInit() != VA->hasInit() ||
        VB->getInitStyle() != VA->getInitStyle())
      return false;
    return true;
  }
  /// Records that `VB` of the body stands for `VA` after the loop.
  void pair(const VarDecl *VB, const VarDecl *VA) { Pairs[VB] = VA; }

private:
  const VarDecl *Counter;
  const PeelReading &R;
  ASTContext &Ctx;
  llvm::DenseMap<const Decl *, const Decl *> Pairs;
};

/// The variable whose storage an assignment to `E` writes: the base of an
/// element, member or pointee (`x`, `a[i][j]`, `*(float4 *)&a[i]`, `p[i]`,
/// `s.f`); null where it is none.
const VarDecl *writtenBase(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (auto *R = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(R->getDecl());
    if (auto *S = dyn_cast<ArraySubscriptExpr>(E))
      E = S->getBase();
    else if (auto *M = dyn_cast<MemberExpr>(E))
      E = M->getBase();
    else if (auto *U = dyn_cast<UnaryOperator>(E);
             U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
      E = U->getSubExpr();
    else if (auto *O = dyn_cast<CXXOperatorCallExpr>(E);
             O && O->getOperator() == OO_Subscript)
      E = O->getArg(0);
    else if (auto *B = dyn_cast<BinaryOperator>(E);
             B && B->isAdditiveOp() && B->getType()->isPointerType())
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    else
      return nullptr;
  }
  return nullptr;
}

/// The variables a statement left out of the last iteration writes, and
/// whether its effects are all such writes (Known false: an asm statement,
/// a call with other effects, a write through something unnamed).
struct Writes : RecursiveASTVisitor<Writes> {
  std::set<const VarDecl *> Vars;
  bool Known = true;
  SourceLocation Unknown;

  /// A write through a local pointer or reference may reach any variable
  /// it points to: unknown. Through a parameter it reaches a matrix,
  /// charged to the parameter.
  void write(const Expr *Target, SourceLocation At) {
    const VarDecl *V = writtenBase(Target);
    if (V && (isa<ParmVarDecl>(V) || !(V->getType()->isPointerType() ||
                                       V->getType()->isReferenceType())))
      Vars.insert(V);
    else
      unknown(At);
  }
  void unknown(SourceLocation At) {
    if (Known)
      Unknown = At;
    Known = false;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      write(B->getLHS(), B->getBeginLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      write(U->getSubExpr(), U->getBeginLoc());
    return true;
  }
  bool VisitDeclStmt(DeclStmt *D) {
    for (const Decl *X : D->decls())
      if (auto *V = dyn_cast<VarDecl>(X))
        Vars.insert(V);
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *A) {
    unknown(A->getBeginLoc());
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    unknown(L->getBeginLoc());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (auto *O = dyn_cast<CXXOperatorCallExpr>(C)) {
      const OverloadedOperatorKind K = O->getOperator();
      if (K == OO_Call) { // a lambda or functor: what it writes is unseen
        unknown(C->getBeginLoc());
        return true;
      }
      if (isAssignmentOperator(K) || K == OO_PlusPlus || K == OO_MinusMinus) {
        write(O->getArg(0), O->getBeginLoc());
        return true;
      }
      // Another operator of a class (__half's *, +): a function of its
      // operands' values, as any call below.
      if (!F || !readsOnly(F))
        unknown(C->getBeginLoc());
      return true;
    }
    if (F && F->getName() == "__syncthreads")
      return true;
    // A function of its arguments' values: it returns a value and takes
    // nothing it could write through.
    if (!F || F->getReturnType()->isVoidType() || isa<CXXMemberCallExpr>(C) ||
        !readsOnly(F))
      unknown(C->getBeginLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    if (!readsOnly(C->getConstructor()))
      unknown(C->getBeginLoc());
    return true;
  }

  static bool isAssignmentOperator(OverloadedOperatorKind K) {
    switch (K) {
    case OO_Equal:
    case OO_PlusEqual:
    case OO_MinusEqual:
    case OO_StarEqual:
    case OO_SlashEqual:
    case OO_PercentEqual:
    case OO_AmpEqual:
    case OO_PipeEqual:
    case OO_CaretEqual:
    case OO_LessLessEqual:
    case OO_GreaterGreaterEqual:
      return true;
    default:
      return false;
    }
  }

  /// Whether `F` takes nothing it could write through: every pointer or
  /// reference parameter is to const data that holds no pointer.
  static bool readsOnly(const FunctionDecl *F) {
    if (F->isVariadic())
      return false;
    for (const ParmVarDecl *P : F->parameters()) {
      QualType T = P->getType();
      while (T->isPointerType() || T->isReferenceType()) {
        T = T->getPointeeType();
        if (!T.isConstQualified() || T->isPointerType() || T->isReferenceType())
          return false;
      }
      if (const auto *R = T->getAsCXXRecordDecl();
          R && R->hasDefinition() &&
          llvm::any_of(R->fields(), [](const FieldDecl *X) {
            return X->getType()->isPointerType() ||
                   X->getType()->isReferenceType();
          }))
        return false;
    }
    return true;
  }
};

/// A top-level statement of the loop body, or one variable of a
/// declaration of several.
struct Unit {
  const Stmt *S;
  const VarDecl *Var;
  size_t Index; ///< its place in the body
  /// What it runs: the statement, or the variable's initializer.
  const Stmt *code() const { return Var ? Var->getInit() : S; }
};

/// Whether `S` holds a barrier: `__syncthreads()`, `__syncwarp()` or an
/// asm statement of `bar.sync 0;`.
bool hasBarrier(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      Found |= F && (F->getName() == "__syncthreads" ||
                     F->getName() == "__syncwarp");
      return !Found;
    }
    bool VisitGCCAsmStmt(GCCAsmStmt *A) {
      Found |= LifterBase::isBarrier(A);
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The variables declared anywhere in `S`.
std::vector<const VarDecl *> declaredIn(const Stmt *S) {
  struct Finder : RecursiveASTVisitor<Finder> {
    std::vector<const VarDecl *> Vars;
    bool VisitVarDecl(VarDecl *V) {
      Vars.push_back(V);
      return true;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Vars;
}

std::string lineOf(const Stmt *S, ASTContext &Ctx) {
  return std::to_string(
      Ctx.getSourceManager().getExpansionLineNumber(S->getBeginLoc()));
}

} // namespace

std::optional<PeeledStatements>
peeledIteration(const ForStmt *Loop, const VarDecl *Counter,
                ArrayRef<Stmt *> After, const PeelReading &R, ASTContext &Ctx,
                PeelFailure &Why) {
  const std::string Expected =
      "expected the code after a tile loop counted from 1 to multiply the "
      "last tiles as the loop body does, its statements in the body's order "
      "with the counter replaced by the loop's bound (the body's '(" +
      Counter->getName().str() + " - 1) & 1' read as '(tiles - 1) & 1')";
  auto fail = [&](SourceLocation L, const std::string &Msg) {
    Why = {L, Msg};
    return std::nullopt;
  };
  auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
  if (!Body)
    return fail(Loop->getBody()->getBeginLoc(), Expected);
  SameStatement Same(Counter, R, Ctx);
  // The body's statements, a declaration of several variables one unit per
  // variable (`int cur = (t - 1) & 1, nxt = t & 1;`).
  std::vector<Unit> Units;
  for (const Stmt *S : Body->body()) {
    auto *D = dyn_cast<DeclStmt>(S);
    if (!D || D->isSingleDecl()) {
      Units.push_back({S, nullptr, Units.size()});
      continue;
    }
    for (const Decl *X : D->decls())
      Units.push_back({S, dyn_cast<VarDecl>(X), Units.size()});
  }
  auto matches = [&](const Unit &U, const Stmt *A) {
    if (!U.Var)
      return Same.sameStatement(U.S, A);
    auto *D = dyn_cast<DeclStmt>(A);
    auto *VA = D && D->isSingleDecl() ? dyn_cast<VarDecl>(D->getSingleDecl())
                                      : nullptr;
    if (!VA || !Same.sameVariable(U.Var, VA) ||
        !Same.sameStatement(U.Var->getInit(), VA->getInit()))
      return false;
    Same.pair(U.Var, VA);
    return true;
  };
  std::vector<Unit> Repeated, Skipped;
  size_t Count = 0;
  auto It = Units.begin();
  // Each statement after the loop, or each of a block's, matches the next
  // unit that it repeats; a block is taken whole or not at all.
  for (; Count < After.size(); ++Count) {
    llvm::ArrayRef<Stmt *> Items(&After[Count], 1);
    if (auto *Block = dyn_cast<CompoundStmt>(After[Count]))
      Items = llvm::ArrayRef(Block->body_begin(), Block->body_end());
    const SameStatement::Snapshot Saved = Same.snapshot();
    const size_t Repeats = Repeated.size(), Skips = Skipped.size();
    auto From = It;
    bool Whole = !Items.empty();
    for (const Stmt *A : Items) {
      auto Match = std::find_if(From, Units.end(),
                                [&](const Unit &U) { return matches(U, A); });
      if (Match == Units.end()) {
        Whole = false;
        break;
      }
      Skipped.insert(Skipped.end(), From, Match);
      Repeated.push_back(*Match);
      From = Match + 1;
    }
    if (!Whole) {
      Same.restore(Saved);
      Repeated.resize(Repeats);
      Skipped.resize(Skips);
      break;
    }
    It = From;
  }
  Skipped.insert(Skipped.end(), It, Units.end());
  const ArrayRef<Stmt *> Rest = After.drop_front(Count);
  const SourceLocation At =
      Count < After.size() ? After[Count]->getBeginLoc() : Loop->getEndLoc();
  // The first left-out write that the code after the loop reads: of a
  // register (most often the accumulator) before one of a tile.
  std::optional<std::string> Register, Tile, Barrier;
  std::vector<const Stmt *> Flips;
  const size_t LastRepeated = Repeated.empty() ? 0 : Repeated.back().Index;
  for (const Unit &U : Skipped) {
    const Stmt *S = U.S;
    // A barrier left out orders nothing the last iteration needs only
    // where it follows every statement repeated, and the code after them
    // touches no shared memory that other threads may still read.
    if (!U.Var && hasBarrier(S)) {
      if (!Repeated.empty() && U.Index < LastRepeated && !Barrier)
        Barrier = "the barrier at line " + lineOf(S, Ctx) +
                  " of the body, left out after the loop, orders statements "
                  "that it repeats";
      if (auto X = llvm::find_if(Rest,
                                 [&](const Stmt *R) {
                                   return namesSharedMemory(
                                       R, Ctx.getSourceManager());
                                 });
          X != Rest.end() && !Barrier)
        Barrier = "the barrier at line " + lineOf(S, Ctx) +
                  " of the body, left out after the loop, is the last "
                  "before the code at line " +
                  lineOf(*X, Ctx) +
                  ", which may touch shared memory that other threads still "
                  "read";
      if (LifterBase::isBarrier(S))
        continue;
    }
    Writes W;
    if (U.Var)
      W.Vars.insert(U.Var);
    W.TraverseStmt(const_cast<Stmt *>(U.code()));
    if (!W.Known)
      return fail(At, Expected + "; line " + lineOf(S, Ctx) +
                          " of the body, left out after the loop, has "
                          "effects other than writes to variables");
    for (const VarDecl *V : W.Vars) {
      auto Names = [&](const Unit &X) {
        return X.code() && mentions(X.code(), V);
      };
      const bool Shared = V->hasAttr<CUDASharedAttr>();
      const Stmt *Reader = nullptr;
      if (!Shared && Same.Read.count(V))
        if (auto I = llvm::find_if(Repeated, Names); I != Repeated.end())
          Reader = I->S;
      if (auto I = llvm::find_if(Rest,
                                 [&](const Stmt *X) { return mentions(X, V); });
          !Reader && I != Rest.end())
        Reader = *I;
      // A buffer index the body flips at its end holds, after the loop,
      // its value at the start of the last iteration.
      if (Reader && !Shared && R.FlipOf && R.FlipOf(S) == V &&
          llvm::none_of(Rest, [&](const Stmt *X) { return mentions(X, V); })) {
        Flips.push_back(S);
        continue;
      }
      std::optional<std::string> &First = Shared ? Tile : Register;
      if (Reader && !First)
        First = "line " + lineOf(S, Ctx) +
                " of the body, left out after the loop, writes '" +
                V->getName().str() + "', which line " + lineOf(Reader, Ctx) +
                " reads";
    }
  }
  const std::string Unmatched =
      Count < After.size()
          ? "the statement at line " + lineOf(After[Count], Ctx) +
                " repeats no statement of the body, and "
          : "";
  if (Register || Tile)
    return fail(At,
                Expected + "; " + Unmatched + (Register ? *Register : *Tile));
  if (Barrier)
    return fail(At, Expected + "; " + *Barrier);
  // The variables the last iteration declares after the loop stand for
  // the body's, which no code after the loop could read.
  for (const Stmt *A : After.take_front(Count))
    for (const VarDecl *V : declaredIn(A))
      for (const Stmt *X : Rest)
        if (mentions(X, V))
          return fail(X->getBeginLoc(),
                      "'" + V->getName().str() +
                          "', declared after a tile loop counted from 1 as "
                          "part of its last iteration, is read after it; "
                          "only the accumulators may carry a value out of "
                          "the last iteration");
  if (Count == 0)
    return fail(At, Expected);
  return PeeledStatements{Count, Same.EvenBound, Flips};
}

} // namespace tawa
