//===- Lift.cpp - lifting a hand-written shared-memory GEMM loop ----------===//
#include "tawa/Lift.h"
#include "DynamicTiles.h"
#include "GemmLoopReader.h"
#include "ZeroFills.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tawa {
namespace {

class Lifter : GemmLoopReader {
public:
  Lifter(const FunctionDecl *Kernel, const ForStmt *Loop, ASTContext &Ctx,
         LiftFailure &Why, const NamedExtents *Named, bool Tf32)
      : GemmLoopReader(Kernel, Loop, Ctx, Why, Named) {
    this->Tf32 = Tf32;
    AcceptsWalkers = true;
    AcceptsSplitK = true;
    WidenedTiles = true;
  }

  std::optional<LiftedGemm> run() {
    const std::optional<AroundLoop> Around = aroundLoop();
    if (!Around)
      return std::nullopt;
    // The loop's step gives TILE, and the launcher runs the tiled form only
    // for blocks of TILE x TILE threads, or of TILE * TILE threads where
    // the kernel never reads threadIdx.y (its threads split threadIdx.x by
    // TILE): blockDim is known in the indices.
    if (!tileLoopHeader())
      return std::nullopt;
    noteZeroFills(Around->Before);
    noteZeroFills(Loop->getBody());
    Dynamic = dynamicTiles(Kernel, Around->Before, Ctx);
    if (Dynamic.Failure)
      return fail(Dynamic.Failure->Loc, Dynamic.Failure->Message);
    Ev.BlockDim[0] = Ev.BlockDim[1] = G.Tile;
    Ev.BlockDim[2] = 1;
    if (!readsThreadIdx(Kernel->getBody(), 'y')) {
      Ev.FlatTile = G.Tile;
      Ev.BlockDim[0] = int64_t(G.Tile) * G.Tile;
      Ev.BlockDim[1] = 1;
    }
    if (!prologue(Around->Before) || !toggleUnread(*Around) || !bindWalkers() ||
        !loopBody() || !epilogue(Around->After) ||
        !pointersFixed(Around->After) || !guardsAgree() || !biasAgrees() ||
        !operands() || !splitKAgrees(AtomicStore, StoreAt) ||
        !batchAgrees(G, StoreAt))
      return std::nullopt;
    launches();
    return G;
  }

private:
  /// The zero-then-copy pairs of a block of statements (ZeroFills.h): the
  /// copy is read as the checked copy that fills with zeros, the zero store
  /// as part of it.
  void noteZeroFills(llvm::ArrayRef<Stmt *> Stmts) {
    llvm::SmallVector<const Stmt *, 16> Body(Stmts.begin(), Stmts.end());
    for (const auto &[Copy, Zero] : zeroFilledCopies(Body, Ctx))
      if (!isa<DeclStmt>(Zero)) {
        ZeroFilled.insert(Copy);
        ZeroStores.insert(Zero);
      }
  }
  void noteZeroFills(const Stmt *Block) {
    if (auto *C = dyn_cast_or_null<CompoundStmt>(Block))
      noteZeroFills(llvm::ArrayRef<Stmt *>(C->body_begin(), C->body_end()));
  }

  bool prologue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected before the loop only declarations: the __shared__ tiles, "
        "index variables computed from threadIdx, blockIdx and the "
        "parameters, pointers into the matrices ('p + i', or 'p += i;'), "
        "and one float accumulator set to 0";
    for (const Stmt *S : Stmts) {
      auto *DS = dyn_cast<DeclStmt>(S);
      if (ZeroStores.contains(S) || (!DS && advance(S)))
        continue;
      if (!DS && prologueStaging(S))
        continue;
      if (!DS)
        return Why.Message.empty() ? fail(S->getBeginLoc(), Expected) : false;
      for (const Decl *D : DS->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !declaration(VD))
          return Why.Message.empty() ? fail(D->getLocation(), Expected) : false;
      }
    }
    // __shared__ tiles may be declared in the loop body (the CUDA samples'
    // matrixMul): without an initializer, such an array is the block's one
    // array in every iteration.
    if (auto *LoopBody = dyn_cast<CompoundStmt>(Loop->getBody()))
      for (const Stmt *S : LoopBody->body())
        if (auto *DS = dyn_cast<DeclStmt>(S); DS && sharedOnly(DS))
          for (const Decl *D : DS->decls())
            if (!declaration(cast<VarDecl>(D)))
              return false;
    if (!G.Tile && !Acc)
      return fail(Loop->getForLoc(), Expected);
    if (Shared.size() != 2 || !Acc)
      return fail(Loop->getForLoc(),
                  "expected two __shared__ tiles and a float accumulator "
                  "declared before the loop");
    return true;
  }

  /// Whether the 2-D tile `VD` of `Rows` x `Cols` holds TILE x TILE
  /// elements: its copies write [i][j] and the product reads [i][k] with
  /// i, j, k below TILE, which in a smaller array run into the next row.
  bool holdsTile(const VarDecl *VD, const ConstantArrayType *Rows,
                 const ConstantArrayType *Cols) {
    if (Rows->getSize().uge(uint64_t(G.Tile)) &&
        Cols->getSize().uge(uint64_t(G.Tile)))
      return true;
    return fail(VD->getLocation(),
                "the tile '" + VD->getName().str() + "' has " +
                    std::to_string(Rows->getSize().getZExtValue()) + " x " +
                    std::to_string(Cols->getSize().getZExtValue()) +
                    " elements, fewer than the " + std::to_string(G.Tile) +
                    " x " + std::to_string(G.Tile) +
                    " that one iteration stages and reads");
  }

  /// Whether `DS` declares only __shared__ variables.
  static bool sharedOnly(const DeclStmt *DS) {
    return llvm::all_of(DS->decls(), [](const Decl *D) {
      auto *VD = dyn_cast<VarDecl>(D);
      return VD && VD->hasAttr<CUDASharedAttr>();
    });
  }

  bool declaration(const VarDecl *VD) {
    if (VD == Dynamic.Base)
      return true;
    if (const DynamicTile *T = Dynamic.find(VD))
      return dynamicTile(*T);
    if (std::optional<LiftFailure> Refusal = dynamicSharedTile(VD))
      return fail(Refusal->Loc, Refusal->Message);
    if (VD->hasAttr<CUDASharedAttr>()) {
      auto *Outer = Ctx.getAsConstantArrayType(VD->getType());
      auto *Inner =
          Outer ? Ctx.getAsConstantArrayType(Outer->getElementType()) : nullptr;
      const uint64_t TileElements = uint64_t(G.Tile) * uint64_t(G.Tile);
      // Two buffers of a 2-D tile: `T X[2][R][C]` (double buffering).
      auto *Third =
          Inner ? Ctx.getAsConstantArrayType(Inner->getElementType()) : nullptr;
      if (Third && Outer->getSize() == 2 &&
          !Third->getElementType()->isArrayType()) {
        if (!holdsTile(VD, Inner, Third))
          return false;
        Shared.push_back(VD);
        Buffered.push_back(VD);
        return true;
      }
      if (Third || (!Inner && !(Outer && Outer->getSize() == TileElements &&
                                !Outer->getElementType()->isArrayType())))
        return fail(VD->getLocation(),
                    "expected a __shared__ tile of two constant dimensions, "
                    "or of TILE * TILE = " +
                        std::to_string(TileElements) + " elements");
      if (Inner && !holdsTile(VD, Outer, Inner))
        return false;
      Shared.push_back(VD);
      return true;
    }
    QualType T = VD->getType();
    if (T->isPointerType() && VD->hasInit())
      return pointerDeclaration(VD);
    // A float the loop does not read is no accumulator: a scale the store
    // applies, computed from the kernel's parameters alone.
    if (T->isSpecificBuiltinType(BuiltinType::Float) && VD->hasInit() &&
        !isZero(VD->getInit()) && !mentions(Loop, VD)) {
      if (uniformScale(VD))
        return true;
      return fail(VD->getLocation(),
                  "expected before the loop only integer index "
                  "declarations, the __shared__ tiles and the float "
                  "accumulator set to 0; '" +
                      VD->getName().str() +
                      "' is another float value (a scale of the store is a "
                      "float parameter, 'alpha * acc', or a float computed "
                      "from the kernel's scalar parameters alone, 'const "
                      "float scale = 1.0f / sqrtf((float)K);')");
    }
    if (T->isSpecificBuiltinType(BuiltinType::Float) && VD->hasInit() && !Acc) {
      if (!isZero(VD->getInit()))
        return fail(VD->getLocation(),
                    "the accumulator must start at 0 (the tile vocabulary's "
                    "accumulators do)");
      Acc = VD;
      return true;
    }
    // An accumulator of another type: wgmma sums in fp32.
    if (!Acc && VD->hasInit() && isZero(VD->getInit()) && mentions(Loop, VD) &&
        (T->isFloatingType() ||
         T.getAsString().find("half") != std::string::npos ||
         T.getAsString().find("bfloat16") != std::string::npos))
      return fail(VD->getLocation(),
                  "the accumulator '" + VD->getName().str() + "' is " +
                      T.getAsString() +
                      ": wgmma accumulates in float, so the sums would "
                      "change; expected 'float " +
                      VD->getName().str() + " = 0.0f;'");
    if (toggledBuffer(VD))
      return true;
    // A value that is no polynomial (a tile count `(K + TILE - 1) / TILE`,
    // say) stays unbound: an index that uses it is refused there.
    if (T->isIntegerType() && VD->hasInit())
      return unchangedIndex(VD, Kernel->getBody()) &&
             bindIndex(VD, /*Opaque=*/true);
    return false;
  }

  /// `int cur = 0;` before the loop whose only change is the loop body's
  /// last statement, `cur ^= 1;` (or `cur = cur ^ 1;`, `cur = 1 - cur;`,
  /// `cur = !cur;`): in iteration i, up to that statement, cur is i % 2, the
  /// buffer the iteration reads (recorded in CurrentVars, the statement in
  /// Toggle). The body has no `continue` that could skip it (loopBody's
  /// forms have none), and the kernel reads cur nowhere else
  /// (toggleUnread).
  bool toggledBuffer(const VarDecl *VD) {
    auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
    if (!VD->getType()->isIntegerType() || !VD->hasInit() ||
        !isZero(VD->getInit()) || !Body || Body->body_empty() || Toggle)
      return false;
    const Stmt *Last = Body->body_back();
    if (flippedVariable(Last) != VD || isModified(VD, Kernel->getBody(), Last))
      return false;
    Toggle = Last;
    CurrentVars.push_back(VD);
    return true;
  }

  /// The toggled buffer variable is read in the loop only: after it (and
  /// before, in the prologue's copies of buffer 0) it is no iteration's.
  bool toggleUnread(const AroundLoop &Around) {
    if (!Toggle)
      return true;
    const auto *VD = cast<VarDecl>(CurrentVars.front());
    for (llvm::ArrayRef<Stmt *> Part : {Around.Before, Around.After})
      for (const Stmt *S : Part) {
        auto *DS = dyn_cast<DeclStmt>(S);
        if (DS && llvm::is_contained(DS->decls(), VD))
          continue;
        if (mentions(S, VD))
          return fail(S->getBeginLoc(),
                      "'" + VD->getName().str() +
                          "', the buffer the loop toggles, may be read in "
                          "the loop only");
      }
    return true;
  }

  /// A tile in dynamic shared memory (DynamicTiles.h): one-dimensional,
  /// of TILE * TILE elements before the next tile starts.
  bool dynamicTile(const DynamicTile &T) {
    if (T.Var->getType()->getPointeeType()->isArrayType())
      return fail(T.Var->getLocation(),
                  "expected the tile '" + T.Var->getName().str() +
                      "' a pointer to its elements, indexed 'As[ty * TILE + "
                      "tx]'");
    const int64_t Elements = int64_t(G.Tile) * G.Tile;
    if (T.Extent != 0 && T.Extent < Elements)
      return fail(T.Var->getLocation(),
                  "the tile '" + T.Var->getName().str() +
                      "' has TILE * TILE = " + std::to_string(Elements) +
                      " elements, but the next "
                      "tile starts " +
                      std::to_string(T.Extent) + " elements after it");
    Shared.push_back(T.Var);
    return true;
  }

  /// The launches proved: blocks of TILE x TILE threads (or TILE * TILE
  /// in one dimension), one per tile of C; without bounds checks, a K that
  /// is a multiple of TILE.
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
    // A loop of K / TILE whole tiles reads no element past its last tile:
    // the launcher gives the operands K / TILE * TILE columns (LiftedGemm).
    if ((!G.Guarded || StaleK) && !G.KFloorTile) {
      G.ExtentsDiffer = G.K.factor() + " % " + T + " != 0";
      G.Extents = G.K.words() + " is a multiple of " + T;
    }
    limitFloatTileCount();
  }

  /// The staging copies and the store are all bounds-checked, or none is
  /// (a kernel for extents that are multiples of TILE: the launcher runs
  /// the tiled form only for a K that is one, and over the window of C the
  /// grid covers, which the kernel as written reads and writes whole).
  ///
  /// A copy without an `else` leaves the elements outside the matrix as an
  /// earlier copy (or nothing) left them. Those of rows past M or columns
  /// past N reach only results the store leaves out (operand() checks that
  /// the copy's guard is the element's bounds); those past K's end are
  /// read, unless the product stops there (ProductStopsAtK). Without that
  /// stop the launcher runs the tiled form only for a K that is a multiple
  /// of TILE, where there are none.
  bool guardsAgree() {
    G.Guarded = StoreGuarded;
    for (const Staging &S : Stagings)
      StaleK |= !S.Fills && !ProductStopsAtK;
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
    return true;
  }

  /// An element of a __shared__ tile: `Tile[I1][I2]`, or `Tile[I]` of a
  /// one-dimensional tile of TILE * TILE elements, read as row-major: I =
  /// TILE * I1 + I2 with I2 one of the coordinates known to lie in [0,
  /// TILE) (threadIdx.x or .y of the block, the product loop's k), I1 the
  /// rest divided by TILE.
  struct Access {
    const VarDecl *Array = nullptr;
    const Expr *Index = nullptr;
    Poly P1, P2;
    const Expr *Buffer = nullptr; ///< `b` of a double-buffered X[b][i][j]
  };
  std::optional<Access> tileAccess(const Expr *E) {
    auto *Outer = dyn_cast<ArraySubscriptExpr>(bare(E));
    if (!Outer)
      return std::nullopt;
    auto *Inner = dyn_cast<ArraySubscriptExpr>(bare(Outer->getBase()));
    // X[b][i][j] of a double-buffered tile: the buffer, then X[i][j].
    auto *Third =
        Inner ? dyn_cast<ArraySubscriptExpr>(bare(Inner->getBase())) : nullptr;
    auto *R = dyn_cast<DeclRefExpr>(bare(Third   ? Third->getBase()
                                         : Inner ? Inner->getBase()
                                                 : Outer->getBase()));
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!VD || !llvm::is_contained(Shared, VD) ||
        llvm::is_contained(Buffered, VD) != (Third != nullptr))
      return std::nullopt;
    Access A{VD,
             Inner ? Inner->getIdx() : Outer->getIdx(),
             {},
             {},
             Third ? Third->getIdx() : nullptr};
    if (Inner) {
      std::optional<Poly> P1 = eval(Inner->getIdx(), "the tile's row index");
      std::optional<Poly> P2 =
          P1 ? eval(Outer->getIdx(), "the tile's column index") : std::nullopt;
      if (!P2)
        return std::nullopt;
      A.P1 = *P1;
      A.P2 = *P2;
      return A;
    }
    auto *Flat = Ctx.getAsConstantArrayType(VD->getType());
    if (!Dynamic.find(VD) && (!Flat || Flat->getElementType()->isArrayType()))
      return std::nullopt;
    std::optional<Poly> P = eval(Outer->getIdx(), "the tile's index");
    if (!P)
      return std::nullopt;
    Poly Low, High;
    for (const auto &[M, C] : P->terms()) {
      Poly Term = Poly::constant(C);
      for (Symbol X : M)
        Term = Term * Poly::symbol(X);
      (C % G.Tile ? Low : High) = (C % G.Tile ? Low : High) + Term;
    }
    std::optional<Poly> Q = High.dividedExactly(G.Tile);
    const Poly Known[] = {Poly::symbol(threadIdxSymbol('x')),
                          Poly::symbol(threadIdxSymbol('y')), KVar};
    if (!Q || !llvm::is_contained(Known, Low) || Low == Poly())
      return fail(Outer->getIdx()->getBeginLoc(),
                  "the index of a one-dimensional tile must be 'row * " +
                      std::to_string(G.Tile) +
                      " + col', col one of threadIdx.x, threadIdx.y and the "
                      "product loop's k");
    A.P1 = *Q;
    A.P2 = Low;
    return A;
  }

  /// A staging copy: `S[e1][e2] = guard ? G[L] : 0`, its `if`/`else` form,
  /// `if (guard) S[e1][e2] = G[L];` without an `else` (elements outside
  /// the matrix keep what an earlier copy left), or an unguarded
  /// `S[e1][e2] = G[L]`.
  struct Staging {
    const VarDecl *Array;
    Poly E1, E2, L;
    const ParmVarDecl *Ptr;
    Guard Bounds;
    bool Guarded = false;
    bool Fills = true;            ///< writes 0 where the guard fails
    const Expr *Buffer = nullptr; ///< the buffer written, double-buffered
    SourceLocation At;
    std::string BatchStride; ///< the factor of blockIdx.z, as C++
  };

  bool staging(const Stmt *S, std::vector<Staging> &Into) {
    const char *Expected =
        "expected a staging copy 'tile[i][j] = r < R && c < C ? "
        "matrix[index] : 0' (or its if/else form) of a 2-D __shared__ tile "
        "from a pointer parameter";
    const Expr *L = nullptr, *R = nullptr;
    Staging St{};
    St.At = S->getBeginLoc();
    const Expr *Cond = nullptr, *Read = nullptr;
    if (auto *If = dyn_cast<IfStmt>(S); If && !If->getElse()) {
      if (!single(If->getThen()) || !assignment(single(If->getThen()), L, R))
        return fail(S->getBeginLoc(), Expected);
      Cond = If->getCond();
      Read = R;
      // `x = 0;` before it: zeros where the check fails.
      St.Fills = ZeroFilled.contains(If);
    } else if (If) {
      const Expr *L2 = nullptr, *R2 = nullptr;
      if (!single(If->getThen()) || !single(If->getElse()) ||
          !assignment(single(If->getThen()), L, R) ||
          !assignment(single(If->getElse()), L2, R2))
        return fail(S->getBeginLoc(), Expected);
      // `if (out) tile = 0; else tile = matrix[j];`: the negated check.
      Cond = If->getCond();
      if (isZero(R) && !isZero(R2)) {
        std::swap(L, L2);
        std::swap(R, R2);
        Cond = negated(Cond);
      }
      if (!Cond || !isZero(R2))
        return fail(S->getBeginLoc(), Expected);
      std::optional<Access> A1 = tileAccess(L);
      std::optional<Access> A2 = A1 ? tileAccess(L2) : std::nullopt;
      if (!A1 || !A2 || A1->Array != A2->Array || A1->P1 != A2->P1 ||
          A1->P2 != A2->P2)
        return Why.Message.empty() ? fail(S->getBeginLoc(), Expected) : false;
      Read = R;
    } else if (assignment(S, L, R)) {
      if (auto *C = dyn_cast<ConditionalOperator>(bare(R))) {
        auto Checked = zeroOutside(C);
        if (!Checked)
          return fail(C->getFalseExpr()->getBeginLoc(),
                      "elements outside the matrix must read as 0");
        std::tie(Cond, Read) = *Checked;
      } else {
        Read = R;
      }
    } else {
      return fail(S->getBeginLoc(), Expected);
    }
    std::optional<Access> A = tileAccess(L);
    if (!A && !Why.Message.empty())
      return false;
    std::optional<GlobalAccess> GA =
        A ? global(unconverted(Read, tileElementType(A->Array, Ctx)))
          : std::nullopt;
    if (!A || !GA)
      return fail(S->getBeginLoc(), Expected);
    St.Array = A->Array;
    St.Ptr = GA->Ptr;
    St.Buffer = A->Buffer;
    std::optional<Poly> E1 = A->P1, E2 = A->P2;
    std::optional<Poly> LP = offset(GA->Index, "the matrix index");
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
      return fail(A->Index->getBeginLoc(),
                  Ev.FlatTile
                      ? "the staging copy must write element [threadIdx.x / "
                        "TILE][threadIdx.x % TILE] or [threadIdx.x % TILE]"
                        "[threadIdx.x / TILE] of the tile, one per thread of "
                        "a block of TILE * TILE threads"
                      : "the staging copy must write element [threadIdx.y]"
                        "[threadIdx.x] or [threadIdx.x][threadIdx.y] of the "
                        "tile, one per thread of a TILE x TILE block");
    if (Cond) {
      if (!guard(Cond, St.Bounds))
        return false;
      St.Guarded = true;
    }
    for (const Staging &O : Into)
      if (O.Array == St.Array)
        return fail(S->getBeginLoc(), "a second staging copy of the tile '" +
                                          St.Array->getName().str() + "'");
    Into.push_back(St);
    return true;
  }

  bool loopBody() {
    auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
    const char *Expected =
        "expected the loop body: two staging copies, '__syncthreads();', the "
        "product loop, '__syncthreads();' (and optionally pointers advanced "
        "by one step per iteration, 'A += TILE;')";
    if (!Body)
      return fail(Loop->getForLoc(), Expected);
    if (!advancesInLoop(Body))
      return false;
    // The body without the advances; each staging copy reads through the
    // pointers as advanced by the statements before it.
    std::vector<const Stmt *> S;
    for (const Stmt *X : Body->body()) {
      if (auto *DS = dyn_cast<DeclStmt>(X)) {
        if (sharedOnly(DS))
          continue;
        if (!indexDeclarations(DS))
          return Why.Message.empty() ? fail(X->getBeginLoc(), Expected) : false;
        continue;
      }
      if (X == Toggle || ZeroStores.contains(X))
        continue;
      if (llvm::find_if(Steps, [&](const InLoopStep &St) {
            return St.At == X;
          }) != Steps.end()) {
        for (const InLoopStep &St : Steps)
          if (St.At == X)
            Pointers[St.Ptr].second = Pointers[St.Ptr].second + St.Step;
        continue;
      }
      X = unwrapOnce(X); // a statement macro's `do { ... } while (0)`
      S.push_back(X);
      if (Buffered.empty() && S.size() <= 2 && !staging(X, Stagings))
        return false;
    }
    if (!Buffered.empty())
      return bufferedBody(S, Body);
    // The barriers first: a statement where one belongs is what breaks the
    // form (a tile written after the product, say).
    if (S.size() > 2 && !isBarrier(S[2]))
      return fail(S[2]->getBeginLoc(), "expected '__syncthreads();' between "
                                       "the staging copies and the product");
    if (S.size() > 4 && !isBarrier(S[4]))
      return fail(S[4]->getBeginLoc(),
                  "expected '__syncthreads();' after the product loop, before "
                  "the next iteration overwrites the tiles");
    if (S.size() != 5)
      return fail(S.size() < 5 ? Body->getBeginLoc() : S[5]->getBeginLoc(),
                  Expected);
    const Stmt *Inner = S[3];
    if (auto *A = dyn_cast<AttributedStmt>(Inner))
      Inner = A->getSubStmt();
    return productLoop(dyn_cast<ForStmt>(Inner), S[3]);
  }

  /// Integer index variables declared in the loop body (`const int col =
  /// t * TILE + threadIdx.x;`), never changed: bound to their values.
  bool indexDeclarations(const DeclStmt *DS) {
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getType()->isIntegerType() || !VD->hasInit())
        return false;
      if (!unchangedIndex(VD, Loop->getBody()))
        return false;
      if (!Buffered.empty() &&
          (isCurrent(VD->getInit()) || isNext(VD->getInit()))) {
        (isCurrent(VD->getInit()) ? CurrentVars : NextVars).push_back(VD);
        continue;
      }
      // `int kmax = min(TILE, K - t);`, the product loop's bound.
      if (stopsAtK(VD->getInit())) {
        KLimits.push_back(VD);
        continue;
      }
      if (!bindIndex(VD, /*Opaque=*/false))
        return false;
    }
    return true;
  }

  // Double buffering: tiles `X[2][R][C]`, the first tile staged into
  // buffer 0 before the loop (then '__syncthreads();'), and a loop body of
  // a prefetch `if (<the loop's condition one step on>) { <the staging
  // copies of the next tile into the other buffer> }`, the product over the
  // current buffer (before or after the prefetch) and '__syncthreads();'.
  // Iteration i reads buffer i % 2, which the prologue (i = 0) or iteration
  // i - 1 wrote before the barrier that ends it; iteration i writes buffer
  // (i + 1) % 2, which iteration i - 1 read before that barrier.

  /// The statements before the loop may also stage buffer 0 of each
  /// double-buffered tile, then meet at a barrier.
  bool prologueStaging(const Stmt *S) {
    if (Buffered.empty())
      return false;
    if (isBarrier(S)) {
      if (PrologueStagings.size() != 2 || PrologueBarrier)
        return fail(S->getBeginLoc(),
                    "expected one '__syncthreads();' before the loop, after "
                    "the staging copies of the first tiles");
      PrologueBarrier = true;
      return true;
    }
    const Expr *L = nullptr, *R = nullptr;
    if (!assignment(S, L, R) && !isa<IfStmt>(S))
      return false;
    if (PrologueBarrier || !staging(S, PrologueStagings))
      return Why.Message.empty()
                 ? fail(S->getBeginLoc(),
                        "expected the staging copies of the first tiles "
                        "into buffer 0, then '__syncthreads();'")
                 : false;
    std::optional<Poly> B = Ev.eval(PrologueStagings.back().Buffer);
    if (!B || *B != Poly())
      return fail(S->getBeginLoc(), "the first tiles must be staged into "
                                    "buffer 0, which iteration 0 reads");
    return true;
  }

  /// The loop body of a double-buffered kernel (without its declarations).
  bool bufferedBody(const std::vector<const Stmt *> &S,
                    const CompoundStmt *Body) {
    const char *Expected =
        "expected the double-buffered loop body: 'if (<the loop condition "
        "one step on>) { <the staging copies of the next tiles into buffer "
        "(i + 1) % 2> }', the product loop over buffer i % 2 (either first), "
        "'__syncthreads();'";
    if (!Steps.empty())
      return fail(Steps.front().At->getBeginLoc(),
                  "a double-buffered kernel must not advance its pointers in "
                  "the loop");
    if (!PrologueBarrier)
      return fail(Loop->getForLoc(), "expected the first tiles staged into "
                                     "buffer 0 before the loop, then "
                                     "'__syncthreads();'");
    if (S.size() != 3 || !isBarrier(S[2]))
      return fail(S.size() == 3 ? S[2]->getBeginLoc() : Body->getBeginLoc(),
                  Expected);
    const bool IfFirst = isa<IfStmt>(S[0]);
    auto *If = dyn_cast<IfStmt>(S[IfFirst ? 0 : 1]);
    if (!If || If->getElse() || !prefetchCondition(If->getCond()))
      return Why.Message.empty()
                 ? fail(S[IfFirst ? 0 : 1]->getBeginLoc(), Expected)
                 : false;
    auto *Then = dyn_cast<CompoundStmt>(If->getThen());
    if (!Then)
      return fail(If->getThen()->getBeginLoc(), Expected);
    noteZeroFills(Then);
    for (const Stmt *X : Then->body()) {
      if (ZeroStores.contains(X))
        continue;
      if (auto *DS = dyn_cast<DeclStmt>(X)) {
        if (!indexDeclarations(DS))
          return Why.Message.empty() ? fail(X->getBeginLoc(), Expected) : false;
        continue;
      }
      if (!staging(X, Stagings))
        return false;
      if (!Stagings.back().Buffer || !isNext(Stagings.back().Buffer))
        return fail(X->getBeginLoc(), "the prefetch must write buffer "
                                      "(i + 1) % 2 of iteration i");
    }
    if (Stagings.size() != 2)
      return fail(If->getThen()->getBeginLoc(), Expected);
    if (!shiftStagings())
      return false;
    const Stmt *Product = S[IfFirst ? 1 : 0];
    const Stmt *Inner = Product;
    if (auto *A = dyn_cast<AttributedStmt>(Inner))
      Inner = A->getSubStmt();
    return productLoop(dyn_cast<ForStmt>(Inner), Product);
  }

  /// The loop's staging copies stage the next iteration's tiles: as copies
  /// of iteration i they are those at counter t - step. Those at the first
  /// counter must be the prologue's.
  bool shiftStagings() {
    const Poly Back =
        Poly::symbol(Counter) - Poly::constant(LoopCountsElements ? G.Tile : 1);
    for (Staging &St : Stagings) {
      St.L = St.L.substitute(Counter, Back);
      for (auto &B : St.Bounds)
        B.first = B.first.substitute(Counter, Back);
      const Staging *First = nullptr;
      for (const Staging &P : PrologueStagings)
        if (P.Array == St.Array)
          First = &P;
      auto AtZero = [](Poly P, const VarDecl *V) {
        return P.substitute(V, Poly());
      };
      bool Same = First && First->Ptr == St.Ptr &&
                  First->BatchStride == St.BatchStride && First->E1 == St.E1 &&
                  First->E2 == St.E2 && First->L == AtZero(St.L, Counter) &&
                  First->Guarded == St.Guarded && First->Fills == St.Fills &&
                  First->Bounds.size() == St.Bounds.size();
      for (size_t I = 0; Same && I < St.Bounds.size(); ++I)
        Same = First->Bounds[I].second == St.Bounds[I].second &&
               First->Bounds[I].first == AtZero(St.Bounds[I].first, Counter);
      if (!Same)
        return fail(First ? First->At : St.At,
                    "the staging copy before the loop must stage the tile "
                    "of '" +
                        St.Array->getName().str() +
                        "' that iteration 0 reads: the loop's copy, one "
                        "iteration back");
    }
    return true;
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
    // (std::min in the condition leaves its temporaries' cleanups around it.)
    auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreImplicit() : nullptr);
    auto *Inc =
        F->getInc() ? dyn_cast<UnaryOperator>(bare(F->getInc())) : nullptr;
    if (!K || !K->hasInit() || !isZero(K->getInit()) || !Cond ||
        (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LAnd) || !Inc ||
        !Inc->isIncrementOp() || !refersTo(Inc->getSubExpr(), K))
      return fail(F->getForLoc(), Expected);
    Ev.addSymbol(K);
    KVar = Poly::symbol(K);
    if (!productBound(Cond, K))
      return false;
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
    if (Prod && !Mul && multiplies(Prod))
      return fail(Prod->getBeginLoc(),
                  "the product is computed in the tiles' 16-bit type before "
                  "it is added (a __half or __nv_bfloat16 '*', or __hmul): "
                  "wgmma multiplies exactly, so the result would change; "
                  "expected each factor converted to float first, "
                  "'__half2float(As[i][k]) * __half2float(Bs[k][j])' (or "
                  "__bfloat162float)");
    if (!Mul || Mul->getOpcode() != BO_Mul)
      return fail(S ? S->getBeginLoc() : F->getForLoc(), Expected);
    Factors = {Mul->getLHS(), Mul->getRHS()};
    return true;
  }

  /// The product loop's condition: `k < TILE`, or one that also stops at
  /// K's end (ProductStopsAtK): `k < min(TILE, K - k0)` (either order;
  /// `min` of the system headers, a conditional, or a local set to one of
  /// these) or `k < TILE && k0 + k < K`, k0 the iteration's first K index.
  bool productBound(const BinaryOperator *Cond, const VarDecl *K) {
    auto readsK = [&](const Expr *E) {
      auto *R = dyn_cast<DeclRefExpr>(bare(E));
      return R && R->getDecl() == K;
    };
    auto tileBound = [&](const BinaryOperator *B) {
      std::optional<Poly> P =
          B && B->getOpcode() == BO_LT && readsK(B->getLHS())
              ? Ev.eval(B->getRHS())
              : std::nullopt;
      return P && P->constantValue() == std::optional<int64_t>(G.Tile);
    };
    // `k0 + k < K`, or `k < K - k0`.
    auto endBound = [&](const BinaryOperator *B) {
      std::optional<Poly> L =
          B && B->getOpcode() == BO_LT ? exactValue(B->getLHS()) : std::nullopt;
      std::optional<Poly> R = L ? exactValue(B->getRHS()) : std::nullopt;
      return R && *R - *L == Poly::symbol(G.K.Sym) - KOffset - KVar;
    };
    if (Cond->getOpcode() == BO_LAnd) {
      auto *L = dyn_cast<BinaryOperator>(bare(Cond->getLHS()));
      auto *R = dyn_cast<BinaryOperator>(bare(Cond->getRHS()));
      ProductStopsAtK =
          (tileBound(L) && endBound(R)) || (tileBound(R) && endBound(L));
    } else if (readsK(Cond->getLHS())) {
      if (tileBound(Cond))
        return true;
      ProductStopsAtK = stopsAtK(Cond->getRHS());
    }
    if (!ProductStopsAtK)
      return fail(
          Cond->getOpcode() == BO_LAnd ? Cond->getBeginLoc()
                                       : Cond->getRHS()->getBeginLoc(),
          "the product loop must run over the " + std::to_string(G.Tile) +
              " elements of K that one iteration stages, 'k < " +
              std::to_string(G.Tile) + "', or stop at K's end: 'k < min(" +
              std::to_string(G.Tile) + ", " + G.K.Spelled + " - " +
              Counter->getName().str() +
              (LoopCountsElements ? "" : " * " + std::to_string(G.Tile)) +
              ")'");
    return true;
  }

  /// The value of the integer `E` where comparing it compares that value:
  /// `E` signed, or without a subtraction (an unsigned difference wraps).
  std::optional<Poly> exactValue(const Expr *E) {
    std::optional<Poly> P = Ev.eval(E);
    if (!P || E->getType()->isSignedIntegerType())
      return P;
    for (const auto &Term : P->terms())
      if (Term.second < 0)
        return std::nullopt;
    return P;
  }

  /// Whether `E` is min(TILE, K - k0) (either order), k0 the iteration's
  /// first K index: a call of `min` (or std::min) of the system headers, a
  /// conditional `a < b ? a : b` (or `a > b ? b : a`), or a local of the
  /// loop body set to one of these.
  bool stopsAtK(const Expr *E) {
    E = bare(E);
    if (auto *R = dyn_cast<DeclRefExpr>(E))
      return llvm::is_contained(KLimits, R->getDecl());
    const Expr *X = nullptr, *Y = nullptr;
    if (auto *C = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *F = C->getDirectCallee();
      const FunctionDecl *Def = F ? F->getDefinition() : nullptr;
      const SourceManager &SM = Ctx.getSourceManager();
      if (!F || C->getNumArgs() != 2 || F->getName() != "min" ||
          !fromSystemHeader(F) ||
          (Def && !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()))))
        return false;
      X = C->getArg(0);
      Y = C->getArg(1);
    } else if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      auto *T = dyn_cast<BinaryOperator>(bare(C->getCond()));
      if (!T || !T->isRelationalOp())
        return false;
      const bool Less = T->getOpcode() == BO_LT || T->getOpcode() == BO_LE;
      X = T->getLHS();
      Y = T->getRHS();
      std::optional<Poly> PT = Ev.eval(C->getTrueExpr()),
                          PF = Ev.eval(C->getFalseExpr()), PX = exactValue(X),
                          PY = exactValue(Y);
      if (!PT || !PF || !PX || !PY ||
          !(Less ? (*PT == *PX && *PF == *PY) : (*PT == *PY && *PF == *PX)))
        return false;
    } else {
      return false;
    }
    std::optional<Poly> PX = Ev.eval(X), PY = Ev.eval(Y);
    const Poly Rest = Poly::symbol(G.K.Sym) - KOffset;
    const Poly Tile = Poly::constant(G.Tile);
    return PX && PY &&
           ((*PX == Tile && *PY == Rest) || (*PX == Rest && *PY == Tile));
  }

  /// `if (row >= M || col >= N) return;` (or `if (!(row < M)) return;`, one
  /// such `if` per bound) before the store: the statements after it run
  /// where its negation holds, whose pairs are appended to `Bounds` as a
  /// bounds check of the store would be. Nullopt where `S` is no such `if`;
  /// false after a failure.
  std::optional<bool> returnCheck(const Stmt *S, Guard &Bounds) {
    auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || !returnsNothing(If->getThen()))
      return std::nullopt;
    const Expr *Kept = keptCondition(If);
    if (!Kept)
      return bool(fail(If->getBeginLoc(),
                       "expected a return of the threads outside C before "
                       "the store, 'if (row >= M || col >= N) return;'"));
    return guard(Kept, Bounds);
  }

  /// `if (row < M && col < N) C[row * ldc + col] = value;`, or the store
  /// alone in a kernel whose staging copies are not bounds-checked either.
  bool epilogue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected one store after the loop: 'if (row < M && col < N) "
        "C[row * N + col] = acc;' (or alpha * acc, or alpha * acc + beta * "
        "C[row * N + col]), after integer index declarations, float "
        "locals set once ('float v = alpha * acc;') and updates of the "
        "accumulator ('acc += bias[col];')";
    Guard Bounds;
    const Expr *Cond = nullptr;
    // Index variables declared after the loop (`int c = ...;`), bound to
    // their values; float locals, read as their initializers; updates of
    // the accumulator (`acc += bias[col];`), read where it is used; returns
    // of the threads outside C (returnCheck).
    for (;;) {
      if (std::optional<bool> Returns = Stmts.size() > 1
                                            ? returnCheck(Stmts.front(), Bounds)
                                            : std::nullopt) {
        if (!*Returns)
          return false;
        if (!Cond)
          Cond = cast<IfStmt>(Stmts.front())->getCond();
        Stmts = Stmts.drop_front();
        continue;
      }
      if (Stmts.size() > 1 && !isa<DeclStmt>(Stmts.front()) &&
          (accumulatorUpdate(Stmts.front()) || localUpdate(Stmts.front()))) {
        Stmts = Stmts.drop_front();
        continue;
      }
      if (Stmts.empty() || !isa<DeclStmt>(Stmts.front()))
        break;
      // A local updated on beta in the next statement (betaUpdatedLocal).
      if (auto *DS = cast<DeclStmt>(Stmts.front());
          DS->isSingleDecl() && Stmts.size() > 2 &&
          betaUpdatedLocal(dyn_cast<VarDecl>(DS->getSingleDecl()), Stmts[1])) {
        Stmts = Stmts.drop_front(2);
        continue;
      }
      for (const Decl *D : cast<DeclStmt>(Stmts.front())->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (epilogueLocal(VD))
          continue;
        if (!VD || !VD->getType()->isIntegerType() || !VD->hasInit())
          return fail(D->getLocation(), Expected);
        if (!unchangedIndex(VD, Kernel->getBody()) ||
            !bindIndex(VD, /*Opaque=*/false))
          return false;
      }
      Stmts = Stmts.drop_front();
    }
    const Stmt *Store = Stmts.size() == 1 ? Stmts[0] : nullptr;
    // Where there is no one store, the first statement that is none.
    StoreAt = Store            ? Store->getBeginLoc()
              : !Stmts.empty() ? Stmts.front()->getBeginLoc()
                               : Loop->getEndLoc();
    StoreGuarded = Cond;
    std::optional<BetaStores> Beta = betaStores(Store);
    if (auto *If = dyn_cast_or_null<IfStmt>(Store); If && !Beta) {
      const Stmt *Then =
          If->getElse() ? nullptr : afterLocals(If->getThen(), Expected);
      if (!Then || !single(Then))
        return If->getElse() || Then ? fail(StoreAt, Expected) : false;
      if (!Cond)
        Cond = If->getCond();
      if (!guard(If->getCond(), Bounds))
        return false;
      StoreGuarded = true;
      Store = single(Then);
      Beta = betaStores(Store);
    }
    const Expr *L = Beta ? Beta->L : nullptr, *R = nullptr;
    // `C[i] += v`: C's old value is the sum's first term (a float C, no
    // activation; checked below).
    auto *AddTo = dyn_cast_or_null<CompoundAssignOperator>(
        dyn_cast_or_null<Expr>(Store) ? cast<Expr>(Store)->IgnoreImplicit()
                                      : nullptr);
    if (Beta) {
      AddTo = nullptr;
    } else if (AddTo && AddTo->getOpcode() == BO_AddAssign) {
      L = AddTo->getLHS();
      R = AddTo->getRHS();
    } else if (atomicAdd(Store, L, R)) {
      AtomicStore = true;
    } else if (AddTo || !Store || !assignment(Store, L, R)) {
      return fail(Store ? Store->getBeginLoc() : StoreAt, Expected);
    }
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
    std::optional<Poly> LC = offset(Out->Index, "the store's index");
    if (LC)
      LC = *LC + Out->Offset;
    if (!LC || !(Beta ? betaSelect(Beta->Cond, Beta->Then, Beta->Else, *LC)
                      : value(R, *LC)))
      return false;
    if (AddTo || AtomicStore) {
      if (!G.C->getType()->getPointeeType()->isSpecificBuiltinType(
              BuiltinType::Float) ||
          G.Act != Activation::None || G.Terms.find('c') != std::string::npos ||
          !G.BetaZeroTerms.empty())
        return fail(
            Store->getBeginLoc(),
            std::string(AtomicStore ? "'atomicAdd(&C[i], v)'" : "'C[i] += v'") +
                " is lifted for a float C and a value without an "
                "activation or C's old value; expected 'C[i] = v + "
                "C[i]' written out, converted to C's type");
      G.Terms = "c" + G.Terms;
    }
    LC = unbatched(*LC, G.CBatchStride, L);
    if (!LC)
      return false;
    // The store's bounds name the rows and columns of C: M and N.
    Bounds = tightest(Bounds);
    if (StoreGuarded && Bounds.size() != 2)
      return fail(Cond->getBeginLoc(), Expected);
    const Poly TX = Poly::symbol(threadIdxSymbol('x')),
               TY = Poly::symbol(threadIdxSymbol('y'));
    const Poly T = Poly::constant(G.Tile);
    for (char Axis : {'y', 'x'}) {
      // Rows of C walk blockIdx.<Axis>, columns the other block axis.
      const Poly BR = Poly::symbol(blockIdxSymbol(Axis)),
                 BC = Poly::symbol(blockIdxSymbol(Axis == 'y' ? 'x' : 'y'));
      for (int Order = 0; Order < 2 && !G.Ldc; ++Order) {
        if (StoreGuarded) {
          const auto &RowB = Bounds[Order], &ColB = Bounds[1 - Order];
          const Poly Rho = RowB.first - T * BR, Gamma = ColB.first - T * BC;
          if (((Rho == TY && Gamma == TX) || (Rho == TX && Gamma == TY)) &&
              storeIndex(*LC, RowB.first, ColB.first)) {
            G.M = RowB.second;
            G.N = ColB.second;
          }
        } else {
          storeIndex(*LC, T * BR + (Order ? TX : TY),
                     T * BC + (Order ? TY : TX));
        }
      }
      if (G.Ldc) {
        RowAxis = Axis;
        break;
      }
    }
    if (!G.Ldc)
      return fail(Out->Index->getBeginLoc(),
                  "the store must write C[row * ldc + col] with row = "
                  "blockIdx.y * TILE + threadIdx.y and col = blockIdx.x * "
                  "TILE + threadIdx.x (or the two thread coordinates "
                  "swapped, or the two block coordinates), checked against "
                  "'row < M && col < N' where the staging copies are "
                  "checked");
    return true;
  }

  /// Whether the store's index is `RowP * ldc + ColP` for an integer
  /// parameter ldc; sets Row, Col and G.Ldc.
  bool storeIndex(const Poly &LC, const Poly &RowP, const Poly &ColP) {
    for (const Extent &Ld : extents())
      if (LC == RowP * Poly::symbol(Ld.Sym) + ColP) {
        G.Ldc = Ld;
        Row = RowP;
        Col = ColP;
        return true;
      }
    return false;
  }

  /// Proves which staged matrix is A and which is B, and their layouts.
  bool operands() {
    std::optional<Access> X = tileAccess(unconverted(Factors[0]));
    std::optional<Access> Y =
        X ? tileAccess(unconverted(Factors[1])) : std::nullopt;
    if (!Y && !Why.Message.empty())
      return false;
    for (const std::optional<Access> *F : {&X, &Y})
      if (*F && (*F)->Buffer && !isCurrent((*F)->Buffer))
        return fail((*F)->Buffer->getBeginLoc(),
                    "the product must read buffer i % 2 of iteration i, "
                    "the one staged before it");
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
    const Poly *P1 = &R.P1, *P2 = &R.P2;
    if (!St)
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
    const Extent MNBound = IsA ? G.M : G.N;
    Guard Expected = {{MN, MNBound}, {KK, G.K}};
    Guard Got;
    for (const auto &[X, P] : St->Bounds)
      Got.push_back({staged(X), P});
    auto sameGuard = [&] {
      // A loop of K / TILE whole tiles reads inside K without a check.
      if (G.KFloorTile && Got.size() == 1)
        return Got[0] == Expected[0];
      if (Got.size() != 2)
        return false;
      return (Got[0] == Expected[0] && Got[1] == Expected[1]) ||
             (Got[0] == Expected[1] && Got[1] == Expected[0]);
    };
    if (St->Guarded && !sameGuard())
      return false;
    const Poly L = staged(St->L);
    for (const Extent &Ld : extents()) {
      const Poly LdP = Poly::symbol(Ld.Sym);
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

  Poly KVar;
  bool StoreGuarded = false;
  bool AtomicStore = false; ///< the store is `atomicAdd(&C[i], v)`
  char RowAxis = 'y'; ///< the block axis that walks the rows of C
  SourceLocation StoreAt;
  std::vector<Staging> Stagings, PrologueStagings;
  /// The checked copies a zero store before them fills (noteZeroFills),
  /// and those zero stores.
  llvm::SmallPtrSet<const Stmt *, 4> ZeroFilled, ZeroStores;
  std::vector<const VarDecl *> Buffered; ///< double-buffered tiles
  DynamicTiles Dynamic;                  ///< the tiles in dynamic shared memory
  bool PrologueBarrier = false;
  std::array<const Expr *, 2> Factors{};
  /// The last statement of the loop body, toggling a buffer variable
  /// (toggledBuffer).
  const Stmt *Toggle = nullptr;
  /// The product loop stops at K's end (productBound).
  bool ProductStopsAtK = false;
  /// A copy without an `else` leaves elements past K's end that the
  /// product reads where K is no multiple of TILE (guardsAgree).
  bool StaleK = false;
  std::vector<const Decl *> KLimits; ///< locals set to min(TILE, K - k0)
};

} // namespace

std::optional<LiftedGemm> liftSharedGemm(const FunctionDecl *Kernel,
                                         const ForStmt *Loop, ASTContext &Ctx,
                                         LiftFailure &Why,
                                         const NamedExtents *Named, bool Tf32) {
  return Lifter(Kernel, Loop, Ctx, Why, Named, Tf32).run();
}

} // namespace tawa
