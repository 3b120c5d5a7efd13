//===- ConvLift.cpp - lifting a hand-written implicit-GEMM convolution ----===//
#include "tawa/ConvLift.h"
#include "GemmLoopReader.h"
#include "tawa/BlockedLift.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace clang;

namespace tawa {
namespace {

/// `Tile[P1][P2]` of a 2-D __shared__ tile.
struct TileElement {
  const VarDecl *Tile = nullptr;
  Poly P1, P2;
};

/// `Tile[E1][E2] = conditions ? Ptr[L] : 0` (or its if/else form), with L
/// the element's index in the staging thread's coordinates.
struct StagingCopy {
  TileElement At;
  const ParmVarDecl *Ptr = nullptr;
  Poly L;
  Conditions Checks;
  SourceLocation Loc;
};

class ConvLifter : GemmLoopReader {
public:
  ConvLifter(const FunctionDecl *Kernel, const ForStmt *Loop, ASTContext &Ctx,
             LiftFailure &Why, const NamedExtents *Named, bool Tf32)
      : GemmLoopReader(Kernel, Loop, Ctx, Why, Named) {
    Ev.DivMod = true;
    this->Tf32 = Tf32;
  }

  /// Whether the K loop read as loops over a convolution's taps and a
  /// channel tile whose body stages one element per thread, or all but the
  /// activations' staging copy read as a convolution's (a failure after
  /// them is the convolution's to report; a flattened K loop alone is also
  /// a GEMM's, and copies in loops are the register-blocked front end's,
  /// BlockedLift.h's stagesInLoop).
  bool readHeader() const {
    return (Nested && !(Channels && stagesInLoop(Channels))) ||
           ReachedActivations;
  }

  std::optional<LiftedGemm> run() {
    const std::optional<AroundLoop> Around = aroundLoop();
    if (!Around)
      return std::nullopt;
    if (!header())
      return std::nullopt;
    Ev.BlockDim[0] = Ev.BlockDim[1] = G.Tile;
    Ev.BlockDim[2] = 1;
    // A block of TILE * TILE threads in one dimension, split by TILE into
    // a row and a column, where the kernel never reads threadIdx.y (as
    // Lift.cpp's one-dimensional blocks).
    if (!readsThreadIdx(Kernel->getBody(), 'y')) {
      Ev.FlatTile = G.Tile;
      Ev.BlockDim[0] = int64_t(G.Tile) * G.Tile;
      Ev.BlockDim[1] = 1;
    }
    if (!prologue(Around->Before) || !loopBody() || !store(Around->After) ||
        !operands() || !activations() || !wholeTiles() || !biasAgrees() ||
        !elementTypes())
      return std::nullopt;
    launches();
    return G;
  }

private:
  /// `for (int t = 0; t < KB; t += TILE)`: t counts elements of the
  /// flattened filter taps and channels, KB = R * S * C.
  bool header() {
    const char *Expected =
        "expected 'for (int t = 0; t < R * S * C; t += TILE)': the K loop "
        "of an implicit-GEMM convolution walks the filter taps and channels "
        "flattened, TILE at a time";
    auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
    auto *T = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
    auto *Inc = Loop->getInc()
                    ? dyn_cast<CompoundAssignOperator>(bare(Loop->getInc()))
                    : nullptr;
    if (countingLoop(Loop, 1))
      return nestedHeader();
    if (std::optional<CountingLoop> C = countingLoop(Loop, 0);
        C && endsInTapLoop(Loop->getBody()))
      return channelsFirstHeader(*C);
    if (!T || !T->hasInit() || !isZero(T->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), T) || !Inc ||
        Inc->getOpcode() != BO_AddAssign || !refersTo(Inc->getLHS(), T) ||
        isModified(T, Loop->getBody()))
      return fail(Loop->getForLoc(), Expected);
    Ev.addSymbol(T);
    Counter = T;
    std::optional<Poly> Step = Ev.eval(Inc->getRHS());
    std::optional<int64_t> Tile;
    if (Step)
      Tile = Step->constantValue();
    std::optional<Poly> Bound = Ev.eval(Cond->getRHS());
    if (!Tile || *Tile < 2 || *Tile > 256 || !Bound ||
        !freeOfCoordinates(*Bound))
      return fail(Loop->getForLoc(), Expected);
    G.Tile = int(*Tile);
    KOffset = Poly::symbol(T);
    KBound = *Bound;
    LoopCountsElements = true;
    Channels = Loop;
    return true;
  }

  /// The K loop as loops over the filter taps and a channel tile:
  /// `for (r < R) for (s < S) for (c0 < C; c0 += TILE)`, or `for (rs <
  /// R * S) for (c0 < C; c0 += TILE)` with r and s decoded from rs.
  bool nestedHeader() {
    const char *Expected =
        "expected the loops over the filter taps and the channels 'for (int "
        "r = 0; r < R; ++r) for (int s = 0; s < S; ++s) for (int c0 = 0; c0 < "
        "C; c0 += TILE)' (or one loop over the R * S taps), each body index "
        "declarations and the next loop";
    std::optional<CountingLoop> Outer = countingLoop(Loop, 1);
    Ev.addSymbol(Outer->Var);
    const ForStmt *Second = nextLoop(Loop->getBody(), Expected);
    if (!Second)
      return false;
    if (std::optional<CountingLoop> S = countingLoop(Second, 1)) {
      Ev.addSymbol(S->Var);
      const ForStmt *Third = nextLoop(Second->getBody(), Expected);
      std::optional<CountingLoop> C =
          Third ? countingLoop(Third, 0) : std::nullopt;
      if (!C)
        return Why.Message.empty() ? fail(Second->getForLoc(), Expected)
                                   : false;
      Taps = {Poly::symbol(Outer->Var), Outer->Bound, Poly::symbol(S->Var),
              S->Bound};
      return channelLoop(Third, *C);
    }
    std::optional<CountingLoop> C = countingLoop(Second, 0);
    if (!C)
      return fail(Second->getForLoc(), Expected);
    // One loop over the taps: r and s are its quotient and remainder by S,
    // found in the staging copy (activations()).
    Taps = {Poly::symbol(Outer->Var), Outer->Bound, Poly(), Poly()};
    return channelLoop(Second, *C);
  }

  /// The K loop as a channel tile walked before the taps: `for (c0 < C; c0
  /// += TILE) for (r < R) for (s < S)`, or `for (c0 ...) for (rs < R * S)`.
  /// Its iterations stage the same elements (tap, c0 + j) as nestedHeader's
  /// loops, each once, in another order; the sum of their products is the
  /// same up to the order of the additions, which the tiled kernel chooses
  /// anyway.
  bool channelsFirstHeader(const CountingLoop &C) {
    const char *Expected =
        "expected the loops over the channels and the filter taps 'for (int "
        "c0 = 0; c0 < C; c0 += TILE) for (int r = 0; r < R; ++r) for (int s "
        "= 0; s < S; ++s)' (or one loop over the R * S taps), each body index "
        "declarations and the next loop";
    Ev.addSymbol(C.Var);
    const ForStmt *First = nextLoop(Loop->getBody(), Expected);
    std::optional<CountingLoop> R =
        First ? countingLoop(First, 1) : std::nullopt;
    if (!R)
      return Why.Message.empty() ? fail(Loop->getForLoc(), Expected) : false;
    Ev.addSymbol(R->Var);
    const ForStmt *Staging = First;
    Taps = {Poly::symbol(R->Var), R->Bound, Poly(), Poly()};
    if (endsInTapLoop(First->getBody())) {
      const ForStmt *Second = nextLoop(First->getBody(), Expected);
      std::optional<CountingLoop> S =
          Second ? countingLoop(Second, 1) : std::nullopt;
      if (!S)
        return Why.Message.empty() ? fail(First->getForLoc(), Expected) : false;
      Ev.addSymbol(S->Var);
      Taps = {Poly::symbol(R->Var), R->Bound, Poly::symbol(S->Var), S->Bound};
      Staging = Second;
    }
    channelLoop(Loop, C);
    Channels = Staging;
    return true;
  }

  bool channelLoop(const ForStmt *F, const CountingLoop &C) {
    Ev.addSymbol(C.Var);
    Counter = C.Var;
    G.Tile = int(C.Step);
    Channels = F;
    ChannelBound = C.Bound;
    KOffset = Poly::symbol(C.Var);
    Nested = true;
    return true;
  }

  /// The flattened K index of the element at `X` of the iteration's tile
  /// (X the thread's column, or the product's j): the loop's offset plus X;
  /// for nested loops, (tap * C + c0 + X), tap = r * S + s or rs.
  Poly kIndex(const Poly &X) const {
    if (!Nested)
      return KOffset + X;
    return tapIndex() * ChannelBound + KOffset + X;
  }
  /// The bounds check of that column: `k < R * S * C`, or for nested loops
  /// `c0 + X < C`.
  Poly kCheck(const Poly &X) const {
    const Poly One = Poly::constant(1);
    return Nested ? ChannelBound - KOffset - X - One
                  : KBound - KOffset - X - One;
  }

  bool prologue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected before the loop only declarations: the two __shared__ "
        "tiles, index variables computed from threadIdx, blockIdx and the "
        "parameters (the output pixel and its decode), and one float "
        "accumulator set to 0";
    for (const Stmt *S : Stmts) {
      auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS)
        return fail(S->getBeginLoc(), Expected);
      for (const Decl *D : DS->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !declaration(VD))
          return Why.Message.empty() ? fail(D->getLocation(), Expected) : false;
      }
    }
    if (Shared.size() != 2 || !Acc)
      return fail(Loop->getForLoc(),
                  "expected two __shared__ tiles and a float accumulator "
                  "declared before the loop");
    return true;
  }

  bool declaration(const VarDecl *VD) {
    if (VD->hasAttr<CUDASharedAttr>()) {
      auto *Outer = Ctx.getAsConstantArrayType(VD->getType());
      auto *Inner =
          Outer ? Ctx.getAsConstantArrayType(Outer->getElementType()) : nullptr;
      if (!Inner || Inner->getElementType()->isArrayType())
        return fail(VD->getLocation(),
                    "expected a __shared__ tile of two constant dimensions");
      Shared.push_back(VD);
      return true;
    }
    QualType T = VD->getType();
    // A scale the store applies, computed from the kernel's parameters
    // alone (`const float scale = 1.0f / sqrtf((float)(R * S * C));`).
    if (T->isSpecificBuiltinType(BuiltinType::Float) && VD->hasInit() &&
        !isZero(VD->getInit()) && !mentions(Loop, VD) && uniformScale(VD))
      return true;
    if (T->isSpecificBuiltinType(BuiltinType::Float) && VD->hasInit() && !Acc) {
      if (!isZero(VD->getInit()))
        return fail(VD->getLocation(), "the accumulator must start at 0");
      Acc = VD;
      return true;
    }
    if (T->isBooleanType() && VD->hasInit())
      return checkLocal(VD, Kernel->getBody());
    // `const T *xn = x + n * H * W * C;`: a pointer to the block's image
    // (a batch through blockIdx.z), never changed.
    if (T->isPointerType() && VD->hasInit())
      return !isModified(VD, Kernel->getBody()) && pointerDeclaration(VD);
    if (T->isIntegerType() && VD->hasInit())
      return unchangedIndex(VD, Kernel->getBody()) &&
             bindIndex(VD, /*Opaque=*/true);
    return false;
  }

  /// `const bool inside = ih >= 0 && ih < H;`, never changed in `Scope`: a
  /// name for its checks, which a copy's condition may use (conditions).
  bool checkLocal(const VarDecl *VD, const Stmt *Scope) {
    if (!unchangedIndex(VD, Scope))
      return false;
    CheckLocals[VD] = VD->getInit();
    return true;
  }

  /// Index declarations, two staging copies, '__syncthreads();', the
  /// product loop, '__syncthreads();'.
  bool loopBody() {
    const char *Expected =
        "expected the loop body: index declarations (the tap and channel of "
        "the thread's column, its input row and column), the staging copies "
        "of the activations and the weights, '__syncthreads();', the "
        "product loop, '__syncthreads();'";
    // The index declarations of the loops over the taps first.
    for (const auto &[DS, Scope] : OuterDecls)
      for (const Decl *D : DS->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (VD && VD->getType()->isBooleanType() && VD->hasInit() &&
            checkLocal(VD, Scope))
          continue;
        if (!VD || !VD->getType()->isIntegerType() || !VD->hasInit() ||
            !unchangedIndex(VD, Scope) || !bindIndex(VD, /*Opaque=*/false))
          return Why.Message.empty() ? fail(DS->getBeginLoc(), Expected)
                                     : false;
      }
    auto *Body = dyn_cast<CompoundStmt>(Channels->getBody());
    if (!Body)
      return fail(Channels->getForLoc(), Expected);
    std::vector<const Stmt *> S;
    for (const Stmt *X : Body->body()) {
      if (auto *DS = dyn_cast<DeclStmt>(X)) {
        for (const Decl *D : DS->decls()) {
          auto *VD = dyn_cast<VarDecl>(D);
          if (VD && VD->getType()->isBooleanType() && VD->hasInit() &&
              checkLocal(VD, Body))
            continue;
          if (!VD || !VD->getType()->isIntegerType() || !VD->hasInit() ||
              !unchangedIndex(VD, Body) || !bindIndex(VD, /*Opaque=*/false))
            return Why.Message.empty() ? fail(X->getBeginLoc(), Expected)
                                       : false;
        }
        continue;
      }
      S.push_back(unwrapOnce(X)); // a statement macro's `do { } while (0)`
    }
    if (S.size() != 5)
      return fail(S.size() < 5 ? Body->getBeginLoc() : S[5]->getBeginLoc(),
                  Expected);
    for (int I : {0, 1})
      if (!stagingCopy(S[I]))
        return false;
    if (!isBarrier(S[2]) || !isBarrier(S[4]))
      return fail(S[isBarrier(S[2]) ? 4 : 2]->getBeginLoc(),
                  "expected '__syncthreads();' between the staging copies and "
                  "the product, and after the product");
    const Stmt *Inner = S[3];
    if (auto *A = dyn_cast<AttributedStmt>(Inner))
      Inner = A->getSubStmt();
    return productLoop(dyn_cast<ForStmt>(Inner), S[3]);
  }

  std::optional<TileElement> tileElement(const Expr *E) {
    auto *Outer = dyn_cast<ArraySubscriptExpr>(bare(E));
    auto *Inner =
        Outer ? dyn_cast<ArraySubscriptExpr>(bare(Outer->getBase())) : nullptr;
    auto *R = Inner ? dyn_cast<DeclRefExpr>(bare(Inner->getBase())) : nullptr;
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!VD || !llvm::is_contained(Shared, VD))
      return std::nullopt;
    std::optional<Poly> P1 = eval(Inner->getIdx(), "the tile's row index");
    std::optional<Poly> P2 =
        P1 ? eval(Outer->getIdx(), "the tile's column index") : std::nullopt;
    if (!P2)
      return std::nullopt;
    return TileElement{VD, *P1, *P2};
  }

  /// `Tile[e1][e2] = c ? p[i] : 0`, or `if (c) ... else ... = 0`.
  bool stagingCopy(const Stmt *S) {
    const char *Expected =
        "expected a staging copy 'tile[threadIdx.y][threadIdx.x] = checks ? "
        "pointer[index] : 0' (or its if/else form) of a 2-D __shared__ tile";
    const Expr *L = nullptr, *R = nullptr, *Cond = nullptr, *Read = nullptr;
    if (auto *If = dyn_cast<IfStmt>(S)) {
      const Expr *L2 = nullptr, *R2 = nullptr;
      if (!If->getElse() || !assignment(single(If->getThen()), L, R) ||
          !assignment(single(If->getElse()), L2, R2) || !isZero(R2))
        return fail(S->getBeginLoc(), Expected);
      Cond = If->getCond();
      Read = R;
    } else if (assignment(S, L, R)) {
      if (auto *C = dyn_cast<ConditionalOperator>(bare(R))) {
        if (!isZero(C->getFalseExpr()))
          return fail(C->getFalseExpr()->getBeginLoc(),
                      "elements outside the tensors (the padding) must read "
                      "as 0");
        Cond = C->getCond();
        Read = C->getTrueExpr();
      } else {
        Read = R;
      }
    } else {
      return fail(S->getBeginLoc(), Expected);
    }
    std::optional<TileElement> At = tileElement(L);
    if (!At)
      return Why.Message.empty() ? fail(S->getBeginLoc(), Expected) : false;
    std::optional<GlobalAccess> GA =
        global(unconverted(Read, Ctx.getBaseElementType(At->Tile->getType())));
    if (!GA)
      return fail(Read->getBeginLoc(), Expected);
    std::optional<Poly> Index = offset(GA->Index, "the tensor's index");
    if (!Index)
      return false;
    StagingCopy C{*At, GA->Ptr, *Index + GA->Offset, {}, S->getBeginLoc()};
    const Poly TX = Poly::symbol(threadIdxSymbol('x')),
               TY = Poly::symbol(threadIdxSymbol('y'));
    if (!((C.At.P1 == TY && C.At.P2 == TX) || (C.At.P1 == TX && C.At.P2 == TY)))
      return fail(S->getBeginLoc(),
                  "the staging copy must write element [threadIdx.y]"
                  "[threadIdx.x] or [threadIdx.x][threadIdx.y] of the tile, "
                  "one per thread of a TILE x TILE block");
    if (Cond && !conditions(Cond, C.Checks))
      return false;
    for (const StagingCopy &O : Copies)
      if (O.At.Tile == C.At.Tile)
        return fail(S->getBeginLoc(), "a second staging copy of the tile '" +
                                          C.At.Tile->getName().str() + "'");
    Copies.push_back(C);
    return true;
  }

  /// A conjunction of comparisons of integer polynomials.
  bool conditions(const Expr *E, Conditions &Out) {
    if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
      if (auto It = CheckLocals.find(R->getDecl()); It != CheckLocals.end())
        return conditions(It->second, Out);
    auto *B = dyn_cast<BinaryOperator>(bare(E));
    if (B && B->getOpcode() == BO_LAnd)
      return conditions(B->getLHS(), Out) && conditions(B->getRHS(), Out);
    return conditionsOf(E, Out);
  }

  /// `for (int j = 0; j < TILE; ++j) acc += X[..][j] * Y[j][..];` (or
  /// `acc = acc + ...`, `acc = fmaf(x, y, acc)`).
  bool productLoop(const ForStmt *F, const Stmt *At) {
    const char *Expected =
        "expected the product loop 'for (int j = 0; j < TILE; ++j) acc += "
        "As[..][j] * Bs[j][..];'";
    auto *Init = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
    auto *J = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond = F ? dyn_cast_or_null<BinaryOperator>(F->getCond()) : nullptr;
    auto *Inc =
        F && F->getInc() ? dyn_cast<UnaryOperator>(bare(F->getInc())) : nullptr;
    if (!J || !J->hasInit() || !isZero(J->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), J) || !Inc ||
        !Inc->isIncrementOp() || isModified(J, F->getBody()))
      return fail(At->getBeginLoc(), Expected);
    std::optional<int64_t> Trip = Ev.constant(Cond->getRHS());
    if (Trip != std::optional<int64_t>(G.Tile))
      return fail(Cond->getBeginLoc(), "the product loop must run over the "
                                       "TILE elements of the staged tiles");
    Ev.addSymbol(J);
    KVar = Poly::symbol(J);
    const Expr *L = nullptr, *R = nullptr;
    const Stmt *S = single(F->getBody());
    if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign && refersTo(CA->getLHS(), Acc)) {
      R = CA->getRHS();
    } else if (assignment(S, L, R) && refersTo(L, Acc)) {
      auto *Sum = dyn_cast<BinaryOperator>(bare(R));
      const CallExpr *Fma = systemCall(R, {"fmaf", "__fmaf_rn"}, 3);
      if (Sum && Sum->getOpcode() == BO_Add && refersTo(Sum->getLHS(), Acc))
        R = Sum->getRHS();
      else if (Fma && refersTo(Fma->getArg(2), Acc)) {
        Factors = {Fma->getArg(0), Fma->getArg(1)};
        return true;
      } else
        return fail(At->getBeginLoc(), Expected);
    } else {
      return fail(At->getBeginLoc(), Expected);
    }
    auto *M = dyn_cast<BinaryOperator>(unconverted(R));
    if (!M || M->getOpcode() != BO_Mul)
      return fail(R->getBeginLoc(), Expected);
    Factors = {M->getLHS(), M->getRHS()};
    return true;
  }

  /// `if (row < M && col < N) out[row * ldc + col] = value;` after the loop.
  bool store(llvm::ArrayRef<Stmt *> After) {
    const char *Expected =
        "expected after the loop 'if (m < rows && col < K) out[m * ldo + "
        "col] = acc;' (the stored value may scale, add a bias and apply an "
        "activation, as docs/migration.md says, through float locals set "
        "once)";
    // Float locals first, read as their initializers.
    while (!After.empty() && isa<DeclStmt>(After.front())) {
      for (const Decl *D : cast<DeclStmt>(After.front())->decls())
        if (!epilogueLocal(dyn_cast<VarDecl>(D)))
          return fail(D->getLocation(), Expected);
      After = After.drop_front();
    }
    if (After.size() != 1)
      return fail(After.empty() ? Loop->getEndLoc() : After[1]->getBeginLoc(),
                  Expected);
    auto *If = dyn_cast<IfStmt>(After[0]);
    const Stmt *Then =
        If && !If->getElse() ? afterLocals(If->getThen(), Expected) : nullptr;
    if (If && !If->getElse() && !Then)
      return false;
    const Expr *L = nullptr, *V = nullptr;
    if (!Then || !assignment(single(Then), L, V))
      return fail(After[0]->getBeginLoc(), Expected);
    StoreAt = After[0]->getBeginLoc();
    std::optional<GlobalAccess> GA = global(L);
    if (!GA || !conditions(If->getCond(), StoreChecks))
      return Why.Message.empty() ? fail(After[0]->getBeginLoc(), Expected)
                                 : false;
    std::optional<Poly> Index = offset(GA->Index, "the output's index");
    if (!Index)
      return false;
    G.C = GA->Ptr;
    std::optional<ElementType> OutElem =
        elementOf(G.C->getType()->getPointeeType());
    if (!OutElem || G.C->getType()->getPointeeType().isConstQualified())
      return fail(G.C->getLocation(), "the output must point to "
                                      "__nv_bfloat16, __half or float");
    G.Out = *OutElem;
    StoreIndex = *Index + GA->Offset;
    return value(V, StoreIndex);
  }

  /// The row and column of the output stored, its leading dimension, and
  /// its bounds: out[Row * ldo + Col] under Rows - Row - 1 >= 0 and
  /// Cols - Col - 1 >= 0.
  bool storeShape() {
    const char *Expected =
        "the store must write out[m * ldo + col] with m = blockIdx.y * TILE "
        "+ threadIdx.y and col = blockIdx.x * TILE + threadIdx.x (or the two "
        "block coordinates swapped), under 'm < rows && col < K'";
    if (StoreChecks.size() != 2)
      return fail(StoreAt, Expected);
    // A batch through blockIdx.z: out[z * stride + m * ldo + col], each
    // layer of the grid one image (activations() proves it).
    Poly Index = StoreIndex;
    if (std::optional<std::pair<Poly, Poly>> Split =
            StoreIndex.linearIn(blockIdxSymbol('z'));
        Split && Split->second != Poly()) {
      if (!freeOfCoordinates(Split->second))
        return fail(StoreAt, "blockIdx.z may enter the output's index only "
                             "as 'blockIdx.z * stride', the stride a "
                             "polynomial of the parameters");
      Index = Split->first;
      ImageStride = Split->second;
    }
    const Poly T = Poly::constant(G.Tile);
    const Poly TX = Poly::symbol(threadIdxSymbol('x')),
               TY = Poly::symbol(threadIdxSymbol('y'));
    for (char Axis : {'y', 'x'}) {
      const Poly RowP = Poly::symbol(blockIdxSymbol(Axis)) * T + TY;
      const Poly ColP =
          Poly::symbol(blockIdxSymbol(Axis == 'y' ? 'x' : 'y')) * T + TX;
      for (const Conditions &C :
           {StoreChecks, Conditions{StoreChecks[1], StoreChecks[0]}}) {
        const Poly Rows = C[0] + RowP + Poly::constant(1);
        const Poly Cols = C[1] + ColP + Poly::constant(1);
        if (!freeOfCoordinates(Rows) || !freeOfCoordinates(Cols))
          continue;
        // out index = Row * ldo + Col: ldo = (index - Col) / Row.
        std::optional<Poly> Ldo = dividedBy(Index - ColP, RowP);
        if (!Ldo || !freeOfCoordinates(*Ldo))
          continue;
        Row = RowP;
        Col = ColP;
        RowAxis = Axis;
        RowsBound = Rows;
        ColsBound = Cols;
        LdoPoly = *Ldo;
        return true;
      }
    }
    return fail(StoreAt, Expected);
  }

  /// Which staged tile is the activations' and which the weights', and
  /// the weights' layout, as Lift.cpp proves a GEMM's B.
  bool operands() {
    if (!storeShape())
      return false;
    std::optional<TileElement> X = tileElement(unconverted(Factors[0]));
    std::optional<TileElement> Y =
        X ? tileElement(unconverted(Factors[1])) : std::nullopt;
    if (!X || !Y || X->Tile == Y->Tile)
      return Why.Message.empty()
                 ? fail(Factors[0]->getBeginLoc(),
                        "the product must multiply an element of each "
                        "__shared__ tile")
                 : false;
    for (const TileElement *AR : {&*X, &*Y}) {
      const TileElement *BR = AR == &*X ? &*Y : &*X;
      const StagingCopy *SA = copyOf(AR->Tile), *SB = copyOf(BR->Tile);
      if (SA && SB && weights(*BR, *SB)) {
        ARead = *AR;
        ACopy = SA;
        return true;
      }
    }
    return fail(Factors[0]->getBeginLoc(),
                "the product does not read the weights w[col][k] (stored K x "
                "R x S x C or K x C x R x S, K the output channels) or "
                "w[k][col] (R x S x C x K or C x R x S x K) of a staged tile, "
                "with the staging copy's index and bounds checks 'col < K && "
                "k < R * S * C'");
  }

  const StagingCopy *copyOf(const VarDecl *Tile) const {
    for (const StagingCopy &C : Copies)
      if (C.At.Tile == Tile)
        return &C;
    return nullptr;
  }

  /// The element of `R`'s tile that the reading thread reads, as the
  /// staging copy `St` wrote it: its index with the staging thread's
  /// coordinates those of the element (a polynomial of the reader's).
  Poly staged(const StagingCopy &St, const TileElement &R,
              const Poly &E) const {
    static const char FreshX = 0, FreshY = 0;
    const Symbol TX = threadIdxSymbol('x'), TY = threadIdxSymbol('y');
    Poly F = E.substitute(TX, Poly::symbol(&FreshX))
                 .substitute(TY, Poly::symbol(&FreshY));
    const bool RowIsY = St.At.P1 == Poly::symbol(TY);
    return F.substitute(&FreshY, RowIsY ? R.P1 : R.P2)
        .substitute(&FreshX, RowIsY ? R.P2 : R.P1);
  }

  /// The weights: reading R gives w(col, kk) at col * ldw + kk (K-major)
  /// or kk * ldw + col, under col < Cols and kk < KB.
  bool weights(const TileElement &R, const StagingCopy &St) {
    const Poly KK = kIndex(KVar);
    const Poly One = Poly::constant(1);
    Conditions Expected = {ColsBound - Col - One, kCheck(KVar)};
    Conditions Got;
    for (const Poly &X : St.Checks)
      Got.push_back(staged(St, R, X));
    // Without the column's check, the kernel is one for whole tiles of K.
    if (!sameConditions(Got, Expected) &&
        !sameConditions(Got, {ColsBound - Col - One}))
      return false;
    UncheckedK |= Got.size() == 1;
    // A tap decoded into r = tap / S and s = tap % S indexes the weights as
    // (r * S + s) * C, which is tap * C (IndexEvaluator::recombined).
    const Poly L = Ev.recombined(staged(St, R, St.L));
    for (bool KMajor : {true, false}) {
      const Poly &Rest = KMajor ? KK : Col;
      const Poly &Strided = KMajor ? Col : KK;
      // ldw = (L - Rest) / Strided, a polynomial of parameters.
      std::optional<Poly> Q = dividedBy(L - Rest, Strided);
      if (Q && freeOfCoordinates(*Q) && *Q * Strided + Rest == L) {
        G.B.Data = St.Ptr;
        G.B.KMajor = KMajor;
        WeightsLd = *Q;
        return true;
      }
    }
    return false;
  }

  /// The filter tap and channel of the staging thread's column: the
  /// channels C and channel index Cq, the taps R x S and the tap's
  /// coordinates Rq, Sq.
  struct Filter {
    Poly C, S, Cq, Rq, Sq;
    std::optional<Poly> R;
  };

  /// Reads the filter decode off the copy's atoms (flattened K loop, or a
  /// loop over R * S taps) or the loops over the taps. `ChannelsOuter`: a
  /// flattened column k read as k = (c * R + r) * S + s (KCRS weights)
  /// rather than (r * S + s) * C + c.
  bool filter(const StagingCopy &St, llvm::ArrayRef<const DivModAtom *> Atoms,
              Filter &F, bool ChannelsOuter) {
    const char *Message =
        "expected the column k decoded as 'c = k % C', 's = (k / C) % S', 'r "
        "= k / (C * S)' (weights K x R x S x C), or as 's = k % S', 'r = (k "
        "/ S) % R', 'c = k / (R * S)' (weights K x C x R x S); a loop over "
        "the taps: 'r = rs / S', 's = rs % S'";
    if (Nested) {
      F.C = ChannelBound;
      F.Cq = KOffset + St.At.P2;
      if (Taps.S != Poly()) {
        F.Rq = Taps.R;
        F.Sq = Taps.S;
        F.R = Taps.RBound;
        F.S = Taps.SBound;
      } else {
        const DivModAtom *SA = find(Atoms, true, Taps.R);
        if (!SA)
          return fail(St.Loc, Message);
        F.S = SA->D;
        F.Sq = Poly::symbol(SA);
        F.Rq = *Ev.divide(Taps.R, F.S, false);
        F.R = dividedBy(Taps.RBound, F.S);
        if (!F.R || *F.R * F.S != Taps.RBound)
          return fail(Loop->getCond()->getBeginLoc(),
                      "the loop over the taps must run to R * S, S the "
                      "divisor of its decode");
      }
      KBound = *F.R * F.S * F.C;
      return true;
    }
    const Poly KK = kIndex(St.At.P2);
    if (ChannelsOuter)
      return channelsOuter(St, Atoms, KK, Message, F);
    const DivModAtom *CA = find(Atoms, true, KK);
    std::optional<Poly> KDivC = CA ? Ev.divide(KK, CA->D, false) : std::nullopt;
    const DivModAtom *SA = KDivC ? find(Atoms, true, *KDivC) : nullptr;
    if (!SA)
      return fail(St.Loc, Message);
    F.C = CA->D;
    F.S = SA->D;
    F.Cq = Poly::symbol(CA);
    F.Sq = Poly::symbol(SA);
    F.Rq = *Ev.divide(KK, F.C * F.S, false);
    F.R = dividedBy(KBound, F.C * F.S);
    if (!F.R || !freeOfCoordinates(*F.R) || *F.R * F.C * F.S != KBound)
      return fail(Loop->getCond()->getBeginLoc(),
                  "the K loop must run to R * S * C, the filter taps times "
                  "the channels of the tap decode");
    return true;
  }

  /// The decode of a column k whose channel is outermost: s = k % S, r =
  /// (k / S) % R, c = k / (R S), C the loop's bound over R S.
  bool channelsOuter(const StagingCopy &St,
                     llvm::ArrayRef<const DivModAtom *> Atoms, const Poly &KK,
                     const char *Message, Filter &F) {
    const DivModAtom *SA = find(Atoms, true, KK);
    std::optional<Poly> KDivS = SA ? Ev.divide(KK, SA->D, false) : std::nullopt;
    const DivModAtom *RA = KDivS ? find(Atoms, true, *KDivS) : nullptr;
    if (!RA)
      return fail(St.Loc, Message);
    F.S = SA->D;
    F.R = RA->D;
    F.Sq = Poly::symbol(SA);
    F.Rq = Poly::symbol(RA);
    F.Cq = *Ev.divide(KK, RA->D * SA->D, false);
    std::optional<Poly> C = dividedBy(KBound, RA->D * SA->D);
    if (!C || !freeOfCoordinates(*C) || *C * RA->D * SA->D != KBound)
      return fail(Loop->getCond()->getBeginLoc(),
                  "the K loop must run to R * S * C, the filter taps of the "
                  "decode times the channels");
    F.C = *C;
    return true;
  }

  /// How far a reading of the staging copy's filter decode got: the decode
  /// failed (the failure says why), the address or the input coordinates
  /// do not match, or they do.
  enum class Reading { Decode, Address, Matched };

  /// Reads the filter decode in the order `ChannelsOuter` says, then the
  /// input row and column (into `Y`, `X`) and the address of the NHWC
  /// element of pixel (Nq, Pq, Qq).
  Reading reading(const StagingCopy &St,
                  llvm::ArrayRef<const DivModAtom *> Atoms, const Poly &Nq,
                  const Poly &Pq, const Poly &Qq, bool ChannelsOuter, Filter &F,
                  Spatial &Y, Spatial &X) {
    if (!filter(St, Atoms, F, ChannelsOuter))
      return Reading::Decode;
    if (!spatial(St.Checks, Pq, F.Rq, Y) || !spatial(St.Checks, Qq, F.Sq, X))
      return Reading::Address;
    const Poly Address =
        ((Nq * Y.Extent + Y.In) * X.Extent + X.In) * F.C + F.Cq;
    return Address == St.L ? Reading::Matched : Reading::Address;
  }

  /// The output pixel M of the staging copy decoded into its image, row and
  /// column (Nq, Pq, Qq) of a P x Q output: n = m / (P Q), p = (m / Q) % P
  /// (or (m % (P Q)) / Q), q = m % Q. Where the grid's layers are the images
  /// (ImageStride), n is blockIdx.z and m the pixel in that image, checked
  /// m < P Q, its row p = m / Q or (m / Q) % P (equal for such m); the
  /// output's image stride must then be P Q ldo, so that image n's pixel m
  /// is row n P Q + m of the output.
  bool pixel(const StagingCopy &St, const Poly &M,
             llvm::ArrayRef<const DivModAtom *> Atoms, Poly &P, Poly &Q,
             Poly &Nq, Poly &Pq, Poly &Qq) {
    const bool Layers = ImageStride != Poly();
    const char *PixelMessage =
        Layers ? "expected the pixel m of the image blockIdx.z decoded as 'p "
                 "= m / Q' (or '(m / Q) % P') and 'q = m % Q', and checked 'm "
                 "< P * Q' (P and Q the output's height and width)"
               : "expected the output pixel m decoded as 'n = m / (P * Q)', "
                 "'p = (m / Q) % P', 'q = m % Q' (P and Q the output's height "
                 "and width)";
    const DivModAtom *QA = find(Atoms, true, M);
    if (!QA)
      return fail(St.Loc, PixelMessage);
    Q = QA->D;
    Qq = Poly::symbol(QA);
    std::optional<Poly> MDivQ = Ev.divide(M, Q, false);
    const DivModAtom *PA = MDivQ ? find(Atoms, true, *MDivQ) : nullptr;
    if (!Layers) {
      if (!PA)
        return fail(St.Loc, PixelMessage);
      P = PA->D;
      Pq = Poly::symbol(PA);
      Nq = *Ev.divide(M, P * Q, false);
      return symbolOf(Nq) ? true : fail(St.Loc, PixelMessage);
    }
    std::optional<Poly> Rows = dividedBy(RowsBound, Q);
    if (!MDivQ || !Rows || *Rows * Q != RowsBound ||
        !freeOfCoordinates(*Rows) || (PA && PA->D != *Rows))
      return fail(St.Loc, PixelMessage);
    P = *Rows;
    Pq = PA ? Poly::symbol(PA) : *MDivQ;
    Nq = Poly::symbol(blockIdxSymbol('z'));
    if (ImageStride != P * Q * LdoPoly)
      return fail(StoreAt, "the output's index must step by a whole image, "
                           "P * Q * ldo elements, per layer of the grid "
                           "(blockIdx.z)");
    return true;
  }

  /// The activations: the staging copy of the tile the product reads as A
  /// writes, for thread (tx, ty), the im2col element of the output pixel
  /// Row (with ty the thread's tile row) and the column KOffset + (its
  /// tile column), under exactly that element's checks.
  bool activations() {
    const StagingCopy &St = *ACopy;
    const Symbol TY = threadIdxSymbol('y');
    // The product reads A(Row, KOffset + j): element [ty][j] of the tile.
    if (Row.substitute(TY, ARead.P1) != Row || ARead.P2 != KVar)
      return fail(Factors[0]->getBeginLoc(),
                  "the product must read the activations' tile at [its row "
                  "of the output][j]");
    const Poly M = Row.substitute(TY, St.At.P1);
    std::vector<const DivModAtom *> Atoms;
    atomsOf(St.L, Atoms);
    for (const Poly &C : St.Checks)
      atomsOf(C, Atoms);
    // A copy that decodes the thread's row as a pixel is a convolution's
    // (a GEMM's row has no quotient to read).
    ReachedActivations =
        llvm::any_of(Atoms, [&](const DivModAtom *A) { return A->X == M; });
    Poly P, Q, Nq, Pq, Qq;
    if (!pixel(St, M, Atoms, P, Q, Nq, Pq, Qq))
      return false;
    // The input row and column: p * SH - PH + r * DH, q * SW - PW + s * DW,
    // from the checks that bound them; the column's channel innermost, or,
    // for a flattened K loop, outermost (KCRS weights).
    const char *Form =
        "the staging copy must read in[((n * H + ih) * W + iw) * C + c] of "
        "the NHWC activations: the column k decoded channels innermost (c = "
        "k % C, r = k / (S * C), s = (k / C) % S; weights stored K x R x S x "
        "C or R x S x C x K) or outermost (s = k % S, r = (k / S) % R, c = k "
        "/ (R * S); weights K x C x R x S or C x R x S x K), ih = p * stride "
        "- pad + r * dilation and iw = q * stride - pad + s * dilation, each "
        "checked against 0 and the input's height or width";
    Filter F;
    Spatial Y, X;
    bool ChannelsOuter = false;
    Reading Read = reading(St, Atoms, Nq, Pq, Qq, false, F, Y, X);
    // No tap decode: a 1x1 convolution, its input read off the address.
    if (Read == Reading::Decode && !Nested &&
        !find(Atoms, true, kIndex(St.At.P2))) {
      if (!pointwise(St, Nq, Pq, Qq, F, Y, X))
        return fail(St.Loc,
                    "expected the column k decoded as 'c = k % C', 's = (k / "
                    "C) % S', 'r = k / (C * S)' (or channels outermost), or, "
                    "for a 1x1 convolution whose column is the channel, the "
                    "staging copy reading in[((n * H + p * stride) * W + q * "
                    "stride) * C + c] of the NHWC input, without padding");
      Why = LiftFailure();
      Read = Reading::Matched;
    }
    if (Read != Reading::Matched && !Nested) {
      const LiftFailure First = Why;
      Filter F2;
      Spatial Y2, X2;
      const Reading Second = reading(St, Atoms, Nq, Pq, Qq, true, F2, Y2, X2);
      if (Second == Reading::Matched) {
        F = F2, Y = Y2, X = X2, ChannelsOuter = true;
      } else if (Second <= Read) {
        Why = First; // the channels-innermost reading got as far
      }
      Read = std::max(Read, Second);
    }
    if (Read == Reading::Decode)
      return false;
    if (Read == Reading::Address)
      return fail(St.Loc, Form);
    const Poly &C = F.C, &S = F.S;
    const std::optional<Poly> R = F.R;
    // The checks: the pixel's bound (m < rows, or n < N), the column's,
    // and the input row's and column's.
    const Poly One = Poly::constant(1);
    Conditions Expected = {kCheck(St.At.P2), Y.In, Y.Extent - Y.In - One, X.In,
                           X.Extent - X.In - One};
    const Poly ByRows = RowsBound - M - One;
    // `n < N`: N - n - 1 >= 0, n the pixel's image.
    Poly Images;
    bool ByImages = false;
    const Symbol NS = *symbolOf(Nq);
    for (const Poly &Ch : St.Checks)
      if (std::optional<std::pair<Poly, Poly>> Split = Ch.linearIn(NS);
          Split && Split->second == Poly::constant(-1) &&
          freeOfCoordinates(Split->first) && ImageStride == Poly()) {
        Images = Split->first + One;
        ByImages = true;
      }
    Expected.push_back(ByImages ? Images - Nq - One : ByRows);
    Conditions Got;
    auto Required = [&](const Poly &Ch) {
      return !llvm::is_contained(Y.Optional, Ch) &&
             !llvm::is_contained(X.Optional, Ch);
    };
    for (const Poly &Ch : St.Checks)
      if (Required(Ch))
        Got.push_back(Ch);
    Conditions Want;
    for (const Poly &Ch : Expected)
      if (Required(Ch))
        Want.push_back(Ch);
    // Without the column's check (`k < R * S * C`, or the channel's), the
    // kernel is one for whole tiles of K: the launcher runs it as written
    // for any other (launches()).
    if (!sameConditions(Got, Want) &&
        llvm::is_contained(Want, kCheck(St.At.P2)) &&
        !llvm::is_contained(Got, kCheck(St.At.P2))) {
      llvm::erase(Want, kCheck(St.At.P2));
      UncheckedK = sameConditions(Got, Want);
    }
    if (!sameConditions(Got, Want))
      return fail(St.Loc,
                  "the staging copy must check exactly the element's bounds: "
                  "'m < rows' (or 'n < N'), 'k < R * S * C', '0 <= ih < H' "
                  "and '0 <= iw < W'");
    // The tensor's images: those the pixel bound names, or rows / (P Q),
    // which the launcher checks is whole.
    std::string NText, WholeImages;
    if (ImageStride != Poly()) {
      // The grid's layers are the images: n = blockIdx.z.
      NText = "int(tawa_grid.z)";
    } else if (ByImages) {
      NText = text(Images);
    } else if (std::optional<Poly> N = dividedBy(RowsBound, P * Q);
               N && freeOfCoordinates(*N) && *N * P * Q == RowsBound) {
      NText = text(*N);
    } else {
      // The view is built before the launcher's checks: no division by 0.
      const std::string Pixels = productText({&P, &Q});
      NText = "(" + Pixels + " > 0 ? (" + text(RowsBound) + ") / (" + Pixels +
              ") : 0)";
      WholeImages = "(" + text(RowsBound) + ") % (" + Pixels + ") != 0";
    }
    G.A.Data = St.Ptr;
    G.A.KMajor = true;
    G.Conv = LiftedIm2col{NText,       text(Y.Extent), text(X.Extent),
                          text(C),     text(*R),       text(S),
                          text(P),     text(Q),        text(Y.Pad),
                          text(X.Pad), text(Y.Stride), text(X.Stride),
                          text(Y.Dil), text(X.Dil)};
    G.Conv->ChannelsOuter = ChannelsOuter;
    // The decodes are proved for positive extents: each must be one where
    // it is a constant, the launcher checks those of parameters.
    for (const Poly *Positive : std::initializer_list<const Poly *>{
             &P, &Q, &C, &S, &*R, &Y.Extent, &X.Extent}) {
      if (std::optional<int64_t> V = Positive->constantValue()) {
        if (*V <= 0)
          return fail(St.Loc, "an extent of the convolution is " +
                                  std::to_string(*V) + "; expected positive");
        continue;
      }
      const std::string Check = text(*Positive) + " <= 0";
      if (!llvm::is_contained(LaunchChecks, Check))
        LaunchChecks.push_back(Check);
    }
    // After the checks of positive extents, which guard its division.
    if (!WholeImages.empty())
      LaunchChecks.push_back(WholeImages);
    // A 1x1 convolution without checks of the input row and column reads
    // inside the input only where the last output pixel's does.
    if (Pointwise)
      for (const auto &[O, Sp] : {std::pair(&P, &Y), std::pair(&Q, &X)})
        if (!(Sp->Stride == Poly::constant(1) && *O == Sp->Extent))
          LaunchChecks.push_back("1LL * (" + text(*O - One) + ") * (" +
                                 text(Sp->Stride) +
                                 ") >= " + factorText(Sp->Extent));
    return true;
  }

  /// A 1x1 convolution: the staging copy's column is the channel itself
  /// (no tap decode, R = S = 1) and its address ((n * H + p * SH) * W + q *
  /// SW) * C + c, C the K loop's bound, with no padding: H, W and the
  /// strides are read off it (W the greatest common factor of the
  /// coefficients of n, H W, and of p, SH W). The checks of the input row
  /// and column may be absent; the launcher then runs the kernel as written
  /// where the last output pixel reads outside the input (the tiled form
  /// would read zeros there).
  bool pointwise(const StagingCopy &St, const Poly &Nq, const Poly &Pq,
                 const Poly &Qq, Filter &F, Spatial &Y, Spatial &X) {
    std::optional<Symbol> NS = symbolOf(Nq), PS = symbolOf(Pq),
                          QS = symbolOf(Qq);
    const Poly KK = kIndex(St.At.P2);
    std::optional<Poly> Pixel = dividedBy(St.L - KK, KBound);
    if (!NS || !PS || !QS || !Pixel || *Pixel * KBound != St.L - KK)
      return false;
    auto Q = Pixel->linearIn(*QS);
    auto PSplit = Q ? Q->first.linearIn(*PS) : std::nullopt;
    auto NSplit = PSplit ? PSplit->first.linearIn(*NS) : std::nullopt;
    if (!NSplit || NSplit->first != Poly() || Q->second == Poly() ||
        !freeOfCoordinates(Q->second) || !freeOfCoordinates(PSplit->second) ||
        !freeOfCoordinates(NSplit->second))
      return false;
    std::optional<Poly> W = commonFactor(NSplit->second, PSplit->second);
    std::optional<Poly> H = W ? dividedBy(NSplit->second, *W) : std::nullopt;
    std::optional<Poly> SH = W ? dividedBy(PSplit->second, *W) : std::nullopt;
    if (!H || !SH || *H * *W != NSplit->second || *SH * *W != PSplit->second)
      return false;
    const Poly One = Poly::constant(1);
    F.C = KBound;
    F.Cq = KK;
    F.R = F.S = One;
    F.Rq = F.Sq = Poly();
    auto Axis = [&](Spatial &A, const Poly &O, const Poly &Stride,
                    const Poly &Extent) {
      A.In = O * Stride;
      A.Extent = Extent;
      A.Stride = Stride;
      A.Pad = Poly();
      A.Dil = One;
      A.Optional = {A.In, Extent - A.In - One};
    };
    Axis(Y, Pq, *SH, *H);
    Axis(X, Qq, Q->second, *W);
    Pointwise = true;
    return true;
  }

  /// The greatest common factor of two one-term polynomials (their
  /// coefficients' gcd times the symbols both have), or none.
  static std::optional<Poly> commonFactor(const Poly &A, const Poly &B) {
    if (A.terms().size() != 1 || B.terms().size() != 1)
      return std::nullopt;
    const auto &[MA, CA] = *A.terms().begin();
    const auto &[MB, CB] = *B.terms().begin();
    Poly::Monomial Rest = MB;
    Poly Out = Poly::constant(std::gcd(CA < 0 ? -CA : CA, CB < 0 ? -CB : CB));
    for (Symbol S : MA)
      if (auto It = std::find(Rest.begin(), Rest.end(), S); It != Rest.end()) {
        Rest.erase(It);
        Out = Out * Poly::symbol(S);
      }
    return Out;
  }

  /// A staging copy without the column's check reads past K's end where K
  /// (or the channels, under loops over the taps) is no whole number of
  /// tiles: there the launcher runs the kernel as written; a constant one
  /// is refused.
  bool wholeTiles() {
    if (!UncheckedK)
      return true;
    const Poly &Whole = Nested ? ChannelBound : KBound;
    if (std::optional<int64_t> V = Whole.constantValue()) {
      if (*V % G.Tile == 0)
        return true;
      return fail(Channels->getForLoc(),
                  "a staging copy does not check the column against " +
                      std::to_string(*V) + ", which is no multiple of " +
                      std::to_string(G.Tile) +
                      ": the kernel reads past the filter's end");
    }
    const std::string W = text(Whole);
    const bool Name =
        llvm::all_of(W, [](char C) { return llvm::isAlnum(C) || C == '_'; });
    LaunchChecks.push_back((Name ? W : "(" + W + ")") + " % " +
                           std::to_string(G.Tile) + " != 0");
    return true;
  }

  /// The launches proved: blocks of TILE x TILE threads (or TILE * TILE in
  /// one dimension), one per tile of the output, extents positive, the
  /// pixels whole images.
  void launches() {
    const std::string T = std::to_string(G.Tile);

    if (Ev.FlatTile) {
      const std::string TT = std::to_string(G.Tile * G.Tile);
      G.Block = TT + " threads (one-dimensional)";
      G.BlockDiffers = "tawa_block.x != " + TT +
                       " || tawa_block.y != 1 || tawa_block.z != 1";
    } else {
      G.Block = T + " x " + T + " threads";
      G.BlockDiffers = "tawa_block.x != " + T + " || tawa_block.y != " + T +
                       " || tawa_block.z != 1";
    }
    G.RowsCovered = std::string("tawa_grid.") + RowAxis + " * " + T;
    G.ColsCovered =
        std::string("tawa_grid.") + (RowAxis == 'y' ? 'x' : 'y') + " * " + T;
    G.Guarded = true;
    G.M = synthetic(RowsBound, &RowsSym);
    G.N = synthetic(ColsBound, &ColsSym);
    G.K = synthetic(KBound, &KSym);
    G.B.Ld = synthetic(WeightsLd, &LdwSym);
    G.Ldc = synthetic(LdoPoly, &LdoSym);
    if (ImageStride != Poly()) {
      // The grid's layers are the images: its rows are grid.z of them,
      // where each layer's blocks cover the image's pixels.
      const std::string Pixels = "(" + text(RowsBound) + ")";
      G.Conv->ImagesFromGrid = true;
      G.RowsCovered = "tawa_grid.z * " + Pixels;
      LaunchChecks.push_back(std::string("1LL * tawa_grid.") + RowAxis + " * " +
                             T + " < " + Pixels);
    }
    G.ExtentsDiffer = llvm::join(LaunchChecks, " || ");
    G.Extents = ImageStride != Poly()
                    ? "the extents are positive and each layer of the grid "
                      "(blockIdx.z) one image, whose pixels its blocks cover"
                    : "the extents are positive and the output pixels whole "
                      "images";
  }

  /// An extent standing for `P`, named by its C++ text.
  Extent synthetic(const Poly &P, const char *Sym) const {
    if (const auto &T = P.terms();
        T.size() == 1 && T.begin()->second == 1 && T.begin()->first.size() == 1)
      if (const Extent *X = extentOfSymbol(T.begin()->first.front()))
        return *X;
    Extent X;
    X.Sym = Sym;
    X.Name = X.Spelled = text(P);
    X.Loc = Kernel->getLocation();
    return X;
  }

  bool isAccumulator(const Expr *X) override { return refersTo(X, Acc); }

  bool Nested = false;
  /// A staging copy leaves out the column's bounds check (a kernel for K,
  /// or the channels, a multiple of TILE).
  bool UncheckedK = false;
  /// The activations are a 1x1 convolution's, read off the address
  /// (pointwise).
  bool Pointwise = false;
  /// The reading got as far as an activations' copy that decodes a pixel
  /// (readHeader).
  bool ReachedActivations = false;
  Poly ChannelBound;
  const ForStmt *Channels = nullptr; ///< the loop whose body stages
  std::vector<StagingCopy> Copies;
  /// Bool locals of bounds checks, with their initializers (checkLocal).
  llvm::DenseMap<const Decl *, const Expr *> CheckLocals;
  std::array<const Expr *, 2> Factors{};
  Conditions StoreChecks;
  Poly StoreIndex, KBound, KVar, RowsBound, ColsBound, WeightsLd, LdoPoly;
  /// The factor of blockIdx.z in the output's index, where the grid's
  /// layers are the images (a batch through blockIdx.z); else 0.
  Poly ImageStride;
  SourceLocation StoreAt;
  char RowAxis = 'y';
  TileElement ARead;
  const StagingCopy *ACopy = nullptr;
  /// C++ conditions under which the launcher runs the kernel as written:
  /// an extent the proof takes as positive that is not, pixels that are no
  /// whole images.
  std::vector<std::string> LaunchChecks;
  static constexpr char RowsSym = 0, ColsSym = 0, KSym = 0, LdwSym = 0,
                        LdoSym = 0;
};

} // namespace

std::optional<LiftedGemm> liftConvGemm(const FunctionDecl *Kernel,
                                       const ForStmt *Loop, ASTContext &Ctx,
                                       LiftFailure &Why,
                                       const NamedExtents *Named, bool Tf32,
                                       bool *ReadHeader) {
  ConvLifter L(Kernel, Loop, Ctx, Why, Named, Tf32);
  std::optional<LiftedGemm> G = L.run();
  if (ReadHeader)
    *ReadHeader = L.readHeader();
  return G;
}

} // namespace tawa
