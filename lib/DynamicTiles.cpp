//===- DynamicTiles.cpp - tiles carved out of dynamic shared memory -------===//
#include "DynamicTiles.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

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
  if (T.isNull() || T->isIncompleteType() || T->isArrayType() || !Offset)
    return failure(VD->getLocation(), "'" + VD->getName().str() +
                                          "' is no pointer to a constant "
                                          "offset into '" +
                                          Into.Base->getName().str() + "'");
  const int64_t Size = Ctx.getTypeSizeInChars(T).getQuantity();
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
        Ctx.getTypeSizeInChars(X.Var->getType()->getPointeeType())
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
      return failure(H->getLocation(), "the helper '" + H->getName().str() +
                                           "' uses '" +
                                           T.Base->getName().str() + "'");
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

QualType tileElementType(const VarDecl *Tile, ASTContext &Ctx) {
  const QualType T = Tile->getType();
  return (T->isPointerType() ? T->getPointeeType() : Ctx.getBaseElementType(T))
      .getUnqualifiedType();
}

} // namespace tawa
