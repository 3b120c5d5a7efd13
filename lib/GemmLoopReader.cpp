//===- GemmLoopReader.cpp - reading a shared-memory GEMM loop -------------===//
#include "GemmLoopReader.h"
#include "ActivationForm.h"
#include "DynamicTiles.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cmath>

using namespace clang;

namespace tawa {

/// Whether `E` reads blockDim, itself or through the initializers of the
/// locals it names (`const int T = blockDim.x;`).
static bool readsBlockDim(const Expr *E, int Depth = 0) {
  struct Finder : RecursiveASTVisitor<Finder> {
    int Depth;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      Found |= R->getDecl()->getName() == "blockDim" ||
               (VD && VD->isLocalVarDecl() && VD->hasInit() && Depth < 8 &&
                readsBlockDim(VD->getInit(), Depth + 1));
      return !Found;
    }
  } F;
  F.Depth = Depth;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

static const char *const BlockSizeMessage =
    "the tile loop's step (or its tile count's divisor) is the launch's "
    "block size: the tiles must have a size known at compile time, TILE in "
    "'t += TILE' or '(K + TILE - 1) / TILE' a constant (a #define, a "
    "constexpr or a template parameter) that the launch's block matches";

bool GemmLoopReader::tileLoopHeader() {
  const char *Expected = "expected 'for (int t = 0; t < K; t += TILE)' or "
                         "'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)'";
  auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  auto *T = Init && Init->isSingleDecl()
                ? dyn_cast<VarDecl>(Init->getSingleDecl())
                : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
  // `for (int t = 1; t < tiles; ++t)` of a loop whose first tiles are
  // multiplied in the next trip and its last ones after it.
  std::optional<Poly> Start =
      T && T->hasInit() && Cond && Cond->getOpcode() == BO_LT
          ? Ev.eval(T->getInit())
          : std::nullopt;
  // Counted from 1 (a front end that AcceptsPeeled): read as the loop
  // from 0 whose counter is one less (PeeledLast).
  PeeledLast = AcceptsPeeled && Start && Start->constantValue() == 1;
  if (Start && Start->constantValue().value_or(0) > 1 && AcceptsPeeled)
    return fail(T->getInit()->getBeginLoc(),
                "the tile loop must start at 0, or at 1 with the copies of "
                "tile 0 before it and the product of the last tiles after "
                "it: a loop from " +
                    std::to_string(*Start->constantValue()) + " is not lifted");
  if (Start && Start->constantValue().value_or(0) > 0 && !PeeledLast)
    return fail(T->getInit()->getBeginLoc(),
                "the tile loop must start at 0: a loop from " +
                    std::to_string(*Start->constantValue()) +
                    " that multiplies the last tiles after it is not "
                    "lifted; start it at 0, with the copies of the next "
                    "tiles under 'if (t + 1 < tiles)' (the loop's condition "
                    "one step on) and the last product inside the loop");
  if (AcceptsWalkers && !PeeledLast && walkingForm())
    return walkingHeader();
  if (!T || !T->hasInit() || !(PeeledLast || isZero(T->getInit())) || !Cond ||
      Cond->getOpcode() != BO_LT || !Loop->getInc())
    return fail(Loop->getForLoc(), Expected);
  auto *CondVar = dyn_cast<DeclRefExpr>(bare(Cond->getLHS()));
  if (!CondVar || CondVar->getDecl() != T || isModified(T, Loop->getBody()))
    return fail(Loop->getForLoc(), Expected);
  // The symbol stands for the iteration, from 0: a counter from 1 is one
  // more.
  Ev.Bindings[T] = Poly::symbol(T) + Poly::constant(PeeledLast ? 1 : 0);
  Counter = T;
  const Expr *Inc = bare(Loop->getInc());
  std::optional<int64_t> Step;
  if (auto *U = dyn_cast<UnaryOperator>(Inc);
      U && U->isIncrementOp() && refersTo(U->getSubExpr(), T))
    Step = 1;
  else if (auto *C = dyn_cast<CompoundAssignOperator>(Inc);
           C && C->getOpcode() == BO_AddAssign && refersTo(C->getLHS(), T))
    if (std::optional<Poly> P = Ev.eval(C->getRHS()))
      Step = P->constantValue();
  // A step the launch sets (`t += blockDim.x`): tiles sized at run time.
  if (auto *C = dyn_cast<CompoundAssignOperator>(Inc);
      !Step && C && readsBlockDim(C->getRHS()))
    return fail(C->getRHS()->getBeginLoc(), BlockSizeMessage);
  // A step no tile has (and that an int cannot hold) is refused.
  if (!Step || *Step <= 0 || *Step > 4096)
    return fail(Loop->getInc()->getBeginLoc(), Expected);
  if (PeeledLast && *Step != 1)
    return fail(T->getInit()->getBeginLoc(),
                "a tile loop counted from 1 must step by 1 over tiles, "
                "'for (int t = 1; t < (K + TILE - 1) / TILE; ++t)', with the "
                "last tiles multiplied after it");
  if (*Step > 1) {
    // t counts elements of K.
    LoopCountsElements = true;
    if (std::optional<Extent> K = extentOf(Cond->getRHS()))
      G.K = *K;
    else if (ProductK)
      G.K = productBound(Cond->getRHS()).value_or(Extent());
    G.Tile = int(*Step);
    KOffset = Poly::symbol(T);
  } else if (int64_t Tile = 0;
             const Expr *K = ceilBound(Cond->getRHS(), Tile, FloatTileCount)) {
    // t counts tiles up to ceil(K / (float)TILE), a floating division.
    if (std::optional<Extent> E = extentOf(K))
      G.K = *E;
    G.Tile = int(Tile);
    KOffset = Poly::constant(G.Tile) * Poly::symbol(T);
  } else if (bool PlusOne = false;
             auto *Div = tileBound(Cond->getRHS(), PlusOne)) {
    // t counts tiles: the bound must be ceil(K / TILE), written
    // (K + TILE - 1) / TILE or (K - 1) / TILE + 1.
    std::optional<Poly> Den = Ev.eval(Div->getRHS());
    std::optional<Poly> Num = Ev.eval(Div->getLHS());
    std::optional<int64_t> Tile = Den ? Den->constantValue() : std::nullopt;
    if (!Tile && readsBlockDim(Div->getRHS()))
      return fail(Div->getRHS()->getBeginLoc(), BlockSizeMessage);
    if (Tile && *Tile > 1 && Num)
      for (const Extent &P : extents()) {
        const Poly K = Poly::symbol(P.Sym);
        if (PlusOne ? *Num == K - Poly::constant(1)
                    : *Num == K + Poly::constant(*Tile - 1))
          G.K = P;
        else if (!PlusOne && *Num == K && (G.K = P)) {
          // K / TILE whole tiles: the first K / TILE * TILE elements.
          FloorBound = Cond->getRHS()->getBeginLoc();
          G.KFloorTile = int(*Tile);
        }
      }
    // (K - 1) / TILE + 1 is ceil(K / TILE) for K >= 1; for K <= 0 the
    // loop runs once, but no launch the tiled form runs for has one.
    G.Tile = Tile ? int(*Tile) : 0;
    KOffset = Poly::constant(G.Tile) * Poly::symbol(T);
  }
  if (const CallExpr *Ceil = systemCall(Cond->getRHS(), {"ceil", "ceilf"});
      !G.K && Ceil && Ceil->getNumArgs() == 1)
    if (auto *D = dyn_cast<BinaryOperator>(bare(Ceil->getArg(0)));
        D && D->getOpcode() == BO_Div && D->getType()->isIntegerType())
      return fail(Ceil->getBeginLoc(),
                  "'ceil(K / TILE)' of an integer division is K / TILE "
                  "rounded down before ceil sees it: write '(K + TILE - 1) / "
                  "TILE' to count a partial last tile, or 'K / TILE' for "
                  "whole tiles only");
  if (!G.K)
    return fail(Cond->getRHS()->getBeginLoc(), BoundMessage);
  return true;
}

std::optional<Extent> GemmLoopReader::productBound(const Expr *E) const {
  if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
    if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isIntegerType() && VD->hasInit() &&
        !isModified(VD, Kernel->getBody()))
      return productBound(VD->getInit());
  if (std::optional<Extent> X = boundOf(E))
    return X;
  // Any other polynomial of parameters and constants (`9 * C`).
  std::optional<Poly> P = Ev.eval(E);
  if (!P || P->constantValue() || !freeOfCoordinates(*P))
    return std::nullopt;
  for (const auto &[M, C] : P->terms())
    for (Symbol S : M)
      if (const Extent *X = extentOfSymbol(S);
          !X || (X->Param &&
                 !Ctx.hasSameUnqualifiedType(X->Param->getType(), Ctx.IntTy)))
        return std::nullopt;
  return namedExtent(text(*P), *P, E->getBeginLoc());
}

bool GemmLoopReader::walkingForm() const {
  auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  auto *First = Init ? dyn_cast<VarDecl>(*Init->decl_begin()) : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
  auto *Inc =
      Loop->getInc() ? dyn_cast<BinaryOperator>(bare(Loop->getInc())) : nullptr;
  if (!First || !First->getType()->isIntegerType() || !First->hasInit())
    return false;
  return !Init->isSingleDecl() || !isZero(First->getInit()) ||
         (Cond && Cond->getOpcode() == BO_LE) ||
         (Inc && Inc->getOpcode() == BO_Comma);
}

/// The steps of a loop's increment `a += s, b = b + t, ++c`, in order: the
/// variable and its step (null for ++); false where a part is none of these.
static bool
stepsOf(const Expr *E,
        std::vector<std::pair<const VarDecl *, const Expr *>> &Out) {
  E = bare(E);
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Comma)
    return stepsOf(B->getLHS(), Out) && stepsOf(B->getRHS(), Out);
  auto varOf = [](const Expr *X) -> const VarDecl * {
    auto *R = dyn_cast<DeclRefExpr>(bare(X));
    return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  };
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementOp()) {
    Out.push_back({varOf(U->getSubExpr()), nullptr});
    return Out.back().first;
  }
  auto *B = dyn_cast<BinaryOperator>(E);
  const VarDecl *V = B ? varOf(B->getLHS()) : nullptr;
  if (V && B->getOpcode() == BO_AddAssign) {
    Out.push_back({V, B->getRHS()});
    return true;
  }
  auto *Sum = V && B->getOpcode() == BO_Assign
                  ? dyn_cast<BinaryOperator>(bare(B->getRHS()))
                  : nullptr;
  if (Sum && Sum->getOpcode() == BO_Add && varOf(Sum->getLHS()) == V) {
    Out.push_back({V, Sum->getRHS()});
    return true;
  }
  return false;
}

bool GemmLoopReader::walkingHeader() {
  auto *Init = cast<DeclStmt>(Loop->getInit());
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
  std::vector<std::pair<const VarDecl *, const Expr *>> Incs;
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) ||
      !Loop->getInc() || !stepsOf(Loop->getInc(), Incs))
    return fail(Loop->getForLoc(), WalkMessage);
  for (const Decl *D : Init->decls()) {
    auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->getType()->isIntegerType() || !V->hasInit())
      return fail(D->getLocation(), WalkMessage);
    if (isModified(V, Loop->getBody()))
      return fail(V->getLocation(), "the loop variable '" + V->getName().str() +
                                        "' is changed in the loop body");
    auto Step = llvm::find_if(Incs, [&](auto &S) { return S.first == V; });
    if (Step == Incs.end() || !Step->second ||
        llvm::count_if(Incs, [&](auto &S) { return S.first == V; }) != 1)
      return fail(Loop->getInc()->getBeginLoc(), WalkMessage);
    Walkers.push_back({V, Step->second});
  }
  // The variable compared with the bound walks K: it goes first.
  auto *CondVar = dyn_cast<DeclRefExpr>(bare(Cond->getLHS()));
  auto Compared = llvm::find_if(Walkers, [&](const Walker &W) {
    return CondVar && CondVar->getDecl() == W.Var;
  });
  if (Incs.size() != Walkers.size() || Compared == Walkers.end())
    return fail(Loop->getForLoc(), WalkMessage);
  std::rotate(Walkers.begin(), Compared, Compared + 1);
  std::optional<int64_t> Tile = constantThroughLocals(Walkers.front().Step);
  if (!Tile || *Tile <= 1 || *Tile > 4096)
    return fail(Walkers.front().Step->getBeginLoc(), WalkMessage);
  Counter = Walkers.front().Var;
  Ev.addSymbol(Counter);
  G.Tile = int(*Tile);
  LoopCountsElements = true;
  KOffset = Poly::symbol(Counter);
  return true;
}

std::optional<int64_t>
GemmLoopReader::constantThroughLocals(const Expr *E) const {
  if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
    if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->hasInit() &&
        !isModified(VD, Kernel->getBody()))
      return constantThroughLocals(VD->getInit());
  return Ev.constant(E);
}

bool GemmLoopReader::bindWalkers() {
  if (Walkers.empty())
    return true;
  // Iteration i has walked KOffset = i * TILE elements of K; a variable
  // stepping by s has moved i * s = KOffset * (s / TILE) from its start.
  std::optional<Poly> Start;
  for (const Walker &W : Walkers) {
    std::optional<Poly> From = eval(W.Var->getInit(), "the loop's start");
    std::optional<Poly> Step =
        From ? eval(W.Step, "the loop's step") : std::nullopt;
    if (!Step)
      return false;
    std::optional<Poly> PerElement = Step->dividedExactly(G.Tile);
    if (!PerElement || Step->dependsOn(Counter) || From->dependsOn(Counter) ||
        (!Start && *PerElement != Poly::constant(1)))
      return fail(W.Step->getBeginLoc(),
                  "the step of '" + W.Var->getName().str() +
                      "' must be the same in every iteration and a multiple "
                      "of the first variable's, " +
                      std::to_string(G.Tile) + " elements");
    Ev.Bindings[W.Var] = *From + *PerElement * KOffset;
    if (!Start)
      Start = *From;
  }
  auto *Cond = cast<BinaryOperator>(Loop->getCond());
  std::optional<Poly> Bound = Ev.eval(Cond->getRHS());
  // `for (k0 = blockIdx.z * chunk; k0 < min(k0 + chunk, K); ...)`: each
  // layer of the grid sums a slice of K into C.
  if (!Bound && Start->dependsOn(blockIdxSymbol('z'))) {
    if (AcceptsSplitK && Walkers.size() == 1 && Cond->getOpcode() == BO_LT)
      return splitKSlice(*Start, Cond);
    return fail(Cond->getRHS()->getBeginLoc(),
                "the loop walks a slice of K that blockIdx.z picks (split-K: "
                "each layer of the grid sums part of K, its partial sums "
                "added into C), and its end is no polynomial of the "
                "parameters; the tiled form sums all of K for each tile of "
                "C: loop over all of K, 'for (int t = 0; t < K; t += "
                "TILE)', with one layer");
  }
  if (!Bound)
    return eval(Cond->getRHS(), "the loop's bound").has_value();
  const Poly Span =
      *Bound - *Start + Poly::constant(Cond->getOpcode() == BO_LE ? 1 : 0);
  for (const Extent &P : extents())
    if (Span == Poly::symbol(P.Sym))
      G.K = P;
  if (!G.K)
    return fail(Cond->getRHS()->getBeginLoc(), WalkMessage);
  return true;
}

/// How many times `S` names `VD`.
static unsigned countRefs(const Stmt *S, const VarDecl *VD) {
  struct Refs : RecursiveASTVisitor<Refs> {
    const VarDecl *VD = nullptr;
    unsigned N = 0;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      N += R->getDecl() == VD;
      return true;
    }
  } R;
  R.VD = VD;
  R.TraverseStmt(const_cast<Stmt *>(S));
  return R.N;
}

std::optional<std::pair<const Expr *, const Expr *>>
GemmLoopReader::minOperands(const Expr *E) const {
  if (const CallExpr *Min = systemCall(E, {"min"}, 2))
    return std::pair(Min->getArg(0), Min->getArg(1));
  auto *Sel = dyn_cast<ConditionalOperator>(bare(E));
  auto *Test = Sel ? dyn_cast<BinaryOperator>(bare(Sel->getCond())) : nullptr;
  if (!Test)
    return std::nullopt;
  const Expr *Small = Test->getLHS(), *Big = Test->getRHS();
  if (Test->getOpcode() == BO_GT || Test->getOpcode() == BO_GE)
    std::swap(Small, Big);
  else if (Test->getOpcode() != BO_LT && Test->getOpcode() != BO_LE)
    return std::nullopt;
  std::optional<Poly> S = Ev.eval(Small), B = Ev.eval(Big),
                      T = Ev.eval(Sel->getTrueExpr()),
                      F = Ev.eval(Sel->getFalseExpr());
  if (!S || !B || !T || !F || *S != *T || *B != *F)
    return std::nullopt;
  return std::pair(Sel->getTrueExpr(), Sel->getFalseExpr());
}

bool GemmLoopReader::splitKSlice(const Poly &Start,
                                 const BinaryOperator *Cond) {
  const std::string Expected =
      "the loop walks a slice of K that blockIdx.z picks (split-K), "
      "expected its end to be 'min(start + chunk, K)' for its start "
      "'blockIdx.z * chunk' (CUDA's or std::min, or 'a < b ? a : b'; also "
      "through a local int read nowhere else), chunk an integer parameter "
      "or a product of them, or a local computed from them, constants and "
      "gridDim ('(K + gridDim.z - 1) / gridDim.z'), K an integer parameter "
      "or a named constant";
  const SourceLocation At = Cond->getRHS()->getBeginLoc();
  auto Split = Start.linearIn(blockIdxSymbol('z'));
  const Poly Chunk = Split ? Split->second : Poly();
  bool Named = Split && Split->first == Poly() && Chunk != Poly() &&
               !Chunk.constantValue();
  for (const auto &[M, C] : Chunk.terms())
    for (Symbol X : M)
      Named &= extentOfSymbol(X) != nullptr || launchValueOf(X) != nullptr;
  if (!Named)
    return fail(Start == Poly() ? At : Loop->getInit()->getBeginLoc(),
                Expected);
  // The end, through a local int set once and read only in the loop.
  const Expr *End = bare(Cond->getRHS());
  if (auto *R = dyn_cast<DeclRefExpr>(End))
    if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
        VD->getType()->isIntegerType() && VD->hasInit() &&
        !isModified(VD, Kernel->getBody())) {
      if (countRefs(Kernel->getBody(), VD) != countRefs(Loop, VD))
        return fail(VD->getLocation(),
                    "the end of the split-K slice, '" + VD->getName().str() +
                        "', may be read only in the loop, whose tiles lie "
                        "inside the slice");
      SliceEnd = VD;
      End = bare(VD->getInit());
    }
  auto Operands = minOperands(End);
  std::optional<Extent> K;
  for (int Swap = 0; Operands && Swap < 2 && !K; ++Swap) {
    auto [X, Y] = *Operands;
    if (Swap)
      std::swap(X, Y);
    std::optional<Poly> Stop = Ev.eval(X);
    if (Stop && *Stop == Start + Chunk)
      K = extentOf(Y);
  }
  if (!K)
    return fail(At, Expected);
  G.K = *K;
  G.SplitKChunk = text(Chunk);
  G.SplitKValues = LaunchValues;
  // k0 is the K index of its iteration's first element; the slice's end
  // reads as K for the elements of the iteration's tile.
  Ev.Bindings[Counter] = KOffset;
  if (SliceEnd) {
    Ev.Opaque.erase(SliceEnd);
    Ev.Bindings[SliceEnd] = Poly::symbol(K->Sym);
  }
  return true;
}

bool GemmLoopReader::splitKAgrees(bool AtomicStore, SourceLocation Store) {
  if (G.SplitKChunk.empty())
    return true;
  if (!AtomicStore || G.Terms != "ca" || G.Act != Activation::None ||
      !G.BetaZeroTerms.empty() || G.Bias)
    return fail(Store, "a split-K loop's partial sums must be added into C "
                       "with 'atomicAdd(&C[i], acc)' (or alpha * acc): each "
                       "layer of the grid adds the sum of its slice of K; a "
                       "store, a bias, an activation or C's old value would "
                       "be applied once per layer");
  if (!G.A.BatchStride.empty() || !G.B.BatchStride.empty() ||
      !G.CBatchStride.empty())
    return fail(Store, "blockIdx.z picks the slice of K of a split-K loop; "
                       "it may enter no index of A, B or C");
  return true;
}

/// E without casts to a floating type and `1.0 *` factors: the integer
/// expression a floating division divides, or null.
static const Expr *integerConverted(const Expr *E) {
  E = E->IgnoreParens();
  if (auto *C = dyn_cast<CastExpr>(E); C && C->getType()->isRealFloatingType())
    return integerConverted(C->getSubExpr());
  if (auto *M = dyn_cast<BinaryOperator>(E); M && M->getOpcode() == BO_Mul)
    if (auto *One =
            dyn_cast<FloatingLiteral>(M->getLHS()->IgnoreParenImpCasts());
        One && One->getValue().isExactlyValue(1.0))
      return integerConverted(M->getRHS());
  return E->getType()->isIntegerType() ? E : nullptr;
}

const Expr *GemmLoopReader::ceilBound(const Expr *E, int64_t &Tile,
                                      bool &InFloat) const {
  const CallExpr *C = systemCall(E, {"ceil", "ceilf"});
  if (!C)
    return nullptr;
  auto *D = dyn_cast<BinaryOperator>(C->getArg(0)->IgnoreParenImpCasts());
  if (!D || D->getOpcode() != BO_Div || !D->getType()->isRealFloatingType())
    return nullptr;
  const Expr *Num = integerConverted(D->getLHS());
  const Expr *Den = D->getRHS()->IgnoreParenImpCasts();
  std::optional<int64_t> T;
  if (auto *L = dyn_cast<FloatingLiteral>(Den)) {
    const double V = L->getValue().convertToDouble();
    if (V == std::floor(V) && V >= 1 && V <= 4096)
      T = int64_t(V);
  } else if (const Expr *I = integerConverted(Den)) {
    T = Ev.constant(I);
  }
  if (!Num || !T || *T <= 1 || *T > 4096)
    return nullptr;
  Tile = *T;
  // The count is exact only where the quotient and its numerator are
  // doubles made from the integer at once: ceilf rounds a double argument
  // to float, and a float numerator or quotient rounds K past 2^24.
  struct FloatIn : RecursiveASTVisitor<FloatIn> {
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found |= E->getType()->isSpecificBuiltinType(BuiltinType::Float);
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<BinaryOperator *>(D));
  const bool Exact = C->getDirectCallee()->getName() == "ceil" && !F.Found;
  InFloat = !Exact;
  return Num;
}

void GemmLoopReader::limitFloatTileCount() {
  if (!FloatTileCount)
    return;
  // ceil of the float quotient K / TILE is the tile count where float(K)
  // is K: K <= 2^24 (the quotient then rounds within 1 / TILE of itself and
  // never past an integer).
  const std::string Limit = G.K.Name + " > 16777216";
  G.ExtentsDiffer =
      G.ExtentsDiffer.empty() ? Limit : G.ExtentsDiffer + " || " + Limit;
  const std::string Words =
      G.K.words() + " is at most 2^24 (the loop counts tiles in float)";
  G.Extents = G.Extents.empty() ? Words : G.Extents + " and " + Words;
}

const BinaryOperator *GemmLoopReader::tileBound(const Expr *E,
                                                bool &PlusOne) const {
  // A local variable set once to the bound (`const int tiles = ...;`).
  if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
    if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
        VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->hasInit() &&
        !isModified(VD, Kernel->getBody()))
      E = VD->getInit();
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  PlusOne = B && B->getOpcode() == BO_Add;
  if (PlusOne) {
    auto *One = dyn_cast<IntegerLiteral>(bare(B->getRHS()));
    if (!One || One->getValue() != 1)
      return nullptr;
    B = dyn_cast<BinaryOperator>(bare(B->getLHS()));
  }
  return B && B->getOpcode() == BO_Div ? B : nullptr;
}

Guard tightest(const Guard &G) {
  Guard Out;
  for (size_t I = 0; I < G.size(); ++I) {
    const bool Implied = llvm::any_of(llvm::seq(G.size()), [&](size_t J) {
      if (J == I || !(G[J].second == G[I].second))
        return false;
      std::optional<int64_t> D = (G[J].first - G[I].first).constantValue();
      return D && (*D > 0 || (*D == 0 && J < I));
    });
    if (!Implied)
      Out.push_back(G[I]);
  }
  return Out;
}

bool GemmLoopReader::guard(const Expr *E, Guard &Out) {
  E = bare(E);
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_LAnd)
      return guard(B->getLHS(), Out) && guard(B->getRHS(), Out);
    const Expr *X = B->getLHS(), *P = B->getRHS();
    BinaryOperatorKind Op = B->getOpcode();
    if (Op == BO_GT || Op == BO_GE) {
      std::swap(X, P);
      Op = Op == BO_GT ? BO_LT : BO_LE;
    }
    // `x <= P - 1` of a signed x is `x < P`: P is a positive extent, so
    // P - 1 does not wrap, and the comparison is signed.
    auto *Less = Op == BO_LE ? dyn_cast<BinaryOperator>(bare(P)) : nullptr;
    auto *One = Less && Less->getOpcode() == BO_Sub
                    ? dyn_cast<IntegerLiteral>(bare(Less->getRHS()))
                    : nullptr;
    if (One && One->getValue() == 1 &&
        B->getLHS()->getType()->isSignedIntegerType() &&
        bare(X)->getType()->isSignedIntegerType()) {
      P = Less->getLHS();
      Op = BO_LT;
    }
    // `x <= P` is `x - 1 < P` (of integers; P an extent, never negative).
    std::optional<Extent> Bound =
        Op == BO_LT || Op == BO_LE ? (ProductK ? productBound(P) : boundOf(P))
                                   : std::nullopt;
    if (std::optional<Poly> XP = Bound ? Ev.eval(X) : std::nullopt) {
      Out.push_back({Op == BO_LE ? *XP - Poly::constant(1) : *XP, *Bound});
      return true;
    }
  }
  fail(E->getBeginLoc(), "expected a bounds check 'row < M && col < K' (or "
                         "'row <= M - 1' of a signed row, or 'k + 8 <= K') of "
                         "integer "
                         "parameters or named constants, or products of int "
                         "parameters ('row < N * H * W')");
  return false;
}

/// The signed value that `E`, an operand of an unsigned comparison,
/// converts to the comparison's type (`(unsigned)ih`, or `ih` converted
/// implicitly), or null where `E` is no such conversion.
static const Expr *convertedSigned(const Expr *E) {
  const QualType T = E->getType();
  const Expr *X = E->IgnoreParens();
  while (auto *C = dyn_cast<CastExpr>(X)) {
    const Expr *Sub = C->getSubExpr()->IgnoreParens();
    if (C->getCastKind() == CK_IntegralCast &&
        Sub->getType()->isSignedIntegerType())
      return C->getType().getCanonicalType() == T.getCanonicalType() ? Sub
                                                                     : nullptr;
    if (C->getCastKind() != CK_NoOp && C->getCastKind() != CK_LValueToRValue)
      return nullptr;
    X = Sub;
  }
  return nullptr;
}

bool GemmLoopReader::unsignedRange(const BinaryOperator *B, Conditions &Out) {
  const BinaryOperatorKind Op = B->getOpcode();
  const bool Less = Op == BO_LT || Op == BO_LE;
  if (!Less && Op != BO_GT && Op != BO_GE)
    return false;
  const Expr *Small = Less ? B->getLHS() : B->getRHS();
  const Expr *Big = Less ? B->getRHS() : B->getLHS();
  const Expr *X = convertedSigned(Small);
  const Expr *N = convertedSigned(Big);
  std::optional<Poly> PX = X ? Ev.eval(X) : std::nullopt;
  std::optional<Poly> PN = PX ? Ev.eval(N ? N : Big) : std::nullopt;
  if (!PN || Ev.mayWrap(*PN, Big->getType()))
    return false;
  Out.push_back(*PX);
  Out.push_back(*PN - *PX - Poly::constant(Op == BO_LT || Op == BO_GT));
  return true;
}

bool GemmLoopReader::conditionsOf(const Expr *E, Conditions &Out) {
  if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
    if (const Conditions *Named = namedChecks(R->getDecl())) {
      llvm::append_range(Out, *Named);
      return true;
    }
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  if (B && B->getOpcode() == BO_LAnd)
    return conditionsOf(B->getLHS(), Out) && conditionsOf(B->getRHS(), Out);
  if (B && B->getLHS()->getType()->isUnsignedIntegerType() &&
      unsignedRange(B, Out))
    return true;
  // Signed comparisons, so that the polynomials' order is C's.
  const bool Signed = B && B->getLHS()->getType()->isSignedIntegerType() &&
                      B->getRHS()->getType()->isSignedIntegerType();
  std::optional<Poly> L = Signed ? Ev.eval(B->getLHS()) : std::nullopt;
  std::optional<Poly> R = L ? Ev.eval(B->getRHS()) : std::nullopt;
  const Poly One = Poly::constant(1);
  switch (R ? B->getOpcode() : BO_Comma) {
  case BO_LT:
    Out.push_back(*R - *L - One);
    return true;
  case BO_LE:
    Out.push_back(*R - *L);
    return true;
  case BO_GT:
    Out.push_back(*L - *R - One);
    return true;
  case BO_GE:
    Out.push_back(*L - *R);
    return true;
  default:
    return fail(E->getBeginLoc(),
                "expected bounds checks 'a < b', 'a >= 0' of index arithmetic "
                "(signed, or '(unsigned)a < (unsigned)b' for 0 <= a < b) "
                "joined by '&&'");
  }
}

bool GemmLoopReader::isIteration(const Expr *E) const {
  E = bare(E);
  if (!LoopCountsElements)
    return refersTo(E, Counter);
  auto *D = dyn_cast<BinaryOperator>(E);
  std::optional<Poly> Den = D ? Ev.eval(D->getRHS()) : std::nullopt;
  return D && D->getOpcode() == BO_Div && refersTo(D->getLHS(), Counter) &&
         Den && Den->constantValue() == std::optional<int64_t>(G.Tile);
}

std::optional<int64_t> GemmLoopReader::iterationOffset(const Expr *E) const {
  if (isIteration(E))
    return PeeledLast ? 1 : 0;
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  if (!B || (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub))
    return std::nullopt;
  auto Constant = [&](const Expr *X) -> std::optional<int64_t> {
    std::optional<Poly> P = Ev.eval(X);
    std::optional<int64_t> V = P ? P->constantValue() : std::nullopt;
    // A small offset: no sum with it wraps.
    return V && *V > -4096 && *V < 4096 ? V : std::nullopt;
  };
  if (std::optional<int64_t> C = Constant(B->getRHS()))
    if (std::optional<int64_t> O = iterationOffset(B->getLHS()))
      return B->getOpcode() == BO_Add ? *O + *C : *O - *C;
  if (B->getOpcode() == BO_Add)
    if (std::optional<int64_t> C = Constant(B->getLHS()))
      if (std::optional<int64_t> O = iterationOffset(B->getRHS()))
        return *O + *C;
  return std::nullopt;
}

std::optional<bool> GemmLoopReader::iterationParity(const Expr *E) const {
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  auto *Lit = B ? dyn_cast<IntegerLiteral>(bare(B->getRHS())) : nullptr;
  const bool Rem = Lit && B->getOpcode() == BO_Rem && Lit->getValue() == 2;
  const bool And = Lit && B->getOpcode() == BO_And && Lit->getValue() == 1;
  std::optional<int64_t> O =
      Rem || And ? iterationOffset(B->getLHS()) : std::nullopt;
  // The iteration counts from 0: i + c is never negative where c is not,
  // and `x % 2` of a negative x is negative; `x & 1` of any x is its
  // parity (two's complement).
  if (!O || (Rem && *O < 0))
    return std::nullopt;
  return *O % 2 != 0;
}

std::optional<int64_t> GemmLoopReader::ringResidue(const Expr *E,
                                                   int64_t S) const {
  // A ring counter r of S, (i + c) % S, and `r + d` of one.
  auto Counted = [&](const Expr *X) -> std::optional<int64_t> {
    auto *R = dyn_cast<DeclRefExpr>(bare(X));
    auto It = R ? RingCounters.find(R->getDecl()) : RingCounters.end();
    if (It == RingCounters.end() || It->second.second != S)
      return std::nullopt;
    return It->second.first;
  };
  if (std::optional<int64_t> C = Counted(E))
    return C;
  if (auto *R = dyn_cast<DeclRefExpr>(bare(E))) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    // Declared in the loop body (where macros expand).
    const SourceManager &SM = Ctx.getSourceManager();
    auto Inside = [&](const VarDecl *V) {
      const SourceLocation At = SM.getExpansionLoc(V->getLocation());
      const Stmt *Body = Loop->getBody();
      return SM.isBeforeInTranslationUnit(
                 SM.getExpansionLoc(Body->getBeginLoc()), At) &&
             SM.isBeforeInTranslationUnit(
                 At, SM.getExpansionLoc(Body->getEndLoc()));
    };
    const bool Local = VD && VD->hasInit() && VD->isLocalVarDecl() &&
                       VD->getType()->isIntegerType() && Inside(VD) &&
                       !isModified(VD, Loop->getBody());
    return Local ? ringResidue(VD->getInit(), S) : std::nullopt;
  }
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  std::optional<int64_t> By = B ? Ev.constant(B->getRHS()) : std::nullopt;
  const bool Rem = By && B->getOpcode() == BO_Rem && *By == S;
  const bool And =
      By && B->getOpcode() == BO_And && *By == S - 1 && (S & (S - 1)) == 0;
  if (!Rem && !And)
    return std::nullopt;
  std::optional<int64_t> O = iterationOffset(B->getLHS());
  // `(r + d) % S` of a ring counter r of S, d >= 0 (r + d >= 0).
  if (!O)
    O = Counted(B->getLHS());
  if (auto *Sum = dyn_cast<BinaryOperator>(bare(B->getLHS()));
      !O && Sum && Sum->getOpcode() == BO_Add)
    for (auto [X, D] : {std::pair(Sum->getLHS(), Sum->getRHS()),
                        std::pair(Sum->getRHS(), Sum->getLHS())})
      if (std::optional<int64_t> C = Counted(X))
        if (std::optional<int64_t> By = Ev.constant(D); By && *By >= 0)
          O = *C + *By;
  // A tile counter's local `f = t + c`.
  if (std::optional<Poly> P =
          O || LoopCountsElements ? std::nullopt : Ev.eval(B->getLHS());
      P && P->dependsOn(Counter))
    if (std::optional<int64_t> C = (*P - Poly::symbol(Counter)).constantValue())
      O = *C;
  // The iteration counts from 0: i + c is never negative where c is not,
  // and `x % S` of a negative x is negative; `x & (S - 1)` of any x is x
  // modulo S (two's complement).
  if (!O || (Rem && *O < 0))
    return std::nullopt;
  return ((*O % S) + S) % S;
}

/// `!X` of a buffer index X (0 or 1): the other buffer.
static const Expr *negatedIndex(const Expr *E) {
  auto *U = dyn_cast<UnaryOperator>(bare(E));
  return U && U->getOpcode() == UO_LNot ? U->getSubExpr() : nullptr;
}

/// `x` of `(x + 1) % 2` or `(x + 1) & 1` (also `1 + x`) where `x` names a
/// variable; null otherwise.
static const Expr *nextParityOf(const Expr *E) {
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  auto *Lit = B ? dyn_cast<IntegerLiteral>(bare(B->getRHS())) : nullptr;
  auto *Sum = Lit ? dyn_cast<BinaryOperator>(bare(B->getLHS())) : nullptr;
  if (!Sum || Sum->getOpcode() != BO_Add ||
      !((B->getOpcode() == BO_Rem && Lit->getValue() == 2) ||
        (B->getOpcode() == BO_And && Lit->getValue() == 1)))
    return nullptr;
  auto One = [](const Expr *X) {
    auto *L = dyn_cast<IntegerLiteral>(bare(X));
    return L && L->getValue() == 1;
  };
  const Expr *X = One(Sum->getRHS())   ? Sum->getLHS()
                  : One(Sum->getLHS()) ? Sum->getRHS()
                                       : nullptr;
  return X && isa<DeclRefExpr>(bare(X)) ? X : nullptr;
}

bool GemmLoopReader::isCurrent(const Expr *E) const {
  auto *R = dyn_cast<DeclRefExpr>(bare(E));
  if (R && llvm::is_contained(CurrentVars, R->getDecl()))
    return true;
  // `1 - nxt`, `nxt ^ 1`, `!nxt`: the other buffer of the one the
  // iteration writes.
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  auto *Lit = B ? dyn_cast<IntegerLiteral>(bare(B->getLHS())) : nullptr;
  auto *LitR = B ? dyn_cast<IntegerLiteral>(bare(B->getRHS())) : nullptr;
  if (B && B->getOpcode() == BO_Sub && Lit && Lit->getValue() == 1 &&
      isNext(B->getRHS()))
    return true;
  if (B && B->getOpcode() == BO_Xor && LitR && LitR->getValue() == 1 &&
      isNext(B->getLHS()))
    return true;
  if (const Expr *X = negatedIndex(E))
    return isNext(X);
  // `(nxt + 1) % 2` of a buffer variable (0 or 1).
  if (const Expr *X = nextParityOf(E); X && isNext(X))
    return true;
  return iterationParity(E) == std::optional<bool>(false);
}

bool GemmLoopReader::isNext(const Expr *E) const {
  auto *R = dyn_cast<DeclRefExpr>(bare(E));
  if (R && llvm::is_contained(NextVars, R->getDecl()))
    return true;
  auto *B = dyn_cast<BinaryOperator>(bare(E));
  auto *Lit = B ? dyn_cast<IntegerLiteral>(bare(B->getLHS())) : nullptr;
  auto *LitR = B ? dyn_cast<IntegerLiteral>(bare(B->getRHS())) : nullptr;
  if (B && B->getOpcode() == BO_Sub && Lit && Lit->getValue() == 1 &&
      isCurrent(B->getRHS()))
    return true;
  if (B && B->getOpcode() == BO_Xor && LitR && LitR->getValue() == 1 &&
      isCurrent(B->getLHS()))
    return true;
  if (const Expr *X = negatedIndex(E))
    return isCurrent(X);
  if (const Expr *X = nextParityOf(E); X && isCurrent(X))
    return true;
  return iterationParity(E) == std::optional<bool>(true);
}

bool GemmLoopReader::prefetchCondition(const Expr *E) const {
  auto *C = dyn_cast<BinaryOperator>(bare(E));
  if (!C)
    return false;
  const Expr *Lhs = C->getLHS(), *Bound = C->getRHS();
  BinaryOperatorKind Op = C->getOpcode();
  if (Op == BO_GT) {
    std::swap(Lhs, Bound);
    Op = BO_LT;
  }
  // A tile counter steps by 1 from 0 and stays below its bound: `t + 1 !=
  // bound` is `t + 1 < bound` (but `t + 2 != bound` holds past it).
  if (Op != BO_LT && (Op != BO_NE || LoopCountsElements || Ahead != 1))
    return false;
  // `bound != t + 1`
  if (std::optional<Poly> L = Op == BO_NE ? Ev.eval(Lhs) : std::nullopt;
      Op == BO_NE && (!L || !L->dependsOn(Counter)))
    std::swap(Lhs, Bound);
  const Poly Step = Poly::constant((LoopCountsElements ? G.Tile : 1) * Ahead);
  std::optional<Poly> Next = Ev.eval(Lhs);
  // `(t + 1) * TILE < K` of a tile counter up to ceil(K / TILE): the next
  // tile starts inside K (`(t + D) * TILE < K` of a ring D tiles ahead).
  if (Op == BO_LT && !LoopCountsElements && !FloorBound.isValid() && Next &&
      *Next == KOffset + Poly::constant(G.Tile * Ahead))
    if (std::optional<Extent> K = extentOf(Bound))
      return *K == G.K;
  // `counter < bound - step`
  if (auto *Sub = dyn_cast<BinaryOperator>(bare(Bound));
      Next && *Next == Poly::symbol(Counter) && Sub &&
      Sub->getOpcode() == BO_Sub) {
    std::optional<Poly> By = Ev.eval(Sub->getRHS());
    if (!By || *By != Step)
      return false;
    Bound = Sub->getLHS();
    Next = *Next + Step;
  }
  return Next && *Next == Poly::symbol(Counter) + Step && isLoopBound(Bound);
}

bool GemmLoopReader::isLoopBound(const Expr *Bound) const {
  auto *LoopCond = cast<BinaryOperator>(Loop->getCond());
  std::optional<Poly> B1 = Ev.eval(Bound);
  std::optional<Poly> B2 = Ev.eval(LoopCond->getRHS());
  if (B1 && B2)
    return *B1 == *B2;
  llvm::FoldingSetNodeID Got, Want;
  Bound->IgnoreParenImpCasts()->Profile(Got, Ctx, true);
  LoopCond->getRHS()->IgnoreParenImpCasts()->Profile(Want, Ctx, true);
  return Got == Want;
}

std::optional<int64_t> GemmLoopReader::firstTileCondition(const Expr *E) const {
  auto *C = dyn_cast<BinaryOperator>(bare(E));
  if (!C || (C->getOpcode() != BO_LT && C->getOpcode() != BO_GT))
    return std::nullopt;
  const Expr *Lhs = C->getLHS(), *Bound = C->getRHS();
  if (C->getOpcode() == BO_GT)
    std::swap(Lhs, Bound);
  std::optional<Poly> X = Ev.eval(Lhs);
  std::optional<int64_t> V = X ? X->constantValue() : std::nullopt;
  const int64_t Step = LoopCountsElements ? G.Tile : 1;
  if (!V || *V < 0 || *V % Step != 0)
    return std::nullopt;
  // `b * TILE < K` of a tile counter up to ceil(K / TILE).
  if (!LoopCountsElements && !FloorBound.isValid())
    if (std::optional<Extent> K = extentOf(Bound); K && *K == G.K)
      return *V % G.Tile == 0 ? std::optional<int64_t>(*V / G.Tile)
                              : std::nullopt;
  return isLoopBound(Bound) ? std::optional<int64_t>(*V / Step) : std::nullopt;
}

static bool isOneLiteral(const Expr *E) {
  auto *Lit = dyn_cast<IntegerLiteral>(bare(E));
  return Lit && Lit->getValue() == 1;
}

/// `(v + 1) % 2` or `(v + 1) & 1` (`B`, also `1 + v`) of the variable `VD`.
static bool parityOfNext(const BinaryOperator *B, const VarDecl *VD) {
  auto *Lit = dyn_cast<IntegerLiteral>(bare(B->getRHS()));
  auto *Sum = dyn_cast<BinaryOperator>(bare(B->getLHS()));
  auto *One = Sum ? dyn_cast<IntegerLiteral>(bare(Sum->getRHS())) : nullptr;
  return Lit &&
         ((B->getOpcode() == BO_Rem && Lit->getValue() == 2) ||
          (B->getOpcode() == BO_And && Lit->getValue() == 1)) &&
         Sum && Sum->getOpcode() == BO_Add &&
         ((One && One->getValue() == 1 && refersTo(Sum->getLHS(), VD)) ||
          (isOneLiteral(Sum->getLHS()) && refersTo(Sum->getRHS(), VD)));
}

/// `v ? 0 : 1` (`C`) of the variable `VD`.
static bool flippedChoice(const ConditionalOperator *C, const VarDecl *VD) {
  auto *R = dyn_cast<DeclRefExpr>(bare(C->getCond()));
  auto *Zero = dyn_cast<IntegerLiteral>(bare(C->getTrueExpr()));
  return R && R->getDecl() == VD && Zero && Zero->getValue() == 0 &&
         isOneLiteral(C->getFalseExpr());
}

// 1, or true (`s ^= true` of a bool stage).
static bool isOneOrTrue(const Expr *X) {
  if (auto *T = dyn_cast<CXXBoolLiteralExpr>(bare(X)))
    return T->getValue();
  return isOneLiteral(X);
}

bool GemmLoopReader::flipOf(const Expr *R, const VarDecl *VD) {
  R = bare(R);
  auto *RB = dyn_cast<BinaryOperator>(R);
  auto *RU = dyn_cast<UnaryOperator>(R);
  return (RB && RB->getOpcode() == BO_Xor && refersTo(RB->getLHS(), VD) &&
          isOneOrTrue(RB->getRHS())) ||
         (RB && RB->getOpcode() == BO_Sub && isOneOrTrue(RB->getLHS()) &&
          refersTo(RB->getRHS(), VD)) ||
         (RU && RU->getOpcode() == UO_LNot && refersTo(RU->getSubExpr(), VD)) ||
         (RB && parityOfNext(RB, VD)) ||
         (isa<ConditionalOperator>(R) &&
          flippedChoice(cast<ConditionalOperator>(R), VD));
}

const VarDecl *GemmLoopReader::flippedVariable(const Stmt *S) {
  auto *E = dyn_cast<Expr>(S);
  auto *B = E ? dyn_cast<BinaryOperator>(bare(E)) : nullptr;
  auto *L = B ? dyn_cast<DeclRefExpr>(bare(B->getLHS())) : nullptr;
  auto *VD = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isIntegerType())
    return nullptr;
  const bool Flips =
      (B->getOpcode() == BO_XorAssign && isOneOrTrue(B->getRHS())) ||
      (B->getOpcode() == BO_Assign && flipOf(B->getRHS(), VD));
  return Flips ? VD : nullptr;
}

const Expr *GemmLoopReader::negated(const Expr *E) const {
  E = bare(E);
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return U->getSubExpr();
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return nullptr;
  BinaryOperatorKind Op;
  const Expr *L = B->getLHS(), *R = B->getRHS();
  switch (B->getOpcode()) {
  case BO_LOr:
    Op = BO_LAnd;
    L = negated(L), R = L ? negated(R) : nullptr;
    if (!L || !R)
      return nullptr;
    break;
  case BO_GE:
    Op = BO_LT;
    break;
  case BO_GT:
    Op = BO_LE;
    break;
  case BO_LE:
    Op = BO_GT;
    break;
  case BO_LT:
    Op = BO_GE;
    break;
  default:
    return nullptr;
  }
  return BinaryOperator::Create(
      Ctx, const_cast<Expr *>(L), const_cast<Expr *>(R), Op, Ctx.BoolTy,
      VK_PRValue, OK_Ordinary, B->getOperatorLoc(), FPOptionsOverride());
}

const Expr *GemmLoopReader::keptCondition(const IfStmt *If) const {
  return If->getElse() || If->getInit() || If->getConditionVariable()
             ? nullptr
             : negated(If->getCond());
}

std::optional<std::pair<const Expr *, const Expr *>>
GemmLoopReader::zeroOutside(const ConditionalOperator *C) const {
  if (isZero(C->getFalseExpr()))
    return std::pair(C->getCond(), C->getTrueExpr());
  if (!isZero(C->getTrueExpr()))
    return std::nullopt;
  const Expr *Cond = negated(C->getCond());
  return Cond ? std::optional(std::pair(Cond, C->getFalseExpr()))
              : std::nullopt;
}

bool GemmLoopReader::advancesInLoop(const CompoundStmt *Body) {
  for (const Stmt *X : Body->body()) {
    auto *E = dyn_cast<Expr>(X);
    auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
    auto *R = B ? dyn_cast<DeclRefExpr>(bare(B->getLHS())) : nullptr;
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!VD || !VD->getType()->isPointerType() || !pointer(R))
      continue;
    const Expr *StepE = nullptr;
    if (B->getOpcode() == BO_AddAssign)
      StepE = B->getRHS();
    else if (auto *Sum = dyn_cast<BinaryOperator>(bare(B->getRHS()));
             B->getOpcode() == BO_Assign && Sum && Sum->getOpcode() == BO_Add &&
             refersTo(Sum->getLHS(), VD))
      StepE = Sum->getRHS();
    if (!StepE)
      return fail(X->getBeginLoc(),
                  "expected a pointer advanced by a step, 'p += step;'");
    std::optional<Poly> Step = eval(StepE, "the pointer's step");
    if (!Step)
      return false;
    if (Step->dependsOn(Counter))
      return fail(StepE->getBeginLoc(),
                  "the pointer's step must be the same in every iteration");
    for (const InLoopStep &O : Steps)
      if (O.Ptr == VD)
        return fail(X->getBeginLoc(), "the pointer '" + VD->getName().str() +
                                          "' is advanced twice in one "
                                          "iteration");
    // A step of a float4 * moves four floats.
    const int64_t N = lanes(R, pointer(R)->first);
    if (!N)
      return fail(X->getBeginLoc(), "expected a pointer into a matrix "
                                    "advanced by a whole number of elements");
    Steps.push_back({X, VD, *Step * Poly::constant(N)});
  }
  for (const InLoopStep &St : Steps) {
    for (const Stmt *X : Body->body())
      if (X != St.At && isModified(St.Ptr, X))
        return fail(X->getBeginLoc(), "the pointer '" +
                                          St.Ptr->getName().str() +
                                          "' is changed in the loop other "
                                          "than by one step per iteration");
    // Iterations before this one, times the step: t / TILE steps for an
    // element counter, t for a tile counter (KOffset = TILE * t).
    std::optional<Poly> Done = (KOffset * St.Step).dividedExactly(G.Tile);
    if (!Done)
      return fail(St.At->getBeginLoc(),
                  "the pointer's step must be a multiple of the loop's "
                  "step, " +
                      std::to_string(G.Tile) + " elements");
    auto Before = pointer(bare(
        cast<BinaryOperator>(cast<Expr>(St.At)->IgnoreImplicit())->getLHS()));
    Pointers[St.Ptr] = {Before->first, Before->second + *Done};
    InLoop.push_back(St.Ptr);
    if (!llvm::is_contained(Advanced, St.Ptr))
      Advanced.push_back(St.Ptr);
  }
  return true;
}

bool GemmLoopReader::epilogueLocal(const VarDecl *VD) {
  if (!VD ||
      !VD->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !VD->hasInit() || VD->getType()->isReferenceType() ||
      !changedByUpdatesOnly(VD) || !effectFree(VD->getInit()))
    return false;
  bindLocalUses(VD->getInit());
  FloatLocals[VD] = VD->getInit();
  bindAccumulatorUses(VD->getInit());
  return true;
}

/// `S` as `v = x` or `v op= x` (op one of + - * /), v a variable; else
/// null.
static const BinaryOperator *updateOf(const Stmt *S, const VarDecl *&V) {
  auto *E = dyn_cast_or_null<Expr>(S);
  auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
  auto *L = B ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()) : nullptr;
  V = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
  if (!V)
    return nullptr;
  switch (B->getOpcode()) {
  case BO_Assign:
  case BO_AddAssign:
  case BO_SubAssign:
  case BO_MulAssign:
  case BO_DivAssign:
    return B;
  default:
    return nullptr;
  }
}

bool GemmLoopReader::changedByUpdatesOnly(const VarDecl *VD) const {
  struct Updates : RecursiveASTVisitor<Updates> {
    const VarDecl *VD;
    std::vector<const Stmt *> Found;
    bool VisitCompoundStmt(CompoundStmt *CS) {
      for (const Stmt *S : CS->body()) {
        const VarDecl *V = nullptr;
        if (updateOf(S, V) && V == VD)
          Found.push_back(S);
      }
      return true;
    }
  } U;
  U.VD = VD;
  U.TraverseStmt(Kernel->getBody());
  return !isModifiedOutside(VD, Kernel->getBody(), U.Found);
}

void GemmLoopReader::bindLocalUses(const Expr *E) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const GemmLoopReader *R;
    llvm::DenseMap<const DeclRefExpr *, const Expr *> *Out;
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      auto *V = dyn_cast<VarDecl>(D->getDecl());
      auto It = V ? R->FloatLocals.find(V) : R->FloatLocals.end();
      if (It != R->FloatLocals.end())
        Out->try_emplace(D, It->second);
      return true;
    }
  } U;
  U.R = this;
  U.Out = &LocalUseValue;
  U.TraverseStmt(const_cast<Expr *>(E));
}

const Expr *GemmLoopReader::assignedValue(const BinaryOperator *B) const {
  if (B->getOpcode() == BO_Assign)
    return B->getRHS();
  // `v op= x` is `v = v op x` in float: the left side read as a value, then
  // the operation.
  auto *Read = ImplicitCastExpr::Create(
      Ctx, Ctx.FloatTy, CK_LValueToRValue, const_cast<Expr *>(B->getLHS()),
      nullptr, VK_PRValue, FPOptionsOverride());
  return BinaryOperator::Create(
      Ctx, Read, const_cast<Expr *>(B->getRHS()),
      BinaryOperator::getOpForCompoundAssignment(B->getOpcode()), Ctx.FloatTy,
      VK_PRValue, OK_Ordinary, B->getOperatorLoc(), FPOptionsOverride());
}

bool GemmLoopReader::localUpdate(const Stmt *S) {
  const VarDecl *V = nullptr;
  const BinaryOperator *B = updateOf(S, V);
  if (!B || V == Acc || !FloatLocals.count(V) ||
      !B->getRHS()->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !effectFree(B->getRHS()))
    return false;
  const Expr *Value = assignedValue(B);
  bindLocalUses(Value);
  bindAccumulatorUses(Value);
  FloatLocals[V] = Value;
  return true;
}

bool GemmLoopReader::effectFree(const Expr *E) const {
  // An activation helper's call (activationOf checks its body) is a value
  // where its argument is.
  if (!mayWrite(E, Ctx))
    return true;
  std::optional<ActivationMatch> A = activationOf(E, Ctx);
  return A && A->Arg != E && effectFree(A->Arg);
}

void GemmLoopReader::bindAccumulatorUses(const Expr *E) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *Acc;
    std::vector<const DeclRefExpr *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      if (R->getDecl() == Acc)
        Found.push_back(R);
      return true;
    }
  } U;
  U.Acc = Acc;
  U.TraverseStmt(const_cast<Expr *>(E));
  for (const DeclRefExpr *R : U.Found)
    AccValueOf.try_emplace(R, int(AccValues.size()) - 1);
}

/// The assignment `x op= y` (or `x = y`) that is the one statement of the
/// `if` `S`'s then-branch, or null.
static const BinaryOperator *guardedAssignment(const Stmt *S) {
  auto *If = dyn_cast_or_null<IfStmt>(S);
  auto *Then = If ? dyn_cast_or_null<Expr>(single(If->getThen())) : nullptr;
  auto *B = Then ? dyn_cast<BinaryOperator>(Then->IgnoreImplicit()) : nullptr;
  return B && B->isAssignmentOp() ? B : nullptr;
}

const Expr *GemmLoopReader::betaAdded(const Stmt *S, const VarDecl *X,
                                      Expr *Prior) {
  auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      !betaTest(If->getCond()))
    return nullptr;
  const BinaryOperator *B = guardedAssignment(If);
  auto *L = B ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()) : nullptr;
  if (!L || L->getDecl() != X || B->getOpcode() != BO_AddAssign ||
      !B->getRHS()->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !effectFree(B->getRHS()))
    return nullptr;
  auto *Sum = BinaryOperator::Create(
      Ctx, Prior, const_cast<Expr *>(B->getRHS()), BO_Add, Ctx.FloatTy,
      VK_PRValue, OK_Ordinary, B->getOperatorLoc(), FPOptionsOverride());
  return new (Ctx) ConditionalOperator(
      const_cast<Expr *>(If->getCond()), If->getBeginLoc(), Sum,
      B->getOperatorLoc(), Prior, Ctx.FloatTy, VK_PRValue, OK_Ordinary);
}

bool GemmLoopReader::betaUpdatedLocal(const VarDecl *VD, const Stmt *Next) {
  if (!VD || !Next ||
      !VD->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !VD->hasInit() || VD->getType()->isReferenceType() ||
      isModified(VD, Kernel->getBody(), Next) || !effectFree(VD->getInit()))
    return false;
  const BinaryOperator *B = guardedAssignment(Next);
  // The added value must not read the local itself, which reads as the
  // choice being built.
  if (!B || mentions(B->getRHS(), VD) ||
      mentions(cast<IfStmt>(Next)->getCond(), VD))
    return false;
  const Expr *Value = betaAdded(Next, VD, const_cast<Expr *>(VD->getInit()));
  if (!Value)
    return false;
  bindLocalUses(Value);
  FloatLocals[VD] = Value;
  bindAccumulatorUses(VD->getInit());
  bindAccumulatorUses(B->getRHS());
  return true;
}

bool GemmLoopReader::accumulatorUpdate(const Stmt *S) {
  if (Acc && isa_and_nonnull<IfStmt>(S)) {
    const BinaryOperator *B = guardedAssignment(S);
    auto *L = B ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()) : nullptr;
    if (!L || L->getDecl() != Acc ||
        !Acc->getType().getCanonicalType()->isSpecificBuiltinType(
            BuiltinType::Float))
      return false;
    auto *Read =
        ImplicitCastExpr::Create(Ctx, Ctx.FloatTy, CK_LValueToRValue, L,
                                 nullptr, VK_PRValue, FPOptionsOverride());
    const Expr *Value = betaAdded(S, Acc, Read);
    if (!Value)
      return false;
    bindLocalUses(Value);
    bindAccumulatorUses(Value);
    AccValues.push_back(Value);
    return true;
  }
  auto *B = dyn_cast_or_null<BinaryOperator>(
      dyn_cast_or_null<Expr>(S) ? cast<Expr>(S)->IgnoreImplicit() : nullptr);
  auto *L = B ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()) : nullptr;
  if (!Acc || !L || L->getDecl() != Acc ||
      !Acc->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !B->getRHS()->getType().getCanonicalType()->isSpecificBuiltinType(
          BuiltinType::Float) ||
      !effectFree(B->getRHS()))
    return false;
  if (B->getOpcode() != BO_Assign && B->getOpcode() != BO_AddAssign &&
      B->getOpcode() != BO_MulAssign)
    return false;
  const Expr *Value = assignedValue(B);
  bindLocalUses(Value);
  bindAccumulatorUses(Value);
  AccValues.push_back(Value);
  return true;
}

const Stmt *GemmLoopReader::afterLocals(const Stmt *S, const char *Expected) {
  auto *CS = dyn_cast_or_null<CompoundStmt>(S);
  if (!CS)
    return S;
  const Stmt *Last = nullptr, *Skip = nullptr;
  for (const Stmt *const &X : CS->body()) {
    if (Last)
      return fail(X->getBeginLoc(), Expected), nullptr;
    if (X == Skip)
      continue;
    auto *DS = dyn_cast<DeclStmt>(X);
    if (!DS && (accumulatorUpdate(X) || localUpdate(X)))
      continue;
    if (!DS) {
      Last = X;
      continue;
    }
    // A local updated on beta in the next statement (betaUpdatedLocal).
    const Stmt *Next =
        std::next(&X) != CS->body_end() ? *std::next(&X) : nullptr;
    for (const Decl *D : DS->decls()) {
      if (DS->isSingleDecl() && Next &&
          betaUpdatedLocal(dyn_cast<VarDecl>(D), Next)) {
        Skip = Next;
        continue;
      }
      if (!epilogueLocal(dyn_cast<VarDecl>(D)))
        return fail(D->getLocation(), Expected), nullptr;
    }
  }
  if (!Last)
    fail(S->getBeginLoc(), Expected);
  return Last;
}

const Expr *GemmLoopReader::throughLocals(const Expr *E, QualType Keep) const {
  for (E = unconverted(E, Keep); E;) {
    auto *R = dyn_cast<DeclRefExpr>(E);
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (VD && VD == Acc && !AccValues.empty()) {
      auto Use = AccValueOf.find(R);
      const int I =
          Use == AccValueOf.end() ? int(AccValues.size()) - 1 : Use->second;
      if (I < 0)
        break;
      E = unconverted(AccValues[size_t(I)], Keep);
      continue;
    }
    auto It = VD ? FloatLocals.find(VD) : FloatLocals.end();
    if (It == FloatLocals.end())
      break;
    auto Use = LocalUseValue.find(R);
    E = unconverted(Use != LocalUseValue.end() ? Use->second : It->second,
                    Keep);
  }
  return E;
}

bool GemmLoopReader::value(const Expr *V, const Poly &LC) {
  // A conditional on beta chooses a value; other conditionals may be
  // activations (`v > 0.0f ? v : 0.0f`).
  if (auto *Sel = dyn_cast<ConditionalOperator>(
          throughLocals(V, G.C->getType()->getPointeeType()));
      Sel && betaTest(Sel->getCond()))
    return betaSelect(Sel->getCond(), Sel->getTrueExpr(), Sel->getFalseExpr(),
                      LC);
  return plainValue(V, LC);
}

std::optional<std::pair<const VarDecl *, bool>>
GemmLoopReader::betaTest(const Expr *Cond) const {
  const Expr *C = Cond->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot) {
    if (const VarDecl *Beta = floatParam(throughLocals(U->getSubExpr())))
      return std::pair(Beta, true);
    return std::nullopt;
  }
  auto *B = dyn_cast<BinaryOperator>(C);
  if (!B || (B->getOpcode() != BO_EQ && B->getOpcode() != BO_NE))
    return std::nullopt;
  for (auto [X, Y] : {std::pair(B->getLHS(), B->getRHS()),
                      std::pair(B->getRHS(), B->getLHS())})
    if (const VarDecl *Beta = floatParam(throughLocals(X)); Beta && isZero(Y))
      return std::pair(Beta, B->getOpcode() == BO_EQ);
  return std::nullopt;
}

bool GemmLoopReader::betaSelect(const Expr *Cond, const Expr *T, const Expr *F,
                                const Poly &LC) {
  const char *Expected =
      "expected a choice of the stored value on beta, 'beta == 0 ? alpha * "
      "acc : alpha * acc + beta * C[index]' (or an if/else storing the "
      "two), beta a float parameter, the value chosen where beta is not 0 "
      "the other plus 'beta * C[index]', both of the same accumulator";
  auto Test = betaTest(Cond);
  if (!Test)
    return fail(Cond->getBeginLoc(), Expected);
  const Expr *Zero = Test->second ? T : F, *Full = Test->second ? F : T;
  if (!plainValue(Zero, LC))
    return false;
  const Poly ZeroBias = BiasIndex;
  StoredValue Z = takeValue();
  setValueSourceAside();
  if (!plainValue(Full, LC))
    return false;
  if (!zeroValueAgrees(Z, Test->first) || (Z.Bias && ZeroBias != BiasIndex) ||
      !sameValueSource())
    return fail(Full->getBeginLoc(), Expected);
  G.BetaZeroTerms = Z.Terms;
  return true;
}

bool GemmLoopReader::zeroValueAgrees(const StoredValue &Z,
                                     const VarDecl *Beta) const {
  std::string WithoutC = G.Terms, Sorted = Z.Terms;
  llvm::erase(WithoutC, 'c');
  llvm::sort(WithoutC);
  llvm::sort(Sorted);
  return G.Beta == Beta && G.BetaZeroTerms.empty() &&
         G.Terms.find('c') != std::string::npos && !Z.Beta && !Z.CIn &&
         Z.BetaZeroTerms.empty() && Sorted == WithoutC && Z.Alpha == G.Alpha &&
         Z.Act == G.Act && Z.Slope == G.Slope &&
         Z.Bias.has_value() == G.Bias.has_value() &&
         (!Z.Bias || (Z.Bias->Data == G.Bias->Data &&
                      Z.Bias->Optional == G.Bias->Optional));
}

std::optional<GemmLoopReader::BetaStores>
GemmLoopReader::betaStores(const Stmt *S) const {
  auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || !If->getElse() || If->getInit() || If->getConditionVariable() ||
      !betaTest(If->getCond()))
    return std::nullopt;
  const Expr *L1, *R1, *L2, *R2;
  if (!assignment(single(If->getThen()), L1, R1) ||
      !assignment(single(If->getElse()), L2, R2))
    return std::nullopt;
  llvm::FoldingSetNodeID I1, I2;
  L1->IgnoreParenImpCasts()->Profile(I1, Ctx, /*Canonical=*/true);
  L2->IgnoreParenImpCasts()->Profile(I2, Ctx, /*Canonical=*/true);
  if (I1 != I2 || L1->HasSideEffects(Ctx))
    return std::nullopt;
  return BetaStores{If->getCond(), L1, R1, R2};
}

bool GemmLoopReader::StoredValue::operator==(const StoredValue &O) const {
  return Terms == O.Terms && BetaZeroTerms == O.BetaZeroTerms &&
         Alpha == O.Alpha && Beta == O.Beta && CIn == O.CIn && Act == O.Act &&
         Slope == O.Slope && Bias.has_value() == O.Bias.has_value() &&
         (!Bias ||
          (Bias->Data == O.Bias->Data && Bias->Optional == O.Bias->Optional));
}

GemmLoopReader::StoredValue GemmLoopReader::takeValue() {
  StoredValue V{G.Terms,   G.BetaZeroTerms, G.Alpha, G.Beta, G.CIn,
                G.CInElem, G.Bias,          G.Act,   G.Slope};
  G.Terms.clear();
  G.BetaZeroTerms.clear();
  G.Alpha = G.Beta = nullptr;
  G.CIn = nullptr;
  G.Bias.reset();
  G.Act = Activation::None;
  G.Slope = {};
  return V;
}

void GemmLoopReader::putValue(const StoredValue &V) {
  G.Terms = V.Terms;
  G.BetaZeroTerms = V.BetaZeroTerms;
  G.Alpha = V.Alpha;
  G.Beta = V.Beta;
  G.CIn = V.CIn;
  G.CInElem = V.CInElem;
  G.Bias = V.Bias;
  G.Act = V.Act;
  G.Slope = V.Slope;
}

bool GemmLoopReader::plainValue(const Expr *V, const Poly &LC) {
  const char *Expected =
      "expected the stored value 'acc', 'alpha * acc', plus optionally "
      "'beta * C[index]' (or 'beta * Cin[index]', a C input of bf16, fp16 or "
      "float) and a bias 'bias[col]' or 'bias[row]' (or 'bias ? bias[col] : "
      "0.0f'), optionally under ReLU 'fmaxf(v, 0.0f)', GELU, SiLU, LeakyReLU, "
      "sigmoid or tanh in a form of docs/migration.md (alpha, beta float "
      "parameters), converted to C's type with rounding to nearest";
  V = throughLocals(V, G.C->getType()->getPointeeType());
  if (std::optional<ActivationMatch> A = activationOf(V, Ctx)) {
    G.Act = A->Kind;
    if (A->Kind == Activation::LeakyRelu && !leakySlope(A->Slope))
      return fail(A->Slope->getBeginLoc(), LeakySlopeExpected);
    V = throughLocals(A->Arg);
  }
  std::vector<const Expr *> Terms;
  if (!sumTerms(V, Terms))
    return fail(V->getBeginLoc(),
                "the stored value adds two sums, '(a + b) + (c + d)': the "
                "tiled form adds its terms one after the other, '((a + b) + "
                "c) + d', which rounds differently; expected the terms "
                "added one at a time");
  for (const Expr *X : Terms) {
    const char Kind = term(X, LC);
    if (!Kind || G.Terms.find(Kind) != std::string::npos) {
      G.Alpha = G.Beta = nullptr;
      G.CIn = nullptr;
      return fail(X->getBeginLoc(), Expected);
    }
    G.Terms += Kind;
  }
  if (G.Terms.find('a') == std::string::npos)
    return fail(V->getBeginLoc(), Expected);
  return true;
}

bool GemmLoopReader::sumTerms(const Expr *E,
                              std::vector<const Expr *> &Out) const {
  auto Sum = [&](const Expr *X) {
    auto *B = dyn_cast<BinaryOperator>(throughLocals(X));
    return B && B->getOpcode() == BO_Add ? B : nullptr;
  };
  const BinaryOperator *B = Sum(E);
  if (!B) {
    Out.push_back(throughLocals(E));
    return true;
  }
  // A float sum rounds as it is grouped: `x + y` is y + x exactly, so a sum
  // on the right, `c + (a + b)`, is the left fold (a + b) + c; two sums are
  // no fold.
  const Expr *Fold = B->getLHS(), *Last = B->getRHS();
  if (Sum(Last)) {
    if (Sum(Fold))
      return false;
    std::swap(Fold, Last);
  }
  if (!sumTerms(Fold, Out))
    return false;
  Out.push_back(throughLocals(Last));
  return true;
}

bool GemmLoopReader::uniformScale(const VarDecl *VD) {
  if (!isUniformScale(VD, Kernel))
    return false;
  UniformScales.insert(VD);
  return true;
}

bool GemmLoopReader::leakySlope(const Expr *S) {
  const Expr *X = throughLocals(S);
  if (std::optional<float> C = floatConstant(X, Ctx))
    G.Slope = LeakySlope{nullptr, C};
  else if (const VarDecl *V = floatParam(X))
    G.Slope = LeakySlope{V, std::nullopt};
  else
    return false;
  return true;
}

const VarDecl *GemmLoopReader::floatParam(const Expr *E) const {
  auto *R = dyn_cast<DeclRefExpr>(unconverted(E));
  auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (VD && UniformScales.contains(VD))
    return VD;
  auto *P = VD ? dyn_cast<ParmVarDecl>(standsFor(VD)) : nullptr;
  return P && P->getType()->isSpecificBuiltinType(BuiltinType::Float) &&
                 llvm::is_contained(Kernel->parameters(), P)
             ? P
             : nullptr;
}

char GemmLoopReader::term(const Expr *X, const Poly &LC) {
  if (isAccumulator(X))
    return 'a';
  if (auto *M = dyn_cast<BinaryOperator>(X); M && M->getOpcode() == BO_Mul)
    for (auto [S, Y] : {std::pair(M->getLHS(), M->getRHS()),
                        std::pair(M->getRHS(), M->getLHS())}) {
      const VarDecl *Scale = floatParam(throughLocals(S));
      if (!Scale)
        continue;
      if (isAccumulator(throughLocals(Y))) {
        G.Alpha = Scale;
        return 'a';
      }
      std::optional<GlobalAccess> Old = global(throughLocals(Y));
      std::optional<Poly> I = Old ? Ev.offset(Old->Index) : std::nullopt;
      if (I && oldValue(*Old, *I, LC)) {
        G.Beta = Scale;
        return 'c';
      }
    }
  // An optional bias, `bias != nullptr ? bias[col] : 0.0f`.
  const ParmVarDecl *Tested = nullptr;
  if (auto *Sel = dyn_cast<ConditionalOperator>(X))
    if (auto Read = nonNullRead(Sel)) {
      std::tie(Tested, X) = *Read;
      X = throughLocals(X);
    }
  std::optional<GlobalAccess> Bias = global(X);
  std::optional<Poly> I = Bias ? Ev.offset(Bias->Index) : std::nullopt;
  if (Tested && (!I || Bias->Ptr != Tested || Tested == G.C))
    return 0;
  // C's old value unscaled (beta = 1), where C is float: the sum is then
  // the kernel's own, in float. A C input apart from C (a residual,
  // `acc + res[i]`) is read widened to float whatever C's type.
  if (I && !Tested &&
      (Bias->Ptr != G.C ||
       G.C->getType()->getPointeeType()->isSpecificBuiltinType(
           BuiltinType::Float)) &&
      oldValue(*Bias, *I, LC))
    return 'c';
  if (!I || Bias->Ptr == G.C)
    return 0;
  BiasAt = X;
  BiasIndex = *I + Bias->Offset;
  G.Bias = LiftedBias{Bias->Ptr, true, {}, Tested != nullptr};
  return 'b';
}

std::optional<std::pair<const ParmVarDecl *, const Expr *>>
GemmLoopReader::nonNullRead(const ConditionalOperator *Sel) const {
  auto Param = [](const Expr *X) -> const ParmVarDecl * {
    auto *R = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    auto *P = R ? dyn_cast<ParmVarDecl>(R->getDecl()) : nullptr;
    return P && P->getType()->isPointerType() ? P : nullptr;
  };
  auto IsNull = [&](const Expr *X) {
    return X->IgnoreParenImpCasts()->isNullPointerConstant(
               const_cast<ASTContext &>(Ctx),
               Expr::NPC_ValueDependentIsNotNull) != Expr::NPCK_NotNull;
  };
  // The test: `P`, `P != null`, `null != P` hold where P is not null;
  // `!P`, `P == null`, `null == P` where it is.
  const Expr *C = Sel->getCond()->IgnoreParenImpCasts();
  const ParmVarDecl *P = Param(C);
  bool Set = P != nullptr;
  if (auto *U = dyn_cast<UnaryOperator>(C); U && U->getOpcode() == UO_LNot) {
    P = Param(U->getSubExpr());
    Set = false;
  }
  if (auto *B = dyn_cast<BinaryOperator>(C);
      B && (B->getOpcode() == BO_NE || B->getOpcode() == BO_EQ))
    for (auto [X, Y] : {std::pair(B->getLHS(), B->getRHS()),
                        std::pair(B->getRHS(), B->getLHS())})
      if (Param(X) && IsNull(Y)) {
        P = Param(X);
        Set = B->getOpcode() == BO_NE;
      }
  if (!P)
    return std::nullopt;
  const Expr *Read = Set ? Sel->getTrueExpr() : Sel->getFalseExpr();
  const Expr *Zero = Set ? Sel->getFalseExpr() : Sel->getTrueExpr();
  if (!isZero(throughLocals(Zero)))
    return std::nullopt;
  return std::pair(P, Read);
}

bool GemmLoopReader::oldValue(const GlobalAccess &Old, const Poly &I,
                              const Poly &LC) {
  if (I + Old.Offset != LC)
    return false;
  if (Old.Ptr == G.C)
    return true;
  if (Old.Ptr == G.A.Data || Old.Ptr == G.B.Data || (G.CIn && G.CIn != Old.Ptr))
    return false;
  // bf16, fp16 or float: the value read widens to float exactly, as the
  // tiled form's load does.
  std::optional<ElementType> E =
      elementOf(Old.Ptr->getType()->getPointeeType());
  if (!E)
    return false;
  G.CIn = Old.Ptr;
  G.CInElem = *E;
  return true;
}

bool GemmLoopReader::biasAgrees() {
  if (!G.Bias)
    return true;
  const char *Expected =
      "expected a bias indexed by the stored element's column, 'bias[col]', "
      "or row, 'bias[row]', of __nv_bfloat16, __half or float, the same "
      "for every matrix of a batch";
  std::optional<ElementType> E =
      elementOf(G.Bias->Data->getType()->getPointeeType());
  if (!E || (BiasIndex != Col && BiasIndex != Row))
    return fail(BiasAt->getBeginLoc(), Expected);
  G.Bias->PerColumn = BiasIndex == Col;
  G.Bias->Elem = *E;
  return true;
}

bool GemmLoopReader::elementTypes() {
  QualType TA = G.A.Data->getType()->getPointeeType();
  QualType TB = G.B.Data->getType()->getPointeeType();
  std::optional<ElementType> EA = elementOf(TA), EB = elementOf(TB);
  if (!EA || EA != EB)
    return fail(G.A.Data->getLocation(),
                "A and B must have one element type, __nv_bfloat16 or "
                "__half");
  for (const VarDecl *S : Shared) {
    QualType E = tileElementType(S, Ctx);
    const bool Widened = WidenedTiles && *EA != ElementType::F32 &&
                         elementOf(E) == ElementType::F32;
    if (elementOf(E) != EA && !Widened)
      return fail(S->getLocation(), "the tiles and the matrices they stage "
                                    "must have one element type");
  }
  if (*EA == ElementType::F32 && !Tf32)
    return fail(G.A.Data->getLocation(), SgemmMessage);
  G.Elem = *EA;
  // tawa::Matrix's extents and leading dimension are int: a wider or
  // unsigned parameter could hold a value the view would change.
  return intExtents(G);
}

std::optional<GemmLoopReader::CountingLoop>
GemmLoopReader::countingLoop(const ForStmt *F, int64_t Step) const {
  auto *Init = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
  auto *V = Init && Init->isSingleDecl()
                ? dyn_cast<VarDecl>(Init->getSingleDecl())
                : nullptr;
  auto *Cond = F ? dyn_cast_or_null<BinaryOperator>(F->getCond()) : nullptr;
  if (!V || !V->getType()->isIntegerType() || !V->hasInit() ||
      !isZero(V->getInit()) || !Cond || Cond->getOpcode() != BO_LT ||
      !refersTo(Cond->getLHS(), V) || !F->getInc() ||
      isModified(V, F->getBody()))
    return std::nullopt;
  const Expr *Inc = bare(F->getInc());
  std::optional<int64_t> Got;
  if (auto *U = dyn_cast<UnaryOperator>(Inc);
      U && U->isIncrementOp() && refersTo(U->getSubExpr(), V))
    Got = 1;
  else if (auto *C = dyn_cast<CompoundAssignOperator>(Inc);
           C && C->getOpcode() == BO_AddAssign && refersTo(C->getLHS(), V))
    Got = Ev.constant(C->getRHS());
  std::optional<Poly> Bound = Ev.eval(Cond->getRHS());
  if (!Got || !Bound || !freeOfCoordinates(*Bound) ||
      (Step ? *Got != Step : *Got < 2 || *Got > 256))
    return std::nullopt;
  return CountingLoop{V, *Bound, *Got};
}

const ForStmt *GemmLoopReader::nextLoop(const Stmt *Body,
                                        const char *Expected) {
  const Stmt *Last = Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Body)) {
    if (CS->body_empty())
      return fail(Body->getBeginLoc(), Expected), nullptr;
    for (const Stmt *X :
         llvm::make_range(CS->body_begin(), CS->body_end() - 1)) {
      auto *DS = dyn_cast<DeclStmt>(X);
      if (!DS)
        return fail(X->getBeginLoc(), Expected), nullptr;
      OuterDecls.push_back({DS, Body});
    }
    Last = CS->body_back();
  }
  if (auto *F = hintedLoop(Last))
    return F;
  return fail(Last->getBeginLoc(), Expected), nullptr;
}

bool GemmLoopReader::endsInTapLoop(const Stmt *Body) const {
  return countingLoop(loopAfterDecls(Body), 1).has_value();
}

const ForStmt *GemmLoopReader::loopAfterDecls(const Stmt *Body) {
  const Stmt *Last = Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Body)) {
    if (CS->body_empty() ||
        !llvm::all_of(llvm::make_range(CS->body_begin(), CS->body_end() - 1),
                      [](const Stmt *X) { return isa<DeclStmt>(X); }))
      return nullptr;
    Last = CS->body_back();
  }
  return hintedLoop(Last);
}

std::optional<GemmLoopReader::Im2colCoordinates>
GemmLoopReader::im2colCoordinates(const Im2colShape &Sh, const Poly &M,
                                  const Poly &KK) const {
  std::optional<Poly> MQ = Ev.divide(M, Sh.Q, false);
  if (TapChannels != Poly()) {
    // Loops over the taps: column kk is tap * C + c.
    std::optional<Poly> N = Ev.divide(M, Sh.P * Sh.Q, false);
    std::optional<Poly> P = MQ ? Ev.divide(*MQ, Sh.P, true) : std::nullopt;
    std::optional<Poly> Q = Ev.divide(M, Sh.Q, true);
    std::optional<Poly> R = Taps.S == Poly() ? Ev.divide(Taps.R, Sh.S, false)
                                             : std::optional<Poly>(Taps.R);
    std::optional<Poly> S = Taps.S == Poly() ? Ev.divide(Taps.R, Sh.S, true)
                                             : std::optional<Poly>(Taps.S);
    if (!N || !P || !Q || !R || !S)
      return std::nullopt;
    return Im2colCoordinates{*N, *P, *Q, KK - tapIndex() * Sh.C, *R, *S};
  }
  std::optional<Poly> KC = Ev.divide(KK, Sh.C, false);
  std::optional<Poly> N = Ev.divide(M, Sh.P * Sh.Q, false);
  std::optional<Poly> P = MQ ? Ev.divide(*MQ, Sh.P, true) : std::nullopt;
  std::optional<Poly> Q = Ev.divide(M, Sh.Q, true);
  std::optional<Poly> C = Ev.divide(KK, Sh.C, true);
  std::optional<Poly> S = KC ? Ev.divide(*KC, Sh.S, true) : std::nullopt;
  std::optional<Poly> R = Ev.divide(KK, Sh.C * Sh.S, false);
  if (!N || !P || !Q || !C || !S || !R)
    return std::nullopt;
  return Im2colCoordinates{*N, *P, *Q, *C, *R, *S};
}

std::optional<GemmLoopReader::Im2colShape>
GemmLoopReader::im2colShape(const Poly &L, const Conditions &Checks,
                            const Poly &M, const Poly &KK, const Poly &Rows,
                            const Poly &Cols, bool *Unchecked) const {
  std::vector<const DivModAtom *> Atoms;
  atomsOf(L, Atoms);
  for (const Poly &Ch : Checks)
    atomsOf(Ch, Atoms);
  const DivModAtom *QA = find(Atoms, true, M);
  std::optional<Poly> MDivQ = QA ? Ev.divide(M, QA->D, false) : std::nullopt;
  const DivModAtom *PA = MDivQ ? find(Atoms, true, *MDivQ) : nullptr;
  if (!PA)
    return std::nullopt;
  Im2colShape Sh;
  Sh.P = PA->D;
  Sh.Q = QA->D;
  Sh.Rows = Rows;
  Sh.Cols = Cols;
  if (TapChannels != Poly()) {
    // Loops over the taps: S their inner bound, or the divisor of the one
    // loop's decode `rs % S`.
    Sh.C = TapChannels;
    const DivModAtom *SA =
        Taps.S == Poly() ? find(Atoms, true, Taps.R) : nullptr;
    if (Taps.S == Poly() && !SA)
      return std::nullopt;
    Sh.S = SA ? SA->D : Taps.SBound;
    std::optional<Poly> R =
        SA ? dividedBy(Taps.RBound, Sh.S) : std::optional<Poly>(Taps.RBound);
    if (!R || *R * Sh.C * Sh.S != Cols)
      return std::nullopt;
    Sh.R = *R;
  } else {
    const DivModAtom *CA = find(Atoms, true, KK);
    std::optional<Poly> KDivC = CA ? Ev.divide(KK, CA->D, false) : std::nullopt;
    const DivModAtom *SA = KDivC ? find(Atoms, true, *KDivC) : nullptr;
    if (!SA)
      return std::nullopt;
    Sh.C = CA->D;
    Sh.S = SA->D;
    std::optional<Poly> R = dividedBy(Cols, Sh.C * Sh.S);
    if (!R || *R * Sh.C * Sh.S != Cols)
      return std::nullopt;
    Sh.R = *R;
  }
  for (const Poly *X : {&Sh.P, &Sh.Q, &Sh.C, &Sh.S, &Sh.R, &Sh.Rows})
    if (!freeOfCoordinates(*X))
      return std::nullopt;
  std::optional<Im2colCoordinates> At = im2colCoordinates(Sh, M, KK);
  Spatial Y, X;
  if (!At || !spatial(Checks, At->P, At->R, Y) ||
      !spatial(Checks, At->Q, At->S, X))
    return std::nullopt;
  Sh.H = Y.Extent;
  Sh.W = X.Extent;
  Sh.PadH = Y.Pad;
  Sh.PadW = X.Pad;
  Sh.StrideH = Y.Stride;
  Sh.StrideW = X.Stride;
  Sh.DilH = Y.Dil;
  Sh.DilW = X.Dil;
  if (!im2colElement(Sh, L, Checks, M, KK, Unchecked))
    return std::nullopt;
  return Sh;
}

bool GemmLoopReader::im2colElement(const Im2colShape &Sh, const Poly &L,
                                   const Conditions &Checks, const Poly &M,
                                   const Poly &KK, bool *Unchecked) const {
  std::optional<Im2colCoordinates> At = im2colCoordinates(Sh, M, KK);
  if (!At)
    return false;
  const Poly IH = At->P * Sh.StrideH - Sh.PadH + At->R * Sh.DilH;
  const Poly IW = At->Q * Sh.StrideW - Sh.PadW + At->S * Sh.DilW;
  if (((At->N * Sh.H + IH) * Sh.W + IW) * Sh.C + At->C != L)
    return false;
  const Poly One = Poly::constant(1);
  // The column's check: `k < R * S * C`, or under loops over the taps the
  // channel's, `c < C`.
  const Poly Column =
      TapChannels != Poly() ? Sh.C - At->C - One : Sh.Cols - KK - One;
  const bool NoColumn = Unchecked && !llvm::is_contained(Checks, Column);
  Conditions Required = {Sh.Rows - M - One, Sh.H - IH - One, Sh.W - IW - One};
  if (!NoColumn)
    Required.push_back(Column);
  // Without padding, the input row and column are never negative: their
  // checks against 0 may be left out.
  if (Sh.PadH != Poly())
    Required.push_back(IH);
  if (Sh.PadW != Poly())
    Required.push_back(IW);
  Conditions Allowed = Required;
  Allowed.push_back(IH);
  Allowed.push_back(IW);
  auto Within = [](const Conditions &X, const Conditions &Y) {
    return llvm::all_of(
        X, [&](const Poly &P) { return llvm::is_contained(Y, P); });
  };
  const bool Element = Within(Required, Checks) && Within(Checks, Allowed);
  if (Element && NoColumn)
    *Unchecked = true;
  return Element;
}

std::optional<Poly> GemmLoopReader::dividedBy(const Poly &Num,
                                              const Poly &Den) const {
  if (Den.terms().size() == 1) {
    const auto &[DM, DC] = *Den.terms().begin();
    Poly Q;
    bool Whole = DC != 0;
    for (const auto &[M, C] : Num.terms()) {
      Poly::Monomial Rest = M;
      for (Symbol S : DM) {
        auto It = std::find(Rest.begin(), Rest.end(), S);
        if (It == Rest.end()) {
          Whole = false;
          break;
        }
        Rest.erase(It);
      }
      if (!Whole || C % DC != 0) {
        Whole = false;
        break;
      }
      Poly Term = Poly::constant(C / DC);
      for (Symbol S : Rest)
        Term = Term * Poly::symbol(S);
      Q = Q + Term;
    }
    if (Whole)
      return Q;
  }
  for (const auto &[M, C] : Den.terms())
    for (Symbol S : M) {
      std::optional<std::pair<Poly, Poly>> D = Den.linearIn(S);
      std::optional<std::pair<Poly, Poly>> N = Num.linearIn(S);
      std::optional<int64_t> DC = D ? D->second.constantValue() : std::nullopt;
      if (!N || !DC || *DC == 0)
        continue;
      if (std::optional<Poly> Q = N->second.dividedExactly(*DC))
        if (*Q * Den == Num)
          return Q;
    }
  return std::nullopt;
}

bool GemmLoopReader::sameConditions(const Conditions &A, const Conditions &B) {
  if (A.size() != B.size())
    return false;
  for (const Poly &X : A)
    if (std::count(A.begin(), A.end(), X) != std::count(B.begin(), B.end(), X))
      return false;
  return true;
}

bool GemmLoopReader::freeOfCoordinates(const Poly &P) const {
  for (const auto &[M, C] : P.terms())
    for (Symbol S : M)
      if (!extentOfSymbol(S) && !fixedAtom(S))
        return false;
  return true;
}

const DivModAtom *GemmLoopReader::fixedAtom(Symbol S) const {
  const DivModAtom *A = Ev.atom(S);
  return A && A->Fixed && freeOfCoordinates(A->X) && freeOfCoordinates(A->D)
             ? A
             : nullptr;
}

void GemmLoopReader::atomsOf(const Poly &P,
                             std::vector<const DivModAtom *> &Out) const {
  for (const auto &[M, C] : P.terms())
    for (Symbol S : M)
      if (const DivModAtom *A = Ev.atom(S)) {
        if (llvm::is_contained(Out, A))
          continue;
        Out.push_back(A);
        atomsOf(A->X, Out);
      }
}

std::optional<Symbol> GemmLoopReader::symbolOf(const Poly &P) {
  if (P.terms().size() != 1 || P.terms().begin()->second != 1 ||
      P.terms().begin()->first.size() != 1)
    return std::nullopt;
  return P.terms().begin()->first.front();
}

const DivModAtom *GemmLoopReader::find(llvm::ArrayRef<const DivModAtom *> Atoms,
                                       bool Mod, const Poly &X) {
  for (const DivModAtom *A : Atoms)
    if (A->Mod == Mod && A->X == X)
      return A;
  return nullptr;
}

bool GemmLoopReader::spatial(const Conditions &Checks, const Poly &O,
                             const Poly &F, Spatial &Out) const {
  std::optional<Symbol> OSym = symbolOf(O), FSym = symbolOf(F);
  if (!OSym || !FSym)
    return false;
  const Symbol OS = *OSym, FS = *FSym;
  std::optional<Poly> In, Upper;
  // The lower check has the output coordinate's stride as its factor, the
  // upper one its negation.
  for (const Poly &Ch : Checks) {
    std::optional<std::pair<Poly, Poly>> Split = Ch.linearIn(OS);
    if (!Split || Split->second == Poly())
      continue;
    if (Split->second.nonNegativeCoefficients() && !In)
      In = Ch;
    else if ((Poly() - Split->second).nonNegativeCoefficients() && !Upper)
      Upper = Ch;
  }
  if (!Upper)
    return false;
  if (!In) {
    // The terms of -Upper that name the coordinates.
    Poly Coordinates;
    const Poly Negated = Poly() - *Upper;
    for (const auto &[M, C] : Negated.terms())
      if (std::count(M.begin(), M.end(), OS) ||
          std::count(M.begin(), M.end(), FS)) {
        Poly Term = Poly::constant(C);
        for (Symbol X : M)
          Term = Term * Poly::symbol(X);
        Coordinates = Coordinates + Term;
      }
    if (!Coordinates.nonNegativeCoefficients())
      return false;
    In = Coordinates;
    Out.Optional.push_back(*In);
  }
  std::optional<std::pair<Poly, Poly>> A = In->linearIn(OS);
  std::optional<std::pair<Poly, Poly>> B =
      A ? A->first.linearIn(FS) : std::nullopt;
  if (!A || !B || !freeOfCoordinates(A->second) ||
      !freeOfCoordinates(B->second) || !freeOfCoordinates(B->first))
    return false;
  Out.In = *In;
  Out.Stride = A->second;
  Out.Dil = B->second;
  Out.Pad = Poly() - B->first;
  Out.Extent = *Upper + *In + Poly::constant(1);
  return freeOfCoordinates(Out.Extent);
}

std::string GemmLoopReader::text(const Poly &P) const {
  std::vector<std::pair<std::string, int64_t>> Terms;
  for (const auto &[M, C] : P.terms()) {
    std::string Names;
    for (Symbol S : M) {
      std::string Name;
      if (const Extent *X = extentOfSymbol(S))
        Name = X->Name;
      else if (const LaunchValue *L = launchValueOf(S))
        Name = L->Name;
      else if (const DivModAtom *A = fixedAtom(S))
        Name = "(" + productText({&A->X}) + (A->Mod ? " % " : " / ") +
               productText({&A->D}) + ")";
      Names += (Names.empty() ? "" : " * ") + Name;
    }
    Terms.push_back({Names, C});
  }
  std::sort(Terms.begin(), Terms.end(), [](const auto &A, const auto &B) {
    return A.first.empty() != B.first.empty() ? B.first.empty()
                                              : A.first < B.first;
  });
  std::string Out;
  for (const auto &[Names, C] : Terms) {
    const int64_t A = C < 0 ? -C : C;
    std::string Term = Names.empty() ? std::to_string(A)
                       : A == 1      ? Names
                                     : std::to_string(A) + " * " + Names;
    Out += Out.empty() ? (C < 0 ? "-" + Term : Term)
                       : (C < 0 ? " - " : " + ") + Term;
  }
  return Out.empty() ? "0" : Out;
}

std::string
GemmLoopReader::productText(std::initializer_list<const Poly *> Factors) const {
  std::string Out;
  for (const Poly *F : Factors) {
    const std::string T = text(*F);
    Out += (Out.empty() ? "" : " * ") +
           (F->terms().size() > 1 ? "(" + T + ")" : T);
  }
  return Out;
}

} // namespace tawa
