//===- DynamicTiles.cpp - tiles carved out of dynamic shared memory -------===//
#include "DynamicTiles.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace tawa {

namespace {

/// Whether VD is an `extern __shared__ T x[];` array.
bool isDynamicArray(const VarDecl *VD) {
  return VD && VD->hasAttr<CUDASharedAttr>() &&
         VD->getType()->isIncompleteArrayType();
}

/// The first dynamic shared-memory array that `E` names anywhere.
const VarDecl *arrayIn(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      if (auto *VD = dyn_cast<VarDecl>(R->getDecl()); isDynamicArray(VD))
        Found = VD;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

/// The value of the integer constant `E`, or nullopt.
std::optional<int64_t> constant(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E->getType()->isIntegerType() || !E->EvaluateAsInt(R, Ctx) ||
      R.Val.getInt().getSignificantBits() > 40)
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// The offset in bytes from the start of `T.Base` that the pointer `E`
/// holds: the array, a tile declared before, either moved by a constant
/// (`p + c`, `c + p`, `p - c`, `&p[c]`) or cast to another pointer type;
/// nullopt for anything else, or an offset before the array's start.
std::optional<int64_t> byteOffset(const Expr *E, const DynamicTiles &T,
                                  ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (auto *C = dyn_cast<ExplicitCastExpr>(E))
    return C->getType()->isPointerType() &&
                   C->getSubExpr()->getType()->isPointerType()
               ? byteOffset(C->getSubExpr(), T, Ctx)
               : std::nullopt;
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    if (R->getDecl() == T.Base)
      return 0;
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    const DynamicTile *X = VD ? T.find(VD) : nullptr;
    return X ? std::optional<int64_t>(X->Offset) : std::nullopt;
  }
  const Expr *Pointer = nullptr, *Index = nullptr;
  int64_t Sign = 1;
  if (auto *B = dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    const bool Left = B->getLHS()->getType()->isPointerType();
    Pointer = Left ? B->getLHS() : B->getRHS();
    Index = Left ? B->getRHS() : B->getLHS();
    Sign = B->getOpcode() == BO_Sub ? -1 : 1;
    if (Sign < 0 && !Left)
      return std::nullopt;
  } else if (auto *U = dyn_cast<UnaryOperator>(E);
             U && U->getOpcode() == UO_AddrOf) {
    if (auto *S =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
      Pointer = S->getBase();
      Index = S->getIdx();
    }
  }
  if (!Pointer || !Pointer->getType()->isPointerType())
    return std::nullopt;
  const QualType Element = Pointer->getType()->getPointeeType();
  std::optional<int64_t> From = byteOffset(Pointer, T, Ctx);
  std::optional<int64_t> Count = constant(Index, Ctx);
  if (!From || !Count || Element->isIncompleteType())
    return std::nullopt;
  const int64_t Offset =
      *From + Sign * *Count * Ctx.getTypeSizeInChars(Element).getQuantity();
  return Offset < 0 ? std::nullopt : std::optional<int64_t>(Offset);
}

/// Whether `E` names the array or one of the tiles.
bool namesTiles(const Expr *E, const DynamicTiles &T) {
  if (mentions(E, T.Base))
    return true;
  for (const DynamicTile &X : T.Tiles)
    if (mentions(E, X.Var))
      return true;
  return false;
}

/// How many times `S` names `VD`.
unsigned references(const Stmt *S, const VarDecl *VD) {
  struct Counter : RecursiveASTVisitor<Counter> {
    const VarDecl *VD;
    unsigned Count = 0;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      Count += R->getDecl() == VD;
      return true;
    }
  } C;
  C.VD = VD;
  C.TraverseStmt(const_cast<Stmt *>(S));
  return C.Count;
}

const char *const Accepted =
    "a tile in dynamic shared memory is a pointer at a constant offset into "
    "the extern array or a tile before it, declared before the loop and "
    "never changed: 'T *As = smem, *Bs = As + TILE * TILE;'";

LiftFailure failure(SourceLocation At, const std::string &What) {
  return LiftFailure{At, What + ": " + Accepted};
}

/// The tile `VD` declares, where its initializer names a dynamic array or
/// a tile.
std::optional<LiftFailure> tile(const VarDecl *VD, DynamicTiles &Into,
                                ASTContext &Ctx) {
  const VarDecl *Array = arrayIn(VD->getInit());
  if (!Into.Base)
    Into.Base = Array;
  if (Array && Array != Into.Base)
    return failure(VD->getLocation(),
                   "'" + VD->getName().str() +
                       "' points into a second "
                       "extern __shared__ array, which starts where the first "
                       "does");
  if (!Into.Base || !namesTiles(VD->getInit(), Into))
    return std::nullopt;
  const QualType T = VD->getType()->isPointerType()
                         ? VD->getType()->getPointeeType()
                         : QualType();
  std::optional<int64_t> Offset = byteOffset(VD->getInit(), Into, Ctx);
  // A pointer to rows or buffers, `T (*As)[C]` or `T (*As)[R][C]`, of
  // constant extents.
  const bool Rows = !T.isNull() && T->isArrayType();
  const ConstantArrayType *Outer =
      Rows ? Ctx.getAsConstantArrayType(T) : nullptr;
  const QualType Row = Outer ? Outer->getElementType() : QualType();
  if (Rows &&
      (!Outer ||
       (Row->isArrayType() &&
        (!Ctx.getAsConstantArrayType(Row) ||
         Ctx.getAsConstantArrayType(Row)->getElementType()->isArrayType()))))
    return failure(VD->getLocation(),
                   "'" + VD->getName().str() +
                       "' points to arrays of other than one or two constant "
                       "dimensions");
  if (T.isNull() || T->isIncompleteType() || !Offset)
    return failure(VD->getLocation(), "'" + VD->getName().str() +
                                          "' is no pointer to a constant "
                                          "offset into '" +
                                          Into.Base->getName().str() + "'");
  const int64_t Size =
      Ctx.getTypeSizeInChars(Ctx.getBaseElementType(T)).getQuantity();
  if (*Offset % Size != 0)
    return failure(VD->getLocation(),
                   "'" + VD->getName().str() + "' starts " +
                       std::to_string(*Offset) +
                       " bytes into the array, which is no multiple of its "
                       "element's size");
  Into.Tiles.push_back({VD, *Offset, 0});
  return std::nullopt;
}

/// Offsets distinct, extents to the next offset.
std::optional<LiftFailure> extents(DynamicTiles &T, ASTContext &Ctx) {
  llvm::sort(T.Tiles, [](const DynamicTile &L, const DynamicTile &R) {
    return L.Offset < R.Offset;
  });
  for (size_t I = 0; I + 1 < T.Tiles.size(); ++I) {
    DynamicTile &X = T.Tiles[I];
    const int64_t Size =
        Ctx.getTypeSizeInChars(
               Ctx.getBaseElementType(X.Var->getType()->getPointeeType()))
            .getQuantity();
    X.Extent = (T.Tiles[I + 1].Offset - X.Offset) / Size;
    if (T.Tiles[I + 1].Offset == X.Offset)
      return failure(T.Tiles[I + 1].Var->getLocation(),
                     "'" + T.Tiles[I + 1].Var->getName().str() +
                         "' starts at the same element as '" +
                         X.Var->getName().str() + "'");
  }
  return std::nullopt;
}

/// Nothing but the tiles' initializers names the array, and no tile
/// changes.
std::optional<LiftFailure> onlyTiles(const FunctionDecl *Kernel,
                                     const DynamicTiles &T) {
  const Stmt *Body = Kernel->getBody();
  for (const DynamicTile &X : T.Tiles)
    if (isModified(X.Var, Body))
      return failure(X.Var->getLocation(), "the tile pointer '" +
                                               X.Var->getName().str() +
                                               "' is changed in the kernel");
  // A local array's declaration names it once more, in no DeclRefExpr.
  unsigned Initializers = 0;
  for (const DynamicTile &X : T.Tiles)
    Initializers += references(X.Var->getInit(), T.Base);
  if (references(Body, T.Base) != Initializers)
    return failure(T.Base->getLocation(),
                   "'" + T.Base->getName().str() +
                       "' is used other than through the tile pointers");
  for (const FunctionDecl *H : deviceHelpers(Body))
    if (mentions(H->getBody(), T.Base))
      return failure(H->getLocation(),
                     helperName(H) + " uses '" + T.Base->getName().str() + "'");
  return std::nullopt;
}

} // namespace

const DynamicTile *DynamicTiles::find(const VarDecl *VD) const {
  for (const DynamicTile &T : Tiles)
    if (T.Var == VD)
      return &T;
  return nullptr;
}

DynamicTiles dynamicTiles(const FunctionDecl *Kernel,
                          llvm::ArrayRef<Stmt *> Before, ASTContext &Ctx) {
  DynamicTiles T;
  for (const Stmt *S : Before)
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasInit())
          if ((T.Failure = tile(VD, T, Ctx)))
            return T;
  if (T.Tiles.empty())
    return T;
  if ((T.Failure = extents(T, Ctx)))
    return T;
  T.Failure = onlyTiles(Kernel, T);
  return T;
}

std::vector<IndexTerm> indexTerms(const Expr *E) {
  std::vector<IndexTerm> Out;
  struct Walk {
    std::vector<IndexTerm> &Out;
    void operator()(const Expr *E, bool Negated) {
      E = E->IgnoreParenImpCasts();
      auto *B = dyn_cast<BinaryOperator>(E);
      if (B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
        (*this)(B->getLHS(), Negated);
        (*this)(B->getRHS(), Negated != (B->getOpcode() == BO_Sub));
        return;
      }
      Out.push_back({E, Negated});
    }
  } W{Out};
  W(E, false);
  return Out;
}

namespace {

/// `E` as a product: the integer constant of its constant factors, and its
/// one other factor (`(x * 128) * 32` is 4096 and x); nullopt where it is
/// no product of one such factor and constants.
std::optional<std::pair<int64_t, const Expr *>> scaled(const Expr *E,
                                                       ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (std::optional<int64_t> V = constant(E, Ctx))
    return std::pair(*V, static_cast<const Expr *>(nullptr));
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || B->getOpcode() != BO_Mul)
    return std::pair(int64_t(1), E);
  auto L = scaled(B->getLHS(), Ctx), R = scaled(B->getRHS(), Ctx);
  int64_t Product = 0;
  if (!L || !R || (L->second && R->second) ||
      __builtin_mul_overflow(L->first, R->first, &Product))
    return std::nullopt;
  return std::pair(Product, L->second ? L->second : R->second);
}

} // namespace

const Expr *stridedBy(const Expr *E, int64_t Stride, ASTContext &Ctx) {
  auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!B || B->getOpcode() != BO_Mul)
    return nullptr;
  auto S = scaled(B, Ctx);
  return S && S->second && S->first == Stride ? S->second : nullptr;
}

namespace {

/// Whether `E` depends on the iteration of `Loop` (ringStride).
class IterationDependence {
public:
  IterationDependence(const ForStmt *Loop, const VarDecl *Counter)
      : Body(Loop->getBody()), Counter(Counter) {
    struct Finder : RecursiveASTVisitor<Finder> {
      llvm::SmallPtrSet<const VarDecl *, 16> *Local, *Inner;
      bool VisitVarDecl(VarDecl *VD) {
        Local->insert(VD);
        return true;
      }
      bool VisitForStmt(ForStmt *F) {
        if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
          for (const Decl *D : DS->decls())
            if (auto *VD = dyn_cast<VarDecl>(D))
              Inner->insert(VD);
        return true;
      }
    } F;
    F.Local = &Local;
    F.Inner = &Inner;
    F.TraverseStmt(const_cast<Stmt *>(Body));
  }

  bool operator()(const Expr *E, unsigned Depth = 0) const {
    struct Refs : RecursiveASTVisitor<Refs> {
      std::vector<const VarDecl *> Vars;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (auto *VD = dyn_cast<VarDecl>(R->getDecl()))
          Vars.push_back(VD);
        return true;
      }
    } R;
    R.TraverseStmt(const_cast<Expr *>(E));
    for (const VarDecl *VD : R.Vars) {
      if (VD == Counter)
        return true;
      if (Inner.contains(VD))
        continue;
      if (!Local.contains(VD)) {
        if (isModified(VD, Body))
          return true;
        continue;
      }
      if ((VD->hasInit() && Depth < 8 && (*this)(VD->getInit(), Depth + 1)) ||
          isModified(VD, Body))
        return true;
    }
    return false;
  }

private:
  const Stmt *Body;
  const VarDecl *Counter;
  llvm::SmallPtrSet<const VarDecl *, 16> Local, Inner;
};

} // namespace

std::optional<int64_t> ringStride(const VarDecl *Tile, const ForStmt *Loop,
                                  const VarDecl *Counter, ASTContext &Ctx) {
  // The indices `Tile[i]` and the sums `Tile + i + j`.
  struct Subscripts : RecursiveASTVisitor<Subscripts> {
    const VarDecl *Tile;
    std::vector<const Expr *> Indices;
    bool names(const Expr *E) const {
      auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == Tile;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr *S) {
      if (names(S->getBase()))
        Indices.push_back(S->getIdx());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->getOpcode() == BO_Add && B->getType()->isPointerType() &&
          llvm::any_of(indexTerms(B),
                       [&](const IndexTerm &T) { return names(T.E); }))
        Indices.push_back(B);
      return true;
    }
  } S;
  S.Tile = Tile;
  S.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  const IterationDependence Depends(Loop, Counter);
  std::optional<int64_t> Stride;
  for (const Expr *Index : S.Indices) {
    std::optional<int64_t> Largest;
    for (const IndexTerm &T : indexTerms(Index)) {
      auto *B = dyn_cast<BinaryOperator>(T.E);
      auto S = B && B->getOpcode() == BO_Mul ? scaled(B, Ctx) : std::nullopt;
      if (!T.Negated && S && S->second && S->first > 0 && Depends(S->second) &&
          (!Largest || S->first > *Largest))
        Largest = S->first;
    }
    if (!Largest)
      continue;
    if (Stride && *Stride != *Largest)
      return std::nullopt;
    Stride = Largest;
  }
  return Stride;
}

QualType tileElementType(const VarDecl *Tile, ASTContext &Ctx) {
  const QualType T = Tile->getType();
  return Ctx.getBaseElementType(T->isPointerType() ? T->getPointeeType() : T)
      .getUnqualifiedType();
}

} // namespace tawa
