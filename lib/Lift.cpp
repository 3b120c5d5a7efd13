//===- Lift.cpp - lifting a hand-written shared-memory GEMM loop ----------===//
#include "tawa/Lift.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace tawa {
namespace {

/// `Array[I1][I2]` of a 2-D array variable.
struct Access {
  const VarDecl *Array = nullptr;
  const Expr *I1 = nullptr, *I2 = nullptr;
};
std::optional<Access> access2D(const Expr *E) {
  auto *Outer = dyn_cast<ArraySubscriptExpr>(bare(E));
  auto *Inner =
      Outer ? dyn_cast<ArraySubscriptExpr>(bare(Outer->getBase())) : nullptr;
  auto *R = Inner ? dyn_cast<DeclRefExpr>(bare(Inner->getBase())) : nullptr;
  auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!VD)
    return std::nullopt;
  return Access{VD, Inner->getIdx(), Outer->getIdx()};
}

/// A bounds check `X < P && Y < Q` (P, Q integer parameters), as pairs.
using Guard = std::vector<std::pair<Poly, const ParmVarDecl *>>;

class Lifter : LifterBase {
public:
  using LifterBase::LifterBase;

  std::optional<LiftedGemm> run() {
    auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
    if (!Body)
      return std::nullopt;
    auto It = llvm::find(Body->body(), Loop);
    if (It == Body->body_end())
      return fail(Loop->getForLoc(),
                  "the annotated loop must be a statement of the kernel body");
    // The loop's step gives TILE, and the launcher runs the tiled form only
    // for blocks of TILE x TILE threads: blockDim is known in the indices.
    if (!loopHeader())
      return std::nullopt;
    Ev.BlockDim[0] = Ev.BlockDim[1] = G.Tile;
    Ev.BlockDim[2] = 1;
    if (!prologue(llvm::ArrayRef<Stmt *>(Body->body_begin(), It)) ||
        !loopBody() ||
        !epilogue(llvm::ArrayRef<Stmt *>(It + 1, Body->body_end())) ||
        !pointersFixed(llvm::ArrayRef<Stmt *>(It + 1, Body->body_end())) ||
        !guardsAgree() || !operands() || !batchAgrees(G, StoreAt))
      return std::nullopt;
    launches();
    return G;
  }

private:
  bool prologue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected before the loop only declarations: the __shared__ tiles, "
        "index variables computed from threadIdx, blockIdx and the "
        "parameters, pointers into the matrices ('p + i', or 'p += i;'), "
        "and one float accumulator set to 0";
    for (const Stmt *S : Stmts) {
      auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS && advance(S))
        continue;
      if (!DS)
        return fail(S->getBeginLoc(), Expected);
      for (const Decl *D : DS->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !declaration(VD))
          return Why.Message.empty() ? fail(D->getLocation(), Expected) : false;
      }
    }
    if (!G.Tile && !Acc)
      return fail(Loop->getForLoc(), Expected);
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
      if (!Inner)
        return fail(VD->getLocation(),
                    "expected a __shared__ tile of two constant dimensions");
      Shared.push_back(VD);
      return true;
    }
    QualType T = VD->getType();
    if (T->isPointerType() && VD->hasInit())
      return pointerDeclaration(VD);
    if (T->isSpecificBuiltinType(BuiltinType::Float) && VD->hasInit() && !Acc) {
      if (!isZero(VD->getInit()))
        return fail(VD->getLocation(),
                    "the accumulator must start at 0 (the tile vocabulary's "
                    "accumulators do)");
      Acc = VD;
      return true;
    }
    if (T->isIntegerType() && VD->hasInit()) {
      if (isModified(VD, Kernel->getBody()))
        return fail(VD->getLocation(), "the index variable '" +
                                           VD->getName().str() +
                                           "' is changed after its "
                                           "declaration");
      std::optional<Poly> P = eval(VD->getInit(), "its value");
      if (!P)
        return false;
      Ev.Bindings.try_emplace(VD, *P);
      return true;
    }
    return false;
  }

  /// `for (int t = 0; t < K; t += TILE)` or
  /// `for (int t = 0; t < (K + TILE - 1) / TILE; ++t)`.
  bool loopHeader() {
    const char *Expected = "expected 'for (int t = 0; t < K; t += TILE)' or "
                           "'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)'";
    auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
    auto *T = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
    if (!T || !T->hasInit() || !isZero(T->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !Loop->getInc())
      return fail(Loop->getForLoc(), Expected);
    auto *CondVar = dyn_cast<DeclRefExpr>(bare(Cond->getLHS()));
    if (!CondVar || CondVar->getDecl() != T || isModified(T, Loop->getBody()))
      return fail(Loop->getForLoc(), Expected);
    Ev.addSymbol(T);
    const Expr *Inc = bare(Loop->getInc());
    std::optional<int64_t> Step;
    if (auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementOp())
      Step = 1;
    else if (auto *C = dyn_cast<CompoundAssignOperator>(Inc);
             C && C->getOpcode() == BO_AddAssign)
      if (std::optional<Poly> P = Ev.eval(C->getRHS()))
        Step = P->constantValue();
    if (!Step || *Step <= 0)
      return fail(Loop->getInc()->getBeginLoc(), Expected);
    if (*Step > 1) {
      // t counts elements of K.
      G.K = intParam(Cond->getRHS());
      G.Tile = int(*Step);
      KOffset = Poly::symbol(T);
    } else if (auto *Div = dyn_cast<BinaryOperator>(bare(Cond->getRHS()));
               Div && Div->getOpcode() == BO_Div) {
      // t counts tiles: the bound must be ceil(K / TILE).
      std::optional<Poly> Den = Ev.eval(Div->getRHS());
      std::optional<Poly> Num = Ev.eval(Div->getLHS());
      std::optional<int64_t> Tile = Den ? Den->constantValue() : std::nullopt;
      if (Tile && *Tile > 1 && Num)
        for (const ParmVarDecl *P : Kernel->parameters()) {
          if (!P->getType()->isIntegerType())
            continue;
          if (*Num == Poly::symbol(P) + Poly::constant(*Tile - 1))
            G.K = P;
          else if (*Num == Poly::symbol(P) && (G.K = P))
            FloorBound = Cond->getRHS()->getBeginLoc();
        }
      G.Tile = Tile ? int(*Tile) : 0;
      KOffset = Poly::constant(G.Tile) * Poly::symbol(T);
    }
    if (!G.K)
      return fail(Cond->getRHS()->getBeginLoc(), FloorMessage);
    return true;
  }

  /// The launches proved: blocks of TILE x TILE threads, one per tile of C;
  /// without bounds checks, a K that is a multiple of TILE.
  void launches() {
    const std::string T = std::to_string(G.Tile);
    G.Block = T + " x " + T + " threads";
    G.BlockDiffers = "tawa_block.x != " + T + " || tawa_block.y != " + T +
                     " || tawa_block.z != 1";
    G.RowsCovered = "tawa_grid.y * " + T;
    G.ColsCovered = "tawa_grid.x * " + T;
    if (!G.Guarded) {
      G.ExtentsDiffer = G.K->getName().str() + " % " + T + " != 0";
      G.Extents = G.K->getName().str() + " is a multiple of " + T;
    }
  }

  static constexpr const char *FloorMessage =
      "expected 'for (int t = 0; t < K; t += TILE)' or 'for (int t = 0; t < "
      "(K + TILE - 1) / TILE; ++t)', K an integer parameter: the loop must "
      "cover K whole (a floor division drops its last partial tile)";

  /// The staging copies and the store are all bounds-checked, or none is
  /// (a kernel for extents that are multiples of TILE: the launcher runs
  /// the tiled form only for a K that is one, and over the window of C the
  /// grid covers, which the kernel as written reads and writes whole).
  bool guardsAgree() {
    G.Guarded = StoreGuarded;
    for (const Staging &S : Stagings)
      if (S.Guarded != StoreGuarded)
        return StoreGuarded
                   ? fail(S.At,
                          "the store is bounds-checked, so the staging copies "
                          "must be too: expected 'tile[i][j] = r < R && c < "
                          "C ? matrix[index] : 0'")
                   : fail(StoreAt, "the staging copies are bounds-checked, so "
                                   "the store must be too: expected 'if (row "
                                   "< M && col < N) C[row * N + col] = acc;'");
    if (StoreGuarded && FloorBound.isValid())
      return fail(FloorBound, FloorMessage);
    return true;
  }

  /// A staging copy: `S[e1][e2] = guard ? G[L] : 0`, its `if`/`else` form,
  /// or an unguarded `S[e1][e2] = G[L]`.
  struct Staging {
    const VarDecl *Array;
    Poly E1, E2, L;
    const ParmVarDecl *Ptr;
    Guard Bounds;
    bool Guarded = false;
    SourceLocation At;
    std::string BatchStride; ///< the factor of blockIdx.z, as C++
  };

  bool guard(const Expr *E, Guard &Out) {
    E = bare(E);
    if (auto *B = dyn_cast<BinaryOperator>(E)) {
      if (B->getOpcode() == BO_LAnd)
        return guard(B->getLHS(), Out) && guard(B->getRHS(), Out);
      const Expr *X = B->getLHS(), *P = B->getRHS();
      if (B->getOpcode() == BO_GT)
        std::swap(X, P);
      if ((B->getOpcode() == BO_LT || B->getOpcode() == BO_GT) && intParam(P)) {
        std::optional<Poly> XP = Ev.eval(X);
        if (XP) {
          Out.push_back({*XP, intParam(P)});
          return true;
        }
      }
    }
    fail(E->getBeginLoc(), "expected a bounds check 'row < M && col < K' of "
                           "integer parameters");
    return false;
  }

  bool staging(const Stmt *S) {
    const char *Expected =
        "expected a staging copy 'tile[i][j] = r < R && c < C ? "
        "matrix[index] : 0' (or its if/else form) of a 2-D __shared__ tile "
        "from a pointer parameter";
    const Expr *L = nullptr, *R = nullptr;
    Staging St{};
    St.At = S->getBeginLoc();
    const Expr *Cond = nullptr, *Read = nullptr;
    if (auto *If = dyn_cast<IfStmt>(S)) {
      const Expr *L2 = nullptr, *R2 = nullptr;
      if (!If->getElse() || !single(If->getThen()) || !single(If->getElse()) ||
          !assignment(single(If->getThen()), L, R) ||
          !assignment(single(If->getElse()), L2, R2) || !isZero(R2))
        return fail(S->getBeginLoc(), Expected);
      std::optional<Access> A1 = access2D(L), A2 = access2D(L2);
      if (!A1 || !A2 || A1->Array != A2->Array ||
          Ev.eval(A1->I1) != Ev.eval(A2->I1) ||
          Ev.eval(A1->I2) != Ev.eval(A2->I2))
        return fail(S->getBeginLoc(), Expected);
      Cond = If->getCond();
      Read = R;
    } else if (assignment(S, L, R)) {
      if (auto *C = dyn_cast<ConditionalOperator>(bare(R))) {
        if (!isZero(C->getFalseExpr()))
          return fail(C->getFalseExpr()->getBeginLoc(),
                      "elements outside the matrix must read as 0");
        Cond = C->getCond();
        Read = C->getTrueExpr();
      } else {
        Read = R;
      }
    } else {
      return fail(S->getBeginLoc(), Expected);
    }
    std::optional<Access> A = access2D(L);
    std::optional<GlobalAccess> GA =
        A ? global(
                unconverted(Read, Ctx.getBaseElementType(A->Array->getType())))
          : std::nullopt;
    if (!A || !llvm::is_contained(Shared, A->Array) || !GA)
      return fail(S->getBeginLoc(), Expected);
    St.Array = A->Array;
    St.Ptr = GA->Ptr;
    std::optional<Poly> E1 = eval(A->I1, "the tile's row index");
    std::optional<Poly> E2 =
        E1 ? eval(A->I2, "the tile's column index") : std::nullopt;
    std::optional<Poly> LP =
        E2 ? eval(GA->Index, "the matrix index") : std::nullopt;
    if (!LP)
      return false;
    St.E1 = *E1;
    St.E2 = *E2;
    St.L = *LP + GA->Offset;
    std::optional<Poly> Unbatched = unbatched(St.L, St.BatchStride, Read);
    if (!Unbatched)
      return false;
    St.L = *Unbatched;
    const Poly TX = Poly::symbol(threadIdxSymbol('x')),
               TY = Poly::symbol(threadIdxSymbol('y'));
    if (!((St.E1 == TY && St.E2 == TX) || (St.E1 == TX && St.E2 == TY)))
      return fail(A->I1->getBeginLoc(),
                  "the staging copy must write element [threadIdx.y]"
                  "[threadIdx.x] or [threadIdx.x][threadIdx.y] of the tile, "
                  "one per thread of a TILE x TILE block");
    if (Cond) {
      if (!guard(Cond, St.Bounds))
        return false;
      St.Guarded = true;
    }
    for (const Staging &O : Stagings)
      if (O.Array == St.Array)
        return fail(S->getBeginLoc(), "a second staging copy of the tile '" +
                                          St.Array->getName().str() + "'");
    Stagings.push_back(St);
    return true;
  }

  static bool isBarrier(const Stmt *S) {
    auto *C = dyn_cast<CallExpr>(S);
    return C && C->getDirectCallee() &&
           C->getDirectCallee()->getName() == "__syncthreads";
  }

  bool loopBody() {
    auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
    const char *Expected =
        "expected the loop body: two staging copies, '__syncthreads();', the "
        "product loop, '__syncthreads();'";
    if (!Body || Body->size() != 5)
      return fail(Body ? Body->getBeginLoc() : Loop->getForLoc(), Expected);
    Stmt *const *S = Body->body_begin();
    if (!staging(S[0]) || !staging(S[1]))
      return false;
    if (!isBarrier(S[2]))
      return fail(S[2]->getBeginLoc(), "expected '__syncthreads();' between "
                                       "the staging copies and the product");
    if (!isBarrier(S[4]))
      return fail(S[4]->getBeginLoc(),
                  "expected '__syncthreads();' after the product loop, before "
                  "the next iteration overwrites the tiles");
    const Stmt *Inner = S[3];
    if (auto *A = dyn_cast<AttributedStmt>(Inner))
      Inner = A->getSubStmt();
    return productLoop(dyn_cast<ForStmt>(Inner), S[3]);
  }

  /// `for (int k = 0; k < TILE; ++k) acc += x[..][..] * y[..][..];`
  bool productLoop(const ForStmt *F, const Stmt *At) {
    const char *Expected = "expected the product loop 'for (int k = 0; k < "
                           "TILE; ++k) acc += As[i][k] * Bs[k][j];'";
    if (!F)
      return fail(At->getBeginLoc(), Expected);
    auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    auto *K = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    auto *Inc =
        F->getInc() ? dyn_cast<UnaryOperator>(bare(F->getInc())) : nullptr;
    if (!K || !K->hasInit() || !isZero(K->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !Inc || !Inc->isIncrementOp())
      return fail(F->getForLoc(), Expected);
    std::optional<Poly> Bound = Ev.eval(Cond->getRHS());
    if (!Bound || Bound->constantValue() != std::optional<int64_t>(G.Tile))
      return fail(Cond->getRHS()->getBeginLoc(),
                  "the product loop must run over the " +
                      std::to_string(G.Tile) +
                      " elements of K that one iteration stages");
    Ev.addSymbol(K);
    KVar = Poly::symbol(K);
    const Stmt *S = single(F->getBody());
    const Expr *Prod = nullptr;
    if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(S);
        CA && CA->getOpcode() == BO_AddAssign && refersTo(CA->getLHS(), Acc))
      Prod = CA->getRHS();
    const Expr *L = nullptr, *R = nullptr;
    if (!Prod && S && assignment(S, L, R) && refersTo(L, Acc)) {
      if (auto *Sum = dyn_cast<BinaryOperator>(bare(R));
          Sum && Sum->getOpcode() == BO_Add && refersTo(Sum->getLHS(), Acc))
        Prod = Sum->getRHS();
      else if (auto *Call = dyn_cast<CallExpr>(bare(R));
               Call && Call->getNumArgs() == 3 && Call->getDirectCallee() &&
               (Call->getDirectCallee()->getName() == "fmaf" ||
                Call->getDirectCallee()->getName() == "__fmaf_rn") &&
               refersTo(Call->getArg(2), Acc)) {
        Factors = {Call->getArg(0), Call->getArg(1)};
        return true;
      }
    }
    auto *Mul = Prod ? dyn_cast<BinaryOperator>(bare(Prod)) : nullptr;
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return fail(S ? S->getBeginLoc() : F->getForLoc(), Expected);
    Factors = {Mul->getLHS(), Mul->getRHS()};
    return true;
  }

  /// `if (row < M && col < N) C[row * ldc + col] = value;`, or the store
  /// alone in a kernel whose staging copies are not bounds-checked either.
  bool epilogue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected one store after the loop: 'if (row < M && col < N) "
        "C[row * N + col] = acc;' (or alpha * acc, or alpha * acc + beta * "
        "C[row * N + col])";
    const Stmt *Store = Stmts.size() == 1 ? Stmts[0] : nullptr;
    StoreAt = Store ? Store->getBeginLoc() : Loop->getEndLoc();
    Guard Bounds;
    const Expr *Cond = nullptr;
    if (auto *If = dyn_cast_or_null<IfStmt>(Store)) {
      if (If->getElse() || !single(If->getThen()))
        return fail(StoreAt, Expected);
      if (!guard(Cond = If->getCond(), Bounds))
        return false;
      StoreGuarded = true;
      Store = single(If->getThen());
    }
    const Expr *L = nullptr, *R = nullptr;
    if (!Store || !assignment(Store, L, R))
      return fail(Store ? Store->getBeginLoc() : StoreAt, Expected);
    std::optional<GlobalAccess> Out = global(L);
    if (!Out)
      return fail(L->getBeginLoc(), Expected);
    G.C = Out->Ptr;
    std::optional<ElementType> OutElem =
        elementOf(G.C->getType()->getPointeeType());
    if (!OutElem || G.C->getType()->getPointeeType().isConstQualified())
      return fail(G.C->getLocation(), "C must point to __nv_bfloat16, __half "
                                      "or float");
    G.Out = *OutElem;
    std::optional<Poly> LC = eval(Out->Index, "the store's index");
    if (LC)
      LC = *LC + Out->Offset;
    if (!LC || !value(R, *LC))
      return false;
    LC = unbatched(*LC, G.CBatchStride, L);
    if (!LC)
      return false;
    // The store's bounds name the rows and columns of C: M and N.
    if (StoreGuarded && Bounds.size() != 2)
      return fail(Cond->getBeginLoc(), Expected);
    const Poly BX = Poly::symbol(blockIdxSymbol('x')),
               BY = Poly::symbol(blockIdxSymbol('y'));
    const Poly TX = Poly::symbol(threadIdxSymbol('x')),
               TY = Poly::symbol(threadIdxSymbol('y'));
    const Poly T = Poly::constant(G.Tile);
    for (int Order = 0; Order < 2 && !G.Ldc; ++Order) {
      if (StoreGuarded) {
        const auto &RowB = Bounds[Order], &ColB = Bounds[1 - Order];
        const Poly Rho = RowB.first - T * BY, Gamma = ColB.first - T * BX;
        if (((Rho == TY && Gamma == TX) || (Rho == TX && Gamma == TY)) &&
            storeIndex(*LC, RowB.first, ColB.first)) {
          G.M = RowB.second;
          G.N = ColB.second;
        }
      } else {
        storeIndex(*LC, T * BY + (Order ? TX : TY), T * BX + (Order ? TY : TX));
      }
    }
    if (!G.Ldc)
      return fail(Out->Index->getBeginLoc(),
                  "the store must write C[row * ldc + col] with row = "
                  "blockIdx.y * TILE + threadIdx.y and col = blockIdx.x * "
                  "TILE + threadIdx.x (or the two thread coordinates "
                  "swapped), checked against 'row < M && col < N' where the "
                  "staging copies are checked");
    return true;
  }

  /// Whether the store's index is `RowP * ldc + ColP` for an integer
  /// parameter ldc; sets Row, Col and G.Ldc.
  bool storeIndex(const Poly &LC, const Poly &RowP, const Poly &ColP) {
    for (const ParmVarDecl *Ld : Kernel->parameters())
      if (Ld->getType()->isIntegerType() &&
          LC == RowP * Poly::symbol(Ld) + ColP) {
        G.Ldc = Ld;
        Row = RowP;
        Col = ColP;
        return true;
      }
    return false;
  }

  /// The stored value: acc, alpha * acc, alpha * acc + beta * C[same].
  bool value(const Expr *V, const Poly &LC) {
    const char *Expected =
        "expected the stored value 'acc', 'alpha * acc' or 'alpha * acc + "
        "beta * C[index]' (alpha, beta float parameters), converted to C's "
        "type with rounding to nearest";
    V = unconverted(V, G.C->getType()->getPointeeType());
    auto floatParam = [](const Expr *E) -> const ParmVarDecl * {
      auto *R = dyn_cast<DeclRefExpr>(unconverted(E));
      auto *P = R ? dyn_cast<ParmVarDecl>(R->getDecl()) : nullptr;
      return P && P->getType()->isSpecificBuiltinType(BuiltinType::Float)
                 ? P
                 : nullptr;
    };
    auto scaled = [&](const Expr *E, const VarDecl *Of,
                      const ParmVarDecl *&Scale) {
      auto *M = dyn_cast<BinaryOperator>(unconverted(E));
      if (!M || M->getOpcode() != BO_Mul)
        return false;
      for (auto [X, Y] : {std::pair(M->getLHS(), M->getRHS()),
                          std::pair(M->getRHS(), M->getLHS())})
        if ((Scale = floatParam(X)) && Of && refersTo(unconverted(Y), Of))
          return true;
      return false;
    };
    if (refersTo(V, Acc))
      return true;
    if (scaled(V, Acc, G.Alpha))
      return true;
    auto *Sum = dyn_cast<BinaryOperator>(V);
    if (Sum && Sum->getOpcode() == BO_Add &&
        scaled(Sum->getLHS(), Acc, G.Alpha)) {
      auto *M = dyn_cast<BinaryOperator>(unconverted(Sum->getRHS()));
      if (M && M->getOpcode() == BO_Mul)
        for (auto [X, Y] : {std::pair(M->getLHS(), M->getRHS()),
                            std::pair(M->getRHS(), M->getLHS())}) {
          std::optional<GlobalAccess> Old = global(unconverted(Y));
          std::optional<Poly> I = Old ? Ev.eval(Old->Index) : std::nullopt;
          if ((G.Beta = floatParam(X)) && I && Old->Ptr == G.C &&
              *I + Old->Offset == LC)
            return true;
        }
    }
    G.Alpha = G.Beta = nullptr;
    return fail(V->getBeginLoc(), Expected);
  }

  /// Proves which staged matrix is A and which is B, and their layouts.
  bool operands() {
    std::optional<Access> X = access2D(unconverted(Factors[0]));
    std::optional<Access> Y = access2D(unconverted(Factors[1]));
    if (!X || !Y || X->Array == Y->Array)
      return fail(Factors[0]->getBeginLoc(),
                  "the product must multiply an element of each __shared__ "
                  "tile");
    for (const Access *AX : {&*X, &*Y}) {
      const Access *AY = AX == &*X ? &*Y : &*X;
      if (operand(*AX, true, G.A) && operand(*AY, false, G.B))
        return elementTypes();
    }
    return fail(Factors[0]->getBeginLoc(),
                "the product does not read A[row][k] and B[k][col] of the "
                "staged tiles: with the staging copies' indices and bounds "
                "checks, no layout of A (M x K or K x M) and B (K x N or "
                "N x K) gives the element the store writes");
  }

  /// Whether reading `R` in the product gives, for the reading thread,
  /// A(row, kk) (IsA) or B(kk, col), kk = the K offset + k, where the
  /// staging copy of R's tile was bounds-checked against the extents.
  bool operand(const Access &R, bool IsA, LiftedOperand &Out) {
    const Staging *St = nullptr;
    for (const Staging &S : Stagings)
      if (S.Array == R.Array)
        St = &S;
    std::optional<Poly> P1 = Ev.eval(R.I1), P2 = Ev.eval(R.I2);
    if (!St || !P1 || !P2)
      return false;
    // The thread that staged element [P1][P2]: substitute its coordinates.
    const Symbol TX = threadIdxSymbol('x'), TY = threadIdxSymbol('y');
    static const char FreshX = 0, FreshY = 0;
    auto staged = [&](const Poly &E) {
      Poly F = E.substitute(TX, Poly::symbol(&FreshX))
                   .substitute(TY, Poly::symbol(&FreshY));
      const bool RowIsY = St->E1 == Poly::symbol(TY);
      return F.substitute(&FreshY, RowIsY ? *P1 : *P2)
          .substitute(&FreshX, RowIsY ? *P2 : *P1);
    };
    const Poly KK = KOffset + KVar;
    const Poly &MN = IsA ? Row : Col;
    const ParmVarDecl *MNBound = IsA ? G.M : G.N;
    Guard Expected = {{MN, MNBound}, {KK, G.K}};
    Guard Got;
    for (const auto &[X, P] : St->Bounds)
      Got.push_back({staged(X), P});
    auto sameGuard = [&] {
      if (Got.size() != 2)
        return false;
      return (Got[0] == Expected[0] && Got[1] == Expected[1]) ||
             (Got[0] == Expected[1] && Got[1] == Expected[0]);
    };
    if (St->Guarded && !sameGuard())
      return false;
    const Poly L = staged(St->L);
    for (const ParmVarDecl *Ld : Kernel->parameters()) {
      if (!Ld->getType()->isIntegerType())
        continue;
      const Poly LdP = Poly::symbol(Ld);
      if (L == MN * LdP + KK || L == KK * LdP + MN) {
        Out.Data = St->Ptr;
        Out.Ld = Ld;
        Out.BatchStride = St->BatchStride;
        Out.KMajor = L == MN * LdP + KK;
        return true;
      }
    }
    return false;
  }

  bool elementTypes() {
    QualType TA = G.A.Data->getType()->getPointeeType();
    QualType TB = G.B.Data->getType()->getPointeeType();
    std::optional<ElementType> EA = elementOf(TA), EB = elementOf(TB);
    if (!EA || EA != EB)
      return fail(G.A.Data->getLocation(),
                  "A and B must have one element type, __nv_bfloat16 or "
                  "__half");
    for (const VarDecl *S : Shared) {
      QualType E = Ctx.getBaseElementType(S->getType());
      if (elementOf(E) != EA)
        return fail(S->getLocation(), "the tiles and the matrices they stage "
                                      "must have one element type");
    }
    if (*EA == ElementType::F32)
      return fail(
          G.A.Data->getLocation(),
          "the kernel computes in fp32 (an SGEMM); the tensor cores take "
          "bf16 or fp16 inputs, which would change its results. Convert the "
          "inputs to bf16 or fp16 yourself where that precision is "
          "acceptable (docs/migration.md, 'Precision')");
    G.Elem = *EA;
    // tawa::Matrix's extents and leading dimension are int: a wider or
    // unsigned parameter could hold a value the view would change.
    for (const ParmVarDecl *P : {G.M, G.N, G.K, G.A.Ld, G.B.Ld, G.Ldc})
      if (P && !Ctx.hasSameUnqualifiedType(P->getType(), Ctx.IntTy))
        return fail(P->getLocation(),
                    "the extents and leading dimensions must be 'int' "
                    "parameters, as tawa::Matrix's are; '" +
                        P->getNameAsString() + "' is '" +
                        P->getType().getAsString() + "'");
    return true;
  }

  LiftedGemm G;
  std::vector<const VarDecl *> Shared;
  const VarDecl *Acc = nullptr;
  Poly KOffset, KVar, Row, Col;
  bool StoreGuarded = false;
  SourceLocation StoreAt, FloorBound;
  std::vector<Staging> Stagings;
  std::array<const Expr *, 2> Factors{};
};

} // namespace

std::optional<LiftedGemm> liftSharedGemm(const FunctionDecl *Kernel,
                                         const ForStmt *Loop, ASTContext &Ctx,
                                         LiftFailure &Why) {
  return Lifter(Kernel, Loop, Ctx, Why).run();
}

} // namespace tawa
