//===- BlockedLift.cpp - lifting a register-blocked GEMM loop -------------===//
#include "tawa/BlockedLift.h"
#include "CudaPipeline.h"
#include "DynamicTiles.h"
#include "GemmLoopReader.h"
#include "PeeledIteration.h"
#include "ZeroFills.h"
#include "tawa/Plan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Regex.h"

#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace tawa {
static bool stagesInLoops(const ForStmt *Loop, bool Operators);

namespace {

/// What one copy staged into an element of a __shared__ tile: the matrix
/// element, its index with the pointer's offset folded in and the batch
/// term taken out, and the bounds check it was read under.
struct StagedElement {
  const ParmVarDecl *Ptr = nullptr;
  Poly L;
  Guard Bounds;
  bool Guarded = false;
  /// A copy of Width consecutive elements under one bounds check (a
  /// zero-filling cp.async): this element's place in it, 0 .. Width - 1.
  int64_t Lane = 0, Width = 1;
  std::string BatchStride;
  SourceLocation At;
  /// In an implicit GEMM (BlockedLifter::Im2col), the copy's bounds checks
  /// as conditions `0 <= X` (a gather's `ih >= 0` is no `x < extent`).
  Conditions Checks;
};

/// An accumulator element a thread put into a __shared__ array of results
/// after the loop: the thread, the entry of its sums (the products the
/// element gained) and the part of the epilogue, between barriers, that
/// wrote it.
struct HeldResult {
  int32_t Thread = -1, SumId = -1, Part = -1;
  /// Written by a warp's fragment store, so by any of its lanes.
  bool Collective = false;
  int64_t Seq = 0; ///< when, among the writes and reads of results
  SourceLocation At; ///< the store
  /// The scale of the fragment stored (FragVal::Scale): the element holds
  /// Scale times the sum.
  const VarDecl *Scale = nullptr;
  /// The bounds checks the store stands under: where one fails, the
  /// element is not written, so a store of C that reads it must then be
  /// skipped too (resolveHeld).
  Guard Bounds;
};

/// The variables of unrolled loops and their values in one iteration.
using LoopBindings = std::vector<std::pair<const VarDecl *, int64_t>>;

/// The conditions of the `if`s around a statement of the epilogue that a
/// warp barrier splits, outermost first.
using BranchConditions = std::vector<const Expr *>;

/// A read of an element of an array of results: the tile and element, the
/// part of the epilogue, the reading thread, when, and where.
struct HeldRef {
  int32_t Tile = -1;
  int64_t Index = 0;
  int32_t Part = 0, Reader = 0;
  int64_t Seq = 0;
  SourceLocation At;
};

/// A __shared__ tile: its extents (Rows 1 for one dimension) and, for one
/// iteration, the StagedElement each element holds (-1: none). A float
/// array the loop does not use is one of results staged after the loop
/// (`wmma::store_matrix_sync(Cs + offset, acc, 16, ...)` or `Cs[i][j] =
/// acc[k]`, read back after a barrier); Held lists what each element is
/// written with, in the order of the writes (a scratch reused for each
/// fragment of a warp is written several times).
///
/// A multi-buffered tile `X[S][R][C]` (Buffers S, 2 to 8) is indexed as
/// one array of S R rows. In the loop, buffer 0 stands for buffer i % S,
/// which iteration i reads, and buffer 1 for (i + D) % S, which it stages
/// for iteration i + D (D, BlockedLifter::Ahead, the number of tiles the
/// code before the loop stages; 1 where S is 2: GemmLoopReader::isCurrent,
/// isNext). Where the loop stages later iterations' tiles
/// (BlockedLifter::Rotated), Slot holds what iteration i reads, First what
/// the code before the loop staged (buffer b the tile of iteration b), and
/// FirstRead, LastRead, FirstWrite and LastWrite the parts of the loop
/// body, between barriers, that read and write the tile.
struct SharedTile {
  const VarDecl *Var = nullptr;
  int64_t Rows = 1, Cols = 0, Buffers = 1;
  std::vector<int32_t> Slot, First;
  /// The round (BlockedLifter::Rounds) whose staging wrote each slot.
  std::vector<int32_t> SlotRound;
  bool Results = false;
  /// A ring in dynamic shared memory (ringStride): a pointer indexed
  /// `tile[b * Cols + i]`, Buffers buffers of Cols elements.
  bool DynamicRing = false;
  std::vector<std::vector<HeldResult>> Held;
  size_t LastRead = 0, FirstWrite = SIZE_MAX, FirstRead = SIZE_MAX,
         LastWrite = 0;
  bool Read = false, Written = false;
  /// The elements of one buffer, and of the whole tile.
  int64_t buffer() const { return Rows * Cols; }
  int64_t size() const { return Buffers * Rows * Cols; }
};

/// A product of two matrix elements, each an index into the staged
/// elements (those of the tiles, and those a fragment loads from global
/// memory).
struct Product {
  int32_t X, Y;
};

/// The value of one element of a thread's local variable (float, bf16 or
/// fp16): unset, zero, its value at the start of the iteration (Carried),
/// an element of a __shared__ tile (Staged), the value at the start of
/// the iteration plus products (Sum), or an element of a matrix read into
/// a register to be staged into a tile (Loaded).
struct FVal {
  enum Kind : uint8_t { Unset, Zero, Carried, Staged, Sum, Loaded } K = Unset;
  int32_t Tile = -1; ///< Staged: the tile
  /// Staged: the element (-1 where not yet known); Sum: the location's
  /// index; Loaded: the entry of the thread's Fetched.
  int64_t Index = 0;
  int32_t SumId = -1; ///< Sum: the thread's list of products
  const VarDecl *Var = nullptr; ///< Sum: the location's variable
};

/// One element of a thread's local variable.
struct Location {
  const VarDecl *Var = nullptr;
  int64_t Index = 0;
};

/// What a `wmma::load_matrix_sync` reads: the fragment's elements, rows
/// by columns of its use (A: M x K, B: K x N) row by row, as indices into
/// the staged elements (found by the first lane of a warp only), and what
/// makes two lanes' loads the same load (a tile or a matrix, the offset in
/// elements, the leading dimension and the layout).
struct FragmentLoad {
  const void *Source = nullptr;
  Poly Offset, Ld;
  bool RowMajor = true;
  std::vector<int32_t> Elems;
  bool same(const FragmentLoad &O) const {
    return Source == O.Source && Offset == O.Offset && Ld == O.Ld &&
           RowMajor == O.RowMajor;
  }
};

/// The value of one wmma fragment of a thread: as for FVal, Loaded (an
/// entry of the thread's loads) or Sum (an entry of its fragment sums, the
/// (A load, B load) pairs multiplied into it this iteration).
struct FragVal {
  /// CLoad: C's old values (cFragmentLoad), Id indexing
  /// ThreadState::CLoads.
  enum Kind : uint8_t { Unset, Zero, Loaded, Carried, Sum, CLoad } K = Unset;
  int32_t Id = -1;
  const VarDecl *Var = nullptr; ///< Sum: the location
  int64_t Index = 0;
  /// Sum: the scale its elements were multiplied by after the loop
  /// (fragmentScale), or null.
  const VarDecl *Scale = nullptr;
  /// Sum: where Beta times C's old values (the CLoads entry CTerm) was
  /// added after the loop (fragmentBlend), that entry, and whether that
  /// term was written first; -1 otherwise.
  int32_t CTerm = -1;
  const VarDecl *Beta = nullptr;
  bool CFirst = false;
};

/// `wmma::load_matrix_sync(c, C + offset, ldc, wmma::mem_row_major)` of an
/// accumulator-typed fragment after the loop: where, and under which
/// bounds checks.
struct CFragmentLoad {
  const ParmVarDecl *Ptr = nullptr;
  Poly Offset, Ld;
  Guard Bounds;
};

/// A fragment store of one thread: where, and what it stores.
struct FragmentStore {
  Poly Offset, Ld;
  int32_t SumId = -1;
  const VarDecl *Scale = nullptr; ///< FragVal::Scale of the fragment
  const VarDecl *Beta = nullptr;  ///< FragVal::Beta of the fragment
};

/// A vector temporary of a thread, `float4 v = *reinterpret_cast<const float4
/// *>(&A[i]);`: the Count consecutive elements of Ptr from Offset that it
/// holds, which of its members have been set since (in the epilogue, each
/// a store of C once the vector is stored back), and whether it has been.
struct VectorTemp {
  const ParmVarDecl *Ptr = nullptr;
  Poly Offset;
  int64_t Count = 0;
  std::vector<bool> Set;
  bool StoredBack = false;
  /// The bounds checks around the statements that set its members: the
  /// store back must be under the same ones.
  std::optional<Guard> SetUnder;
  /// Where the vector is read as elements of another type through a pointer
  /// to it (`const __half *h = reinterpret_cast<const __half *>(&v);`, eight
  /// 16-bit elements in a float4): that type, whose elements Count counts;
  /// null where the members are the elements.
  QualType View;
  /// Declared in the epilogue without a value (or made by make_float4):
  /// its members are set to the values it stores into C, where Ptr and
  /// Offset say once the first is set (freshMember).
  bool Fresh = false;
  /// Declared as zeros in the staging copies (`uint4 v = make_uint4(0, 0,
  /// 0, 0);`), not loaded since.
  bool Zero = false;
  /// Loaded under a bounds check and zeros where it fails (`if (ok) v =
  /// *...;` of a vector of zeros, `v = ok ? *... : make_uint4(0, 0, 0,
  /// 0)`): the check, one for every member (StagedElement::Width). Its
  /// members are read only by staging the whole vector.
  std::optional<Guard> Checked;
};

/// A 16-, 8- or 4-byte vector access `*P`, `P[i]` (vectorAccess).
struct VectorRef {
  const Expr *Ptr = nullptr;   ///< the pointer of the vector type
  const Expr *Index = nullptr; ///< in vectors; null for 0
  int64_t Bytes = 0;
  QualType V; ///< the vector type, unqualified
};

/// An asynchronous copy in flight: where it is made; Ahead, how many
/// iterations after the one now followed first reads what it writes (0:
/// this one; D for the copies of a ring's staged buffer, BlockedLifter::
/// Ahead; b + 1 for buffer b staged before the loop, which stands for the
/// iteration before the first); whether an earlier iteration (or the code
/// before the loop) made it, and whether it stands under the prefetch's
/// condition (so that the last iterations do not make it).
struct AsyncCopy {
  SourceLocation At;
  int64_t Ahead = 0;
  bool Carried = false, Conditional = false, InLoop = false;
};

/// One thread of the block, followed through the kernel.
struct ThreadState {
  llvm::DenseMap<const VarDecl *, VectorTemp> Vectors;
  /// Pointers to the elements of a vector temporary (VectorTemp::View).
  llvm::DenseMap<const VarDecl *, const VarDecl *> Views;
  int64_t Id[2] = {0, 0};
  llvm::DenseMap<const VarDecl *, Poly> Ints;
  llvm::DenseMap<const VarDecl *, std::pair<const ParmVarDecl *, Poly>> Ptrs;
  /// Floats: the values now; Before: those before the loop.
  llvm::DenseMap<const VarDecl *, std::vector<FVal>> Floats, Before;
  std::vector<std::vector<Product>> Sums;
  /// The matrix elements read into registers (FVal::Loaded).
  std::vector<StagedElement> Fetched;
  /// The wmma fragments, likewise, and what they hold.
  llvm::DenseMap<const VarDecl *, std::vector<FragVal>> Frags, FragsBefore;
  std::vector<FragmentLoad> Loads;
  std::vector<CFragmentLoad> CLoads;
  std::vector<std::vector<std::pair<int32_t, int32_t>>> FragSums;
  std::vector<FragmentStore> FragStores;
  int64_t WmmaCalls = 0; ///< the warp-collective calls the thread made
  /// The checks `u < X` under which the thread passed an early return of
  /// its own (`if (u >= X) return;` before the loop, in a kernel without
  /// barriers): every store it makes stands under them.
  Guard Kept;
  /// The checks `u < X` of the `if` around the loop (AroundLoop::Guard)
  /// as the thread evaluates them where the loop starts: where one fails,
  /// the thread skips the loop, and every store it makes must then be
  /// skipped too (loopGuardStoresNothing).
  Guard LoopGuard;
  /// The checks of the split `if`s around the epilogue's statements
  /// (branchConditions), in the order the thread met them.
  std::vector<Guard> SplitGuards;
  /// The checks `u < X` that keep the same value in every iteration of the
  /// bounds check around the loads and products of a loop body without
  /// barriers (bodyGuard): where one fails, the thread's accumulators keep
  /// their starting values (bodyGuardStoresNothing).
  Guard BodyGuard;
  /// Asynchronous copies (`__pipeline_memcpy_async`, cp.async) in flight:
  /// the committed groups, oldest first, and those not yet committed.
  std::vector<std::vector<AsyncCopy>> AsyncGroups;
  std::vector<AsyncCopy> AsyncOpen;
  /// Whether the iteration has committed a group under the prefetch's
  /// condition, a commit the last iteration skips.
  bool SkippedCommit = false;
  /// The groups committed through the kernel's cuda::pipeline not yet
  /// waited for by its `consumer_wait()` (the pipeline's head - tail), now
  /// and where the loop starts.
  int64_t PipeUnwaited = 0, PipeAtLoop = 0;
  /// Locals holding the shared-memory address of a tile element
  /// (sharedAddress): the element.
  /// Whether the loop was being followed where each was set (buffer 1 of a
  /// double-buffered tile means another buffer inside the loop).
  llvm::DenseMap<const VarDecl *, std::pair<std::pair<int32_t, int64_t>, bool>>
      SharedAddrs;
  /// Local pointers into a tile, `const T *a = As + (t % S) * C;`, of its
  /// element type (tileView): the element each points to, and whether the
  /// loop was being followed where it was set, as SharedAddrs.
  llvm::DenseMap<const VarDecl *, std::pair<std::pair<int32_t, int64_t>, bool>>
      TileViews;
  /// Local pointers into a tile of a vector of its element type, `const
  /// __half2 *a2 = reinterpret_cast<const __half2 *>(&As[r][0]);`
  /// (vectorViewDeclaration): the element each points to, as TileViews.
  llvm::DenseMap<const VarDecl *, std::pair<std::pair<int32_t, int64_t>, bool>>
      VectorViews;
  /// Locals that choose a zero-filling copy's size by a bounds check
  /// (`int n = ok ? 16 : 0;`, `bool ok = row < M && k < K;`), as their
  /// declarations evaluated it: the check, and the values where it holds
  /// and where it does not (both 1 and 0 for a bool).
  llvm::DenseMap<const VarDecl *, std::tuple<Guard, int64_t, int64_t>> Choices;
  /// Bool locals naming an implicit GEMM's checks (`const bool ok = m < M
  /// && ih >= 0 && ih < H;`), as their declarations evaluated them:
  /// conditions `0 <= X` (GemmLoopReader::conditionsOf).
  llvm::DenseMap<const ValueDecl *, Conditions> NamedChecks;
};

/// A store of C by one thread, and what its value adds.
struct StoreRecord {
  Poly LC;
  Guard Bounds;
  bool Guarded = false;
  /// A store of Width consecutive elements of C under one bounds check (a
  /// vector or a 16-bit pair): this element's place in it.
  int64_t Lane = 0, Width = 1;
  Location From;
  int32_t SumId = -1; ///< the products its accumulator gained
  size_t Thread = 0;  ///< the thread that stores
  SourceLocation At;
  Poly Row, Col; ///< set by decompose()
  int64_t R = 0, C = 0;
  /// The element of an array of results read, where the value reads one.
  std::optional<HeldRef> Held;
  /// Made inside the `if` around the loop (AroundLoop::Guard): only the
  /// threads that pass it make the store, whose Bounds hold its checks.
  bool InLoopGuard = false;
};

/// What the part of the kernel being followed may do.
/// Rotated: the body of a loop that stages the next iteration's tiles
/// (BlockedLifter::Rotated).
enum class Phase { Prologue, Stage, Product, Tail, Epilogue, Rotated };

/// The block a lifting attempt assumes, X x Y threads.
struct BlockShape {
  int64_t X, Y;
};

/// The first statement or expression of `Branch` that changes anything
/// but memory through a pointer (C's elements): a variable declared outside
/// the branch (a local, an array such as the accumulators or a __shared__
/// tile, a vector's member), or a call of a `void` function other than
/// wmma::store_matrix_sync; null where there is none. The two branches of
/// a beta choice may only store, so that each leaves the state it started
/// from for the code after it.
const Stmt *branchChange(const Stmt *Branch) {
  llvm::SmallPtrSet<const Decl *, 8> Inside; // declared in the branch
  std::function<void(const Stmt *)> Declared = [&](const Stmt *S) {
    if (!S)
      return;
    if (auto *D = dyn_cast<DeclStmt>(S))
      Inside.insert(D->decl_begin(), D->decl_end());
    for (const Stmt *Child : S->children())
      Declared(Child);
  };
  Declared(Branch);
  auto Local = [&](const Expr *E) {
    // The variable a write lands in, where it is one.
    while (true) {
      E = E->IgnoreParenImpCasts();
      if (auto *M = dyn_cast<MemberExpr>(E)) {
        if (M->isArrow())
          return false; // through a pointer: memory
        E = M->getBase();
      } else if (auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
        if (!A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
          return false; // through a pointer: memory
        E = A->getBase();
      } else if (auto *R = dyn_cast<DeclRefExpr>(E)) {
        return !Inside.contains(R->getDecl());
      } else {
        return !isa<UnaryOperator>(E) ||
               cast<UnaryOperator>(E)->getOpcode() != UO_Deref;
      }
    }
  };
  const Stmt *Found = nullptr;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    const Expr *Target = nullptr;
    if (auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
      Target = B->getLHS();
    else if (auto *U = dyn_cast<UnaryOperator>(S);
             U && U->isIncrementDecrementOp())
      Target = U->getSubExpr();
    else if (auto *O = dyn_cast<CXXOperatorCallExpr>(S);
             O && O->isAssignmentOp())
      Target = O->getArg(0);
    else if (auto *C = dyn_cast<CallExpr>(S);
             C && !isa<CXXOperatorCallExpr>(S) && C->getType()->isVoidType()) {
      auto *F = C->getDirectCallee();
      if (!F || F->getName() != "store_matrix_sync")
        Found = S;
    }
    if (Target && Local(Target))
      Found = S;
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Branch);
  return Found;
}

class BlockedLifter : GemmLoopReader {
public:
  BlockedLifter(const FunctionDecl *Kernel, const ForStmt *Loop,
                ASTContext &Ctx, LiftFailure &Why, BlockShape Block,
                int64_t &Followed, const NamedExtents *Named, bool Tf32)
      : GemmLoopReader(Kernel, Loop, Ctx, Why, Named), Followed(Followed),
        Block(Block) {
    this->Tf32 = Tf32;
    AcceptsWalkers = true;
    AcceptsSplitK = true;
    AcceptsPeeled = true;
    WidenedTiles = true;
    ReadsLoopGuard = true;
  }

  /// How far an attempt got: 0 nothing, 1 the staging, 2 the product, 3
  /// the stores, 4 one thread's stores inside the window of its block.
  int Reached = 0;
  /// Whether the attempt got as far as following the threads (a failure
  /// before that does not depend on the block).
  bool Following = false;
  /// Whether a tile `X[2][N]` is read as two one-dimensional buffers of N
  /// (double buffering) rather than two rows.
  bool FlatBuffers = false;
  /// Whether it stopped at the limit of statements followed.
  bool TooLong = false;
  /// Whether A is read as an implicit GEMM's im2col matrix (a convolution
  /// whose staging copies gather through '/' and '%': quotients and
  /// remainders are DivModAtom symbols, the K loop may run to a product of
  /// parameters, `R * S * C`, and A's copies are proved elements of
  /// tawa::Im2col, GemmLoopReader::im2colElement).
  bool Im2col = false;

  /// With `Quick`, follows every thread through the staging and the last
  /// thread alone through the rest, to reject a wrong block fast; else
  /// follows the whole block and proves what it computes.
  std::optional<LiftedGemm> run(bool Quick) {
    QuickRun = Quick;
    Ev.DivMod = ProductK = Im2col;
    const std::optional<AroundLoop> Around = aroundLoop();
    if (!Around)
      return std::nullopt;
    llvm::ArrayRef<Stmt *> Before = Around->Before;
    llvm::ArrayRef<Stmt *> After = Around->After;
    LoopGuardIf = Around->Guard;
    Ev.BlockDim[0] = Block.X;
    Ev.BlockDim[1] = Block.Y;
    Ev.BlockDim[2] = 1;
    if (!tapNest())
      return std::nullopt;
    if (!TapDecls.empty()) {
      TapDecls.insert(TapDecls.begin(), Before.begin(), Before.end());
      Before = TapDecls;
    }
    if (!tileLoopHeader() || !tapColumns() || !sharedTiles(Before))
      return std::nullopt;
    // The loop's counter only grows from 0: a dividend of a decode.
    if (Im2col)
      Ev.addSymbol(Counter);
    Rotated = rotatedForm(Before);
    if (Nest && Rotated)
      return fail(Nest->getForLoc(),
                  "loops over the filter taps are lifted where each "
                  "iteration of the channel tile's loop stages the tiles it "
                  "multiplies: tiles staged an iteration ahead are not");
    if (PeeledLast && !peeledIteration(After))
      return std::nullopt;
    Epilogue = After;
    if (!(Rotated ? rotatedSegments(Before) : segments()) ||
        !peeledFlipsToggle())
      return std::nullopt;
    startThreads();
    if (!(Rotated ? rotatedLoop(Before, Quick) : plainLoop(Before, Quick)))
      return std::nullopt;
    Reached = 2;
    if (!epilogue(Quick) || (!Quick && !resolveHeld()))
      return std::nullopt;
    Reached = 3;
    if (Stores.empty())
      return fail(Loop->getEndLoc(), "expected the stores of the "
                                     "accumulators to C after the loop");
    for (StoreRecord &S : Stores)
      if (!decompose(S))
        return std::nullopt;
    if (!earlyReturnsStoreNothing() || !loopGuardStoresNothing() ||
        !bodyGuardStoresNothing())
      return std::nullopt;
    Reached = 4;
    if (Quick)
      return G;
    if (!sameWarpCalls() || !covered() || !products() ||
        !epilogueReadsApart() || !guardsAgree() || !elementTypes() ||
        !splitKAgrees(!PlainStore, Stores.front().At) ||
        !batchAgrees(G, Stores.front().At) || !pointersFixed(After) ||
        !unchangedInts())
      return std::nullopt;
    launches();
    return G;
  }

private:
  //===--- an implicit GEMM's K loop as loops over the filter taps --------===//

  /// Reads `for (int r = 0; r < R; ++r) for (int s = 0; s < S; ++s) for
  /// (int c0 = 0; c0 < C; c0 += TILE)`, or one loop `for (int rs = 0; rs <
  /// R * S; ++rs)` around the channel tile's, each body declarations and
  /// the next loop (GemmLoopReader::TapLoops), where A is read as an
  /// im2col matrix. The channel tile's loop is then followed as the K loop
  /// (Loop), and the declarations as part of the code before it
  /// (TapDecls), with the taps' variables symbols: one iteration (tap, c0)
  /// stands for all of them. True, changing nothing, for any other loop.
  bool tapNest() {
    const char *Expected =
        "expected the loops over the filter taps and the channels 'for (int "
        "r = 0; r < R; ++r) for (int s = 0; s < S; ++s) for (int c0 = 0; c0 < "
        "C; c0 += TILE)' (or one loop over the R * S taps, 'for (int rs = 0; "
        "rs < R * S; ++rs)'), each body declarations and the next loop";
    std::optional<CountingLoop> Outer =
        Im2col ? countingLoop(Loop, 1) : std::nullopt;
    // The channel tile walked before the taps.
    if (const ForStmt *F = Im2col && !Outer && countingLoop(Loop, 0)
                               ? loopAfterDecls(Loop->getBody())
                               : nullptr;
        F && countingLoop(F, 1))
      return fail(F->getForLoc(),
                  "loops over the filter taps inside the channel tile's loop "
                  "are not lifted where the tiles are staged in loops: walk "
                  "the taps outside, 'for (int rs = 0; rs < R * S; ++rs) for "
                  "(int c0 = 0; c0 < C; c0 += TILE)'");
    const ForStmt *Second = Outer ? loopAfterDecls(Loop->getBody()) : nullptr;
    if (!Second)
      return true;
    std::optional<CountingLoop> Inner = countingLoop(Second, 1);
    const ForStmt *Channels =
        Inner ? loopAfterDecls(Second->getBody()) : Second;
    if (!Channels || !countingLoop(Channels, 0))
      return Inner ? fail(Second->getForLoc(), Expected) : true;
    // One element staged per thread of TILE x TILE blocks is the
    // convolution front end's form (ConvLift.cpp), which reads it without
    // following each thread.
    if (!stagesInLoops(Channels, /*Operators=*/true))
      return fail(Channels->getForLoc(),
                  "expected the loops over the filter taps to stage their "
                  "tiles in loops over the tiles' elements, 'for (int i = "
                  "tid; i < BM * BK; i += blockDim.x)'");
    nextLoop(Loop->getBody(), Expected);
    Ev.addSymbol(Outer->Var);
    Taps = {Poly::symbol(Outer->Var), Outer->Bound, Poly(), Poly()};
    if (Inner) {
      nextLoop(Second->getBody(), Expected);
      Ev.addSymbol(Inner->Var);
      Taps.S = Poly::symbol(Inner->Var);
      Taps.SBound = Inner->Bound;
    }
    for (const auto &[DS, Scope] : OuterDecls) {
      for (const Decl *D : DS->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !VD->hasInit() ||
            !(VD->getType()->isIntegerType() ||
              VD->getType()->isBooleanType()) ||
            isModified(VD, Scope))
          return fail(D->getLocation(),
                      "expected in the loops over the taps only index "
                      "declarations (the tap's row and column, the input's "
                      "row and column), each never changed");
      }
      TapDecls.push_back(const_cast<DeclStmt *>(DS));
    }
    Nest = Loop;
    Loop = Channels;
    return true;
  }

  /// After tileLoopHeader has read the channel tile's loop of a tap nest
  /// (K its bound C, KOffset c0): K becomes R * S * C, the im2col matrix's
  /// columns, and KOffset tap * C + c0, the column of the iteration's first
  /// element; the column's bounds check stays the channel's, `c0 + j < C`
  /// (ChannelK, ChannelOffset). The loops visit every tap and channel
  /// once, as the tiled form's flattened loop over R * S * C does, in
  /// another order: the sums are the same up to the order of their
  /// additions, which the tiled kernel chooses anyway.
  bool tapColumns() {
    if (!Nest)
      return true;
    if (!LoopCountsElements || !Walkers.empty() || PeeledLast || G.KFloorTile)
      return fail(Loop->getForLoc(),
                  "expected the channel tile's loop 'for (int c0 = 0; c0 < "
                  "C; c0 += TILE)' inside the loops over the taps, C an int "
                  "parameter or a named constant");
    ChannelK = G.K;
    ChannelOffset = KOffset;
    TapChannels = extentPoly(G.K);
    const Poly TapCount =
        Taps.S == Poly() ? Taps.RBound : Taps.RBound * Taps.SBound;
    const Poly Columns = TapCount * TapChannels;
    G.K = namedExtent(text(Columns), Columns, Loop->getForLoc());
    KOffset = tapIndex() * TapChannels + ChannelOffset;
    return true;
  }

  /// For a tile loop counted from 1, takes the last iteration's statements
  /// off the front of `After` (PeeledIteration.h). The loop must stage the
  /// next iteration's tiles: its first iteration multiplies the tiles the
  /// code before it staged.
  bool peeledIteration(llvm::ArrayRef<Stmt *> &After) {
    if (!Rotated)
      return fail(Loop->getForLoc(),
                  "a tile loop counted from 1 must multiply in iteration t "
                  "the tiles staged in iteration t - 1 (tile 0 by the code "
                  "before the loop) and stage tile t for the next");
    PeelReading R;
    R.IsBound = [&](const Expr *E) { return isLoopBound(E); };
    R.ParityIfEven = [&](const Expr *E) { return parityIfEven(E); };
    R.FlipOf = [](const Stmt *S) { return flippedVariable(S); };
    PeelFailure Why;
    std::optional<PeeledStatements> P =
        tawa::peeledIteration(Loop, Counter, After, R, Ctx, Why);
    if (!P)
      return fail(Why.Loc, Why.Message);
    After = After.drop_front(P->Count);
    EvenTileCount = P->EvenBound;
    PeeledFlips = P->Flips;
    return true;
  }

  /// The flips the last iteration after the loop leaves out are the body's
  /// toggles of buffer indices (toggledBuffers).
  bool peeledFlipsToggle() {
    for (const Stmt *S : PeeledFlips)
      if (!Toggles.contains(S))
        return fail(S->getBeginLoc(),
                    "expected '" + flippedVariable(S)->getName().str() +
                        "', read after a tile loop counted from 1, to be a "
                        "buffer index the loop flips at the end of its body "
                        "and changes nowhere else");
    return true;
  }

  /// The value in the last iteration, where the tile count is even, of a
  /// parity `(t + c) & 1` of the counter (iterationParity), or of a
  /// variable the body sets to one and never changes.
  std::optional<int64_t> parityIfEven(const Expr *E) const {
    if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
      if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
          VD && VD->isLocalVarDecl() && VD->getInit() &&
          mentions(Loop->getBody(), VD) && !isModified(VD, Loop->getBody()))
        E = VD->getInit();
    // Iteration i = tiles - 1, odd where tiles is even: (i + c) % 2 is 1
    // for an even c.
    std::optional<bool> Odd = iterationParity(E);
    return Odd ? std::optional<int64_t>(*Odd ? 0 : 1) : std::nullopt;
  }

  /// The code before the loop, and the loop body of the staging copies, a
  /// barrier, the product and a barrier: every thread through the staging,
  /// then (all or, with `Quick`, the last) through the rest.
  bool plainLoop(llvm::ArrayRef<Stmt *> Before, bool Quick) {
    if (!forThreads(Before, Phase::Prologue, false) || !enterLoop())
      return false;
    InLoopBody = true;
    if (!Rounds.empty()) {
      const bool Followed = coarsenedRounds(Quick);
      InLoopBody = false;
      return Followed;
    }
    const bool Staged = forThreads(Seg[0], Phase::Stage, false);
    if (Staged)
      Reached = 1;
    const bool Followed = Staged && forThreads(Seg[1], Phase::Product, Quick) &&
                          forThreads(Seg[2], Phase::Tail, Quick) &&
                          pipelineRepeats(Quick) && pipelineWaitsDynamic();
    InLoopBody = false;
    return Followed;
  }

  /// The rounds of a coarsened loop body (coarsenedSegments) in order, each
  /// part followed with its inner loops' variables bound: every thread
  /// through a round's staging, then (all or, with `Quick`, the last)
  /// through its product; then the part after the last barrier.
  bool coarsenedRounds(bool Quick) {
    bool Ok = true;
    for (size_t R = 0; Ok && R < Rounds.size(); ++R) {
      CurRound = int32_t(R);
      EpilogueBindings = &Rounds[R].StageBound;
      Ok = forThreads(Rounds[R].Stage, Phase::Stage, false);
      if (Ok && R == 0)
        Reached = 1;
      EpilogueBindings = &Rounds[R].ProductBound;
      Ok = Ok && forThreads(Rounds[R].Product, Phase::Product, Quick);
    }
    EpilogueBindings = &RoundTailBound;
    Ok = Ok && forThreads(RoundTail, Phase::Tail, Quick);
    EpilogueBindings = nullptr;
    CurRound = 0;
    return Ok && pipelineRepeats(Quick) && pipelineWaitsDynamic();
  }

  //===--- loops that stage the next iteration's tiles --------------------===//
  //
  // The code before the loop stages the first tiles (into buffer 0 of a
  // double-buffered tile), then meets at a barrier; iteration i multiplies
  // the tiles it reads and stages those of iteration i + 1, directly or
  // through registers it loaded earlier in the iteration, into the other
  // buffer or, past a barrier after the product, into the same one; the body
  // ends with a barrier. The copies that iteration i makes, read at counter
  // t, are iteration (i + 1)'s at counter t + step: taken back a step, they
  // are what the kernel with the copies at the top of the body (the plain
  // form) stages, and those at t = 0 must be what the code before the loop
  // stages. A prefetch under `if (<the loop's condition one step on>)` is
  // skipped only in the last iteration, whose copies no product reads.
  // The threads are followed twice through the body: all of them to record
  // the copies, then (all or the last) to read the tiles.

  /// Whether the loop stages the next iteration's tiles: a tile is double-
  /// buffered, or the code before the loop writes one.
  bool rotatedForm(llvm::ArrayRef<Stmt *> Before) const {
    for (const SharedTile &T : Tiles) {
      if (T.Results)
        continue;
      if (T.Buffers > 1)
        return true;
      for (const Stmt *S : Before)
        if (!isa<DeclStmt>(S) && mentions(S, T.Var))
          return true;
    }
    return false;
  }

  /// The loop body's top-level statements, split at its barriers, the last
  /// of them; the code before the loop split at its one barrier.
  bool rotatedSegments(llvm::ArrayRef<Stmt *> Before) {
    auto Barrier = llvm::find_if(Before, [](Stmt *S) { return isBarrier(S); });
    auto Second = Barrier == Before.end()
                      ? Barrier
                      : std::find_if(Barrier + 1, Before.end(),
                                     [](Stmt *S) { return isBarrier(S); });
    // Without a barrier before the loop, the loop's first one orders the
    // first tiles before their reads (firstReadsOrdered).
    if (Barrier != Before.end() && Second != Before.end())
      return fail((*Second)->getBeginLoc(),
                  "expected the first tiles staged before the loop, then "
                  "one '__syncthreads();' (or none)");
    PrologueSplit = size_t(Barrier - Before.begin());
    PrologueBarrier = Barrier != Before.end();
    auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
    const char *Expected =
        "expected a '__syncthreads();' in the loop body of a kernel that "
        "stages the next iteration's tiles, at its end or between the "
        "copies of the next tiles and the product that reads them";
    if (!Body || llvm::none_of(Body->body(), isBarrier))
      return fail(Body ? Body->getEndLoc() : Loop->getForLoc(), Expected);
    if (!Walkers.empty())
      return fail(Loop->getForLoc(),
                  "a kernel that stages the next iteration's tiles must "
                  "count its loop from 0");
    if (!toggledBuffers(Before, Body))
      return false;
    RotSeg.assign(1, {});
    for (Stmt *S : Body->body()) {
      if (Toggles.contains(S))
        continue;
      if (isBarrier(S)) {
        RotSeg.emplace_back();
        continue;
      }
      // A pointer advanced at the top level of the body: at the start of
      // iteration i it is where it was plus i steps (startPointer).
      if (const VarDecl *P = advancedPointer(S)) {
        for (const auto &[At, Q] : LoopAdvances)
          if (Q == P)
            return fail(S->getBeginLoc(),
                        "the pointer '" + P->getName().str() +
                            "' is advanced twice in one iteration");
        LoopAdvances.push_back({S, P});
        InLoop.push_back(P);
      }
      RotSeg.back().push_back(S);
    }
    // Without a barrier at the end, the last part runs on into the first
    // part of the next iteration, with no barrier between (wrapOrdered).
    Wraps = !RotSeg.back().empty();
    if (!Wraps)
      RotSeg.pop_back(); // empty: after the last barrier
    return true;
  }

  /// Buffer indices toggled at the end of the loop body: `int cur = 0;` (or
  /// 1, or a `bool` set to false or true) before the loop, changed only by
  /// a statement among the last of the body (alone or in a block of such
  /// statements), after which stand only barriers, other such statements
  /// and pointer advances that do not read it, that flips it
  /// (flippedVariable). In iteration i, up to that statement, a variable
  /// set to 0 is i % 2, the buffer the iteration reads, and one set to 1 is
  /// (i + 1) % 2, the one it stages. It is read nowhere outside the loop,
  /// where it is no iteration's; the threads never bind it.
  bool toggledBuffers(llvm::ArrayRef<Stmt *> Before, const CompoundStmt *Body) {
    std::vector<const Stmt *> Advances;
    for (auto It = Body->body_rbegin(); It != Body->body_rend(); ++It) {
      if (isBarrier(*It))
        continue;
      if (advancedPointer(*It)) {
        Advances.push_back(*It);
        continue;
      }
      // Flips spelled over two or three statements.
      llvm::SmallVector<Stmt *, 3> Last;
      for (auto J = It; J != Body->body_rend() && Last.size() < 3; ++J)
        Last.push_back(*J);
      if (std::vector<Advance> Found = spreadFlips(Before, Last);
          !Found.empty()) {
        for (const Advance &A : Found) {
          ToggleVars.insert(A.Var);
          (A.Init == 1 ? NextVars : CurrentVars).push_back(A.Var);
        }
        for (size_t I = 0; I < Found.back().Statements; ++I)
          Toggles.insert(*(It + I));
        It += Found.back().Statements - 1;
        continue;
      }
      std::vector<const Stmt *> Flips(1, *It);
      if (auto *Block = dyn_cast<CompoundStmt>(*It))
        Flips.assign(Block->body_begin(), Block->body_end());
      std::vector<Advance> Found;
      for (const Stmt *F : Flips)
        if (std::optional<Advance> T = toggle(Before, F);
            T && llvm::none_of(
                     Found, [&](const Advance &X) { return X.Var == T->Var; }))
          Found.push_back(*T);
      if (Found.empty() || Found.size() != Flips.size())
        break;
      for (const Advance &A : Found) {
        ToggleVars.insert(A.Var);
        if (A.Ring > 2)
          RingCounters[A.Var] = {A.Init, A.Ring};
        else
          (A.Init == 1 ? NextVars : CurrentVars).push_back(A.Var);
      }
      Toggles.insert(*It);
    }
    for (const Stmt *A : Advances)
      for (const VarDecl *VD : ToggleVars)
        if (mentions(A, VD))
          return fail(A->getBeginLoc(),
                      "'" + VD->getName().str() +
                          "', the buffer the loop toggles, is read after it "
                          "is toggled");
    for (llvm::ArrayRef<Stmt *> Part : {Before, Epilogue})
      for (const Stmt *S : Part)
        for (const VarDecl *VD : ToggleVars)
          if (!declares(S, VD) && mentions(S, VD))
            return fail(S->getBeginLoc(),
                        "'" + VD->getName().str() +
                            "', the buffer the loop toggles, may be read in "
                            "the loop only");
    return true;
  }

  static bool declares(const Stmt *S, const VarDecl *VD) {
    auto *DS = dyn_cast<DeclStmt>(S);
    return DS && llvm::is_contained(DS->decls(), VD);
  }

  /// A buffer index the loop advances at the end of its body
  /// (toggledBuffers): the variable, the value it starts with, and the
  /// ring it counts modulo (2 for a flip).
  struct Advance {
    const VarDecl *Var;
    int64_t Init, Ring;
    size_t Statements = 1; ///< how many statements flip it (spreadFlips)
  };

  /// Flips spelled over the last two or three statements (`Last`, the
  /// last first), each variable declared in `Before`, set to 0 or 1 there
  /// and changed nowhere else: `v += 1; v %= 2;` (`++v`, `v++`, `v = v +
  /// 1` then `v %= 2` or `v &= 1`), `v = n;` of a local `n` declared at
  /// the top level of the loop body as a flip of v and not changed (`const
  /// int n = v ^ 1;`, flipOf), and the swap `int t = a; a =
  /// b; b = t;` of two variables set to 0 and 1. Empty where none is.
  std::vector<Advance> spreadFlips(llvm::ArrayRef<Stmt *> Before,
                                   llvm::ArrayRef<Stmt *> Last) {
    auto Assigned = [](const Stmt *S,
                       BinaryOperatorKind Op) -> const VarDecl * {
      auto *B = dyn_cast_or_null<BinaryOperator>(
          isa_and_nonnull<Expr>(S) ? bare(cast<Expr>(S)) : nullptr);
      auto *L = B && B->getOpcode() == Op
                    ? dyn_cast<DeclRefExpr>(bare(B->getLHS()))
                    : nullptr;
      return L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
    };
    auto Flip = [&](const VarDecl *VD, llvm::ArrayRef<const Stmt *> At,
                    size_t N) -> std::vector<Advance> {
      std::optional<Advance> A = VD ? startOf(Before, VD, 2, At) : std::nullopt;
      if (!A || A->Init > 1)
        return {};
      A->Statements = N;
      return {*A};
    };
    // `v = n;`, n a const local set to a flip of v in this iteration.
    if (const VarDecl *VD = Assigned(Last[0], BO_Assign)) {
      auto *R = dyn_cast<DeclRefExpr>(
          bare(cast<BinaryOperator>(bare(cast<Expr>(Last[0])))->getRHS()));
      auto *N = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      const auto *Body = cast<CompoundStmt>(Loop->getBody());
      if (N && N->hasInit() &&
          (N->getType().isConstQualified() || !isModified(N, Body)) &&
          flipOf(N->getInit(), VD) &&
          llvm::any_of(Body->body(),
                       [&](const Stmt *S) { return declares(S, N); }))
        return Flip(VD, {Last[0]}, 1);
    }
    if (Last.size() < 2)
      return {};
    // `v += 1; v %= 2;`
    const VarDecl *Reduced = Assigned(Last[0], BO_RemAssign);
    auto *Lit =
        Reduced
            ? dyn_cast<IntegerLiteral>(bare(
                  cast<BinaryOperator>(bare(cast<Expr>(Last[0])))->getRHS()))
            : nullptr;
    if (!Reduced || !Lit || Lit->getValue() != 2) {
      Reduced = Assigned(Last[0], BO_AndAssign);
      Lit =
          Reduced
              ? dyn_cast<IntegerLiteral>(bare(
                    cast<BinaryOperator>(bare(cast<Expr>(Last[0])))->getRHS()))
              : nullptr;
      if (!Lit || Lit->getValue() != 1)
        Reduced = nullptr;
    }
    if (Reduced && incremented(Last[1], Reduced))
      return Flip(Reduced, {Last[0], Last[1]}, 2);
    // `int t = a; a = b; b = t;`
    if (Last.size() < 3)
      return {};
    auto *DS = dyn_cast<DeclStmt>(Last[2]);
    auto *T = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                       : nullptr;
    const VarDecl *A = Assigned(Last[1], BO_Assign);
    const VarDecl *B = Assigned(Last[0], BO_Assign);
    auto Reads = [](const Stmt *S, const VarDecl *V) {
      return V &&
             refersTo(cast<BinaryOperator>(bare(cast<Expr>(S)))->getRHS(), V);
    };
    if (!T || !A || !B || A == B || !T->hasInit() ||
        !refersTo(T->getInit(), A) || !Reads(Last[1], B) || !Reads(Last[0], T))
      return {};
    std::vector<Advance> First = Flip(A, {Last[1], Last[2]}, 3);
    std::vector<Advance> Second = Flip(B, {Last[0], Last[2]}, 3);
    if (First.empty() || Second.empty() || First[0].Init == Second[0].Init)
      return {};
    return {First[0], Second[0]};
  }

  /// Whether `S` adds 1 to `VD`: `++v`, `v++`, `v += 1`, `v = v + 1`.
  static bool incremented(const Stmt *S, const VarDecl *VD) {
    auto *E = dyn_cast<Expr>(S);
    E = E ? bare(E) : nullptr;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(E))
      return U->isIncrementOp() && refersTo(U->getSubExpr(), VD);
    auto *B = dyn_cast_or_null<BinaryOperator>(E);
    if (!B || !refersTo(B->getLHS(), VD))
      return false;
    auto One = [](const Expr *X) {
      auto *L = dyn_cast<IntegerLiteral>(bare(X));
      return L && L->getValue() == 1;
    };
    if (B->getOpcode() == BO_AddAssign)
      return One(B->getRHS());
    auto *Sum = B->getOpcode() == BO_Assign
                    ? dyn_cast<BinaryOperator>(bare(B->getRHS()))
                    : nullptr;
    return Sum && Sum->getOpcode() == BO_Add &&
           ((refersTo(Sum->getLHS(), VD) && One(Sum->getRHS())) ||
            (One(Sum->getLHS()) && refersTo(Sum->getRHS(), VD)));
  }

  /// The variable `F` flips (flippedVariable) or advances around a ring of
  /// 3 to MaxRing (`s = (s + 1) % S;`), where it is declared in `Before`,
  /// set to a constant buffer there and changed nowhere else; nullopt
  /// otherwise.
  std::optional<Advance> toggle(llvm::ArrayRef<Stmt *> Before, const Stmt *F) {
    int64_t Ring = 2;
    const VarDecl *VD = flippedVariable(F);
    if (!VD)
      VD = ringAdvanced(F, Ring);
    return VD ? startOf(Before, VD, Ring, {F}) : std::nullopt;
  }

  /// The buffer index `VD`, declared in `Before` and set there to a
  /// constant buffer of a ring of `Ring`, changed only by the statements
  /// `At`; nullopt otherwise.
  std::optional<Advance> startOf(llvm::ArrayRef<Stmt *> Before,
                                 const VarDecl *VD, int64_t Ring,
                                 llvm::ArrayRef<const Stmt *> At) {
    if (ToggleVars.contains(VD) ||
        llvm::none_of(Before, [&](const Stmt *S) { return declares(S, VD); }))
      return std::nullopt;
    std::optional<int64_t> Init;
    if (auto *B = VD->hasInit()
                      ? dyn_cast<CXXBoolLiteralExpr>(bare(VD->getInit()))
                      : nullptr)
      Init = B->getValue();
    else if (VD->hasInit())
      Init = Ev.constant(VD->getInit());
    if (!Init || *Init < 0 || *Init >= Ring ||
        isModifiedOutside(VD, Kernel->getBody(), At))
      return std::nullopt;
    return Advance{VD, *Init, Ring};
  }

  /// The integer variable `s` of `s = (s + 1) % S;` (or `(1 + s) % S`), S a
  /// constant of 3 to MaxRing, set in `Ring`; null otherwise.
  const VarDecl *ringAdvanced(const Stmt *F, int64_t &Ring) const {
    auto *A = dyn_cast<BinaryOperator>(F);
    auto *L = A && A->getOpcode() == BO_Assign
                  ? dyn_cast<DeclRefExpr>(bare(A->getLHS()))
                  : nullptr;
    auto *VD = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
    auto *Rem = VD ? dyn_cast<BinaryOperator>(bare(A->getRHS())) : nullptr;
    auto *Sum = Rem && Rem->getOpcode() == BO_Rem
                    ? dyn_cast<BinaryOperator>(bare(Rem->getLHS()))
                    : nullptr;
    std::optional<int64_t> S = Sum ? Ev.constant(Rem->getRHS()) : std::nullopt;
    if (!S || *S < 3 || *S > MaxRing || Sum->getOpcode() != BO_Add ||
        !VD->getType()->isIntegerType())
      return nullptr;
    auto IsVar = [&](const Expr *X) {
      auto *R = dyn_cast<DeclRefExpr>(bare(X));
      return R && R->getDecl() == VD;
    };
    auto IsOne = [&](const Expr *X) { return Ev.constant(X) == 1; };
    if (!(IsVar(Sum->getLHS()) && IsOne(Sum->getRHS())) &&
        !(IsOne(Sum->getLHS()) && IsVar(Sum->getRHS())))
      return nullptr;
    Ring = *S;
    return VD;
  }

  bool rotatedLoop(llvm::ArrayRef<Stmt *> Before, bool Quick) {
    PrologueStaging = true;
    if (!PrologueBarrier) {
      // One part: the staging, then the loop.
      AsyncAtLoop = true;
      const bool Staged = forThreads(Before, Phase::Prologue, false);
      AsyncAtLoop = false;
      if (!Staged)
        return false;
      Reached = 1;
      PrologueStaging = false;
    } else {
      if (!forThreads(Before.take_front(PrologueSplit), Phase::Prologue, false))
        return false;
      // A block of another shape mostly fails here.
      Reached = 1;
      PrologueStaging = false;
      if (!forThreads(Before.drop_front(PrologueSplit + 1), Phase::Prologue,
                      false))
        return false;
    }
    if (!guardedCommits() || !ringAhead() || !enterLoop())
      return false;
    Looping = true;
    const std::vector<ThreadState> Start = Threads;
    Recording = true;
    if (!rotatedBody(false) || !firstTilesAgree() || !asyncAfterLoop(false))
      return false;
    // The later passes follow the copies in flight: each from the state
    // the one before left, until one ends in the state it started from,
    // which every later iteration then starts from too (asyncRepeats). The
    // copies made before the loop are complete within Ahead iterations.
    Recording = false;
    for (int64_t Pass = 0;; ++Pass) {
      std::vector<InFlightCopies> InFlight;
      for (const ThreadState &T : Threads)
        InFlight.push_back(
            {T.AsyncGroups, T.AsyncOpen, T.SkippedCommit, T.PipeUnwaited});
      Threads = Start;
      for (size_t I = 0; I < Threads.size(); ++I) {
        Threads[I].AsyncGroups = InFlight[I].Groups;
        Threads[I].AsyncOpen = InFlight[I].Open;
        Threads[I].SkippedCommit = InFlight[I].SkippedCommit;
        Threads[I].PipeUnwaited = InFlight[I].PipeUnwaited;
      }
      if (!rotatedBody(Quick))
        return false;
      if (asyncRepeats(InFlight, Pass == Ahead))
        break;
      if (Pass == Ahead)
        return false;
    }
    if (!readsBeforeWrites() || !firstReadsOrdered() || !wrapOrdered() ||
        !asyncAfterLoop(true, Quick) || !pipelineWaitsDynamic())
      return false;
    Looping = false;
    for (ThreadState &T : Threads) {
      T.AsyncGroups.clear();
      T.AsyncOpen.clear();
    }
    // A vector loaded for the next tiles holds what the last iteration
    // but one loaded: nothing after the loop may read it.
    for (ThreadState &T : Threads)
      for (auto &[Var, V] : T.Vectors)
        V = VectorTemp{};
    return true;
  }

  /// The distance a ring of more than two buffers stages ahead (Ahead):
  /// the number of buffers the code before the loop stages, 0 to D - 1,
  /// each the tile of its iteration (firstTilesAgree). Every tile the loop
  /// stages is then a ring of more than D buffers, so that the buffer it
  /// writes, (i + D) % S, is none of those iterations i to i + D - 1 read.
  bool ringAhead() {
    Ahead = 1;
    bool Ring = false;
    for (const SharedTile &T : Tiles) {
      Ring |= !T.Results && T.Buffers > 2;
      for (size_t E = 0; E < T.First.size(); ++E)
        if (T.First[E] >= 0)
          Ahead = std::max(Ahead, int64_t(E) / T.buffer() + 1);
    }
    if (!Ring)
      return Ahead = 1, true;
    for (const SharedTile &T : Tiles)
      if (!T.Results && T.Buffers <= Ahead)
        return fail(T.Var->getLocation(),
                    "the copies before the loop stage buffers up to " +
                        std::to_string(Ahead - 1) +
                        ", the first tiles, so the loop stages tiles " +
                        std::to_string(Ahead) + " iterations ahead, and '" +
                        T.Var->getName().str() + "' has " +
                        std::to_string(T.Buffers) +
                        (T.Buffers == 1 ? " buffer" : " buffers") +
                        ": expected a ring of more buffers than the tiles "
                        "staged before the loop");
    return true;
  }

  bool rotatedBody(bool Quick) {
    for (CurSeg = 0; CurSeg < RotSeg.size(); ++CurSeg)
      if (!forThreads(RotSeg[CurSeg], Phase::Rotated, Quick))
        return false;
    return true;
  }

  /// What the loop stages for iteration b < Ahead is what the code before
  /// it staged into buffer b.
  bool firstTilesAgree() {
    // Buffers no iteration reads before the loop stages them first.
    for (const SharedTile &T : Tiles)
      for (int64_t E = Ahead * T.buffer(); !T.Results && E < T.size(); ++E)
        if (!firstTileAgrees(T, E / T.buffer(), E % T.buffer()))
          return false;
    for (const SharedTile &T : Tiles)
      for (int64_t E = 0;
           !T.Results && E < std::min(T.size(), Ahead * T.buffer()); ++E)
        if (!firstTileAgrees(T, E / T.buffer(), E % T.buffer()))
          return false;
    return true;
  }
  bool firstTileAgrees(const SharedTile &T, int64_t B, int64_t E) {
    const int32_t F = T.First[size_t(B * T.buffer() + E)];
    const int32_t A = B < Ahead ? T.Slot[size_t(E)] : -1;
    if (A < 0 && F < 0)
      return true;
    const StagedElement *L = A >= 0 ? &Staged[size_t(A)] : nullptr;
    const StagedElement *P = F >= 0 ? &FirstStaged[size_t(F)] : nullptr;
    const std::string Name = "'" + T.Var->getName().str() + "'";
    if (B >= Ahead && Ahead == 1)
      return fail(P->At, "the copies before the loop must stage buffer 0 of " +
                             Name + ", which iteration 0 reads");
    if (B >= Ahead)
      return fail(P->At, "the copies before the loop stage buffer " +
                             std::to_string(B) + " of " + Name +
                             ", which no iteration reads before the loop "
                             "writes it: expected the first tiles in "
                             "buffers 0 to " +
                             std::to_string(Ahead - 1));
    const Poly At = Poly::constant((LoopCountsElements ? G.Tile : 1) * B);
    auto Then = [&](const Poly &P) { return P.substitute(Counter, At); };
    bool Same = L && P && L->Ptr == P->Ptr && Then(L->L) == P->L &&
                L->Guarded == P->Guarded && L->Lane == P->Lane &&
                L->Width == P->Width && L->BatchStride == P->BatchStride &&
                L->Bounds.size() == P->Bounds.size();
    for (size_t I = 0; Same && I < L->Bounds.size(); ++I)
      Same = L->Bounds[I].second == P->Bounds[I].second &&
             Then(L->Bounds[I].first) == P->Bounds[I].first;
    if (!Same)
      return fail(P ? P->At : L->At,
                  "the copies before the loop must stage what the loop's "
                  "copies stage for its first " +
                      (Ahead > 1 ? std::to_string(Ahead) + " iterations"
                                 : std::string("iteration")) +
                      ": element " + std::to_string(E / T.Cols) + ", " +
                      std::to_string(E % T.Cols) + " of " + Name +
                      (Ahead > 1 ? " in buffer " + std::to_string(B) : "") +
                      " differs");
    return true;
  }

  /// Without a barrier before the loop, no tile is read before the loop
  /// body's first barrier: the first tiles are staged before it. Likewise
  /// where an iteration starts with copies in flight (AnyCarried), which
  /// are complete for every thread only past that barrier.
  ///
  /// With the copies in flight from one iteration to the next, reads
  /// before the first barrier are ordered where the body ends with a
  /// barrier at which the next iteration's copies are complete (checked
  /// there, asyncSettled) and the copies of the first tiles are complete
  /// at the barrier before the loop: the wait at the bottom of the body.
  bool firstReadsOrdered() {
    const SharedTile *Early = nullptr;
    for (const SharedTile &T : Tiles)
      if (!Early && !T.Results && T.Read && T.FirstRead == 0)
        Early = &T;
    if (!Early)
      return true;
    if (PrologueBarrier && PrologueInFlight.isValid())
      return fail(PrologueInFlight,
                  "this asynchronous copy of the first tiles is not "
                  "complete at the barrier before the loop, and the loop "
                  "reads '" +
                      Early->Var->getName().str() +
                      "' before its first barrier: wait for it before that "
                      "barrier");
    if (PrologueBarrier && (!AnyCarried || (!Wraps && !EndCheckedLax)))
      return true;
    return fail(Loop->getForLoc(),
                "the loop reads '" + Early->Var->getName().str() +
                    "' before its first barrier, " +
                    (PrologueBarrier
                         ? "while the asynchronous copies an iteration "
                           "makes for the next are complete for every "
                           "thread only past that barrier: end the body "
                           "with the wait and '__syncthreads();'"
                         : "and no barrier follows the copies of the "
                           "first tiles before the loop: put "
                           "'__syncthreads();' between them"));
  }

  /// Whether the loop reads a tile before its body's first barrier (so
  /// far as the threads have been followed).
  bool readsFirst() const {
    return llvm::any_of(Tiles, [](const SharedTile &T) {
      return !T.Results && T.Read && T.FirstRead == 0;
    });
  }

  /// Where the loop body does not end with a barrier (Wraps), its last part
  /// and the next iteration's first run with no barrier between: there,
  /// the copies of iteration i + 1's tiles that iteration i makes and the
  /// reads of them in iteration i + 1, or the reads of iteration i's tiles
  /// and the copies of iteration i + 2's into the same buffer, would race.
  /// So no tile is written in one of the two parts and read or written in
  /// the other.
  bool wrapOrdered() {
    if (!Wraps)
      return true;
    const size_t Last = RotSeg.size() - 1;
    for (const SharedTile &T : Tiles) {
      if (T.Results)
        continue;
      const bool WritesLast = T.Written && T.LastWrite == Last;
      const bool WritesFirst = T.Written && T.FirstWrite == 0;
      const bool ReadsLast = T.Read && T.LastRead == Last;
      const bool ReadsFirst = T.Read && T.FirstRead == 0;
      if ((WritesLast && (ReadsFirst || WritesFirst)) ||
          (ReadsLast && WritesFirst))
        return fail(
            Loop->getForLoc(),
            "the loop body ends without '__syncthreads();', so its "
            "last part runs on into the next iteration's first with "
            "no barrier between, and '" +
                T.Var->getName().str() + "' is " +
                (WritesLast ? "written in the last and " +
                                  std::string(ReadsFirst ? "read" : "written") +
                                  " in the first"
                            : std::string("read in the last and "
                                          "written in the first")) +
                ": end the body with '__syncthreads();', or stage "
                "the next tiles after the body's first barrier");
    }
    return true;
  }

  /// A tile with one buffer is read before a barrier that precedes the
  /// copies of the next iteration's tiles into it.
  bool readsBeforeWrites() {
    for (const SharedTile &T : Tiles)
      if (!T.Results && T.Buffers == 1 && T.Read && T.LastRead >= T.FirstWrite)
        return fail(Loop->getForLoc(),
                    "the loop writes the next iteration's elements of '" +
                        T.Var->getName().str() +
                        "' before a barrier that follows its reads of the "
                        "iteration's: stage into a second buffer, or put "
                        "'__syncthreads();' between the product and the "
                        "copies");
    return true;
  }

  /// Whether phase `P` may stage tiles and load registers to stage.
  bool staging(Phase P) const {
    return P == Phase::Stage || P == Phase::Rotated ||
           (P == Phase::Prologue && PrologueStaging);
  }

  /// The statements after the loop, followed by every thread part by part:
  /// the barriers at their top level split them, so that what one part
  /// stages in an array of results the next ones may read. A loop of
  /// constant bounds whose body has barriers at its top level (one
  /// iteration per fragment of a warp, through a scratch it reuses) is
  /// unrolled into the parts, each statement followed with the loop's
  /// variables of its iteration.
  bool epilogue(bool Quick) {
    EpilogueSplit Split;
    for (Stmt *S : Epilogue)
      if (!splitEpilogue(S, Split))
        return false;
    BlockFences = Split.Fences;
    EpilogueParts = int32_t(Split.Parts.size());
    for (size_t I = 0; I < Split.Parts.size(); ++I) {
      EpiloguePart = int32_t(I);
      EpilogueBindings = &Split.Bindings[I];
      EpilogueConditions = &Split.Conditions[I];
      const bool Ok = forThreads(Split.Parts[I], Phase::Epilogue, Quick);
      EpilogueBindings = nullptr;
      EpilogueConditions = nullptr;
      if (!Ok)
        return false;
    }
    return true;
  }

  /// The epilogue's statements between barriers, with the variables of the
  /// unrolled loops each is followed with, and for each part the block
  /// barriers before it.
  struct EpilogueSplit {
    std::vector<std::vector<Stmt *>> Parts{1};
    std::vector<std::vector<LoopBindings>> Bindings{1};
    std::vector<int32_t> Fences{0};
    LoopBindings Bound;
    /// For each statement, the conditions of the `if`s around it that a
    /// warp barrier splits (barrierBranch), outermost first.
    std::vector<std::vector<BranchConditions>> Conditions{1};
    BranchConditions Conds;
  };

  /// Whether `S` is a `for` whose body has a barrier at its top level, or a
  /// loop that does.
  static bool barrierLoop(const Stmt *S) {
    auto *F = dyn_cast<ForStmt>(S);
    return F && llvm::any_of(loopBody(F), [](const Stmt *X) {
             return isBarrier(X) || isWarpBarrier(X) || barrierLoop(X);
           });
  }

  /// The statements of a loop's body: those of a compound statement, or
  /// the one statement.
  static std::vector<Stmt *> loopBody(const ForStmt *F) {
    Stmt *Body = const_cast<Stmt *>(F->getBody());
    if (auto *C = dyn_cast<CompoundStmt>(Body))
      return std::vector<Stmt *>(C->body_begin(), C->body_end());
    return {Body};
  }

  /// Whether `S` is an `if` with a warp barrier in its branch, at its top
  /// level or in a loop or `if` there.
  static bool barrierBranch(const Stmt *S) {
    auto *If = dyn_cast<IfStmt>(S);
    if (!If)
      return false;
    auto Has = [](const Stmt *B) {
      if (!B)
        return false;
      auto *C = dyn_cast<CompoundStmt>(B);
      return llvm::any_of(C ? llvm::ArrayRef<Stmt *>(C->body_begin(), C->size())
                            : llvm::ArrayRef<Stmt *>(const_cast<Stmt *>(B)),
                          [](const Stmt *X) {
                            return isBarrier(X) || isWarpBarrier(X) ||
                                   barrierLoop(X) || barrierBranch(X);
                          });
    };
    return Has(If->getThen()) || Has(If->getElse());
  }

  /// A variable the condition of `If` names that its branch changes, or
  /// null.
  static const VarDecl *changedInBranch(const IfStmt *If) {
    struct Names : RecursiveASTVisitor<Names> {
      std::vector<const VarDecl *> Vars;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (auto *V = dyn_cast<VarDecl>(R->getDecl()))
          Vars.push_back(V);
        return true;
      }
    } N;
    N.TraverseStmt(const_cast<Expr *>(If->getCond()));
    for (const VarDecl *V : N.Vars)
      if (isModified(V, If->getThen()))
        return V;
    return nullptr;
  }

  /// Adds `S` to the epilogue's parts: a barrier starts a part, a loop with
  /// barriers is unrolled (its bounds constants for the whole block), an
  /// `if` with a warp barrier in it is split there, its condition kept for
  /// each statement of its branch (a warp's scratch stored, '__syncwarp();'
  /// and read back under the warp's bounds check).
  bool splitEpilogue(Stmt *S, EpilogueSplit &Split) {
    const bool Block = isBarrier(S);
    if (Block || isWarpBarrier(S)) {
      if (Block && !Split.Conds.empty())
        return fail(S->getBeginLoc(),
                    "a '__syncthreads();' under a condition after the tile "
                    "loop: expected block barriers at the top level (a warp "
                    "barrier, '__syncwarp();', may stand under a bounds check "
                    "of the warp's tile)");
      Split.Parts.emplace_back();
      Split.Bindings.emplace_back();
      Split.Conditions.emplace_back();
      Split.Fences.push_back(Split.Fences.back() + (Block ? 1 : 0));
      return true;
    }
    if (barrierBranch(S)) {
      auto *If = cast<IfStmt>(S);
      if (If->getElse() || If->getInit() || If->getConditionVariable())
        return fail(If->getBeginLoc(),
                    "expected a bounds check with a warp barrier in it after "
                    "the tile loop, 'if (row0 < M && col0 < N) { ...; "
                    "__syncwarp(); ... }', without an 'else'");
      // Each statement of the branch is followed under the condition as
      // evaluated where it stands: the branch must not change what the
      // condition reads, which the kernel tests once, on entry.
      if (const VarDecl *Changed = changedInBranch(If))
        return fail(If->getCond()->getBeginLoc(),
                    "'" + Changed->getName().str() +
                        "', which the condition of this 'if' reads, is "
                        "changed inside it: expected a bounds check with a "
                        "warp barrier in it whose variables keep their "
                        "values there");
      Split.Conds.push_back(If->getCond());
      auto *C = dyn_cast<CompoundStmt>(If->getThen());
      for (Stmt *X : C ? std::vector<Stmt *>(C->body_begin(), C->body_end())
                       : std::vector<Stmt *>{If->getThen()})
        if (!splitEpilogue(X, Split))
          return false;
      Split.Conds.pop_back();
      return true;
    }
    if (!barrierLoop(S)) {
      Split.Parts.back().push_back(S);
      Split.Bindings.back().push_back(Split.Bound);
      Split.Conditions.back().push_back(Split.Conds);
      return true;
    }
    auto *F = cast<ForStmt>(S);
    std::optional<std::vector<int64_t>> Values = uniformTrips(F);
    if (!Values)
      return fail(F->getForLoc(),
                  "expected a loop with barriers after the tile loop, 'for "
                  "(int i = a; i < b; i += c)' with a, b and c integer "
                  "constants (the same for the whole block)");
    auto *V = cast<VarDecl>(cast<DeclStmt>(F->getInit())->getSingleDecl());
    for (int64_t Value : *Values) {
      Split.Bound.push_back({V, Value});
      for (Stmt *X : loopBody(F))
        if (!splitEpilogue(X, Split))
          return false;
      Split.Bound.pop_back();
    }
    return true;
  }

  /// The values the variable of `for (int i = a; i < b; i += c)` (or `<=`,
  /// `++i`, `i++`) takes, where a, b and c are integer constant
  /// expressions and the body does not change i: the same for every thread.
  std::optional<std::vector<int64_t>> uniformTrips(const ForStmt *F) const {
    auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    auto *V = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    if (!V || !V->getType()->isIntegerType() || !V->hasInit() ||
        isModified(V, F->getBody()))
      return std::nullopt;
    auto constant = [&](const Expr *E) -> std::optional<int64_t> {
      std::optional<llvm::APSInt> X = E->getIntegerConstantExpr(Ctx);
      if (!X || X->getSignificantBits() > 32)
        return std::nullopt;
      return X->getExtValue();
    };
    auto isVar = [&](const Expr *E) {
      auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == V;
    };
    auto *Cond = dyn_cast_or_null<BinaryOperator>(
        F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
    std::optional<int64_t> Start = constant(V->getInit());
    std::optional<int64_t> Bound =
        Cond && isVar(Cond->getLHS()) ? constant(Cond->getRHS()) : std::nullopt;
    if (!Start || !Bound ||
        (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE))
      return std::nullopt;
    const Expr *Inc =
        F->getInc() ? F->getInc()->IgnoreParenImpCasts() : nullptr;
    std::optional<int64_t> Step;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
        U && U->isIncrementOp() && isVar(U->getSubExpr()))
      Step = 1;
    else if (auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
             C && C->getOpcode() == BO_AddAssign && isVar(C->getLHS()))
      Step = constant(C->getRHS());
    if (!Step || *Step <= 0)
      return std::nullopt;
    const int64_t End = Cond->getOpcode() == BO_LE ? *Bound + 1 : *Bound;
    std::vector<int64_t> Values;
    for (int64_t X = *Start; X < End; X += *Step)
      if (Values.size() == 64)
        return std::nullopt;
      else
        Values.push_back(X);
    return Values;
  }

  /// `__syncwarp();` (or with the full mask, 0xffffffff).
  static bool isWarpBarrier(const Stmt *S) {
    auto *C = dyn_cast<CallExpr>(S);
    if (!C || !C->getDirectCallee() ||
        C->getDirectCallee()->getName() != "__syncwarp" || C->getNumArgs() > 1)
      return false;
    if (C->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(C->getArg(0)))
      return true;
    auto *Mask = dyn_cast<IntegerLiteral>(bare(C->getArg(0)));
    return Mask && Mask->getValue() == 0xffffffffu;
  }

  //===--- the tiles and the loop body's parts ---------------------------===//

  /// The __shared__ tiles declared before the loop: one or two constant
  /// dimensions of bf16 or fp16.
  bool sharedTiles(llvm::ArrayRef<Stmt *> Before) {
    Dynamic = dynamicTiles(Kernel, Before, Ctx);
    if (Dynamic.Failure)
      return fail(Dynamic.Failure->Loc, Dynamic.Failure->Message);
    dynamicRings();
    std::vector<const Stmt *> Declared(Before.begin(), Before.end());
    Declared.insert(Declared.end(), Epilogue.begin(), Epilogue.end());
    for (const Stmt *S : Declared)
      if (auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls()) {
          auto *VD = dyn_cast<VarDecl>(D);
          if (VD && Dynamic.find(VD)) {
            if (!dynamicTile(*Dynamic.find(VD)))
              return false;
            continue;
          }
          if (!VD || !VD->hasAttr<CUDASharedAttr>() || VD == Dynamic.Base)
            continue;
          if (std::optional<LiftFailure> Refusal = dynamicSharedTile(VD))
            return fail(Refusal->Loc, Refusal->Message);
          auto *Outer = Ctx.getAsConstantArrayType(VD->getType());
          auto *Inner =
              Outer ? Ctx.getAsConstantArrayType(Outer->getElementType())
                    : nullptr;
          // X[S][R][C]: S buffers of R x C, a ring of 2 to 8.
          auto *Third =
              Inner ? Ctx.getAsConstantArrayType(Inner->getElementType())
                    : nullptr;
          const int64_t Ring =
              Outer ? int64_t(Outer->getSize().getZExtValue()) : 0;
          const bool Buffered = Third && Ring >= 2 && Ring <= MaxRing;
          const bool Flat =
              FlatBuffers && Inner && !Third && Outer->getSize() == 2;
          if (Buffered) {
            Outer = Inner;
            Inner = Third;
          } else if (Flat) {
            Outer = Inner;
            Inner = nullptr;
          }
          const QualType E = Ctx.getBaseElementType(VD->getType());
          if (!Outer || (Inner && Inner->getElementType()->isArrayType()) ||
              !elementOf(E))
            return fail(VD->getLocation(),
                        "expected a __shared__ tile of __nv_bfloat16 or "
                        "__half, of one or two constant dimensions (or "
                        "X[S][R][C], a ring of S buffers, 2 to 8)");
          SharedTile T;
          T.Var = VD;
          T.Buffers = Buffered ? Ring : Flat ? 2 : 1;
          T.Rows = Inner ? int64_t(Outer->getSize().getZExtValue()) : 1;
          T.Cols = int64_t((Inner ? Inner : Outer)->getSize().getZExtValue());
          if (!addTile(std::move(T)))
            return false;
        }
    if (stagingTiles() != 2 && stagingTiles() != 0)
      return fail(Loop->getForLoc(),
                  "expected two __shared__ tiles declared before the loop "
                  "(or none, where wmma fragments load from global memory)");
    return true;
  }

  /// A dynamic tile that points to rows, `T (*As)[C]`: a two-dimensional
  /// tile of the rows up to the next tile (the last: to the end of the
  /// largest shared memory, as dynamicTile); or to buffers, `T (*As)[R][C]`:
  /// a ring of the buffers up to the next tile, 2 to MaxRing (the last: as
  /// many as the rings before it), indexed `As[b][r][c]` as `X[S][R][C]`.
  bool arrayTile(const DynamicTile &D, int64_t Size,
                 const ConstantArrayType *Outer) {
    SharedTile T;
    T.Var = D.Var;
    const int64_t Extent = D.Extent ? D.Extent : (227 * 1024 - D.Offset) / Size;
    const int64_t Count = int64_t(Outer->getSize().getZExtValue());
    const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
    if (!Inner) {
      T.Cols = Count;
      T.Rows = Count ? Extent / Count : 0;
      if (T.Rows < 1)
        return fail(D.Var->getLocation(),
                    "the next tile starts before the end of the first row "
                    "of '" +
                        D.Var->getName().str() + "'");
      return addTile(std::move(T));
    }
    T.Rows = Count;
    T.Cols = int64_t(Inner->getSize().getZExtValue());
    auto It = DynamicRings.find(D.Var);
    T.Buffers = It != DynamicRings.end() ? It->second.second : 0;
    if (T.Buffers < 2)
      return fail(D.Var->getLocation(),
                  "'" + D.Var->getName().str() + "' points to buffers of " +
                      std::to_string(T.Rows) + " x " + std::to_string(T.Cols) +
                      " elements: expected a ring of 2 to " +
                      std::to_string(MaxRing) +
                      " of them before the next tile (the last tile: as many "
                      "as the rings before it)");
    return addTile(std::move(T));
  }

  /// The rings among the dynamic tiles (ringStride): S buffers of C
  /// elements where the loop indexes a tile `tile[b * C + i]` and the next
  /// tile starts S * C elements after it (2 <= S <= MaxRing); the last tile,
  /// whose extent the launch sets, has as many buffers as the rings before
  /// it. A tile read otherwise is one-dimensional (dynamicTile).
  void dynamicRings() {
    std::optional<int64_t> Ring;
    const VarDecl *Last = nullptr;
    int64_t LastStride = 0;
    for (const DynamicTile &D : Dynamic.Tiles) {
      // `T (*As)[R][C]`: buffers of R x C.
      const auto *Outer =
          Ctx.getAsConstantArrayType(D.Var->getType()->getPointeeType());
      const auto *Inner =
          Outer ? Ctx.getAsConstantArrayType(Outer->getElementType()) : nullptr;
      std::optional<int64_t> C =
          Inner ? std::optional<int64_t>(
                      int64_t(Outer->getSize().getZExtValue()) *
                      int64_t(Inner->getSize().getZExtValue()))
          : Outer ? std::nullopt
                  : ringStride(D.Var, Loop, Counter, Ctx);
      if (!C || *C <= 0)
        continue;
      if (!D.Extent) {
        Last = D.Var, LastStride = *C;
        continue;
      }
      // Buffers of arrays may leave a gap before the next tile.
      const int64_t S = D.Extent / *C;
      if ((D.Extent % *C != 0 && !Inner) || S < 2 || S > MaxRing ||
          (Ring && *Ring != S))
        continue;
      Ring = S;
      DynamicRings[D.Var] = {*C, S};
    }
    if (Last && Ring)
      DynamicRings[Last] = {LastStride, *Ring};
  }

  /// Whether a pointer parameter of the kernel points to bf16 or fp16: a
  /// float tile may then hold its elements widened (elementTypes checks
  /// that A and B are such matrices).
  bool readsHalfMatrix() const {
    return llvm::any_of(Kernel->parameters(), [](const ParmVarDecl *P) {
      const QualType T = P->getType();
      const std::optional<ElementType> E =
          T->isPointerType() ? elementOf(T->getPointeeType()) : std::nullopt;
      return E && E != ElementType::F32;
    });
  }

  /// A tile of Rows x Cols elements, for the staging and the product, or
  /// for results staged after the loop where the loop does not use it.
  bool addTile(SharedTile T) {
    if (T.size() > (int64_t(1) << 18))
      return fail(T.Var->getLocation(),
                  "the __shared__ tile is larger than shared memory");
    if (!mentions(Loop, T.Var) && T.Buffers == 1)
      return resultsTile(std::move(T));
    if (elementOf(tileElementType(T.Var, Ctx)) == ElementType::F32 && !Tf32 &&
        !readsHalfMatrix())
      return fail(T.Var->getLocation(), SgemmMessage);
    T.Slot.assign(size_t(T.size()), -1);
    T.SlotRound.assign(size_t(T.size()), 0);
    T.First.assign(size_t(T.size()), -1);
    Shared.push_back(T.Var);
    Tiles.push_back(std::move(T));
    return true;
  }

  /// A static float array the loop does not use: the epilogue stages the
  /// accumulators through it (SharedTile::Results).
  bool resultsTile(SharedTile T) {
    if (Dynamic.find(T.Var) || !Ctx.getBaseElementType(T.Var->getType())
                                    ->isSpecificBuiltinType(BuiltinType::Float))
      return fail(T.Var->getLocation(),
                  "the __shared__ array '" + T.Var->getName().str() +
                      "' is not used in the loop: results staged through "
                      "shared memory after the loop are read from a static "
                      "__shared__ float array, written with "
                      "'wmma::store_matrix_sync(Cs + offset, acc, ld, "
                      "wmma::mem_row_major)' or 'Cs[i][j] = acc[k]' and read "
                      "after '__syncthreads();'");
    T.Results = true;
    T.Held.assign(size_t(T.Rows * T.Cols), {});
    Tiles.push_back(std::move(T));
    return true;
  }

  /// The tiles the loop stages A and B into.
  size_t stagingTiles() const {
    return size_t(
        llvm::count_if(Tiles, [](const SharedTile &T) { return !T.Results; }));
  }

  /// Whether `VD` is a float local of the epilogue that the stores read as
  /// its initializer (`float v = acc[i] + bias[col];`, epilogueLocal), or
  /// as the value of its updates (valueUpdate): changed by those only, and
  /// no local that its initializer names (an accumulator, an index) is
  /// written after the loop, but for the variables of the loops around the
  /// declaration, so the initializer has the same value where a store
  /// reads it.
  bool valueLocal(const VarDecl *VD) {
    if (!VD->hasInit() || VD->getType()->isArrayType() ||
        !stableReads(VD->getInit(), VD))
      return false;
    return heldReads(VD->getInit()) && epilogueLocal(VD);
  }

  /// `v = x;` or `v op= x;` in the epilogue, in the block that declares v,
  /// a float local of it (valueLocal), so that the stores after it in the
  /// block run under the same checks; x reads only what an initializer
  /// may (stableReads). Recorded by localUpdate; false, with nothing
  /// recorded, for anything else.
  bool valueUpdate(const Expr *E) {
    auto *B = dyn_cast<BinaryOperator>(E);
    auto *L = B ? dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()) : nullptr;
    auto *V = L ? dyn_cast<VarDecl>(L->getDecl()) : nullptr;
    if (!V || !FloatLocals.count(V) || !B->isAssignmentOp() || Blocks.empty() ||
        !stableReads(B->getRHS(), V))
      return false;
    const auto &[Body, I] = Blocks.back();
    auto Declares = [V](const Stmt *S) {
      auto *DS = dyn_cast<DeclStmt>(S);
      return DS && llvm::is_contained(DS->decls(), V);
    };
    auto *At = I < Body.size() ? dyn_cast<Expr>(Body[I]) : nullptr;
    if (!At || At->IgnoreImplicit()->IgnoreParens() != E ||
        !llvm::any_of(Body.take_front(I), Declares))
      return false;
    return localUpdate(E) && heldReads(B->getRHS());
  }

  /// `float v = x; if (beta != 0) v += y;` (the declaration `DS` of `VD`
  /// and the statement after it, y not reading v) in the epilogue: the
  /// stores read v as `beta != 0 ? x + y : x` (betaUpdatedLocal), the
  /// choice on beta they read in `beta == 0 ? x : x + y`; the update is
  /// then not followed as a statement (BetaUpdates).
  bool betaLocal(const DeclStmt *DS, const VarDecl *VD) {
    if (!DS->isSingleDecl() || Blocks.empty() || !VD->hasInit())
      return false;
    const auto &[Body, I] = Blocks.back();
    auto *If = I + 1 < Body.size() && Body[I] == DS
                   ? dyn_cast<IfStmt>(Body[I + 1])
                   : nullptr;
    auto *Update = If ? dyn_cast_or_null<CompoundAssignOperator>(
                            dyn_cast_or_null<Expr>(single(If->getThen())))
                      : nullptr;
    if (!Update || !stableReads(VD->getInit(), VD) ||
        !stableReads(Update->getRHS(), VD) || !betaUpdatedLocal(VD, If))
      return false;
    BetaUpdates.insert(If);
    return heldReads(VD->getInit()) && heldReads(Update->getRHS());
  }

  /// Whether no local that `E` names (an accumulator, an index) is written
  /// after the loop, but for the variables of the loops around the
  /// declaration of `VD`, so that `E` has one value from there to where
  /// the stores read `VD`.
  bool stableReads(const Expr *E, const VarDecl *VD) {
    struct Reads : RecursiveASTVisitor<Reads> {
      std::vector<const VarDecl *> Locals;
      bool VisitDeclRefExpr(DeclRefExpr *R) {
        if (auto *V = dyn_cast<VarDecl>(R->getDecl()); V && V->isLocalVarDecl())
          Locals.push_back(V);
        return true;
      }
    } R;
    R.TraverseStmt(const_cast<Expr *>(E));
    for (const VarDecl *V : R.Locals) {
      const int32_t T = tileOf(V);
      if (T >= 0 && Tiles[size_t(T)].Results)
        continue; // each element written once; heldReads
      // A pointer into an array of results (`ws[e]`): the same.
      if (auto At = followed(Cur->TileViews, V);
          At && Tiles[size_t(At->first)].Results)
        continue;
      if (V != VD && !enclosingCounter(V, VD) &&
          llvm::any_of(Epilogue, [&](const Stmt *S) { return writes(S, V); }))
        return false;
    }
    return true;
  }

  /// Records the reads of arrays of results in `E`, for resolveHeld to
  /// check where they are: a local initialized with one is read again
  /// where a store reads the local, later.
  bool heldReads(const Expr *E) {
    if (auto T = tileElement(E, false); T && Tiles[size_t(T->first)].Results) {
      heldRead(*T, E);
      LocalReads.push_back(*StoredHeld);
      StoredHeld.reset();
      return true;
    }
    for (const Stmt *Child : E->children())
      if (auto *X = dyn_cast_or_null<Expr>(Child); X && !heldReads(X))
        return false;
    return true;
  }

  /// Whether `V` is the variable of a loop after the K loop whose body
  /// declares `Local` and does not write `V`: it changes only between the
  /// iterations, so it has one value from the declaration to the end of
  /// the body, where Local's uses are.
  bool enclosingCounter(const VarDecl *V, const VarDecl *Local) const {
    struct Loops : RecursiveASTVisitor<Loops> {
      std::vector<const ForStmt *> Found;
      bool VisitForStmt(ForStmt *F) {
        Found.push_back(F);
        return true;
      }
    } L;
    for (const Stmt *S : Epilogue)
      L.TraverseStmt(const_cast<Stmt *>(S));
    const SourceManager &SM = Ctx.getSourceManager();
    for (const ForStmt *F : L.Found) {
      auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
      const SourceRange Body = F->getBody()->getSourceRange();
      if (Init && Init->isSingleDecl() && Init->getSingleDecl() == V &&
          !SM.isBeforeInTranslationUnit(Local->getLocation(),
                                        Body.getBegin()) &&
          !SM.isBeforeInTranslationUnit(Body.getEnd(), Local->getLocation()) &&
          !writes(F->getBody(), V))
        return true;
    }
    return false;
  }

  /// Whether `S` assigns, advances or takes the address of `V` or of an
  /// element or member of it.
  static bool writes(const Stmt *S, const VarDecl *V) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const VarDecl *V;
      bool Found = false;
      bool target(const Expr *E) {
        for (E = E->IgnoreParenImpCasts();;) {
          if (auto *A = dyn_cast<ArraySubscriptExpr>(E))
            E = A->getBase()->IgnoreParenImpCasts();
          else if (auto *M = dyn_cast<MemberExpr>(E))
            E = M->getBase()->IgnoreParenImpCasts();
          else
            break;
        }
        auto *R = dyn_cast<DeclRefExpr>(E);
        return R && R->getDecl() == V;
      }
      bool VisitBinaryOperator(BinaryOperator *B) {
        Found |= B->isAssignmentOp() && target(B->getLHS());
        return !Found;
      }
      bool VisitUnaryOperator(UnaryOperator *U) {
        Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
                 target(U->getSubExpr());
        return !Found;
      }
      bool VisitCallExpr(CallExpr *C) {
        // A call may write through a reference or pointer argument.
        for (const Expr *A : C->arguments())
          Found |= target(A) && !A->getType()->isArithmeticType();
        return !Found;
      }
    } F;
    F.V = V;
    F.TraverseStmt(const_cast<Stmt *>(S));
    return F.Found;
  }

  /// A one-dimensional tile in dynamic shared memory (DynamicTiles.h), of
  /// the elements up to the next tile; the last one's runs to the end of
  /// the largest shared memory of a block (227 KiB, CUDA C++ Programming
  /// Guide, "Compute Capability 9.0"), for the indices to be checked
  /// against.
  bool dynamicTile(const DynamicTile &D) {
    const QualType E = tileElementType(D.Var, Ctx);
    if (!elementOf(E))
      return fail(D.Var->getLocation(),
                  "expected a tile of __nv_bfloat16 or __half");
    const int64_t Size = Ctx.getTypeSizeInChars(E).getQuantity();
    SharedTile T;
    T.Var = D.Var;
    if (auto *Outer =
            Ctx.getAsConstantArrayType(D.Var->getType()->getPointeeType()))
      return arrayTile(D, Size, Outer);
    if (auto It = DynamicRings.find(D.Var); It != DynamicRings.end()) {
      T.DynamicRing = true;
      T.Cols = It->second.first;
      T.Buffers = It->second.second;
      return addTile(std::move(T));
    }
    T.Cols = D.Extent ? D.Extent : (227 * 1024 - D.Offset) / Size;
    if (T.Cols <= 0)
      return fail(D.Var->getLocation(),
                  "the tile starts past the end of shared memory");
    return addTile(std::move(T));
  }

  /// The loop body's top-level statements, split by its two barriers into
  /// the staging, the product and what follows (pointer advances only).
  bool segments() {
    auto *Body = dyn_cast<CompoundStmt>(Loop->getBody());
    const char *Expected =
        "expected the loop body: the staging copies, '__syncthreads();', "
        "the product, '__syncthreads();'";
    if (!Body)
      return fail(Loop->getForLoc(), Expected);
    if (stagingTiles() != 0 && llvm::any_of(Body->body(), [](const Stmt *S) {
          return barrierLoop(unattributed(S));
        }))
      return coarsenedSegments(Body);
    size_t Part = 0;
    for (const Stmt *S : Body->body()) {
      if (isBarrier(S)) {
        if (++Part > 2)
          return fail(S->getBeginLoc(), Expected);
        continue;
      }
      if (Part == 1 && nextIterationBarrier(S)) {
        if (afterLoopNamesShared())
          return fail(S->getBeginLoc(),
                      "the loop's last iteration skips the barrier after the "
                      "product, and the code after the loop may write shared "
                      "memory (it names a __shared__ variable or a local "
                      "pointer) while other threads still read the tiles; "
                      "end the body with an unconditional '__syncthreads();'");
        ++Part;
        continue;
      }
      Seg[Part].push_back(const_cast<Stmt *>(S));
      if (const VarDecl *P = advancedPointer(S)) {
        for (const auto &[At, Q] : LoopAdvances)
          if (Q == P)
            return fail(S->getBeginLoc(),
                        "the pointer '" + P->getName().str() +
                            "' is advanced twice in one iteration");
        LoopAdvances.push_back({S, P});
        InLoop.push_back(P);
      }
    }
    // Without tiles, no barriers: the whole body loads fragments from
    // global memory and multiplies them.
    if (Part == 0 && stagingTiles() == 0) {
      std::swap(Seg[0], Seg[1]);
      GlobalBody = true;
      return true;
    }
    if (const Stmt *Nested =
            Part < 2 && stagingTiles() != 0 ? nestedBarrier(Body) : nullptr)
      return fail(Nested->getBeginLoc(),
                  "a '__syncthreads();' inside an inner loop of the loop "
                  "body: the form has its two barriers at the top "
                  "level of the body, one between the staging copies and "
                  "the product, one after the product; a body that stages "
                  "and multiplies tiles several times per iteration (thread "
                  "coarsening over an inner loop) is not lifted");
    if (const Expr *Call =
            Part < 2 && stagingTiles() != 0 ? calledBarrier(Body) : nullptr)
      return fail(Call->getBeginLoc(),
                  "this call reaches a '__syncthreads();' inside a lambda "
                  "or a function: the form's two barriers are read where "
                  "the loop body calls '__syncthreads();' itself (between "
                  "the staging copies and the product, and after the "
                  "product); call it there");
    if (Part < 2 && stagingTiles() != 0)
      return fail(Body->getEndLoc(),
                  std::string(Part == 0 ? "the loop body has no "
                                        : "the loop body has one ") +
                      "'__syncthreads();' where the form has two: one "
                      "between the staging copies and the product, one "
                      "after the product, before the next iteration "
                      "overwrites the tiles");
    if (Part != 2 || stagingTiles() == 0)
      return fail(Body->getEndLoc(), Expected);
    return true;
  }

  /// The first '__syncthreads();' inside a loop of `Body` (thread
  /// coarsening's `for (c ...) { stage; sync; multiply; sync; }`), or null.
  /// `S` without the attributes around it (`#pragma unroll`).
  static const Stmt *unattributed(const Stmt *S) {
    while (auto *A = dyn_cast_or_null<AttributedStmt>(S))
      S = A->getSubStmt();
    return S;
  }

  /// A loop body that stages and multiplies tiles several times per
  /// iteration through a loop of constant bounds with barriers in it (PMPP's
  /// thread coarsening: one tile of A staged, then per output column tile a
  /// tile of B staged, a barrier, the product, a barrier). The loop is
  /// unrolled and the body split at its barriers into rounds of staging
  /// copies and a product (Rounds), followed in order: a tile staged in an
  /// earlier round is read as it was staged there, one staged again is
  /// read as the latest round staged it.
  bool coarsenedSegments(const CompoundStmt *Body) {
    const char *Expected =
        "expected a loop body that stages and multiplies tiles several "
        "times per iteration as rounds of staging copies, "
        "'__syncthreads();', the product, '__syncthreads();', the rounds "
        "made by loops 'for (int c = a; c < b; c += s)' of integer constants "
        "(thread coarsening), with no pointer advanced inside them";
    std::vector<std::vector<Stmt *>> Parts(1);
    std::vector<std::vector<LoopBindings>> Bound(1);
    LoopBindings Now;
    std::function<bool(Stmt *)> Flatten = [&](Stmt *S) {
      if (isBarrier(S)) {
        Parts.emplace_back();
        Bound.emplace_back();
        return true;
      }
      const Stmt *L = unattributed(S);
      if (!barrierLoop(L)) {
        if (const VarDecl *P = advancedPointer(S)) {
          if (!Now.empty())
            return bool(fail(S->getBeginLoc(), Expected));
          LoopAdvances.push_back({S, P});
          InLoop.push_back(P);
        }
        Parts.back().push_back(S);
        Bound.back().push_back(Now);
        return true;
      }
      auto *F = cast<ForStmt>(L);
      std::optional<std::vector<int64_t>> Values = uniformTrips(F);
      if (!Values)
        return bool(fail(F->getForLoc(), Expected));
      auto *V = cast<VarDecl>(cast<DeclStmt>(F->getInit())->getSingleDecl());
      for (int64_t Value : *Values) {
        Now.push_back({V, Value});
        for (Stmt *X : loopBody(F))
          if (!Flatten(X))
            return false;
        Now.pop_back();
      }
      return true;
    };
    for (Stmt *S : Body->body())
      if (!Flatten(S))
        return false;
    const size_t Barriers = Parts.size() - 1;
    if (Barriers < 2 || Barriers % 2)
      return fail(Body->getEndLoc(), Expected);
    for (size_t R = 0; R + 1 < Parts.size(); R += 2)
      Rounds.push_back({Parts[R], Parts[R + 1], Bound[R], Bound[R + 1]});
    RoundTail = Parts.back();
    RoundTailBound = Bound.back();
    return true;
  }

  /// The first call at the top level of `Body` (`sync();`) of a lambda or
  /// a function whose body holds a barrier, or null.
  static const Expr *calledBarrier(const CompoundStmt *Body) {
    std::function<bool(const Stmt *)> HasBarrier = [&](const Stmt *X) {
      if (!X)
        return false;
      if (isBarrier(X))
        return true;
      return llvm::any_of(X->children(), HasBarrier);
    };
    for (const Stmt *S : Body->body()) {
      auto *Call = dyn_cast<CallExpr>(unattributed(S));
      const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
      if (F && F->hasBody() && !isBarrier(Call) && HasBarrier(F->getBody()))
        return Call;
    }
    return nullptr;
  }

  static const Stmt *nestedBarrier(const CompoundStmt *Body) {
    std::function<const Stmt *(const Stmt *, bool)> Find =
        [&](const Stmt *X, bool InLoop) -> const Stmt * {
      if (!X || isa<LambdaExpr>(X))
        return nullptr;
      if (isBarrier(X))
        return InLoop ? X : nullptr;
      InLoop = InLoop || isa<ForStmt, WhileStmt, DoStmt>(X);
      for (const Stmt *C : X->children())
        if (const Stmt *F = Find(C, InLoop))
          return F;
      return nullptr;
    };
    for (const Stmt *S : Body->body())
      if (const Stmt *F = Find(S, false))
        return F;
    return nullptr;
  }

  /// `if (k0 + BK < K) __syncthreads();` in the loop `for (int k0 = ...;
  /// k0 < K; k0 += BK)`: the barrier after the product on every iteration
  /// a next one follows, whose staging it orders after the product's reads;
  /// the last iteration, which skips it, is followed by no staging. The
  /// condition is the loop's condition at the next step, spelled the same
  /// (`<` or `<=` as the loop's, the step and the bound the loop's).
  bool nextIterationBarrier(const Stmt *S) const {
    auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
      return false;
    const Stmt *Then = If->getThen();
    if (auto *C = dyn_cast<CompoundStmt>(Then)) {
      if (C->size() != 1)
        return false;
      Then = C->body_front();
    }
    const std::optional<SteppedLoop> L = steppedLoop(Loop);
    auto *Cond = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParenImpCasts());
    auto *Sum =
        Cond ? dyn_cast<BinaryOperator>(Cond->getLHS()->IgnoreParenImpCasts())
             : nullptr;
    auto Same = [&](const Expr *A, const Expr *B) {
      llvm::FoldingSetNodeID IA, IB;
      A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
      B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
      return IA == IB;
    };
    return isBarrier(Then) && L && Sum && Sum->getOpcode() == BO_Add &&
           Cond->getOpcode() == (L->Inclusive ? BO_LE : BO_LT) &&
           refersTo(Sum->getLHS(), L->Var) && Same(Sum->getRHS(), L->Step) &&
           Same(Cond->getRHS(), L->Bound);
  }

  /// Whether the kernel's code after the tile loop names a __shared__
  /// variable or a local pointer (one that may point into shared memory),
  /// itself or in a function of the program it calls.
  bool afterLoopNamesShared() const {
    return namesSharedMemory(Kernel->getBody(), Ctx.getSourceManager(),
                             Loop->getEndLoc());
  }

  /// The pointer `S` advances (`p += step;`, `p = p + step;`), or null.
  const VarDecl *advancedPointer(const Stmt *S) const {
    auto *E = dyn_cast<Expr>(S);
    auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
    auto *R = B ? dyn_cast<DeclRefExpr>(bare(B->getLHS())) : nullptr;
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    return VD && VD->getType()->isPointerType() && B->isAssignmentOp()
               ? VD
               : nullptr;
  }

  //===--- following the threads -----------------------------------------===//

  void startThreads() {
    Following = true;
    for (int64_t Y = 0; Y < Block.Y; ++Y)
      for (int64_t X = 0; X < Block.X; ++X) {
        ThreadState T;
        T.Id[0] = X;
        T.Id[1] = Y;
        T.Ints = Ev.Bindings;
        Threads.push_back(std::move(T));
      }
  }

  /// Makes `T` the thread the evaluator and the pointers see.
  void enter(ThreadState &T) {
    std::swap(Ev.Bindings, T.Ints);
    std::swap(Pointers, T.Ptrs);
    Ev.Thread[0] = T.Id[0];
    Ev.Thread[1] = T.Id[1];
    Ev.Thread[2] = 0;
    Cur = &T;
  }
  void leave(ThreadState &T) {
    std::swap(Ev.Bindings, T.Ints);
    std::swap(Pointers, T.Ptrs);
    Cur = nullptr;
  }

  bool forThreads(llvm::ArrayRef<Stmt *> Stmts, Phase P, bool LastOnly) {
    for (size_t I = LastOnly ? Threads.size() - 1 : 0; I < Threads.size();
         ++I) {
      enter(Threads[I]);
      if (P == Phase::Rotated && CurSeg == 0)
        asyncCarried();
      bool Ok = block(Stmts, P) && asyncSettled(P, AsyncAtLoop);
      if (Ok && P == Phase::Epilogue)
        for (const auto &[Var, V] : Cur->Vectors)
          if (!(Ok = storedBack(Var)))
            break;
      leave(Threads[I]);
      if (!Ok)
        return false;
    }
    return true;
  }

  /// At the loop's start, each thread's pointers advanced in the loop are
  /// where they were plus one step per iteration before this one, the
  /// variables of a walking header where they start plus their steps so
  /// far, and every local float holds its value from the iteration before
  /// (Carried).
  bool enterLoop() {
    for (ThreadState &T : Threads) {
      enter(T);
      bool Ok = bindWalkers() && loopGuard();
      for (const auto &[At, P] : LoopAdvances)
        if (Ok && !(Ok = startPointer(At, P)))
          break;
      leave(T);
      if (!Ok)
        return false;
      T.Before = T.Floats;
      T.PipeAtLoop = T.PipeUnwaited;
      for (auto &[Var, Vals] : T.Floats)
        for (FVal &V : Vals)
          V = FVal{FVal::Carried};
      // A vector loaded before the loop holds what it did in the first
      // iteration only.
      for (auto &[Var, V] : T.Vectors)
        V = VectorTemp{};
      T.FragsBefore = T.Frags;
      for (auto &[Var, Vals] : T.Frags)
        for (FragVal &V : Vals)
          V = FragVal{FragVal::Carried};
    }
    return true;
  }

  bool startPointer(const Stmt *At, const VarDecl *P) {
    // Under loops over the taps, the iterations before (tap, c0) are not
    // KOffset / TILE.
    if (Nest)
      return fail(At->getBeginLoc(),
                  "a pointer advanced in the channel tile's loop under loops "
                  "over the filter taps is not lifted: index the matrices "
                  "by the loops' variables");
    auto *B = cast<BinaryOperator>(cast<Expr>(At)->IgnoreImplicit());
    const Expr *StepE = nullptr;
    if (B->getOpcode() == BO_AddAssign)
      StepE = B->getRHS();
    else if (auto *Sum = dyn_cast<BinaryOperator>(bare(B->getRHS()));
             B->getOpcode() == BO_Assign && Sum && Sum->getOpcode() == BO_Add &&
             refersTo(Sum->getLHS(), P))
      StepE = Sum->getRHS();
    if (!StepE)
      return fail(At->getBeginLoc(),
                  "expected a pointer advanced by a step, 'p += step;'");
    std::optional<Poly> Step = eval(StepE, "the pointer's step");
    auto Now = Step ? pointer(B->getLHS()) : std::nullopt;
    const int64_t Lanes = Now ? lanes(B->getLHS(), Now->first) : 0;
    if (!Step)
      return false;
    if (!Lanes)
      return fail(At->getBeginLoc(), "expected a pointer into a matrix "
                                     "advanced by a whole number of elements");
    *Step = *Step * Poly::constant(Lanes); // a float4 * steps by 4 floats
    std::optional<Poly> Done = (KOffset * *Step).dividedExactly(G.Tile);
    if (Step->dependsOn(Counter) || !Done)
      return fail(StepE->getBeginLoc(),
                  "the pointer's step must be the same in every iteration "
                  "and a multiple of the loop's step, " +
                      std::to_string(G.Tile) + " elements");
    Pointers[P] = {Now->first, Now->second + *Done};
    return true;
  }

  bool exec(const Stmt *S, Phase P) {
    // The attempts at a loop follow a bounded number of statements
    // together: a block of 256 threads through an 8 x 8 micro-tile and a
    // 32-element K step is about 8 * 10^5 (1.5 s).
    if (++Followed > StepLimit) {
      TooLong = true;
      return fail(S->getBeginLoc(),
                  "the kernel's loops run too long to follow: more than " +
                      std::to_string(StepLimit) +
                      " statements for the blocks tried, one iteration each");
    }
    if (auto *A = dyn_cast<AttributedStmt>(S))
      return exec(A->getSubStmt(), P);
    if (auto *C = dyn_cast<CompoundStmt>(S))
      return block(llvm::ArrayRef<Stmt *>(C->body_begin(), C->size()), P,
                   C == UnrolledBody);
    if (const Stmt *Once = onceBody(S)) // `do { ... } while (0)`
      return exec(Once, P);
    if (isa<NullStmt>(S))
      return true;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      return declare(DS, P);
    if (isBarrier(S))
      return fail(S->getBeginLoc(),
                  "expected '__syncthreads();' only at the top level of the "
                  "loop body: one after the staging copies, one after the "
                  "product");
    if (auto *A = dyn_cast<GCCAsmStmt>(S))
      return asmStatement(A, P);
    if (auto *F = dyn_cast<ForStmt>(S))
      return unroll(F, P);
    if (auto *If = dyn_cast<IfStmt>(S))
      return branch(If, P);
    bool IsAssert = false;
    if (const Expr *X = assertCondition(S, Ctx, IsAssert); IsAssert)
      return assertion(X, S);
    if (auto *E = dyn_cast<Expr>(S))
      return expression(E, P);
    return fail(S->getBeginLoc(), expected(P));
  }

  /// The statements of a block, in order (Blocks says which is followed).
  /// In the body of a loop of the epilogue (`LoopBody`), `if (row >= M)
  /// continue;` puts the statements after it under `row < M`.
  bool block(llvm::ArrayRef<Stmt *> Body, Phase P, bool LoopBody = false) {
    noteZeroFills(Body);
    Blocks.push_back({Body, 0});
    const size_t Depth = Guards.size();
    bool Ok = true;
    for (size_t I = 0; Ok && I < Body.size(); ++I) {
      Blocks.back().second = I;
      // The variables of the epilogue's unrolled loops (splitEpilogue).
      if (EpilogueBindings && Blocks.size() == 1 &&
          (P == Phase::Epilogue || !Rounds.empty()))
        for (const auto &[Var, Value] : (*EpilogueBindings)[I])
          Ev.Bindings[Var] = Poly::constant(Value);
      if (EpilogueConditions && Blocks.size() == 1 && P == Phase::Epilogue &&
          !(*EpilogueConditions)[I].empty()) {
        const size_t Outer = Guards.size();
        Ok = branchConditions((*EpilogueConditions)[I]) &&
             (BetaUpdates.contains(Body[I]) || exec(Body[I], P));
        Guards.resize(Outer);
        continue;
      }
      if (const Expr *Kept = LoopBody && P == Phase::Epilogue
                                 ? continueCondition(Body[I])
                                 : nullptr) {
        Ok = guard(Kept, Guards);
        continue;
      }
      // `if (row >= M) return;` at the top of the epilogue's last part: the
      // rest runs under `row < M`.
      if (auto *If = dyn_cast<IfStmt>(Body[I]); If && P == Phase::Epilogue &&
                                                Blocks.size() == 1 &&
                                                returnsNothing(If->getThen())) {
        Ok = returnCheck(If);
        continue;
      }
      // A zero store that the checked copy after it overwrites where its
      // check holds: followed as part of that copy (guardedStaging).
      if (staging(P) && ZeroStores.contains(Body[I]) && !isa<DeclStmt>(Body[I]))
        continue;
      if (!BetaUpdates.contains(Body[I]))
        Ok = exec(Body[I], P);
    }
    Guards.resize(Depth);
    Blocks.pop_back();
    return Ok;
  }

  /// The checks of the `if`s a warp barrier splits (splitEpilogue) around
  /// a statement of the epilogue, added to Guards. The lanes of a warp must
  /// pass them alike: '__syncwarp();' waits for every lane.
  bool branchConditions(const BranchConditions &Conds) {
    Guard G;
    for (const Expr *C : Conds)
      if (!guard(C, G))
        return false;
    Cur->SplitGuards.push_back(G);
    if (!leader()) {
      const std::vector<Guard> &Lead = leaderOf().SplitGuards;
      const size_t N = Cur->SplitGuards.size();
      if (Lead.size() < N || !sameGuard(Lead[N - 1], G))
        return fail(Conds.back()->getBeginLoc(),
                    "the lanes of a warp must pass a bounds check with a "
                    "warp barrier in it alike ('__syncwarp();' waits for "
                    "every lane): expected its condition the same for every "
                    "lane");
    }
    Guards.insert(Guards.end(), G.begin(), G.end());
    return true;
  }

  /// `if (cond) return;` (no else) at the top level of the epilogue, after
  /// its last barrier: the rest of it runs under the negated condition
  /// (continueCondition's), as if under `if (!cond)`.
  bool returnCheck(const IfStmt *If) {
    const Expr *Kept = keptCondition(If);
    if (!Kept || EpiloguePart + 1 != EpilogueParts)
      return fail(If->getBeginLoc(),
                  "expected a return of the threads outside C after the "
                  "epilogue's last barrier, 'if (row >= M || col >= N) "
                  "return;', its condition comparisons, '||' and '!'");
    return guard(Kept, Guards);
  }

  /// `if (cond) continue;` (no else): the condition under which the rest
  /// of the loop body runs, `!cond` with the comparisons inverted (`row >=
  /// M || col >= N` gives `row < M && col < N`); null for any other
  /// statement, or a condition not made of comparisons, `||` and `!`.
  const Expr *continueCondition(const Stmt *S) {
    auto *If = dyn_cast<IfStmt>(S);
    return If && isa_and_nonnull<ContinueStmt>(single(If->getThen()))
               ? keptCondition(If)
               : nullptr;
  }

  static const char *expected(Phase P) {
    switch (P) {
    case Phase::Prologue:
      return "expected before the loop only declarations (the __shared__ "
             "tiles, index variables, pointers into the matrices, float "
             "accumulators set to 0), pointer advances and loops that set "
             "accumulators to 0";
    case Phase::Stage:
      return "expected, before the first barrier, staging copies 'tile[i] "
             "= r < R && c < C ? matrix[index] : 0' (or unchecked, or 16-byte "
             "vector copies), in loops of constant bounds";
    case Phase::Product:
      return "expected, between the barriers, the product: elements of the "
             "tiles read into registers and 'acc[i] += x * y' in loops of "
             "constant bounds";
    case Phase::Tail:
      return "expected after the second barrier only pointer advances";
    case Phase::Rotated:
      return "expected in the loop body, which stages the next iteration's "
             "tiles: the product over the tiles the iteration reads, and "
             "copies of the next tiles (under 'if (<the loop's condition one "
             "step on>)' or not) into registers, then into the tiles, or into "
             "buffer (i + 1) % 2, in loops of constant bounds";
    case Phase::Epilogue:
      return "expected after the loop the stores 'C[index] = acc[i]' (or "
             "alpha * acc[i] + beta * C[index], a bias, ReLU), under "
             "'if (row < M && col < N)' where the staging is checked, in "
             "loops of constant bounds";
    }
    return "";
  }

  bool declare(const DeclStmt *DS, Phase P) {
    for (const Decl *D : DS->decls()) {
      if (auto *VD = dyn_cast<VarDecl>(D); VD && InPrefetch)
        PrefetchLocals.insert(VD);
      if (isa<UsingDirectiveDecl, UsingDecl, TypedefNameDecl, StaticAssertDecl>(
              D))
        continue;
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return fail(D->getLocation(), expected(P));
      if (ToggleVars.contains(VD))
        continue;
      // `auto load = [&](int stage, int k) {...};`: followed at each call
      // (call), where unliftableConstruct has let it through.
      if (heldLambda(VD))
        continue;
      // `cg::thread_block block = cg::this_thread_block();`, whose
      // `block.sync()` is a barrier (isBarrier).
      if (isThreadBlock(VD->getType()->getAsCXXRecordDecl()))
        continue;
      if (isCudaPipeline(VD->getType()) && !VD->getType()->isReferenceType()) {
        if (!pipelineDeclaration(VD, P))
          return false;
        continue;
      }
      // `const auto shape = cuda::aligned_size_t<16>(16);`, a copy's size.
      if (isAlignedSize(VD->getType()) && VD->getType().isConstQualified() &&
          VD->hasInit() && copyBytes(VD->getInit()))
        continue;
      if (VD->hasAttr<CUDASharedAttr>() ||
          (P == Phase::Prologue && Dynamic.find(VD))) {
        const int32_t T = tileOf(VD);
        if (P != Phase::Prologue &&
            !(P == Phase::Epilogue && T >= 0 && Tiles[size_t(T)].Results))
          return fail(VD->getLocation(), expected(P));
        continue;
      }
      const QualType T = VD->getType();
      if (VD->hasInit() && mayWrite(VD->getInit(), Ctx))
        return fail(VD->getInit()->getBeginLoc(),
                    "the initializer of '" + VD->getName().str() +
                        "' has side effects that are not followed");
      // `const bool inside = ih >= 0 && ih < H;`: an implicit GEMM's
      // checks, conditions rather than pairs `u < extent` (fetch).
      if (VD->hasInit() && T->isBooleanType() && Im2col) {
        const LiftFailure Kept = Why;
        if (Conditions C; conditionsOf(VD->getInit(), C))
          Cur->NamedChecks[VD] = std::move(C);
        else
          Cur->NamedChecks.erase(VD);
        Why = Kept;
      }
      // `int n = row < M && k < K ? 16 : 0;`, a zero-filling copy's size.
      if (VD->hasInit() && (T->isIntegerType() || T->isBooleanType()))
        if (auto C = choice(VD->getInit(), T->isBooleanType())) {
          if (isModified(VD, declaringBody(VD)))
            return fail(VD->getLocation(), "the copy size '" +
                                               VD->getName().str() +
                                               "' is changed");
          Cur->Choices[VD] = std::move(*C);
          continue;
        }
      if (Cur->NamedChecks.contains(VD))
        continue;
      // `uint32_t s = __cvta_generic_to_shared(&tile[i]);`, for cp.async.
      if (T->isIntegerType() && VD->hasInit() && Ctx.getTypeSize(T) >= 32)
        if (auto At = sharedAddress(VD->getInit())) {
          if (isModified(VD, declaringBody(VD)))
            return fail(VD->getLocation(), "the shared address '" +
                                               VD->getName().str() +
                                               "' is changed");
          Cur->SharedAddrs[VD] = {*At, Looping};
          continue;
        }
      // `int cur = t % 2, nxt = cur ^ 1;`: a buffer of double-buffered tiles.
      if (T->isIntegerType() && VD->hasInit() && Looping &&
          (isCurrent(VD->getInit()) || isNext(VD->getInit()))) {
        if (isModified(VD, Loop->getBody()))
          return fail(VD->getLocation(), "the buffer index '" +
                                             VD->getName().str() +
                                             "' is changed in the loop");
        (isCurrent(VD->getInit()) ? CurrentVars : NextVars).push_back(VD);
        continue;
      }
      // `int cur = t % 3;`: a buffer of a ring, read through its
      // initializer (ringResidue).
      if (T->isIntegerType() && VD->hasInit() && Looping &&
          llvm::any_of(Tiles, [&](const SharedTile &X) {
            return X.Buffers > 2 && ringResidue(VD->getInit(), X.Buffers);
          })) {
        if (isModified(VD, Loop->getBody()))
          return fail(VD->getLocation(), "the buffer index '" +
                                             VD->getName().str() +
                                             "' is changed in the loop");
        continue;
      }
      if (T->isIntegerType() && VD->hasInit()) {
        bool Wrapped = false;
        std::optional<int64_t> C = Ev.constant(VD->getInit(), &Wrapped);
        if (Wrapped || (C && *C < 0 && T->isUnsignedIntegerType()))
          return fail(VD->getInit()->getBeginLoc(),
                      "the value of '" + VD->getName().str() +
                          "' does not fit its type for some thread (C's "
                          "arithmetic wraps around)");
        if (C) {
          Ev.Bindings[VD] = Poly::constant(*C);
        } else if (std::optional<Poly> V = Ev.eval(VD->getInit())) {
          Ev.Bindings[VD] = *V;
        } else if (P == Phase::Prologue && bindLaunchValue(VD)) {
          // computed by the launcher too (a split-K slice from gridDim)
        } else if (P == Phase::Prologue) {
          Ev.Opaque.try_emplace(VD, Ev.Why); // a tile count, say
        } else {
          eval(VD->getInit(), "its value");
          return false;
        }
        if (P == Phase::Prologue && !llvm::is_contained(PrologueInts, VD))
          PrologueInts.push_back(VD);
        continue;
      }
      if (T->isPointerType() && VD->hasInit()) {
        if (std::optional<bool> View = tileViewDeclaration(VD, P)) {
          if (!*View)
            return false;
          continue;
        }
        if (staging(P) && viewDeclaration(VD))
          continue;
        if (!pointerDeclaration(VD))
          return false;
        continue;
      }
      if (std::optional<Fragment> F =
              fragmentOf(Ctx.getBaseElementType(VD->getType()))) {
        std::optional<int64_t> N = elements(VD);
        const bool Shape = (F->M == 16 && F->N == 16 && F->K == 16) ||
                           (F->M == 32 && F->N == 8 && F->K == 16) ||
                           (F->M == 8 && F->N == 32 && F->K == 16);
        if (!N || !Shape)
          return fail(VD->getLocation(),
                      "expected fragments of m16n16k16, m32n8k16 or "
                      "m8n32k16");
        FragKinds[VD] = *F;
        Cur->Frags[VD].assign(size_t(*N), FragVal{});
        continue;
      }
      if (P == Phase::Epilogue && pairType(T)) {
        if (!pairDeclaration(VD))
          return false;
        continue;
      }
      if (vectorType(T)) {
        std::optional<bool> Read = tileVector(VD, P);
        if (!(Read ? *Read : vectorDeclaration(VD, P)))
          return false;
        continue;
      }
      if (P == Phase::Epilogue && (betaLocal(DS, VD) || valueLocal(VD)))
        continue;
      // A scale the stores apply, computed from the kernel's parameters
      // alone (`const float scale = 1.0f / sqrtf((float)K);`).
      if (P == Phase::Prologue && VD->hasInit() && !allZero(VD->getInit()) &&
          !mentions(Loop, VD) && uniformScale(VD))
        continue;
      if (!local(VD, P))
        return false;
    }
    return true;
  }

  //===--- vector temporaries --------------------------------------------===//

  /// A vector type of a system header (vector_types.h's float4, ...): a
  /// trivially copyable struct of 8 or 16 bytes whose members have one
  /// builtin type.
  bool vectorType(QualType T) const {
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || !fromSystemHeader(RD) || !RD->isTriviallyCopyable() ||
        RD->field_empty() || T->isIncompleteType() || isAlignedSize(T))
      return false;
    const QualType F = RD->field_begin()->getType().getCanonicalType();
    for (const FieldDecl *FD : RD->fields())
      if (!F->isBuiltinType() || FD->getType().getCanonicalType() != F)
        return false;
    const int64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
    return Bytes == 8 || Bytes == 16;
  }

  /// A pair of 16-bit floats of the CUDA headers (`__half2`,
  /// `__nv_bfloat162`): two members of one 2-byte type that is no integer,
  /// 4 bytes in all.
  bool pairType(QualType T) const {
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!RD || !fromSystemHeader(RD) || T->isIncompleteType() ||
        std::distance(RD->field_begin(), RD->field_end()) != 2 ||
        Ctx.getTypeSizeInChars(T).getQuantity() != 4)
      return false;
    const QualType F = RD->field_begin()->getType().getCanonicalType();
    return std::next(RD->field_begin())->getType().getCanonicalType() == F &&
           !F->isIntegerType() && Ctx.getTypeSizeInChars(F).getQuantity() == 2;
  }

  /// `const __half2 h = __floats2half2_rn(x, y);` (any pair madePair
  /// takes) or `__half2 h;` with `h.x = x; h.y = y;` after it, in the
  /// epilogue, h stored into C right after in the same block: stores of x
  /// and y into the two elements of C it is stored into (freshMember).
  bool pairDeclaration(const VarDecl *VD) {
    const Expr *Init = VD->getInit();
    if (auto *C = dyn_cast_or_null<CXXConstructExpr>(Init);
        C && C->getNumArgs() == 0)
      Init = nullptr;
    const CallExpr *Made = Init ? madePair(Init) : nullptr;
    if ((Init && (!Made || !sameType(Made->getType(), VD->getType()))) ||
        (Cur->Vectors.count(VD) && !storedBack(VD)))
      return fail(VD->getLocation(),
                  "expected the pair '" + VD->getName().str() +
                      "' declared without a value or made of two stored "
                      "values ('const __half2 h = __floats2half2_rn(x, y);'), "
                      "and stored into two consecutive elements of C of its "
                      "member type right after, in the same block");
    return freshVector(VD, Made);
  }

  /// `float4 a = *reinterpret_cast<const float4 *>(&As[k][i]);` in the
  /// product: a vector of the tile's element type read from a row of the
  /// tile, whose members (`a.x`, location) are registers holding those
  /// elements. Nullopt for any other declaration.
  std::optional<bool> tileVector(const VarDecl *VD, Phase P) {
    // `float2 a = __half22float2(a2[k]);`: a pair of 16-bit elements
    // widened to floats, exactly, as `__half2float` widens one.
    const Expr *Init = VD->getInit();
    const CallExpr *Widen = Init ? dyn_cast<CallExpr>(bare(Init)) : nullptr;
    const FunctionDecl *F = Widen ? Widen->getDirectCallee() : nullptr;
    if (F && F->getIdentifier() && Widen->getNumArgs() == 1 &&
        fromSystemHeader(F) &&
        (F->getName() == "__half22float2" ||
         F->getName() == "__bfloat1622float2"))
      Init = Widen->getArg(0);
    else
      Widen = nullptr;
    std::optional<VectorRef> Src =
        P == Phase::Product || P == Phase::Rotated
            ? (Init ? vectorAccess(Init) : std::nullopt)
            : std::nullopt;
    auto T = Src ? vectorTile(*Src) : std::nullopt;
    const auto *RD = VD->getType()->getAsCXXRecordDecl();
    // A read of a tile that is no vector of it (one at no multiple of
    // the vector's size).
    if (auto *C = Src && !T ? dyn_cast<ExplicitCastExpr>(Src->Ptr) : nullptr;
        C && tilePointer(C->getSubExpr()))
      return bool(fail(VD->getLocation(), TileVectorMessage));
    if (!T || !RD)
      return std::nullopt;
    const SharedTile &X = Tiles[size_t(T->first)];
    const int64_t N =
        int64_t(std::distance(RD->field_begin(), RD->field_end()));
    const CXXRecordDecl *SrcRD = Src->V->getAsCXXRecordDecl();
    const bool Widened =
        Widen && SrcRD && pairType(Src->V) && N == 2 &&
        RD->field_begin()->getType()->isSpecificBuiltinType(
            BuiltinType::Float) &&
        sameType(tileElementType(X.Var, Ctx), SrcRD->field_begin()->getType());
    if ((Widen && !Widened) ||
        (!Widen && (!sameType(tileElementType(X.Var, Ctx),
                              RD->field_begin()->getType()) ||
                    !sameType(Src->V, VD->getType()))) ||
        T->second % X.Cols + N > X.Cols)
      return bool(fail(VD->getLocation(), TileVectorMessage));
    Cur->Floats[VD].assign(size_t(N), FVal{});
    for (int64_t I = 0; I < N; ++I) {
      std::optional<FVal> F =
          tileRead({T->first, T->second + I}, VD->getInit(), P);
      if (!F)
        return std::optional<bool>(false);
      Cur->Floats[VD][size_t(I)] = *F;
    }
    return true;
  }

  /// `V v = *reinterpret_cast<const V *>(&M[i]);` (or `...(p)[0]`, or an
  /// assignment `v = ...;` of one declared so), M a matrix of V's member
  /// type, in the staging or the epilogue.
  bool vectorDeclaration(const VarDecl *VD, Phase P) {
    // Declared without a value (a trivial constructor's): it holds
    // nothing until a load.
    const Expr *Init = VD->getInit();
    if (auto *C = dyn_cast_or_null<CXXConstructExpr>(Init);
        C && C->getNumArgs() == 0)
      Init = nullptr;
    if (!Init && (!Cur->Vectors.count(VD) || storedBack(VD))) {
      Cur->Vectors[VD] = VectorTemp{};
      Cur->Vectors[VD].Fresh = P == Phase::Epilogue;
      return true;
    }
    if (staging(P) && zeroVector(Init, VD->getType())) {
      if (Cur->Vectors.count(VD) && !storedBack(VD))
        return false;
      Cur->Vectors[VD] = VectorTemp{};
      Cur->Vectors[VD].Zero = true;
      return true;
    }
    if (auto *C =
            staging(P) ? dyn_cast<ConditionalOperator>(bare(Init)) : nullptr;
        C && zeroVector(C->getFalseExpr(), VD->getType())) {
      if (Cur->Vectors.count(VD) && !storedBack(VD))
        return false;
      return checkedVectorLoad(VD, C->getCond(), C->getTrueExpr(), P);
    }
    if (const CallExpr *Made =
            P == Phase::Epilogue ? madeVector(Init, VD->getType()) : nullptr) {
      if (Cur->Vectors.count(VD) && !storedBack(VD))
        return false;
      return freshVector(VD, Made);
    }
    return vectorLoad(VD, Init, P);
  }

  /// Records `VD`, declared in the epilogue, as a fresh vector whose members
  /// are set later, or by the arguments of `Made` where it is not null
  /// (freshMember).
  bool freshVector(const VarDecl *VD, const CallExpr *Made) {
    Cur->Vectors[VD] = VectorTemp{};
    Cur->Vectors[VD].Fresh = true;
    for (unsigned I = 0; Made && I < Made->getNumArgs(); ++I)
      if (!freshMember(VD, I, Made->getArg(I), Made))
        return false;
    return true;
  }
  /// Where `Read` is a member of a vector loaded under a bounds check
  /// (`v.y`, or `h[i]` of a pointer to its elements): that check, the
  /// member's place in the vector and the vector's elements.
  std::optional<std::tuple<const Guard *, int64_t, int64_t>>
  checkedLane(const Expr *Read) const {
    const VarDecl *Vec = nullptr;
    std::optional<int64_t> Lane;
    if (auto *M = dyn_cast<MemberExpr>(bare(Read))) {
      auto [VD, I] = vectorMember(M);
      Vec = VD, Lane = I;
    } else if (auto *S = dyn_cast<ArraySubscriptExpr>(bare(Read))) {
      auto *R = dyn_cast<DeclRefExpr>(bare(S->getBase()));
      auto *P = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      auto View = P ? Cur->Views.find(P) : Cur->Views.end();
      if (View != Cur->Views.end())
        Vec = View->second, Lane = Ev.constant(S->getIdx());
    }
    auto V = Vec ? Cur->Vectors.find(Vec) : Cur->Vectors.end();
    if (V == Cur->Vectors.end() || !V->second.Checked || !Lane)
      return std::nullopt;
    return std::tuple(&*V->second.Checked, *Lane, V->second.Count);
  }

  /// `C[i] += v` of a float C in the epilogue, as `C[i] = C[i] + v` (the
  /// old value read, then the sum in float); null for any other update.
  const Expr *addedToC(const CompoundAssignOperator *CA) {
    if (CA->getOpcode() != BO_AddAssign)
      return nullptr;
    return addedToC(CA->getLHS(), CA->getRHS(), CA->getOperatorLoc());
  }
  /// `X + V` of `X += V` (or `atomicAdd(&X, V)`), X a float element of a
  /// matrix and V a float; null otherwise.
  const Expr *addedToC(const Expr *X, const Expr *V, SourceLocation At) {
    const QualType F = Ctx.FloatTy;
    if (!sameType(X->getType(), F) || !sameType(V->getType(), F) || !global(X))
      return nullptr;
    auto *Read = ImplicitCastExpr::Create(Ctx, F, CK_LValueToRValue,
                                          const_cast<Expr *>(X), nullptr,
                                          VK_PRValue, FPOptionsOverride());
    return BinaryOperator::Create(Ctx, Read, const_cast<Expr *>(V), BO_Add, F,
                                  VK_PRValue, OK_Ordinary, At,
                                  FPOptionsOverride());
  }

  /// Whether the declaration `D` (or the statement `S`) is in the loop's
  /// body.
  bool inLoop(const VarDecl *D) const { return inLoop(D->getLocation()); }
  bool inLoop(const Stmt *S) const { return inLoop(S->getBeginLoc()); }
  bool inLoop(SourceLocation L) const {
    const SourceManager &SM = Ctx.getSourceManager();
    return SM.isPointWithin(SM.getExpansionLoc(L),
                            SM.getExpansionLoc(Loop->getBody()->getBeginLoc()),
                            SM.getExpansionLoc(Loop->getBody()->getEndLoc()));
  }

  /// The vector temporary `E` names, or null.
  const VarDecl *vectorTemp(const Expr *E) const {
    auto *Ref = dyn_cast<DeclRefExpr>(bare(E));
    auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    return V && Cur->Vectors.count(V) ? V : nullptr;
  }

  /// Whether `E` is a vector of type `T` holding zeros: `make_uint4(0, 0,
  /// 0, 0)` (the CUDA headers' make_ function of T, every argument 0),
  /// `{0, 0, 0, 0}`, `{}` or `T{}`.
  bool zeroVector(const Expr *E, QualType T) const {
    // `float4{}` and `float4{0, 0, 0, 0}` of the aggregate are list
    // initializations in a functional cast.
    while (E && isa<CXXFunctionalCastExpr>(bare(E)))
      E = cast<CXXFunctionalCastExpr>(bare(E))->getSubExpr();
    if (!E || !sameType(bare(E)->getType(), T))
      return false;
    if (isZero(bare(E)))
      return true;
    if (auto *L = dyn_cast<InitListExpr>(bare(E)))
      return llvm::all_of(L->inits(), [](const Expr *I) {
        return isa<ImplicitValueInitExpr>(I) || isZero(I);
      });
    const CallExpr *Made = madeVector(E, T);
    return Made && llvm::all_of(Made->arguments(),
                                [](const Expr *A) { return isZero(A); });
  }

  /// `v = cond ? *reinterpret_cast<const V *>(&M[j]) : <zeros>` (or `if
  /// (cond) v = ...;` of a vector of zeros) in the staging copies: the
  /// vector holds M[j + i] where the bounds check `cond` holds, else zeros.
  bool checkedVectorLoad(const VarDecl *VD, const Expr *Cond, const Expr *Load,
                         Phase P) {
    // Comparisons joined by `&&`, and bool locals set to them.
    Guard G;
    if (!checks(Cond, G)) {
      Guard Why;
      return guard(Cond, Why) &&
             fail(Cond->getBeginLoc(), "expected a bounds check 'row < M && "
                                       "k < K', or a bool local set to one");
    }
    Cur->Vectors.erase(VD);
    if (!vectorLoad(VD, Load, P))
      return false;
    Cur->Vectors[VD].Checked = std::move(G);
    return true;
  }

  bool vectorLoad(const VarDecl *VD, const Expr *Init, Phase P) {
    const std::string Expected =
        "expected the vector '" + VD->getName().str() +
        "' loaded from consecutive elements of a matrix of its member type, "
        "'float4 " +
        VD->getName().str() +
        " = *reinterpret_cast<const float4 *>(&matrix[j]);', in the staging "
        "copies or the epilogue";
    auto Old = Cur->Vectors.find(VD);
    if (Old != Cur->Vectors.end() && !storedBack(VD))
      return false;
    std::optional<VectorRef> Src = Init && (staging(P) || P == Phase::Epilogue)
                                       ? vectorAccess(Init)
                                       : std::nullopt;
    auto Ptr = Src ? vectorPlace(*Src) : std::nullopt;
    const QualType Member = VD->getType()
                                ->getAsCXXRecordDecl()
                                ->field_begin()
                                ->getType()
                                .getCanonicalType();
    const QualType Element = Ptr ? Ptr->first->getType()
                                       ->getPointeeType()
                                       .getCanonicalType()
                                       .getUnqualifiedType()
                                 : QualType();
    // A staging copy may read 16-bit elements through a pointer to the
    // vector (viewDeclaration) rather than its members.
    const bool Viewed = Ptr && Element != Member && staging(P) &&
                        elementOf(Element) &&
                        elementOf(Element) != ElementType::F32;
    if (!Ptr ||
        Src->V != VD->getType().getCanonicalType().getUnqualifiedType() ||
        (Element != Member && !Viewed))
      return fail(Init ? Init->getBeginLoc() : VD->getLocation(), Expected);
    const int64_t Bytes = Src->Bytes;
    VectorTemp V;
    V.Ptr = Ptr->first;
    V.Offset = Ptr->second;
    if (Viewed)
      V.View = Element;
    V.Count = Bytes / Ctx.getTypeSizeInChars(Element).getQuantity();
    V.Set.assign(size_t(V.Count), false);
    Cur->Vectors[VD] = std::move(V);
    return true;
  }

  /// The vector temporary and member index of `v.x`, or null.
  std::pair<const VarDecl *, int64_t> vectorMember(const MemberExpr *M) const {
    auto *R = dyn_cast<DeclRefExpr>(bare(M->getBase()));
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
    if (!Cur || !VD || !FD || M->isArrow() || !Cur->Vectors.count(VD))
      return {nullptr, 0};
    return {VD, int64_t(FD->getFieldIndex())};
  }

  /// A member of a vector temporary that still holds what it was loaded
  /// with: that element of the matrix.
  std::optional<GlobalAccess>
  vectorElement(const MemberExpr *M) const override {
    auto [VD, I] = vectorMember(M);
    if (!VD)
      return std::nullopt;
    const VectorTemp &V = Cur->Vectors.find(VD)->second;
    if (I >= V.Count || V.Set[size_t(I)] || V.StoredBack || !V.View.isNull() ||
        V.Fresh || (V.Checked && !StagingChecked))
      return std::nullopt;
    return GlobalAccess{V.Ptr, zeroIndex(M->getBeginLoc()),
                        V.Offset + Poly::constant(I)};
  }

  /// `h[e]` of a pointer to the elements of a vector temporary (a view,
  /// viewDeclaration) that still holds what it was loaded with: that
  /// element of the matrix, e constant for the thread and inside the
  /// vector.
  std::optional<GlobalAccess>
  viewElement(const ArraySubscriptExpr *S) const override {
    auto *R = dyn_cast<DeclRefExpr>(bare(S->getBase()));
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    auto View = VD && Cur ? Cur->Views.find(VD) : decltype(Cur->Views.end())();
    if (!VD || !Cur || View == Cur->Views.end())
      return std::nullopt;
    auto V = Cur->Vectors.find(View->second);
    std::optional<int64_t> I = Ev.constant(S->getIdx());
    if (V == Cur->Vectors.end() || V->second.View.isNull() ||
        V->second.StoredBack || (V->second.Checked && !StagingChecked) || !I ||
        *I < 0 || *I >= V->second.Count)
      return std::nullopt;
    return GlobalAccess{V->second.Ptr, zeroIndex(S->getBeginLoc()),
                        V->second.Offset + Poly::constant(*I)};
  }

  /// `const T *a = As + (t % S) * C;` (or `&As[...]`, `As[b]` decayed):
  /// a local pointer of the tile's element type into a __shared__ tile,
  /// never changed, read as the element it points to where it is set (so a
  /// buffer counter advanced later does not move it), and indexed `a[i]`
  /// or moved `a + i` within that buffer (tileView). Into an array of
  /// results (`float *ws = scratch[warp];` or `&scratch[0][0] + warp *
  /// 256`, a warp's scratch) only outside the loop, which does not use
  /// it. Nullopt where the initializer names no tile; false with a
  /// failure where it is no such pointer.
  std::optional<bool> tileViewDeclaration(const VarDecl *VD, Phase P) {
    const Expr *Init = VD->getInit();
    if (!llvm::any_of(
            Tiles, [&](const SharedTile &X) { return mentions(Init, X.Var); }))
      return std::nullopt;
    const std::string Name = VD->getName().str();
    if (std::optional<bool> Vector = vectorViewDeclaration(VD))
      return Vector;
    std::optional<std::pair<int32_t, int64_t>> At = tilePointer(Init);
    if (!At && !Why.Message.empty())
      return false;
    if (At && Tiles[size_t(At->first)].Results && P != Phase::Epilogue &&
        P != Phase::Prologue)
      return fail(Init->getBeginLoc(),
                  "expected the pointer '" + Name + "' into the array of " +
                      "results '" +
                      Tiles[size_t(At->first)].Var->getName().str() +
                      "' to be declared outside the loop");
    if (!At || !sameType(VD->getType()->getPointeeType(),
                         tileElementType(Tiles[size_t(At->first)].Var, Ctx)))
      return fail(Init->getBeginLoc(),
                  "expected the pointer '" + Name +
                      "' to point into a __shared__ tile, of its element "
                      "type, at an element constant for each thread ('const "
                      "T *" +
                      Name + " = As + (t % S) * C;')");
    if (isModified(VD, declaringBody(VD)))
      return fail(VD->getLocation(), "the pointer '" + Name +
                                         "' into a __shared__ tile is changed");
    Cur->TileViews[VD] = {*At, Looping};
    return true;
  }

  /// `const __half2 *a2 = reinterpret_cast<const __half2 *>(&As[r][c]);`
  /// (or float4, ...): a pointer to vectors (vectorType, pairType) of the
  /// tile's element type, at an element that starts one (span), never
  /// changed; its vectors are read as tileVector reads them. Nullopt where
  /// the declaration is no cast to a pointer to vectors.
  std::optional<bool> vectorViewDeclaration(const VarDecl *VD) {
    auto *C = dyn_cast<ExplicitCastExpr>(bare(VD->getInit()));
    const QualType V = VD->getType()->getPointeeType();
    if (!C || !(vectorType(V) || pairType(V)))
      return std::nullopt;
    const auto *RD = V->getAsCXXRecordDecl();
    std::optional<std::pair<int32_t, int64_t>> At =
        tileSpan(C->getSubExpr(), 0, Ctx.getTypeSizeInChars(V).getQuantity());
    if (!At || !sameType(RD->field_begin()->getType(),
                         tileElementType(Tiles[size_t(At->first)].Var, Ctx)))
      return Why.Message.empty()
                 ? bool(fail(VD->getLocation(), TileVectorMessage))
                 : false;
    if (Tiles[size_t(At->first)].Results)
      return bool(fail(VD->getLocation(), TileVectorMessage));
    if (isModified(VD, declaringBody(VD)))
      return bool(
          fail(VD->getLocation(), "the pointer '" + VD->getName().str() +
                                      "' into a __shared__ tile is changed"));
    Cur->VectorViews[VD] = {*At, Looping};
    return true;
  }

  /// The element the local pointer `R` names points to (TileViews), where
  /// it is one set where the loop is followed as now, or of a tile of one
  /// buffer; nullopt otherwise, with a failure at `E` where it points into
  /// an array of results and is used in the loop (resultsViewOutsideLoop).
  std::optional<std::pair<int32_t, int64_t>> tileView(const DeclRefExpr *R,
                                                      const Expr *E) {
    auto View =
        followed(Cur->TileViews, R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr);
    if (View && !resultsViewOutsideLoop(*View, R->getDecl(), E))
      return std::nullopt;
    return View;
  }

  /// Fails at `E` where `D`, a pointer (or shared-memory address) set
  /// before the loop to an element `At` of an array of results
  /// (tileViewDeclaration, sharedAddress), is used in the loop or in the
  /// copies of its first tiles: only the code after the loop may touch that
  /// array.
  bool resultsViewOutsideLoop(std::pair<int32_t, int64_t> At,
                              const NamedDecl *D, const Expr *E) {
    const SharedTile &X = Tiles[size_t(At.first)];
    if (!X.Results || (!Looping && !PrologueStaging && !InLoopBody))
      return true;
    return fail(E->getBeginLoc(),
                "'" + D->getName().str() + "' points into the array of " +
                    "results '" + X.Var->getName().str() +
                    "' and is used in the loop: only the code after the loop "
                    "may use that array");
  }

  /// The tile element a local of `Elements` (SharedAddrs, TileViews) holds,
  /// where it was set where the loop is followed as now or names a tile of
  /// one buffer: a buffer of a multi-buffered tile set outside the loop is
  /// a fixed one, which the loop does not follow.
  std::optional<std::pair<int32_t, int64_t>>
  followed(const llvm::DenseMap<const VarDecl *,
                                std::pair<std::pair<int32_t, int64_t>, bool>>
               &Elements,
           const VarDecl *VD) const {
    auto It = VD ? Elements.find(VD) : Elements.end();
    if (It == Elements.end())
      return std::nullopt;
    const auto [At, InLoop] = It->second;
    if (InLoop != Looping && Tiles[size_t(At.first)].Buffers > 1)
      return std::nullopt;
    return At;
  }

  /// `At` moved by `Offset` elements, where that stays in its buffer.
  std::optional<std::pair<int32_t, int64_t>>
  sameBuffer(std::pair<int32_t, int64_t> At, int64_t Offset) const {
    const SharedTile &X = Tiles[size_t(At.first)];
    const int64_t To = At.second + Offset;
    if (To < 0 || To >= X.size() || To / X.buffer() != At.second / X.buffer())
      return std::nullopt;
    return std::pair(At.first, To);
  }

  /// `const T *h = reinterpret_cast<const T *>(&v);` in the staging copies,
  /// v a vector temporary loaded from a matrix of T (VectorTemp::View), h
  /// never changed: h[e] reads element e of what v holds.
  bool viewDeclaration(const VarDecl *VD) {
    auto *C = dyn_cast<ExplicitCastExpr>(VD->getInit()->IgnoreParenImpCasts());
    auto *U =
        C ? dyn_cast<UnaryOperator>(C->getSubExpr()->IgnoreParenImpCasts())
          : nullptr;
    auto *R =
        U && U->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())
            : nullptr;
    auto *Vec = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    auto V = Vec ? Cur->Vectors.find(Vec) : Cur->Vectors.end();
    if (V == Cur->Vectors.end() || V->second.View.isNull() ||
        VD->getType()
                ->getPointeeType()
                .getCanonicalType()
                .getUnqualifiedType() != V->second.View ||
        isModified(VD, declaringBody(VD)))
      return false;
    Cur->Views[VD] = Vec;
    return true;
  }

  /// `v.x = value;` in the epilogue, v loaded from C: a store of that
  /// element of C, made when v is stored back.
  bool setVectorMember(const MemberExpr *M, const Expr *R, Phase P) {
    auto [VD, I] = vectorMember(M);
    if (P == Phase::Epilogue && Cur->Vectors[VD].Fresh)
      return freshMember(VD, I, R, M);
    std::optional<GlobalAccess> Out = vectorElement(M);
    if (P != Phase::Epilogue || !Out)
      return fail(M->getBeginLoc(),
                  "a member of the vector '" + VD->getName().str() +
                      "' may be set only in the epilogue, once, to the "
                      "value stored into the element of C it was loaded "
                      "from");
    VectorTemp &V = Cur->Vectors[VD];
    if (V.SetUnder && *V.SetUnder != Guards)
      return fail(M->getBeginLoc(), GuardMessage(VD));
    if (!store(*Out, M, R))
      return false;
    V.Set[size_t(I)] = true;
    V.SetUnder = Guards;
    return true;
  }

  /// `*reinterpret_cast<V *>(&C[i]) = v;`, where v was loaded.
  bool storeBack(const VectorRef &Dst, const VarDecl *VD, const Expr *L) {
    VectorTemp &V = Cur->Vectors[VD];
    auto Ptr = vectorPlace(Dst);
    if (!Ptr || Ptr->first != V.Ptr || Ptr->second != V.Offset || V.StoredBack)
      return fail(L->getBeginLoc(), "the vector '" + VD->getName().str() +
                                        "' must be stored back, once, "
                                        "where it was loaded from");
    // The stores its members stand for are made here: under the checks
    // they were recorded with, or they would not be the kernel's stores.
    if (V.SetUnder && *V.SetUnder != Guards)
      return fail(L->getBeginLoc(), GuardMessage(VD));
    // A member not set would store back the value loaded, undoing any
    // store into its element since the load; a vector loaded from C must
    // have every member set, as a fresh one must.
    if (!llvm::all_of(V.Set, [](bool B) { return B; }))
      return fail(L->getBeginLoc(),
                  "the vector '" + VD->getName().str() +
                      "' is stored into C with members that were never set");
    V.StoredBack = true;
    return true;
  }

  /// `make_float4(x, y, z, w)` (make_float2, ...) of the CUDA headers,
  /// making a vector of type `T`, or null.
  const CallExpr *madeVector(const Expr *E, QualType T) const {
    auto *C = E ? dyn_cast<CallExpr>(bare(E)) : nullptr;
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
    if (!F || !RD || !fromSystemHeader(F) || !F->getIdentifier() ||
        F->getName() != ("make_" + RD->getName()).str() ||
        !sameType(C->getType(), T) ||
        C->getNumArgs() !=
            unsigned(std::distance(RD->field_begin(), RD->field_end())))
      return nullptr;
    return C;
  }

  /// Member `I` of the vector `VD` declared in the epilogue without a value
  /// set to `R` by the statement `At` (`out.x = alpha * acc[i][j];`, or the
  /// declaration `float4 out = make_float4(...);`): a store of R into the
  /// element of C that the statement storing VD writes. That statement must
  /// follow in the same block with only member sets of such vectors between,
  /// so that nothing the store's place and R read changes before it.
  bool freshMember(const VarDecl *VD, unsigned I, const Expr *R,
                   const Expr *At) {
    const std::string Expected =
        "expected the members of the vector '" + VD->getName().str() +
        "' set one by one, each once, and the vector stored into consecutive "
        "elements of C of its member type right after, in the same block "
        "('*reinterpret_cast<float4 *>(&C[j]) = " +
        VD->getName().str() + ";')";
    VectorTemp &V = Cur->Vectors[VD];
    if (V.StoredBack)
      V = VectorTemp{}, V.Fresh = true;
    // A store under a bounds check of its own right after the sets makes
    // the members' stores under that check: nothing runs between the two,
    // and the values are the same where it is taken.
    const Expr *Under = nullptr;
    std::optional<VectorRef> Dst = freshStore(VD, At, &Under);
    auto Place = Dst ? vectorPlace(*Dst) : std::nullopt;
    const QualType Member =
        VD->getType()->getAsCXXRecordDecl()->field_begin()->getType();
    if (!Place || !sameType(Place->first->getType()->getPointeeType(), Member))
      return Why.Message.empty() ? fail(At->getBeginLoc(), Expected) : false;
    if (V.Set.empty()) {
      V.Ptr = Place->first;
      V.Offset = Place->second;
      V.Count = Dst->Bytes / Ctx.getTypeSizeInChars(Member).getQuantity();
      V.Set.assign(size_t(V.Count), false);
    }
    if (I >= V.Set.size() || V.Set[I] || V.Ptr != Place->first ||
        V.Offset != Place->second)
      return fail(At->getBeginLoc(), Expected);
    const size_t Depth = Guards.size();
    if (Under && !guard(Under, Guards))
      return false;
    const bool Stored =
        laneStore(I, V.Count,
                  GlobalAccess{V.Ptr, zeroIndex(At->getBeginLoc()),
                               V.Offset + Poly::constant(int64_t(I))},
                  At, R);
    V.Set[I] = true;
    V.SetUnder = Guards;
    Guards.resize(Depth);
    return Stored;
  }

  /// A pair of 16-bit values made of two stored values, of cuda_fp16.h or
  /// cuda_bf16.h: `__floats2half2_rn(x, y)`, `__floats2bfloat162_rn(x, y)`
  /// (each float rounded to nearest, as a store of it into C is), or
  /// `__halves2half2(a, b)`, `make_half2(a, b)`, `__halves2bfloat162(a,
  /// b)`, `make_bfloat162(a, b)`; null for anything else.
  static const CallExpr *madePair(const Expr *E) {
    auto *C = dyn_cast<CallExpr>(bare(E));
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier() || !fromSystemHeader(F) ||
        C->getNumArgs() != 2)
      return nullptr;
    return llvm::is_contained({"__floats2half2_rn", "__floats2bfloat162_rn",
                               "__halves2half2", "make_half2",
                               "__halves2bfloat162", "make_bfloat162"},
                              F->getName())
               ? C
               : nullptr;
  }

  /// `*reinterpret_cast<__half2 *>(&C[j]) = __floats2half2_rn(x, y);` (or
  /// `reinterpret_cast<__half2 *>(p)[i]`): stores of x and y into C[j] and
  /// C[j + 1], C's elements of the pair's member type.
  bool storePair(const Expr *L, const CallExpr *Made) {
    const char *Expected =
        "expected a pair made of two stored values stored into two "
        "consecutive elements of C of its member type "
        "('*reinterpret_cast<__half2 *>(&C[j]) = __floats2half2_rn(x, y);')";
    const Expr *X = bare(L);
    const Expr *Ptr = nullptr, *Index = nullptr;
    if (auto *U = dyn_cast<UnaryOperator>(X); U && U->getOpcode() == UO_Deref)
      Ptr = bare(U->getSubExpr());
    else if (auto *S = dyn_cast<ArraySubscriptExpr>(X))
      Ptr = bare(S->getBase()), Index = S->getIdx();
    auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Ptr);
    auto At = Cast ? pointer(Cast->getSubExpr()) : std::nullopt;
    // The pair's index in pairs, or `X / 2` of its first element X
    // (halvedIndex).
    std::optional<Poly> Halved = Index ? halvedIndex(Index) : std::nullopt;
    std::optional<Poly> I = Halved  ? Halved
                            : Index ? eval(Index, "the pair's index")
                                    : std::optional<Poly>(Poly());
    const QualType Pair = Made->getType().getCanonicalType();
    const RecordDecl *RD = Pair->getAsRecordDecl();
    if (!At || !I || !RD || !fromSystemHeader(RD) ||
        !sameType(Cast->getType()->getPointeeType(), Pair) ||
        std::distance(RD->field_begin(), RD->field_end()) != 2 ||
        !sameType(RD->field_begin()->getType(),
                  At->first->getType()->getPointeeType()) ||
        Ctx.getTypeSizeInChars(Pair).getQuantity() != 4)
      return Why.Message.empty() ? fail(L->getBeginLoc(), Expected) : false;
    const Poly First = At->second + (Halved ? *I : *I * Poly::constant(2));
    for (unsigned J = 0; J < 2; ++J)
      if (!laneStore(J, 2,
                     GlobalAccess{At->first, zeroIndex(L->getBeginLoc()),
                                  First + Poly::constant(int64_t(J))},
                     L, Made->getArg(J)))
        return false;
    return true;
  }

  /// `X / 2` as a pair's index (`reinterpret_cast<__half2 *>(C)[(r * N +
  /// c) / 2]`): the pair at elements X and X + 1, C's quotient being X / 2
  /// exactly where X is even. Each term of X must be even for every thread
  /// and block, or odd only through an extent, which the launcher then
  /// requires even (EvenExtents: `r * N` with N even). X's polynomial;
  /// nullopt for another index and where X may be odd, which the index
  /// arithmetic then reads as it reads any quotient (a thread's odd `(n0 +
  /// tx) / 2` is the pair at elements X - 1 and X).
  std::optional<Poly> halvedIndex(const Expr *Index) {
    auto *B = dyn_cast<BinaryOperator>(bare(Index));
    if (!B || B->getOpcode() != BO_Div || Ev.constant(B->getRHS()) != 2)
      return std::nullopt;
    std::optional<Poly> X = Ev.eval(B->getLHS());
    if (!X)
      return std::nullopt;
    std::vector<Extent> Even;
    for (const auto &[M, C] : X->terms()) {
      if (C % 2 == 0)
        continue;
      // An extent that must be even: the first parameter of the term, or a
      // constant known to be even (none needed then).
      const Extent *By = nullptr;
      for (Symbol S : M) {
        const Extent *E = extentOfSymbol(S);
        if (E && E->Value && *E->Value % 2 == 0) {
          By = E;
          break;
        }
        if (E && !E->Value && !By)
          By = E;
      }
      if (!By)
        return std::nullopt;
      if (!By->Value)
        Even.push_back(*By);
    }
    for (const Extent &E : Even)
      if (!llvm::is_contained(EvenExtents, E))
        EvenExtents.push_back(E);
    return X;
  }

  /// store() of lane `Lane` of a vector store of `Width` elements.
  bool laneStore(unsigned Lane, int64_t Width, const GlobalAccess &Out,
                 const Expr *L, const Expr *R) {
    StoreLane = {int64_t(Lane), Width};
    const bool Ok = store(Out, L, R);
    StoreLane = {0, 1};
    return Ok;
  }

  /// `*reinterpret_cast<float4 *>(&C[j]) = make_float4(x, y, z, w);`: a
  /// store of each argument into its element of C, of the member type.
  bool storeMade(const VectorRef &Dst, const CallExpr *Made, const Expr *L) {
    auto Place = vectorPlace(Dst);
    const QualType Member =
        Dst.V->getAsCXXRecordDecl()->field_begin()->getType();
    if (!Place ||
        !sameType(Place->first->getType()->getPointeeType(), Member) ||
        Dst.Bytes / Ctx.getTypeSizeInChars(Member).getQuantity() !=
            int64_t(Made->getNumArgs()))
      return fail(L->getBeginLoc(), "expected a vector made of stored values "
                                    "stored into consecutive elements of C "
                                    "of its member type");
    for (unsigned I = 0; I < Made->getNumArgs(); ++I)
      if (!laneStore(I, Made->getNumArgs(),
                     GlobalAccess{Place->first, zeroIndex(L->getBeginLoc()),
                                  Place->second + Poly::constant(int64_t(I))},
                     L, Made->getArg(I)))
        return false;
    return true;
  }

  /// The store of the fresh vector `VD` that follows the statement `At`
  /// in the block being followed, with only member sets of fresh vectors
  /// between (freshMember); nullopt where there is none.
  /// With `Under`, the store may also stand alone under a bounds check
  /// right after the sets, `if (row < M && col < N) <store>;` (no else):
  /// `*Under` is then its condition, else null.
  std::optional<VectorRef> freshStore(const VarDecl *VD, const Expr *At,
                                      const Expr **Under = nullptr) {
    if (Under)
      *Under = nullptr;
    if (Blocks.empty())
      return std::nullopt;
    auto [Body, Index] = Blocks.back();
    const Stmt *Here = Body[Index];
    auto IsAt = [&](const Stmt *S) {
      if (auto *DS = dyn_cast<DeclStmt>(S))
        return DS->isSingleDecl() && DS->getSingleDecl() == VD;
      const Expr *L = nullptr, *R = nullptr;
      return isa<Expr>(S) && assignment(cast<Expr>(S), L, R) && bare(L) == At;
    };
    if (!IsAt(Here))
      return std::nullopt;
    for (size_t J = Index + 1; J < Body.size(); ++J) {
      if (isa<NullStmt>(Body[J]))
        continue;
      const Stmt *S = Body[J];
      const auto *If = dyn_cast<IfStmt>(S);
      if (If) {
        if (!Under || If->getElse() || If->getInit() ||
            If->getConditionVariable())
          return std::nullopt;
        S = single(If->getThen());
        *Under = If->getCond();
      }
      const Expr *E = dyn_cast_or_null<Expr>(S);
      const Expr *L = nullptr, *R = nullptr;
      if (!E || !assignment(E, L, R))
        return std::nullopt;
      auto *M = dyn_cast<MemberExpr>(bare(L));
      if (auto [V, I] = M ? vectorMember(M) : std::pair(nullptr, 0);
          V && Cur->Vectors[V].Fresh && !If)
        continue;
      auto *Ref = dyn_cast<DeclRefExpr>(bare(R));
      std::optional<VectorRef> Dst = vectorAccess(L);
      if (!Dst || !Ref || Ref->getDecl() != VD ||
          !sameType(Dst->V, VD->getType()))
        return std::nullopt;
      return Dst;
    }
    return std::nullopt;
  }

  static std::string GuardMessage(const VarDecl *VD) {
    return "the members of the vector '" + VD->getName().str() +
           "' must be set and stored back under the same bounds check";
  }

  /// Whether the members of `VD` set in the epilogue were stored back.
  bool storedBack(const VarDecl *VD) {
    const VectorTemp &V = Cur->Vectors.find(VD)->second;
    if (V.StoredBack || llvm::none_of(V.Set, [](bool B) { return B; }))
      return true;
    return fail(VD->getLocation(), "the vector '" + VD->getName().str() +
                                       "' is set but not stored back to C");
  }

  /// A local float (or bf16, fp16) scalar or array of one or two constant
  /// dimensions: zero where its initializer is, else unset (or, for a
  /// scalar, the value it is initialized with).
  bool local(const VarDecl *VD, Phase P) {
    const QualType E = Ctx.getBaseElementType(VD->getType());
    std::optional<int64_t> N = elements(VD);
    if (!elementOf(E) || !N)
      return fail(VD->getLocation(), expected(P));
    std::vector<FVal> &Vals = Cur->Floats[VD];
    Vals.assign(size_t(*N), FVal{});
    // `__half r[8];` runs a trivial default constructor: no value.
    auto *Default = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
    if (!VD->hasInit() || (Default && Default->getNumArgs() == 0 &&
                           !Default->requiresZeroInitialization() &&
                           Default->getConstructor()->isTrivial()))
      return true;
    if (allZero(VD->getInit())) {
      Vals.assign(size_t(*N), FVal{FVal::Zero});
      return true;
    }
    // `float a[4] = {v.x, v.y, v.z, v.w};`: each element set as by an
    // assignment, those the list leaves out to 0.
    auto *List = dyn_cast<InitListExpr>(bare(VD->getInit()));
    if (List && List->getNumInits() <= uint64_t(*N) &&
        !Ctx.getAsConstantArrayType(VD->getType())
             ->getElementType()
             ->isArrayType() &&
        (!List->hasArrayFiller() || allZero(List->getArrayFiller()))) {
      for (unsigned I = 0; I < List->getNumInits(); ++I) {
        if (!assign({VD, int64_t(I)}, List->getInit(I), P))
          return false;
      }
      for (int64_t I = List->getNumInits(); I < *N; ++I)
        Cur->Floats[VD][size_t(I)] = FVal{FVal::Zero};
      return true;
    }
    if (VD->getType()->isArrayType())
      return fail(VD->getLocation(), "expected a local array set to 0, set "
                                     "element by element by a list, or not "
                                     "initialized");
    return assign({VD, 0}, VD->getInit(), P);
  }

  /// The number of elements of a local scalar or array, or nullopt.
  std::optional<int64_t> elements(const VarDecl *VD) const {
    int64_t N = 1;
    QualType T = VD->getType();
    for (int Dims = 0; T->isArrayType(); ++Dims) {
      auto *A = Ctx.getAsConstantArrayType(T);
      if (!A || Dims == 2)
        return std::nullopt;
      N *= int64_t(A->getSize().getZExtValue());
      T = A->getElementType();
      if (N > 4096)
        return std::nullopt; // no thread's registers
    }
    return N;
  }

  static bool allZero(const Expr *E) {
    if (auto *L = dyn_cast<InitListExpr>(bare(E))) {
      for (const Expr *I : L->inits())
        if (!allZero(I))
          return false;
      return !L->hasArrayFiller() ||
             isa<ImplicitValueInitExpr>(L->getArrayFiller()) ||
             allZero(L->getArrayFiller());
    }
    return isa<ImplicitValueInitExpr>(bare(E)) || isZero(E);
  }

  /// The fragment `E` names where it is `frag.x[e]`, `e` the variable
  /// `Index`.
  std::optional<Location> fragmentElementOf(const Expr *E,
                                            const VarDecl *Index) {
    auto *A = dyn_cast<ArraySubscriptExpr>(bare(E));
    auto *M =
        A ? dyn_cast<MemberExpr>(A->getBase()->IgnoreParenImpCasts()) : nullptr;
    if (!M || M->getMemberDecl()->getName() != "x" ||
        !refersTo(A->getIdx(), Index) ||
        !isa<DeclRefExpr>(A->getIdx()->IgnoreParenImpCasts()))
      return std::nullopt;
    auto F = fragment(M->getBase());
    if (!F)
      return std::nullopt;
    return F->first;
  }

  /// `for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = alpha *
  /// acc.x[e];` (or `acc.x[e] *= alpha`) after the loop: every element of
  /// an accumulator fragment scaled by one float parameter, which makes
  /// the fragment's store a store of `alpha * acc` whatever element each
  /// lane holds (CUDA C++ Programming Guide, "Warp Matrix Functions": the
  /// mapping of x[] to the matrix is unspecified, so only a scale the same
  /// for every element can be applied so). Null where `F` is no loop over
  /// `num_elements`.
  std::optional<bool> fragmentScale(const ForStmt *F, Phase P) {
    auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
    auto *Count =
        Cond ? dyn_cast<MemberExpr>(Cond->getRHS()->IgnoreParenImpCasts())
             : nullptr;
    if (!Count || Count->getMemberDecl()->getName() != "num_elements")
      return std::nullopt;
    const char *Expected =
        "expected 'for (int e = 0; e < acc.num_elements; ++e) acc.x[e] = "
        "alpha * acc.x[e];' after the loop, outside any bounds check, once "
        "per accumulator fragment stored into C, alpha a float parameter";
    auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    auto *E = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Inc = dyn_cast_or_null<UnaryOperator>(F->getInc());
    const Expr *L = nullptr, *R = nullptr;
    const Stmt *Body = single(F->getBody());
    auto *Times = dyn_cast_or_null<CompoundAssignOperator>(Body);
    if (Times && Times->getOpcode() == BO_MulAssign) {
      L = Times->getLHS();
      R = Times->getRHS();
    } else if (!assignment(Body, L, R)) {
      return fail(F->getForLoc(), Expected);
    }
    if (P != Phase::Epilogue || !E || !E->hasInit() || !isZero(E->getInit()) ||
        Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), E) || !Inc ||
        !Inc->isIncrementOp() || !refersTo(Inc->getSubExpr(), E) ||
        isModified(E, F->getBody()))
      return fail(F->getForLoc(), Expected);
    if (auto *Add = Times ? nullptr : dyn_cast<BinaryOperator>(bare(R));
        Add && Add->getOpcode() == BO_Add)
      return fragmentBlend(F, E, L, Add, Count);
    if (!Guards.empty())
      return fail(F->getForLoc(), Expected);
    std::optional<Location> Frag = fragmentElementOf(L, E);
    const VarDecl *Scale = nullptr;
    if (Times) {
      Scale = floatParam(R);
    } else if (auto *M = dyn_cast<BinaryOperator>(bare(R));
               M && M->getOpcode() == BO_Mul) {
      for (auto [S, X] : {std::pair(M->getLHS(), M->getRHS()),
                          std::pair(M->getRHS(), M->getLHS())}) {
        std::optional<Location> Same = fragmentElementOf(X, E);
        if (floatParam(S) && Same && Frag && Same->Var == Frag->Var &&
            Same->Index == Frag->Index)
          Scale = floatParam(S);
      }
    }
    auto Whole = Frag ? fragment(Count->getBase()) : std::nullopt;
    if (!Frag || !Scale || !Whole || Whole->first.Var != Frag->Var ||
        Whole->first.Index != Frag->Index || Whole->second.Use != Fragment::Acc)
      return fail(F->getForLoc(), Expected);
    FragVal &V = atFragment(*Frag);
    if (V.K != FragVal::Sum || V.Scale || V.CTerm >= 0)
      return fail(F->getForLoc(), Expected);
    V.Scale = Scale;
    return true;
  }

  /// `for (int e = 0; e < c.num_elements; ++e) c.x[e] = alpha * acc.x[e] +
  /// beta * c.x[e];` after the loop (the terms in either order, alpha
  /// optional, the result in c or acc), c loaded from C (cFragmentLoad)
  /// and of acc's type, alpha and beta float parameters: elements of one
  /// index in fragments of one type hold one element of the tile (CUDA C++
  /// Programming Guide, "Warp Matrix Functions"), so the result holds
  /// alpha * acc + beta * C element by element. Under the bounds checks of
  /// c's load, which its store must have too.
  bool fragmentBlend(const ForStmt *F, const VarDecl *E, const Expr *L,
                     const BinaryOperator *Add, const MemberExpr *Count) {
    const char *Expected =
        "expected 'for (int e = 0; e < c.num_elements; ++e) c.x[e] = alpha * "
        "acc.x[e] + beta * c.x[e];' after the loop, c a fragment of acc's "
        "type loaded from C where it is stored, under the same bounds "
        "checks, alpha and beta float parameters";
    struct Term {
      Location Frag;
      const VarDecl *Scale = nullptr;
    };
    auto TermOf = [&](const Expr *X) -> std::optional<Term> {
      X = bare(X);
      if (std::optional<Location> At = fragmentElementOf(X, E))
        return Term{*At, nullptr};
      auto *M = dyn_cast<BinaryOperator>(X);
      if (!M || M->getOpcode() != BO_Mul)
        return std::nullopt;
      for (auto [S, Y] : {std::pair(M->getLHS(), M->getRHS()),
                          std::pair(M->getRHS(), M->getLHS())})
        if (std::optional<Location> At = fragmentElementOf(Y, E);
            At && floatParam(S))
          return Term{*At, floatParam(S)};
      return std::nullopt;
    };
    std::optional<Location> Target = fragmentElementOf(L, E);
    std::optional<Term> T1 = TermOf(Add->getLHS()), T2 = TermOf(Add->getRHS());
    auto Whole = fragment(Count->getBase());
    if (!Target || !T1 || !T2 || !Whole)
      return fail(F->getForLoc(), Expected);
    const bool AccFirst = atFragment(T1->Frag).K == FragVal::Sum;
    const Term &A = AccFirst ? *T1 : *T2, &CT = AccFirst ? *T2 : *T1;
    const FragVal VA = atFragment(A.Frag), VC = atFragment(CT.Frag);
    auto Is = [](const Location &X, const Location &Y) {
      return X.Var == Y.Var && X.Index == Y.Index;
    };
    const auto KA = FragKinds.find(A.Frag.Var),
               KC = FragKinds.find(CT.Frag.Var);
    if (VA.K != FragVal::Sum || VA.Scale || VA.CTerm >= 0 ||
        VC.K != FragVal::CLoad || !CT.Scale || KA == FragKinds.end() ||
        KC == FragKinds.end() || KA->second.M != KC->second.M ||
        KA->second.N != KC->second.N || KA->second.K != KC->second.K ||
        KA->second.Elem != KC->second.Elem ||
        (!Is(*Target, A.Frag) && !Is(*Target, CT.Frag)) ||
        (!Is(Whole->first, A.Frag) && !Is(Whole->first, CT.Frag)) ||
        !sameGuard(Guards, Cur->CLoads[size_t(VC.Id)].Bounds))
      return fail(F->getForLoc(), Expected);
    FragVal Blend = VA;
    Blend.Scale = A.Scale;
    Blend.CTerm = VC.Id;
    Blend.Beta = CT.Scale;
    Blend.CFirst = !AccFirst;
    atFragment(*Target) = Blend;
    return true;
  }

  /// An inner loop of constant bounds (with the block and the thread
  /// known), followed iteration by iteration.
  bool unroll(const ForStmt *F, Phase P) {
    if (std::optional<bool> Scaled = fragmentScale(F, P))
      return *Scaled;
    const char *Expected = "expected an inner loop 'for (int i = a; i < b; "
                           "i += c)' whose bounds are constants for each "
                           "thread of the block";
    auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
    auto *V = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    if (!V || !V->getType()->isIntegerType() || !V->hasInit() ||
        !F->getCond() || !F->getInc() || isModified(V, F->getBody()))
      return fail(F->getForLoc(), Expected);
    std::optional<Poly> Start = Ev.eval(V->getInit());
    if (!Start || !Start->constantValue())
      return fail(F->getForLoc(), Expected);
    if (InPrefetch)
      PrefetchLocals.insert(V);
    Ev.Bindings[V] = *Start;
    for (int Count = 0;; ++Count) {
      std::optional<bool> Go = constantCondition(F->getCond());
      if (!Go || Count > 65536)
        return fail(F->getCond()->getBeginLoc(), Expected);
      if (!*Go)
        break;
      const Stmt *Outer = UnrolledBody;
      UnrolledBody = F->getBody();
      const bool Ok = exec(F->getBody(), P);
      UnrolledBody = Outer;
      if (!Ok || !integerUpdate(F->getInc()))
        return Why.Message.empty() ? fail(F->getForLoc(), Expected) : false;
    }
    Ev.Bindings.erase(V);
    return true;
  }

  /// `assert(X)` (`X` null: an assert compiled out by NDEBUG): X must hold
  /// for this thread of the block followed. The rewrite leaves it out: its
  /// launcher runs the kernel as written, assert and all, with any other
  /// block.
  bool assertion(const Expr *X, const Stmt *S) {
    if (!X)
      return true;
    std::optional<bool> Holds = constantCondition(X);
    if (Holds && *Holds)
      return true;
    return fail(S->getBeginLoc(),
                Holds ? "the assert fails for a thread of the block"
                      : "expected an assert of comparisons between integers "
                        "that are constant for each thread of the block (its "
                        "size, the tile sizes), which the rewrite can prove "
                        "and leave out");
  }

  /// The value of a condition of comparisons between integers, where each
  /// side is a constant for this thread.
  std::optional<bool> constantCondition(const Expr *E) const {
    auto *B = dyn_cast<BinaryOperator>(bare(E));
    if (!B)
      return std::nullopt;
    if (B->getOpcode() == BO_LAnd || B->getOpcode() == BO_LOr) {
      std::optional<bool> L = constantCondition(B->getLHS());
      std::optional<bool> R = constantCondition(B->getRHS());
      if (!L || !R)
        return std::nullopt;
      return B->getOpcode() == BO_LAnd ? *L && *R : *L || *R;
    }
    std::optional<int64_t> X = Ev.constant(B->getLHS());
    std::optional<int64_t> Y = X ? Ev.constant(B->getRHS()) : std::nullopt;
    if (!X || !Y)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_LT:
      return *X < *Y;
    case BO_LE:
      return *X <= *Y;
    case BO_GT:
      return *X > *Y;
    case BO_GE:
      return *X >= *Y;
    case BO_EQ:
      return *X == *Y;
    case BO_NE:
      return *X != *Y;
    default:
      return std::nullopt;
    }
  }

  /// `++i`, `i++`, `i += c`, `i = i + c`, `--i`, `i -= c` of an integer
  /// local variable.
  bool integerUpdate(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    const VarDecl *V = nullptr;
    std::optional<Poly> To;
    if (auto *U = dyn_cast<UnaryOperator>(E);
        U && U->isIncrementDecrementOp()) {
      auto *R = dyn_cast<DeclRefExpr>(bare(U->getSubExpr()));
      V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      std::optional<Poly> Was = V ? Ev.eval(U->getSubExpr()) : std::nullopt;
      if (Was)
        To = *Was + Poly::constant(U->isIncrementOp() ? 1 : -1);
    } else if (auto *B = dyn_cast<BinaryOperator>(E);
               B && B->isAssignmentOp()) {
      auto *R = dyn_cast<DeclRefExpr>(bare(B->getLHS()));
      V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      std::optional<Poly> Was = V ? Ev.eval(B->getLHS()) : std::nullopt;
      std::optional<Poly> By = Was ? Ev.eval(B->getRHS()) : std::nullopt;
      if (By && B->getOpcode() == BO_Assign)
        To = By;
      else if (By && B->getOpcode() == BO_AddAssign)
        To = *Was + *By;
      else if (By && B->getOpcode() == BO_SubAssign)
        To = *Was - *By;
      else if (By && B->getOpcode() == BO_MulAssign)
        To = *Was * *By;
    }
    if (!V || !V->getType()->isIntegerType() || !To || isa<ParmVarDecl>(V))
      return false;
    if (Ev.mayWrap(*To, V->getType()))
      return fail(E->getBeginLoc(),
                  "the value of '" + V->getName().str() +
                      "' may not fit its type for some thread (C's "
                      "arithmetic wraps around)");
    if (!prefetchWrite(V, E))
      return false;
    Ev.Bindings[V] = *To;
    return true;
  }

  /// Whether a write of `V` may stand where it is: under a prefetch's
  /// condition, which the last iteration skips, only the locals declared
  /// under it, and registers loaded from the matrices (`Loaded`), may be
  /// written; else fails at `At`.
  bool prefetchWrite(const VarDecl *V, const Expr *At, bool Loaded = false) {
    if (!InPrefetch || (Loaded && FirstGuard < 0) || PrefetchLocals.contains(V))
      return true;
    if (FirstGuard >= 0)
      return fail(At->getBeginLoc(),
                  "'" + V->getName().str() +
                      "' is written under the condition of the copies "
                      "before the loop, which skips them where the loop "
                      "has fewer iterations: only copies into the tiles "
                      "may stand there");
    return fail(At->getBeginLoc(),
                "'" + V->getName().str() +
                    "' is written under the prefetch's condition, which the "
                    "last iteration skips: only the copies of the next tiles "
                    "and the loads of the registers they copy may stand there");
  }

  std::string prefetchRingMessage() const {
    const std::string D = std::to_string(Ahead);
    return "expected the copies of the tiles of iteration i + " + D +
           " under the loop's condition " + D + " steps on, 'if (t + " + D +
           " * step < bound)' or 'if (t < bound - " + D +
           " * step)' (for a tile counter up to ceil(K / TILE) also 'if ((t "
           "+ " +
           D +
           ") * TILE < K)'), with the loop's own bound: they may be skipped "
           "in the last " +
           D + " iterations only";
  }

  /// An `if`: a condition constant for the thread picks a branch; a staging
  /// copy's bounds check in its if/else form; a store's bounds check.
  bool branch(const IfStmt *If, Phase P) {
    if (P == Phase::Prologue && !If->getElse() &&
        isa_and_nonnull<ReturnStmt>(single(If->getThen())))
      return earlyReturn(If);
    if (std::optional<bool> C = constantCondition(If->getCond())) {
      if (*C)
        return exec(If->getThen(), P);
      return !If->getElse() || exec(If->getElse(), P);
    }
    // The prefetch, with an `else` that waits for every group where it is
    // skipped: there nothing stays in flight, so the waits and commits of
    // the prefetch are followed as every iteration's (Drained).
    if (P == Phase::Rotated && (!If->getElse() || drainsAll(If->getElse())) &&
        prefetchCondition(If->getCond())) {
      ++InPrefetch;
      Drained += If->getElse() ? 1 : 0;
      const bool Ok = exec(If->getThen(), P);
      Drained -= If->getElse() ? 1 : 0;
      --InPrefetch;
      return Ok;
    }
    if (P == Phase::Rotated && If->getElse() &&
        prefetchCondition(If->getCond()))
      return fail(If->getElse()->getBeginLoc(),
                  "expected the 'else' of the prefetch's condition to wait "
                  "for every group in flight, alone: "
                  "'__pipeline_wait_prior(0);', 'cp.async.wait_group 0;' or "
                  "'cp.async.wait_all;' (the iterations that skip the "
                  "prefetch then leave nothing in flight)");
    // `if (b < tiles)` before the loop: the copies of tile b and later,
    // skipped where no iteration reads them.
    if (P == Phase::Prologue && Rotated && !If->getElse())
      if (std::optional<int64_t> B = firstTileCondition(If->getCond())) {
        const int64_t Outer = FirstGuard;
        FirstGuard = std::max(FirstGuard, *B);
        ++InPrefetch;
        const bool Ok = exec(If->getThen(), P);
        --InPrefetch;
        FirstGuard = Outer;
        return Ok;
      }
    if (P == Phase::Rotated && !If->getElse())
      return fail(If->getCond()->getBeginLoc(),
                  Ahead > 1 ? prefetchRingMessage()
                            : "expected the copies of the next iteration's "
                              "tiles under the loop's condition one step on, "
                              "'if (t + step < bound)' or 'if (t < bound - "
                              "step)' (for a tile counter also 'if (t + 1 != "
                              "bound)', and 'if ((t + 1) * TILE < K)' up to "
                              "ceil(K / TILE)), with the loop's own bound: "
                              "they may be skipped in the last iteration "
                              "only");
    if (P == Phase::Product && GlobalBody && InLoopBody && !If->getElse())
      return bodyGuard(If);
    if (staging(P))
      return guardedStaging(If, P);
    if (P == Phase::Epilogue && If->getElse())
      if (auto Test = betaTest(If->getCond()))
        return betaBranches(If, Test->first, Test->second);
    if (P != Phase::Epilogue || If->getElse())
      return fail(If->getBeginLoc(), expected(P));
    const size_t Depth = Guards.size();
    if (!guard(If->getCond(), Guards))
      return false;
    bool Ok = exec(If->getThen(), P);
    Guards.resize(Depth);
    return Ok;
  }

  /// `if (beta == 0) <stores> else <stores>` after the loop (betaTest):
  /// both branches store the same elements of C from the same
  /// accumulators, under the same bounds checks; the value stored where
  /// beta is not 0 adds beta times C's old value to the other
  /// (GemmLoopReader::betaSelect's rule).
  bool betaBranches(const IfStmt *If, const VarDecl *Beta, bool ZeroIsThen) {
    const Stmt *ZeroS = ZeroIsThen ? If->getThen() : If->getElse();
    const Stmt *FullS = ZeroIsThen ? If->getElse() : If->getThen();
    for (const Stmt *Branch : {ZeroS, FullS})
      if (const Stmt *Change = branchChange(Branch))
        return fail(Change->getBeginLoc(),
                    "the branches of 'if (beta == 0)' may only store into "
                    "C: this changes a variable declared before the 'if' "
                    "(or calls a function), which the code after it would "
                    "see changed in one branch only");
    std::vector<StoreRecord> Outer, Zero;
    std::vector<std::pair<Poly, const Expr *>> OuterBias, ZeroBias;
    std::swap(Outer, Stores);
    std::swap(OuterBias, StoreBias);
    const StoredValue Before = takeValue();
    if (!exec(ZeroS, Phase::Epilogue))
      return false;
    std::swap(Zero, Stores);
    std::swap(ZeroBias, StoreBias);
    const StoredValue Z = takeValue();
    if (!exec(FullS, Phase::Epilogue))
      return false;
    const char *Expected =
        "expected the two branches of 'if (beta == 0)' to store the same "
        "elements of C from the same accumulators under the same bounds "
        "checks, the value where beta is not 0 the other plus 'beta * "
        "C[index]'";
    if (Zero.empty() || Zero.size() != Stores.size())
      return fail(If->getBeginLoc(), Expected);
    for (size_t I = 0; I < Zero.size(); ++I) {
      const StoreRecord &A = Zero[I], &B = Stores[I];
      if (A.Held || B.Held || A.From.Var != B.From.Var ||
          A.From.Index != B.From.Index || A.SumId != B.SumId ||
          A.Thread != B.Thread || A.LC != B.LC || A.Guarded != B.Guarded ||
          A.Bounds != B.Bounds ||
          (I < ZeroBias.size()) != (I < StoreBias.size()) ||
          (I < ZeroBias.size() && ZeroBias[I].first != StoreBias[I].first))
        return fail(A.At, Expected);
    }
    if (!zeroValueAgrees(Z, Beta))
      return fail(FullS->getBeginLoc(), Expected);
    G.BetaZeroTerms = Z.Terms;
    const StoredValue Full = takeValue();
    putValue(Full);
    if (!Outer.empty() && !(Before == Full))
      return fail(If->getBeginLoc(), "expected every store of C to compute "
                                     "the same expression of its "
                                     "accumulator");
    Outer.insert(Outer.end(), Stores.begin(), Stores.end());
    OuterBias.insert(OuterBias.end(), StoreBias.begin(), StoreBias.end());
    Stores = std::move(Outer);
    StoreBias = std::move(OuterBias);
    return true;
  }

  /// The zero-then-copy pairs of a block of statements (ZeroFills.h),
  /// found once for each block.
  void noteZeroFills(llvm::ArrayRef<Stmt *> Body) {
    if (!ZeroScanned.insert({Body.data(), Body.size()}).second)
      return;
    llvm::SmallVector<const Stmt *, 16> Stmts(Body.begin(), Body.end());
    for (const auto &[Copy, Zero] : zeroFilledCopies(Stmts, Ctx)) {
      ZeroFilled.insert(Copy);
      ZeroStores.insert(Zero);
    }
  }

  /// `if (guard) x = matrix[index];` after `x = 0;` (ZeroFilled), x an
  /// element of a tile or a register: the copy filled with zeros.
  bool zeroFilledStaging(const IfStmt *If) {
    const Expr *L = nullptr, *R = nullptr;
    if (!assignment(single(If->getThen()), L, R))
      return fail(If->getBeginLoc(), expected(Phase::Stage));
    if (std::optional<Location> X = location(L, false))
      return load(*X, R, If->getCond(), If->getBeginLoc());
    if (auto T = tileElement(L, true))
      return stage(*T, R, If->getCond(), If->getBeginLoc());
    return Why.Message.empty() ? fail(If->getBeginLoc(), expected(Phase::Stage))
                               : false;
  }

  /// `if (guard) tile[i] = matrix[index]; else tile[i] = 0;`, or `if
  /// (guard) tile[i] = matrix[index];` after `tile[i] = 0;` (ZeroFilled;
  /// also into a register).
  bool guardedStaging(const IfStmt *If, Phase P) {
    if (std::optional<bool> Z = asyncOrZeros(If, P))
      return *Z;
    if (ZeroFilled.contains(If))
      return zeroFilledStaging(If);
    const Expr *L = nullptr, *R = nullptr, *L2 = nullptr, *R2 = nullptr;
    // `if (guard) v = *reinterpret_cast<const V *>(&matrix[j]);` of a vector
    // of zeros, or with `else v = <zeros>;`.
    if (const VarDecl *V =
            assignment(single(If->getThen()), L, R) ? vectorTemp(L) : nullptr) {
      const bool ZeroElse = If->getElse() &&
                            assignment(single(If->getElse()), L2, R2) &&
                            vectorTemp(L2) == V && zeroVector(R2, V->getType());
      // Without an else, the zeros must be this iteration's: a vector
      // declared before the loop keeps the last iteration's elements.
      if ((!If->getElse() && Cur->Vectors[V].Zero && inLoop(V) == inLoop(If)) ||
          ZeroElse)
        return checkedVectorLoad(V, If->getCond(), R, P);
    }
    if (!If->getElse() || !assignment(single(If->getThen()), L, R) ||
        !assignment(single(If->getElse()), L2, R2))
      return fail(If->getBeginLoc(), expected(Phase::Stage));
    // `if (out) x = 0; else x = matrix[index];`: the negated check.
    const Expr *Cond = If->getCond();
    if (isZero(R) && !isZero(R2)) {
      std::swap(L, L2);
      std::swap(R, R2);
      Cond = negated(Cond);
    }
    if (!Cond || !isZero(R2))
      return fail(If->getBeginLoc(), expected(Phase::Stage));
    // `if (guard) reg = matrix[index]; else reg = 0;`
    if (std::optional<Location> X = location(L, false)) {
      std::optional<Location> Y = location(L2, false);
      if (!Y || Y->Var != X->Var || Y->Index != X->Index)
        return fail(If->getBeginLoc(), expected(Phase::Stage));
      return load(*X, R, Cond, If->getBeginLoc());
    }
    auto T1 = tileElement(L, true);
    auto T2 = T1 ? tileElement(L2, true) : std::nullopt;
    if (!T2 || T1->first != T2->first || T1->second != T2->second)
      return Why.Message.empty()
                 ? fail(If->getBeginLoc(), expected(Phase::Stage))
                 : false;
    return stage(*T1, R, Cond, If->getBeginLoc());
  }

  bool expression(const Expr *E, Phase P) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (std::optional<PipelineCall> C = tawa::pipelineCall(E))
      return cudaPipelineStatement(*C, E, P);
    if (auto *C = dyn_cast<CallExpr>(E); C && !pipelineCall(C).empty())
      return pipelineStatement(C, pipelineCall(C), P);
    if (auto *C = dyn_cast<CallExpr>(E);
        C &&
        (lambdaHelper(C) || (!isa<CXXOperatorCallExpr>(C) && deviceHelper(C))))
      return call(C, P);
    if (auto *C = dyn_cast<CallExpr>(E);
        C && wmmaCall(C, C->getDirectCallee() ? C->getDirectCallee()->getName()
                                              : ""))
      return wmmaStatement(C, P);
    if (const VarDecl *Ptr = advancedPointer(E)) {
      const bool Top = llvm::any_of(LoopAdvances, [&](const auto &A) {
        return A.first == E || cast<Expr>(A.first)->IgnoreImplicit() == E;
      });
      if (P != Phase::Prologue && !Top)
        return fail(E->getBeginLoc(), "the pointer '" + Ptr->getName().str() +
                                          "' may be advanced in the loop "
                                          "only at the top level of its body");
      if (!advance(E))
        return fail(E->getBeginLoc(), "expected a pointer into a matrix "
                                      "advanced by a polynomial step");
      return true;
    }
    if (P == Phase::Epilogue && valueUpdate(E))
      return true;
    // `atomicAdd(&C[i], v)`, read as `C[i] += v`.
    if (const Expr *X = nullptr, *V = nullptr;
        P == Phase::Epilogue && atomicAdd(E, X, V)) {
      const Expr *Sum = addedToC(X, V, E->getBeginLoc());
      if (!Sum)
        return fail(E->getBeginLoc(),
                    "'atomicAdd(&C[i], v)' is lifted for a float C and a "
                    "float v, read as 'C[i] += v'");
      AtomicStore = true;
      const bool Ok = assignTo(X, Sum, P);
      AtomicStore = false;
      return Ok;
    }
    const Expr *L = nullptr, *R = nullptr;
    if (assignment(E, L, R))
      return assignTo(L, R, P);
    if (auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
      if (CA->getOpcode() == BO_AddAssign)
        if (std::optional<Location> Loc = location(CA->getLHS(), true))
          return accumulate(*Loc, CA->getRHS(), CA, P);
      if (!Why.Message.empty())
        return false;
      if (const Expr *Sum = P == Phase::Epilogue ? addedToC(CA) : nullptr)
        return assignTo(CA->getLHS(), Sum, P);
    }
    if (auto *C = dyn_cast<CXXOperatorCallExpr>(E);
        C && C->getOperator() == OO_PlusEqual && C->getNumArgs() == 2)
      if (std::optional<Location> Loc = location(C->getArg(0), true))
        return accumulate(*Loc, C->getArg(1), C, P);
    if (!Why.Message.empty())
      return false;
    if (integerUpdate(E))
      return true;
    return Why.Message.empty() ? fail(E->getBeginLoc(), expected(P)) : false;
  }

  bool assignTo(const Expr *L, const Expr *R, Phase P) {
    if (auto T = tileElement(L, true)) {
      if (P == Phase::Epilogue && Tiles[size_t(T->first)].Results)
        return resultStore(*T, R, L);
      if (!staging(P))
        return fail(L->getBeginLoc(),
                    Rotated ? "the __shared__ tiles may be written only by "
                              "the copies of the first tiles before the "
                              "loop's barrier, and in the loop"
                            : "the __shared__ tiles may be written only "
                              "before the first barrier of the loop body");
      return stage(*T, R, nullptr, L->getBeginLoc());
    }
    if (!Why.Message.empty())
      return false;
    if (P == Phase::Epilogue)
      if (const CallExpr *Made = madePair(R))
        return storePair(L, Made);
    if (std::optional<VectorRef> Dst = vectorAccess(L)) {
      if (auto Reg = vectorRegister(*Dst)) {
        if (std::optional<VectorRef> Src = vectorAccess(R)) {
          if (auto T = vectorTile(*Src))
            return tileToRegisters(*T, Reg->first, Reg->second, *Src, *Dst, L,
                                   P);
          if (auto *C = dyn_cast<ExplicitCastExpr>(Src->Ptr);
              C && tilePointer(C->getSubExpr()))
            return fail(L->getBeginLoc(), TileVectorMessage);
        }
        return staging(P) ? loadRegisters(Reg->first, Reg->second, *Dst, R, L)
                          : fail(L->getBeginLoc(), expected(P));
      }
      auto *Ref = dyn_cast<DeclRefExpr>(bare(R));
      auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (P == Phase::Epilogue && V && Cur->Vectors.count(V))
        return storeBack(*Dst, V, L);
      if (std::optional<VectorRef> Src = vectorAccess(R);
          P == Phase::Epilogue && Src && Src->V == Dst->V &&
          Src->Bytes == Dst->Bytes)
        if (auto Reg = vectorRegister(*Src))
          return storeRegisters(*Dst, Reg->first, Reg->second, L);
      if (const CallExpr *Made =
              P == Phase::Epilogue ? madeVector(R, Dst->V) : nullptr)
        return storeMade(*Dst, Made, L);
      return staging(P) ? vectorStage(*Dst, R, L)
                        : fail(L->getBeginLoc(), expected(P));
    }
    if (auto *M = dyn_cast<MemberExpr>(bare(L)); M && vectorMember(M).first)
      return setVectorMember(M, R, P);
    if (const VarDecl *V = vectorTemp(L)) {
      if (auto *C =
              staging(P) ? dyn_cast<ConditionalOperator>(bare(R)) : nullptr;
          C && zeroVector(C->getFalseExpr(), V->getType()))
        return storedBack(V) &&
               checkedVectorLoad(V, C->getCond(), C->getTrueExpr(), P);
      return vectorLoad(V, R, P);
    }
    if (std::optional<Location> Loc = location(L, true))
      return assign(*Loc, R, P);
    if (!Why.Message.empty())
      return false;
    if (std::optional<GlobalAccess> Out = global(L)) {
      if (P != Phase::Epilogue)
        return fail(L->getBeginLoc(), "C may be written only after the loop");
      return store(*Out, L, R);
    }
    auto *Ref = dyn_cast<DeclRefExpr>(bare(L));
    auto *Int = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Int || isa<ParmVarDecl>(Int) || !Int->getType()->isIntegerType())
      return fail(L->getBeginLoc(), expected(P));
    std::optional<Poly> V = eval(R, "the value");
    if (!V || !prefetchWrite(Int, L))
      return false;
    Ev.Bindings[Int] = *V;
    return true;
  }

  //===--- __device__ helpers --------------------------------------------===//

  /// A statement calling a `__device__` helper of the kernel (a function
  /// returning void): its body followed in the caller's phase, each
  /// parameter bound to its argument (bindParameter) for the call.
  bool call(const CallExpr *C, Phase P) {
    const FunctionDecl *F = deviceHelper(C);
    const std::string Name = helperName(F);
    const llvm::ArrayRef<const Expr *> Args = helperArguments(C);
    if (!F->getReturnType()->isVoidType() || Args.size() != F->getNumParams())
      return fail(C->getBeginLoc(), "expected a call of " + Name +
                                        " as a statement, a function "
                                        "returning void");
    if (llvm::is_contained(Calling, F) || Calling.size() >= 8)
      return fail(C->getBeginLoc(), Name + " calls itself, or calls nest "
                                           "deeper than 8");
    size_t Bound = 0;
    bool Ok = true;
    for (; Ok && Bound < F->getNumParams(); ++Bound)
      Ok = bindParameter(F->getParamDecl(Bound), Args[Bound], Name);
    if (Ok) {
      Calling.push_back(F);
      Ok = followBody(F, P);
      Calling.pop_back();
      if (!Ok && !Why.Message.empty()) {
        const SourceManager &SM = Ctx.getSourceManager();
        Why.Message += " (in " + Name + ", called at line " +
                       std::to_string(SM.getPresumedLineNumber(
                           SM.getExpansionLoc(C->getBeginLoc()))) +
                       ")";
      }
    }
    for (size_t I = 0; I < Bound; ++I) {
      const ParmVarDecl *PV = F->getParamDecl(I);
      Ev.Bindings.erase(PV);
      Pointers.erase(PV);
      Aliases.erase(PV);
      TileBuffers.erase(PV);
      TileElements.erase(PV);
      CopySources.erase(PV);
      Cur->Choices.erase(PV);
      llvm::erase(CurrentVars, PV);
      llvm::erase(NextVars, PV);
    }
    return Ok;
  }

  /// Binds the helper's parameter `PV` to `Arg`: an integer takes its
  /// value; a pointer stands for the local float array or __shared__ tile
  /// the argument names (of the same element type), points where the
  /// argument does into a matrix, or stands for the tile element the
  /// argument points to (used as it is, never moved: tilePointer).
  bool bindParameter(const ParmVarDecl *PV, const Expr *Arg,
                     const std::string &Name) {
    if (auto *D = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = D->getExpr();
    const QualType T = PV->getType();
    // `cuda::pipeline<cuda::thread_scope_thread> &pipe`: the kernel's.
    if (isCudaPipeline(T)) {
      auto *R = dyn_cast<DeclRefExpr>(bare(Arg));
      const VarDecl *VD = R ? resolved(R->getDecl()) : nullptr;
      if (!T->isReferenceType() || !VD || VD != Pipe)
        return fail(Arg->getBeginLoc(),
                    "expected the kernel's cuda::pipeline passed by "
                    "reference to " +
                        Name);
      Aliases[PV] = VD;
      return true;
    }
    // `bool pred` passed a bounds check, `int bytes` passed `ok ? 16 : 0`:
    // a zero-filling copy's choice, as a local set to it would be.
    if (T->isIntegerType() && !isModified(PV, declaringBody(PV)))
      if (auto C = choice(Arg, T->isBooleanType())) {
        Cur->Choices[PV] = std::move(*C);
        return true;
      }
    // `load(nxt, t + 1)` of `int stage`: the buffer of double-buffered
    // tiles the argument selects, as a local set to it would be.
    if (T->isIntegerType() && Looping && !isModified(PV, declaringBody(PV)) &&
        (isCurrent(Arg) || isNext(Arg))) {
      (isCurrent(Arg) ? CurrentVars : NextVars).push_back(PV);
      return true;
    }
    if (T->isIntegerType()) {
      std::optional<Poly> V = eval(Arg, "the argument");
      if (V)
        Ev.Bindings[PV] = *V;
      return V.has_value();
    }
    // A float scale passed on (alpha, beta): the kernel's parameter.
    if (auto *R = dyn_cast<DeclRefExpr>(unconverted(Arg));
        T->isSpecificBuiltinType(BuiltinType::Float) && R) {
      auto *Scale = dyn_cast<ParmVarDecl>(resolved(R->getDecl()));
      if (Scale && llvm::is_contained(Kernel->parameters(), Scale) &&
          Scale->getType()->isSpecificBuiltinType(BuiltinType::Float)) {
        Aliases[PV] = Scale;
        return true;
      }
    }
    if (T->isPointerType()) {
      // `As[b]`, one buffer of a multi-buffered tile, passed to a pointer to
      // its rows: the parameter stands for the tile, its buffer b.
      if (auto *S = dyn_cast<ArraySubscriptExpr>(bare(Arg))) {
        auto *TR = dyn_cast<DeclRefExpr>(bare(S->getBase()));
        auto *TV = TR ? dyn_cast<VarDecl>(TR->getDecl()) : nullptr;
        const int32_t Tile = TV && !bufferOf(TR) ? tileOf(TV) : -1;
        const auto *Buffer =
            Tile >= 0 && Tiles[size_t(Tile)].Buffers > 1
                ? Ctx.getAsConstantArrayType(resolved(TV)->getType())
                : nullptr;
        if (Buffer) {
          if (!Ctx.hasSameUnqualifiedType(
                  T->getPointeeType(),
                  Ctx.getAsArrayType(Buffer->getElementType())
                      ->getElementType()) ||
              isModified(PV, declaringBody(PV)))
            return fail(Arg->getBeginLoc(),
                        "the parameter '" + PV->getName().str() + "' of " +
                            Name + " must point to the rows of a buffer of '" +
                            resolved(TV)->getName().str() +
                            "', of its type, and never change");
          Aliases[PV] = resolved(TV);
          TileBuffers[PV] = S->getIdx();
          return true;
        }
      }
      auto *R = dyn_cast<DeclRefExpr>(bare(Arg));
      auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      const VarDecl *Target = VD ? resolved(VD) : nullptr;
      if (Target && Target->getType()->isArrayType() &&
          (tileOf(Target) >= 0 || Cur->Floats.count(Target))) {
        const auto *A = Ctx.getAsArrayType(Target->getType());
        if (!Ctx.hasSameUnqualifiedType(T->getPointeeType(),
                                        A->getElementType()))
          return fail(Arg->getBeginLoc(),
                      "the parameter '" + PV->getName().str() + "' of " + Name +
                          " must point to the elements of '" +
                          Target->getName().str() + "', of its type");
        Aliases[PV] = Target;
        return true;
      }
      if (auto Ptr = pointer(Arg)) {
        Pointers[PV] = *Ptr;
        return true;
      }
      // `&As[nxt][r][c]` passed to `void *smem` (a cp.async helper's
      // destination): the parameter itself stands for that element.
      if (auto At = tilePointer(Arg)) {
        TileElements[PV] = *At;
        return true;
      }
      // `ok ? &A[j] : A`, a zero-filling copy's source: read where the
      // helper's copy uses it (asyncCopy), under that copy's check.
      if (isa<ConditionalOperator>(bare(Arg)) &&
          !isModified(PV, declaringBody(PV))) {
        CopySources[PV] = Arg;
        return true;
      }
      if (!Why.Message.empty())
        return false;
    }
    return fail(Arg->getBeginLoc(),
                "expected the arguments of " + Name +
                    " to be integers, pointers into the matrices, or names "
                    "of the kernel's local float arrays, __shared__ tiles "
                    "or float parameters (alpha, beta)");
  }

  /// The helper's body, statement by statement; a `return;` may end it.
  bool followBody(const FunctionDecl *F, Phase P) {
    auto *Body = dyn_cast_or_null<CompoundStmt>(F->getBody());
    if (!Body)
      return fail(F->getLocation(), expected(P));
    llvm::ArrayRef<Stmt *> Stmts(Body->body_begin(), Body->size());
    auto *Ret = Stmts.empty() ? nullptr : dyn_cast<ReturnStmt>(Stmts.back());
    if (Ret && !Ret->getRetValue())
      Stmts = Stmts.drop_back();
    return block(Stmts, P);
  }

  /// The body of the function that declares the local `VD` (the kernel or
  /// a `__device__` helper of it), where anything that changes it is.
  const Stmt *declaringBody(const VarDecl *VD) const {
    auto *F = dyn_cast<FunctionDecl>(VD->getDeclContext());
    return F && F->getBody() ? F->getBody() : Kernel->getBody();
  }

  /// The variable `D` stands for: the caller's array or tile (or the
  /// kernel's float parameter) where `D` is a helper's parameter bound to
  /// one, else `D` itself.
  const VarDecl *resolved(const ValueDecl *D) const {
    auto *VD = dyn_cast_or_null<VarDecl>(D);
    auto It = VD ? Aliases.find(VD) : Aliases.end();
    return It != Aliases.end() ? It->second : VD;
  }
  const VarDecl *standsFor(const VarDecl *VD) const override {
    return resolved(VD);
  }

  //===--- the tiles
  //-------------------------------------------------------===//

  /// The tile and element of `tile[i]` or `tile[i][j]` (`tile[b][i][j]` of
  /// a double-buffered tile), indices constant for the thread and b a
  /// buffer (bufferIndex); nullopt where E is none (with a failure where it
  /// is a tile's element whose index is not known, when `Report`).
  std::optional<std::pair<int32_t, int64_t>> tileElement(const Expr *E,
                                                         bool Report) {
    std::vector<const ArraySubscriptExpr *> Subs;
    const Expr *Base = bare(E);
    while (auto *S = dyn_cast<ArraySubscriptExpr>(Base)) {
      Subs.insert(Subs.begin(), S);
      Base = bare(S->getBase());
    }
    auto *R = dyn_cast<DeclRefExpr>(Base);
    if (auto View = Subs.size() == 1 ? tileView(R, E) : std::nullopt) {
      std::optional<int64_t> I = Ev.constant(Subs.front()->getIdx());
      auto At = I ? sameBuffer(*View, *I) : std::nullopt;
      if (!At && Report)
        return fail(E->getBeginLoc(),
                    "the index of '" + R->getDecl()->getName().str() +
                        "', a pointer into the __shared__ tile '" +
                        Tiles[size_t(View->first)].Var->getName().str() +
                        "', must be a constant for each thread that stays "
                        "inside the buffer it points into" +
                        (I ? "" : ": it uses " + Ev.Why));
      return At;
    }
    const int32_t T = R && !Subs.empty() ? tileOf(R->getDecl()) : -1;
    if (T < 0)
      return std::nullopt;
    const SharedTile &X = Tiles[size_t(T)];
    if (X.DynamicRing && Subs.size() == 1)
      return ringElement(T, indexTerms(Subs.front()->getIdx()), E, Report);
    // A helper's parameter bound to one buffer, `As[b]` (bindParameter).
    const Expr *Buffer = bufferOf(R);
    const size_t Want =
        (X.Buffers > 1 && !Buffer ? 1 : 0) + (X.Rows > 1 ? 2 : 1);
    if (Subs.size() != Want) {
      if (!Report)
        return std::nullopt;
      return fail(E->getBeginLoc(), "expected the __shared__ tile '" +
                                        X.Var->getName().str() +
                                        "' indexed by its declared dimensions");
    }
    std::optional<int64_t> B = 0;
    if (X.Buffers > 1) {
      if (!Buffer)
        Buffer = Subs.front()->getIdx();
      B = bufferIndex(X, Buffer);
      if (!B && !Report)
        return std::nullopt;
      if (!B)
        return fail(Buffer->getBeginLoc(), bufferMessage(X));
      if (!bufferOf(R))
        Subs.erase(Subs.begin());
    }
    std::optional<int64_t> I =
        constantIndex(Subs.size() > 1 ? Subs.front()->getIdx() : nullptr);
    std::optional<int64_t> J = constantIndex(Subs.back()->getIdx());
    if (!I || !J || *I < 0 || *I >= X.Rows || *J < 0 || *J >= X.Cols) {
      if (!Report)
        return std::nullopt;
      return fail(E->getBeginLoc(),
                  "the index of the __shared__ tile '" +
                      X.Var->getName().str() +
                      "' must be a constant inside its extents for each "
                      "thread of the block: " +
                      (I && J ? std::string("it is out of bounds")
                              : "it uses " + Ev.Why));
    }
    return std::pair(T, (*B * X.Rows + *I) * X.Cols + *J);
  }

  /// The element of a ring in dynamic shared memory (SharedTile::
  /// DynamicRing) that the index `Terms` (indexTerms) selects, `E` the
  /// access: in the loop, one term `b * C` of a buffer b (bufferIndex, C
  /// the elements of a buffer) and others constant for the thread, of a sum
  /// in [0, C); before the loop, a constant index.
  std::optional<std::pair<int32_t, int64_t>>
  ringElement(int32_t T, llvm::ArrayRef<IndexTerm> Terms, const Expr *E,
              bool Report) {
    const SharedTile &X = Tiles[size_t(T)];
    const Expr *Buffer = nullptr;
    std::optional<int64_t> B = 0, J = 0;
    for (const IndexTerm &Term : Terms) {
      const Expr *Selector = Looping && !Term.Negated && !Buffer
                                 ? stridedBy(Term.E, X.Cols, Ctx)
                                 : nullptr;
      if (Selector && bufferIndex(X, Selector)) {
        Buffer = Selector;
        B = bufferIndex(X, Selector);
        continue;
      }
      std::optional<int64_t> V = Ev.constant(Term.E);
      if (!V) {
        // A term `b * C` of no buffer the iteration selects.
        if (Selector)
          Ev.Why.clear();
        J.reset();
        break;
      }
      *J += Term.Negated ? -*V : *V;
    }
    if (!Looping && J && *J >= 0)
      B = *J / X.Cols, J = *J % X.Cols;
    if (J && *J >= 0 && *J < X.Cols && *B < X.Buffers && (Buffer || !Looping))
      return std::pair(T, *B * X.Cols + *J);
    if (!Report)
      return std::nullopt;
    const std::string Name = X.Var->getName().str();
    const std::string C = std::to_string(X.Cols);
    return fail(E->getBeginLoc(),
                "the index of '" + Name + "', a ring of " +
                    std::to_string(X.Buffers) + " buffers of " + C +
                    " elements in dynamic shared memory, must be 'b * " + C +
                    " + i', i constant for each thread and in [0, " + C + ")" +
                    (!J && !Ev.Why.empty()       ? ": it uses " + Ev.Why
                     : J && (Buffer || !Looping) ? ": it is out of bounds"
                                                 : "; " + bufferMessage(X)));
  }

  /// The buffer of a multi-buffered tile `X` that `E` selects: in the
  /// loop, 0 for the one iteration i reads (i % 2, GemmLoopReader::
  /// isCurrent; i % S of a ring), 1 for the one it stages (isNext; (i + D)
  /// % S of a ring, D = Ahead); before it, a constant buffer.
  std::optional<int64_t> bufferIndex(const SharedTile &X, const Expr *E) const {
    if (Looping && X.Buffers == 2)
      return isCurrent(E) ? 0
             : isNext(E)  ? std::optional<int64_t>(1)
                          : std::nullopt;
    if (Looping) {
      std::optional<int64_t> R = ringResidue(E, X.Buffers);
      return R == 0 ? R : R == Ahead ? std::optional<int64_t>(1) : std::nullopt;
    }
    std::optional<int64_t> B = Ev.constant(E);
    return B && *B >= 0 && *B < X.Buffers ? B : std::nullopt;
  }
  std::string bufferMessage(const SharedTile &X) const {
    const std::string S = std::to_string(X.Buffers);
    if (X.Buffers > 2)
      return "expected the buffer of '" + X.Var->getName().str() +
             "' selected by the iteration: i % " + S +
             " of iteration i, the one it reads, or (i + " +
             std::to_string(Ahead) + ") % " + S +
             ", the one it stages for iteration i + " + std::to_string(Ahead) +
             " (the code before the loop stages the first " +
             std::to_string(Ahead) +
             "; i + c for i of c >= 0, a local set to either, or a counter "
             "advanced last in the body, 'r = (r + 1) % " +
             S + ";'); a constant before the loop";
    return "expected the buffer of '" + X.Var->getName().str() +
           "' selected by the iteration: i % 2 (or i & 1) of iteration i, "
           "the one it reads, or (i + 1) % 2 (1 - cur, cur ^ 1, !cur), the "
           "one it stages for the next (i + c for i, of any constant c "
           "before '& 1' and of c >= 0 before '% 2'); a constant before the "
           "loop";
  }

  std::optional<int64_t> constantIndex(const Expr *E) const {
    if (!E)
      return 0;
    return Ev.constant(E);
  }

  /// The buffer index a helper's parameter `R` names stands for, where it
  /// is bound to one buffer of a multi-buffered tile (`As[b]`, the
  /// caller's expression); null otherwise.
  const Expr *bufferOf(const DeclRefExpr *R) const {
    auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    auto It = VD ? TileBuffers.find(VD) : TileBuffers.end();
    return It != TileBuffers.end() ? It->second : nullptr;
  }

  int32_t tileOf(const ValueDecl *D) const {
    const VarDecl *VD = resolved(D);
    for (size_t I = 0; I < Tiles.size(); ++I)
      if (VD && Tiles[I].Var == VD)
        return int32_t(I);
    return -1;
  }

  /// Stages `Read` (`guard ? matrix[index] : 0` or `matrix[index]`, or under
  /// `Cond`, or a register that holds one, FVal::Loaded) into element `T`
  /// of a tile.
  bool stage(std::pair<int32_t, int64_t> T, const Expr *Read, const Expr *Cond,
             SourceLocation At) {
    const SharedTile &X = Tiles[size_t(T.first)];
    // A register widened into a float tile (`__half2float(v)`) holds its
    // element exactly.
    if (std::optional<Location> L =
            location(unconverted(Read, tileElementType(X.Var, Ctx)), false);
        L && at(*L).K == FVal::Loaded) {
      if (Cond || !holds(tileElementType(X.Var, Ctx),
                         Ctx.getBaseElementType(L->Var->getType())))
        return fail(At, "a register loaded from a matrix must be staged "
                        "as it is, into a tile of the matrix's type");
      StagedElement S = Cur->Fetched[size_t(at(*L).Index)];
      S.At = At;
      return record(T, std::move(S));
    }
    if (std::optional<Location> L = location(Read, false))
      return fail(At, "the register '" + L->Var->getName().str() +
                          "' does not hold a matrix element loaded in this "
                          "iteration");
    std::optional<StagedElement> S =
        fetch(Read, Cond, tileElementType(X.Var, Ctx), At);
    return S && record(T, std::move(*S));
  }

  /// Whether a register or tile of type `T` holds an element of type `E`
  /// exactly as read: the same type, or float widening a bf16 or fp16
  /// element (GemmLoopReader::WidenedTiles).
  bool holds(QualType T, QualType E) const {
    if (sameType(T, E))
      return true;
    const std::optional<ElementType> ET = elementOf(T), EE = elementOf(E);
    return ET == ElementType::F32 && EE && EE != ElementType::F32;
  }

  static bool sameType(QualType A, QualType B) {
    return A.getCanonicalType().getUnqualifiedType() ==
           B.getCanonicalType().getUnqualifiedType();
  }

  /// The matrix element that `Read` (`guard ? matrix[index] : 0` or
  /// `matrix[index]`, or under `Cond`) reads, of type `Type`.
  /// The element at `Offset` (elements, batch term included) of matrix
  /// `Ptr`, read at `At`; nullopt, reported at `E`, where the batch term
  /// does not separate (unbatched).
  std::optional<StagedElement> stagedAt(const ParmVarDecl *Ptr,
                                        const Poly &Offset, SourceLocation At,
                                        const Expr *E) {
    StagedElement S;
    S.Ptr = Ptr;
    S.At = At;
    std::optional<Poly> U = unbatched(Offset, S.BatchStride, E);
    if (!U)
      return std::nullopt;
    S.L = *U;
    return S;
  }

  const Conditions *namedChecks(const ValueDecl *D) const override {
    if (!Cur)
      return nullptr;
    auto It = Cur->NamedChecks.find(D);
    return It != Cur->NamedChecks.end() ? &It->second : nullptr;
  }

  std::optional<StagedElement> fetch(const Expr *Read, const Expr *Cond,
                                     QualType Type, SourceLocation At) {
    if (auto *C = dyn_cast<ConditionalOperator>(bare(Read)); C && !Cond) {
      auto Checked = zeroOutside(C);
      if (!Checked)
        return fail(C->getFalseExpr()->getBeginLoc(),
                    "elements outside the matrix must read as 0");
      std::tie(Cond, Read) = *Checked;
    }
    // A member of a vector loaded under a bounds check is its element
    // under that check (one for all its elements, StagedElement::Width).
    const auto Lane =
        Cond ? std::nullopt : checkedLane(unconverted(Read, Type));
    StagingChecked = Lane.has_value();
    std::optional<GlobalAccess> GA = global(unconverted(Read, Type));
    StagingChecked = false;
    if (!GA || !holds(Type, Ctx.getBaseElementType(
                                GA->Ptr->getType()->getPointeeType())))
      return fail(At, expected(Phase::Stage));
    std::optional<Poly> L = offset(GA->Index, "the matrix index");
    if (!L)
      return std::nullopt;
    std::optional<StagedElement> Element =
        stagedAt(GA->Ptr, *L + GA->Offset, At, Read);
    if (!Element)
      return std::nullopt;
    if (Cond && Im2col) {
      // A gather's checks are conditions; a plain copy's also pairs.
      if (!conditionsOf(Cond, Element->Checks))
        return std::nullopt;
      const LiftFailure Kept = Why;
      if (!checks(Cond, Element->Bounds)) // also a bool local's (Choices)
        Element->Bounds.clear();
      Why = Kept;
      Element->Guarded = true;
    } else if (Cond) {
      if (!guard(Cond, Element->Bounds))
        return std::nullopt;
      Element->Guarded = true;
    }
    if (Lane) {
      Element->Bounds = *std::get<0>(*Lane);
      Element->Guarded = true;
      Element->Lane = std::get<1>(*Lane);
      Element->Width = std::get<2>(*Lane);
    }
    return Element;
  }

  /// Whether `Read` reads a matrix element (`matrix[index]`, `guard ?
  /// matrix[index] : 0`), as a value of `Type`.
  bool readsMatrix(const Expr *Read, QualType Type) const {
    if (auto *C = dyn_cast<ConditionalOperator>(bare(Read)))
      Read = C->getTrueExpr();
    return global(unconverted(Read, Type)).has_value();
  }

  /// `reg = matrix[index]` (or `guard ? matrix[index] : 0`, or under
  /// `Cond`): the register holds that element, to be staged (FVal::Loaded).
  bool load(const Location &Loc, const Expr *Read, const Expr *Cond,
            SourceLocation At) {
    std::optional<StagedElement> S =
        fetch(Read, Cond, Ctx.getBaseElementType(Loc.Var->getType()), At);
    if (!S)
      return false;
    FVal F{FVal::Loaded};
    F.Index = int64_t(Cur->Fetched.size());
    Cur->Fetched.push_back(std::move(*S));
    at(Loc) = F;
    return true;
  }

  /// Records that element `T` of a tile holds `S` in the iteration. In a
  /// loop that stages later iterations' tiles (Rotated), the code before
  /// the loop stages the first (SharedTile::First: buffer b for iteration
  /// b), and the loop's copies, into the buffer it stages (Ahead iterations
  /// on), are taken back Ahead steps.
  bool record(std::pair<int32_t, int64_t> T, StagedElement S) {
    SharedTile &X = Tiles[size_t(T.first)];
    if (Rotated) {
      if (!Recording && Looping)
        return true;
      const bool Next = T.second >= X.buffer();
      if (!Looping) {
        if (FirstGuard > T.second / X.buffer())
          return fail(S.At, "this copy into buffer " +
                                std::to_string(T.second / X.buffer()) +
                                " stands under a condition that fails "
                                "where iteration " +
                                std::to_string(T.second / X.buffer()) +
                                ", which reads it, runs");
        int32_t &F = X.First[size_t(T.second)];
        if (F >= 0)
          return fail(S.At, "two copies before the loop write the same "
                            "element of '" +
                                X.Var->getName().str() + "'");
        F = int32_t(FirstStaged.size());
        FirstStaged.push_back(std::move(S));
        return true;
      }
      if (X.Buffers > 1 && !Next)
        return fail(S.At,
                    "the loop must stage the next iteration's "
                    "elements of '" +
                        X.Var->getName().str() + "' into buffer " +
                        (X.Buffers > 2 ? "(i + " + std::to_string(Ahead) +
                                             ") % " + std::to_string(X.Buffers)
                                       : std::string("(i + 1) % 2")) +
                        ", not the one it reads");
      if (Next)
        T.second -= X.buffer();
      const Poly Back =
          Poly::symbol(Counter) -
          Poly::constant((LoopCountsElements ? G.Tile : 1) * Ahead);
      S.L = S.L.substitute(Counter, Back);
      for (auto &B : S.Bounds)
        B.first = B.first.substitute(Counter, Back);
      X.FirstWrite = std::min(X.FirstWrite, CurSeg);
      X.LastWrite = X.Written ? std::max(X.LastWrite, CurSeg) : CurSeg;
      X.Written = true;
    }
    // A later round's staging, past the barriers after the product that
    // read it, may write the element again.
    if (X.Slot[size_t(T.second)] >= 0 &&
        X.SlotRound[size_t(T.second)] == CurRound)
      return fail(S.At, "two staging copies write the same element of '" +
                            X.Var->getName().str() + "' in one iteration");
    X.Slot[size_t(T.second)] = int32_t(Staged.size());
    X.SlotRound[size_t(T.second)] = CurRound;
    Staged.push_back(std::move(S));
    return true;
  }

  /// `*P`, `P[i]` or `*(P + i)`, where P casts a pointer to a pointer of a
  /// 16-, 8- or 4-byte type V (`reinterpret_cast<float4 *>(&A[j])`), or is a
  /// pointer of a vector type of the CUDA headers (`const float4 *A4`). V
  /// is a builtin scalar, or a struct of a system header (vector_types.h's
  /// float4, int4, ...) whose assignment copies its bytes. Nullopt for
  /// anything else.
  std::optional<VectorRef> vectorAccess(const Expr *E) const {
    E = bare(E);
    VectorRef R;
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref) {
      R.Ptr = bare(U->getSubExpr());
      if (auto *B = dyn_cast<BinaryOperator>(R.Ptr);
          B && B->getOpcode() == BO_Add && B->getType()->isPointerType()) {
        const bool Left = B->getLHS()->getType()->isPointerType();
        R.Ptr = bare(Left ? B->getLHS() : B->getRHS());
        R.Index = Left ? B->getRHS() : B->getLHS();
      }
    } else if (auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      R.Ptr = bare(S->getBase());
      R.Index = S->getIdx();
    }
    if (!R.Ptr || !R.Ptr->getType()->isPointerType())
      return std::nullopt;
    const QualType V = R.Ptr->getType()->getPointeeType();
    if (V->isIncompleteType() || V->isDependentType() ||
        !(isa<ExplicitCastExpr>(R.Ptr) || vectorType(V) || pairType(V)))
      return std::nullopt;
    if (const CXXRecordDecl *RD = V->getAsCXXRecordDecl()) {
      // cuda_fp16.h's __half2 and cuda_bf16.h's __nv_bfloat162 assign
      // through operators of their own, which copy both members.
      if (!fromSystemHeader(RD) ||
          ((!RD->hasTrivialCopyAssignment() || !RD->isTriviallyCopyable()) &&
           !pairType(V)))
        return std::nullopt;
    } else if (!V->isBuiltinType()) {
      return std::nullopt;
    }
    R.V = V.getCanonicalType().getUnqualifiedType();
    R.Bytes = Ctx.getTypeSizeInChars(V).getQuantity();
    if (R.Bytes != 16 && R.Bytes != 8 && R.Bytes != 4)
      return std::nullopt;
    if (std::optional<Poly> I = R.Index ? Ev.eval(R.Index) : std::nullopt;
        I && I->constantValue() == std::optional<int64_t>(0))
      R.Index = nullptr;
    return R;
  }

  /// The matrix and element a vector access starts at: where its pointer
  /// points plus its index times the elements a vector spans.
  std::optional<std::pair<const ParmVarDecl *, Poly>>
  vectorPlace(const VectorRef &R) const {
    // A cast copies bytes: `*reinterpret_cast<const int *>(&A[j])` reads two
    // bf16 elements of A.
    auto *C = dyn_cast<ExplicitCastExpr>(R.Ptr);
    auto At = pointer(C ? C->getSubExpr() : R.Ptr);
    int64_t N = At ? lanes(R.Ptr, At->first) : 0;
    if (At && C) {
      const int64_t Elem =
          Ctx.getTypeSizeInChars(At->first->getType()->getPointeeType())
              .getQuantity();
      N = R.Bytes % Elem ? 0 : R.Bytes / Elem;
    }
    std::optional<Poly> I =
        R.Index ? Ev.eval(R.Index) : std::optional<Poly>(Poly());
    if (!At || !N || !I)
      return std::nullopt;
    return std::pair(At->first, At->second + *I * Poly::constant(N));
  }

  /// The __shared__ tile element a vector access starts at (its pointer a
  /// cast of a pointer into the tile; its index a constant for the thread).
  std::optional<std::pair<int32_t, int64_t>> vectorTile(const VectorRef &R) {
    auto *C = dyn_cast<ExplicitCastExpr>(R.Ptr);
    std::optional<int64_t> I = R.Index ? Ev.constant(R.Index) : 0;
    if (auto *D = dyn_cast<DeclRefExpr>(R.Ptr); D && I)
      return span(followed(Cur->VectorViews, dyn_cast<VarDecl>(D->getDecl())),
                  *I, R.Bytes);
    return C && I ? tileSpan(C->getSubExpr(), *I, R.Bytes) : std::nullopt;
  }

  /// The tile element where `Bytes` bytes start, `I` spans of them from the
  /// element `E` points at (tilePointer), inside its buffer and aligned.
  std::optional<std::pair<int32_t, int64_t>> tileSpan(const Expr *E, int64_t I,
                                                      int64_t Bytes) {
    return span(tilePointer(E), I, Bytes);
  }
  std::optional<std::pair<int32_t, int64_t>>
  span(std::optional<std::pair<int32_t, int64_t>> T, int64_t I, int64_t Bytes) {
    if (!T)
      return std::nullopt;
    const SharedTile &X = Tiles[size_t(T->first)];
    const int64_t Size =
        Ctx.getTypeSizeInChars(tileElementType(X.Var, Ctx)).getQuantity();
    if (Bytes % Size)
      return std::nullopt;
    const int64_t Buffer = T->second / X.buffer();
    T->second += I * (Bytes / Size);
    // A vector access must start at a multiple of its size from the tile's
    // start, or the kernel as written faults (a misaligned address).
    if (T->second < 0 || T->second >= X.size() ||
        T->second / X.buffer() != Buffer || (T->second * Size) % Bytes)
      return std::nullopt;
    return T;
  }

  /// `*reinterpret_cast<V *>(&tile[i]) = *reinterpret_cast<const V *>(&A[j])`
  /// (or `A4[j]` of a `const float4 *`): Bytes / sizeof(T) consecutive
  /// elements, not bounds-checked.
  bool vectorStage(const VectorRef &Dst, const Expr *R, const Expr *L) {
    const char *Expected =
        "expected a vector copy '*reinterpret_cast<float4 *>(&tile[i]) = "
        "*reinterpret_cast<const float4 *>(&matrix[j])' of consecutive "
        "elements, without a bounds check";
    // `*reinterpret_cast<V *>(&tile[i]) = ok ? <load> : <zeros>`.
    Guard Direct;
    const bool Conditional = [&] {
      auto *C = dyn_cast<ConditionalOperator>(bare(R));
      if (!C || !zeroVector(C->getFalseExpr(), Dst.V) ||
          !checks(C->getCond(), Direct))
        return false;
      R = C->getTrueExpr();
      return true;
    }();
    std::optional<VectorRef> Src = vectorAccess(R);
    std::optional<std::pair<int32_t, int64_t>> T = vectorTile(Dst);
    if (auto Reg =
            Src && T && !Conditional ? vectorRegister(*Src) : std::nullopt)
      return Src->V == Dst.V && Src->Bytes == Dst.Bytes
                 ? stageRegisters(*T, Reg->first, Reg->second, L)
                 : fail(L->getBeginLoc(), Expected);
    auto P = Src ? vectorPlace(*Src) : std::nullopt;
    const Guard *Checked = Conditional ? &Direct : nullptr;
    // A vector temporary that still holds what it was loaded with (its
    // bytes, also where its elements are read through a view; under its
    // bounds check, VectorTemp::Checked).
    if (auto *Ref = dyn_cast<DeclRefExpr>(bare(R));
        Ref && !Src && T && !Conditional) {
      auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      auto V = VD ? Cur->Vectors.find(VD) : Cur->Vectors.end();
      if (V != Cur->Vectors.end() && V->second.Ptr && !V->second.StoredBack &&
          llvm::none_of(V->second.Set, [](bool B) { return B; }) &&
          sameType(VD->getType(), Dst.V)) {
        P = std::pair(V->second.Ptr, V->second.Offset);
        Src = Dst;
        if (V->second.Checked)
          Checked = &*V->second.Checked;
      }
    }
    if (!T || !P || Src->Bytes != Dst.Bytes || Src->V != Dst.V)
      return Why.Message.empty() ? fail(L->getBeginLoc(), Expected) : false;
    const SharedTile &X = Tiles[size_t(T->first)];
    const QualType E = tileElementType(X.Var, Ctx);
    const QualType SrcE = P->first->getType()->getPointeeType();
    const int64_t Size = Ctx.getTypeSizeInChars(E).getQuantity();
    if (SrcE.getCanonicalType().getUnqualifiedType() !=
            E.getCanonicalType().getUnqualifiedType() ||
        Dst.Bytes % Size || T->second % X.Cols + Dst.Bytes / Size > X.Cols)
      return fail(L->getBeginLoc(), Expected);
    return copyElements(*T, *P, Dst.Bytes / Size, L->getBeginLoc(), R, Checked);
  }

  /// A copy of `N` consecutive elements of a matrix from `From` into a tile
  /// from `To`, each a staging copy (R the expression read, for messages).
  /// With `Bounds`, the copy reads the matrix under that one bounds check
  /// and writes zeros where it fails (StagedElement::Width).
  bool copyElements(std::pair<int32_t, int64_t> To,
                    const std::pair<const ParmVarDecl *, Poly> &From, int64_t N,
                    SourceLocation At, const Expr *R,
                    const Guard *Bounds = nullptr) {
    for (int64_t I = 0; I < N; ++I) {
      std::optional<StagedElement> S =
          stagedAt(From.first, From.second + Poly::constant(I), At, R);
      if (!S)
        return false;
      if (Bounds) {
        S->Bounds = *Bounds;
        S->Guarded = true;
        S->Lane = I;
        S->Width = N;
      }
      if (!record({To.first, To.second + I}, std::move(*S)))
        return false;
    }
    return true;
  }

  /// `cond ? a : b` with a bounds check `cond` (or a bool local set to
  /// one, or the negation of either, truth) and constants a and b, `cond *
  /// a` (`a * cond`) of a bool cond and a constant a (b = 0), `cond << s`
  /// (a = 2^s, b = 0), `a - a * cond` (0 and a), or `cond` itself where
  /// `Bool`: the check and the two values, as the current
  /// thread evaluates them.
  std::optional<std::tuple<Guard, int64_t, int64_t>> choice(const Expr *E,
                                                            bool Bool) {
    E = bare(E);
    const Expr *Cond = E;
    std::optional<int64_t> In = 1, Out = 0;
    auto *M = dyn_cast<BinaryOperator>(E);
    auto Truth = [](const Expr *X) {
      X = X->IgnoreParenCasts();
      return X->getType()->isBooleanType() ? X : nullptr;
    };
    if (auto *C = dyn_cast<ConditionalOperator>(E)) {
      Cond = bare(C->getCond());
      In = Ev.constant(C->getTrueExpr());
      Out = Ev.constant(C->getFalseExpr());
    } else if (M && M->getOpcode() == BO_Mul &&
               (Truth(M->getLHS()) || Truth(M->getRHS()))) {
      const bool Left = Truth(M->getLHS());
      Cond = Truth(Left ? M->getLHS() : M->getRHS());
      In = Ev.constant(Left ? M->getRHS() : M->getLHS());
    } else if (M && M->getOpcode() == BO_Shl && Truth(M->getLHS())) {
      // `ok << 4`: 16 where ok holds.
      Cond = Truth(M->getLHS());
      std::optional<int64_t> S = Ev.constant(M->getRHS());
      In = S && *S >= 0 && *S < 31 ? std::optional<int64_t>(int64_t(1) << *S)
                                   : std::nullopt;
    } else if (const Expr *T = M && M->getOpcode() == BO_Sub
                                   ? scaledTruth(M->getRHS(), M->getLHS())
                                   : nullptr) {
      // `16 - 16 * ok`: 0 where ok holds, 16 where it does not.
      Cond = T;
      In = 0;
      Out = Ev.constant(M->getLHS());
    } else if (!Bool) {
      return std::nullopt;
    }
    std::optional<std::pair<Guard, bool>> T =
        In && Out ? truth(Cond) : std::nullopt;
    if (!T)
      return std::nullopt;
    if (!T->second)
      std::swap(In, Out);
    return std::tuple(std::move(T->first), *In, *Out);
  }

  /// The bool b of `b * A` or `A * b` (`E`), A the same constant as
  /// `Scale`; null otherwise.
  const Expr *scaledTruth(const Expr *E, const Expr *Scale) {
    auto *M = dyn_cast<BinaryOperator>(bare(E));
    if (!M || M->getOpcode() != BO_Mul)
      return nullptr;
    std::optional<int64_t> A = Ev.constant(Scale);
    for (auto [B, K] : {std::pair(M->getLHS(), M->getRHS()),
                        std::pair(M->getRHS(), M->getLHS())}) {
      const Expr *X = B->IgnoreParenCasts();
      if (X->getType()->isBooleanType() && A && Ev.constant(K) == A)
        return X;
    }
    return nullptr;
  }

  /// The bounds check `Cond` makes (checks), and whether `Cond` is it
  /// (true) or its negation (false: `!ok`, `r >= M || c >= K`, a bool
  /// local set to such a negation); nullopt for anything else.
  std::optional<std::pair<Guard, bool>> truth(const Expr *Cond, int Depth = 0) {
    Cond = bare(Cond);
    if (Guard G; checks(Cond, G))
      return std::pair(std::move(G), true);
    if (auto *R = dyn_cast<DeclRefExpr>(Cond)) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      auto It = VD ? Cur->Choices.find(VD) : Cur->Choices.end();
      if (It != Cur->Choices.end() && VD->getType()->isBooleanType() &&
          std::get<1>(It->second) == 0 && std::get<2>(It->second) == 1)
        return std::pair(std::get<0>(It->second), false);
    }
    const Expr *N = Depth < 4 ? negated(Cond) : nullptr;
    std::optional<std::pair<Guard, bool>> T =
        N ? truth(N, Depth + 1) : std::nullopt;
    if (T)
      T->second = !T->second;
    return T;
  }

  /// Appends to `G` the bounds checks `Cond` makes: comparisons joined by
  /// `&&`, and bool locals set to such checks (`rowOk && k0 + c < K`).
  bool checks(const Expr *Cond, Guard &G) {
    Cond = bare(Cond);
    if (auto *R = dyn_cast<DeclRefExpr>(Cond)) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      auto It = VD ? Cur->Choices.find(VD) : Cur->Choices.end();
      if (It == Cur->Choices.end() || std::get<1>(It->second) != 1 ||
          std::get<2>(It->second) != 0 || !VD->getType()->isBooleanType())
        return false;
      llvm::append_range(G, std::get<0>(It->second));
      return true;
    }
    auto *B = dyn_cast<BinaryOperator>(Cond);
    if (B && B->getOpcode() == BO_LAnd)
      return checks(B->getLHS(), G) && checks(B->getRHS(), G);
    if (!B || !B->isComparisonOp())
      return false;
    const std::string Saved = Why.Message;
    const SourceLocation SavedAt = Why.Loc;
    if (!guard(Cond, G)) {
      Why.Message = Saved;
      Why.Loc = SavedAt;
      return false;
    }
    return true;
  }

  /// The bounds check of a copy of `Bytes` bytes whose source size is
  /// `Size` (`ok ? 16 : 0`: bytes read, the rest filled with zeros), or,
  /// with `Fill`, whose zero fill is (`ok ? 0 : 16`); an empty one where
  /// the whole copy is read. nullopt for any other size (PTX ISA
  /// 9.7.9.25.3.1, cp.async's src-size; CUDA C++ Programming Guide,
  /// `__pipeline_memcpy_async`'s zfill).
  std::optional<Guard> zeroFill(const Expr *Size, int64_t Bytes, bool Fill) {
    const int64_t Whole = Fill ? 0 : Bytes, None = Fill ? Bytes : 0;
    if (Ev.constant(Size) == std::optional<int64_t>(Whole))
      return Guard();
    std::optional<std::tuple<Guard, int64_t, int64_t>> C;
    if (auto *R = dyn_cast<DeclRefExpr>(bare(Size))) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      if (auto It = VD ? Cur->Choices.find(VD) : Cur->Choices.end();
          It != Cur->Choices.end() && !VD->getType()->isBooleanType())
        C = It->second;
    } else {
      C = choice(Size, false);
    }
    if (!C || std::get<1>(*C) != Whole || std::get<2>(*C) != None ||
        std::get<0>(*C).empty())
      return std::nullopt;
    return std::get<0>(*C);
  }

  //===--- asynchronous copies -------------------------------------------===//

  /// The pipeline primitive (cuda_pipeline_primitives.h) `C` calls, or "".
  static llvm::StringRef pipelineCall(const CallExpr *C) {
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier() || !fromSystemHeader(F))
      return "";
    const llvm::StringRef Name = F->getName();
    return Name == "__pipeline_memcpy_async" || Name == "__pipeline_commit" ||
                   Name == "__pipeline_wait_prior"
               ? Name
               : "";
  }

  /// `__pipeline_memcpy_async(&tile[i], &A[j], bytes)` (4, 8 or 16 bytes,
  /// no zero fill), `__pipeline_commit()`, `__pipeline_wait_prior(0)`. A
  /// copy is followed as the staging copy it makes once complete: it must
  /// be committed and waited for before the barrier that ends its part of
  /// the loop body (asyncSettled), so that no thread reads what it writes
  /// before it is complete (CUDA C++ Programming Guide, "Pipeline
  /// Primitives Interface").
  bool pipelineStatement(const CallExpr *C, llvm::StringRef Name, Phase P) {
    const char *Expected =
        "expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)' (4, 8 "
        "or 16 bytes of consecutive elements, filled with zeros outside a "
        "bounds check as '..., 16, ok ? 0 : 16)' or not at all) among the "
        "staging copies, then '__pipeline_commit();' and "
        "'__pipeline_wait_prior(0);' before the barrier that follows them";
    if (Name == "__pipeline_commit")
      return asyncCommit(C);
    if (Name == "__pipeline_wait_prior") {
      std::optional<int64_t> N = Ev.constant(C->getArg(0));
      return N && *N >= 0 ? asyncWait(C, *N) : fail(C->getBeginLoc(), Expected);
    }
    std::optional<int64_t> Bytes = Ev.constant(C->getArg(2));
    const bool Filled =
        C->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(C->getArg(3));
    std::optional<Guard> Bounds =
        Bytes && Filled ? zeroFill(C->getArg(3), *Bytes, true) : Guard();
    if (!Bytes || !Bounds)
      return fail(C->getBeginLoc(), Expected);
    return asyncCopy(tilePointer(C->getArg(0)), C->getArg(1), *Bytes, C, P,
                     Expected, *Bounds);
  }

  /// An asynchronous copy of `Bytes` bytes (4, 8 or 16) from `Src`, a
  /// pointer into a matrix, to the tile element `To`, by the statement At.
  /// With a bounds check in `Bounds`, elements outside it are zeros.
  bool asyncCopy(std::optional<std::pair<int32_t, int64_t>> To, const Expr *Src,
                 int64_t Bytes, const Stmt *At, Phase P, const char *Expected,
                 const Guard &Bounds = Guard()) {
    auto T = (Bytes == 4 || Bytes == 8 || Bytes == 16) && staging(P)
                 ? span(To, 0, Bytes)
                 : std::nullopt;
    // `ok ? &A[j] : A`: a source that stays inside the matrix where the
    // copy reads nothing, under the copy's own bounds check (also passed
    // to a helper's parameter, bindParameter).
    if (auto *R = dyn_cast<DeclRefExpr>(bare(Src)))
      if (auto It = CopySources.find(R->getDecl()); It != CopySources.end())
        Src = It->second;
    if (auto *C = dyn_cast<ConditionalOperator>(bare(Src)); C && T) {
      auto Check = Bounds.empty() ? std::nullopt : choice(C->getCond(), true);
      if (!Check || std::get<0>(*Check) != Bounds)
        return fail(At->getBeginLoc(), Expected);
      // `ok ? &A[j] : A`, or `!ok ? A : &A[j]`.
      Src = std::get<1>(*Check) ? C->getTrueExpr() : C->getFalseExpr();
    }
    auto From = T ? pointer(Src) : std::nullopt;
    if (!T || !From)
      return Why.Message.empty() ? fail(At->getBeginLoc(), Expected) : false;
    const SharedTile &X = Tiles[size_t(T->first)];
    const QualType E = tileElementType(X.Var, Ctx);
    const int64_t N = Bytes / Ctx.getTypeSizeInChars(E).getQuantity();
    if (!sameType(From->first->getType()->getPointeeType(), E) ||
        T->second % X.Cols + N > X.Cols)
      return fail(At->getBeginLoc(), Expected);
    if (!copyElements(*T, *From, N, At->getBeginLoc(), cast<Expr>(Src),
                      Bounds.empty() ? nullptr : &Bounds))
      return false;
    // Ahead: the staged buffer of a ring is read Ahead iterations on;
    // buffer b before the loop, b + 1 on (in iteration b).
    const int64_t B = T->second / X.buffer();
    Cur->AsyncOpen.push_back(
        AsyncCopy{At->getBeginLoc(),
                  Looping ? (X.Buffers > 1 && B == 1 ? Ahead : 0) : B + 1,
                  false, InPrefetch > 0, Looping});
    return true;
  }

  /// `if (ok) <an asynchronous copy of N bytes to &tile[i]> else
  /// *reinterpret_cast<V *>(&tile[i]) = <zeros>;` (or the negated check
  /// with the branches swapped), V a vector type of N bytes and ok a
  /// bounds check: followed as the copy filled with zeros outside the
  /// check (the zeros, stored at once, are there before the group is
  /// complete). The copy is `__pipeline_memcpy_async(dst, src, N)` or a
  /// cuda::pipeline's `cuda::memcpy_async(dst, src, size, pipe)`. nullopt
  /// where `If` is not of this form.
  std::optional<bool> asyncOrZeros(const IfStmt *If, Phase P) {
    const Stmt *Then = single(If->getThen());
    const Stmt *Else = If->getElse() ? single(If->getElse()) : nullptr;
    const Expr *Cond = If->getCond();
    auto CopyOf = [&](const Stmt *S) -> std::optional<PipelineCall> {
      auto *E = dyn_cast_or_null<Expr>(S);
      if (!E)
        return std::nullopt;
      if (std::optional<PipelineCall> C = tawa::pipelineCall(E);
          C && C->Op == PipelineCall::Copy)
        return C;
      auto *C = dyn_cast<CallExpr>(bare(E));
      if (!C || pipelineCall(C) != "__pipeline_memcpy_async" ||
          (C->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(C->getArg(3))))
        return std::nullopt;
      PipelineCall Copy;
      Copy.Op = PipelineCall::Copy;
      Copy.Dst = C->getArg(0);
      Copy.Src = C->getArg(1);
      Copy.Size = C->getArg(2);
      return Copy;
    };
    std::optional<PipelineCall> Copy = CopyOf(Then);
    if (!Copy && (Copy = CopyOf(Else))) {
      std::swap(Then, Else);
      Cond = negated(Cond);
    }
    if (!Copy || !Else)
      return std::nullopt;
    const char *Expected =
        "expected 'if (ok) <an asynchronous copy of 16 bytes to &tile[i]> "
        "else *reinterpret_cast<uint4 *>(&tile[i]) = make_uint4(0, 0, 0, "
        "0);', ok a bounds check, the zeros of as many bytes at the same "
        "element";
    // A cuda::memcpy_async names its pipeline; a primitive's copy none.
    const bool Pipelined = Copy->Pipeline != nullptr;
    if (Pipelined) {
      auto *R = dyn_cast<DeclRefExpr>(bare(Copy->Pipeline));
      if (!R || resolved(R->getDecl()) != Pipe)
        return fail(Copy->Pipeline->getBeginLoc(), Expected);
    }
    const Expr *L = nullptr, *R = nullptr;
    VectorRef Dst;
    if (assignment(Else, L, R))
      if (std::optional<VectorRef> V = vectorAccess(L))
        Dst = *V;
    std::optional<int64_t> Bytes =
        Pipelined ? copyBytes(Copy->Size) : Ev.constant(Copy->Size);
    std::optional<std::pair<Guard, bool>> Check =
        Cond ? truth(Cond) : std::nullopt;
    auto To = tilePointer(Copy->Dst);
    std::optional<std::pair<int32_t, int64_t>> Zeros;
    if (Dst.Ptr && Bytes && Dst.Bytes == *Bytes && zeroVector(R, Dst.V))
      Zeros = vectorTile(Dst);
    if (!To || !Zeros || *To != *Zeros || !Check || !Check->second ||
        Check->first.empty())
      return Why.Message.empty() ? fail(If->getBeginLoc(), Expected) : false;
    return asyncCopy(To, Copy->Src, *Bytes, Then, P, Expected, Check->first);
  }

  //===--- cuda::pipeline ------------------------------------------------===//

  /// A call on the kernel's one thread-scope cuda::pipeline, followed as
  /// the cp.async operations it compiles to (libcu++'s <cuda/pipeline>;
  /// CUDA C++ Programming Guide, "Asynchronous Data Copies using
  /// cuda::pipeline"): `producer_commit()` commits a group (head + 1);
  /// `consumer_wait()`, where head > tail, waits for every group but the
  /// head - tail - 1 most recent (at most 8 left in flight), then tail + 1;
  /// `pipeline_consumer_wait_prior<N>` waits for all but the N most recent
  /// and sets tail = head - N; `producer_acquire()` and
  /// `consumer_release()` do nothing; `cuda::memcpy_async(dst, src, size,
  /// pipe)` is an asynchronous copy of `size` bytes.
  bool cudaPipelineStatement(const PipelineCall &C, const Expr *At, Phase P) {
    const char *Expected =
        "expected 'cuda::memcpy_async(&tile[i], &matrix[j], "
        "cuda::aligned_size_t<16>(16), pipe)' (4, 8 or 16 bytes of "
        "consecutive elements) among the staging copies, then "
        "'pipe.producer_commit();' and 'pipe.consumer_wait();' before the "
        "barrier that follows them, on one pipeline of thread scope";
    auto *R = dyn_cast<DeclRefExpr>(bare(C.Pipeline));
    const VarDecl *VD = R ? resolved(R->getDecl()) : nullptr;
    if (!VD || VD != Pipe)
      return fail(C.Pipeline->getBeginLoc(),
                  "expected a call on the kernel's one pipeline of thread "
                  "scope, declared before the loop ('auto pipe = "
                  "cuda::make_pipeline();') or a helper's reference "
                  "parameter passed it");
    int64_t &Unwaited = Cur->PipeUnwaited;
    switch (C.Op) {
    case PipelineCall::Acquire:
    case PipelineCall::Release:
      return true;
    case PipelineCall::Commit:
      ++Unwaited;
      return asyncCommit(At, true);
    case PipelineCall::Wait:
      if (Unwaited == 0)
        return true;
      --Unwaited;
      return asyncWait(At, std::min<int64_t>(Unwaited, 8), true, true);
    case PipelineCall::WaitPrior:
      Unwaited = C.Prior;
      return asyncWait(At, std::min<int64_t>(C.Prior, 8), true);
    case PipelineCall::Copy:
      break;
    }
    std::optional<int64_t> Bytes = copyBytes(C.Size);
    if (!Bytes)
      return fail(C.Size->getBeginLoc(), Expected);
    return asyncCopy(tilePointer(C.Dst), C.Src, *Bytes, At, P, Expected);
  }

  /// The bytes a pipeline's copy of size `Size` copies (copySize), a
  /// constant (`16`, `sizeof(float4)`).
  std::optional<int64_t> copyBytes(const Expr *Size) {
    const Expr *N = copySize(Size);
    if (!N)
      return std::nullopt;
    if (std::optional<int64_t> C = Ev.constant(N))
      return C;
    if (std::optional<llvm::APSInt> C = N->getIntegerConstantExpr(Ctx))
      return C->getExtValue();
    return std::nullopt;
  }

  /// Commits and waits of one kind: a cuda::pipeline's (`Pipeline`) or
  /// the primitives' and cp.async's, whose groups the pipeline does not
  /// count.
  bool asyncKind(const Stmt *At, bool Pipeline) {
    SourceLocation &Mine = Pipeline ? PipelineAsync : PrimitiveAsync;
    const SourceLocation Other = Pipeline ? PrimitiveAsync : PipelineAsync;
    if (Other.isValid())
      return fail(At->getBeginLoc(),
                  "the kernel commits or waits for asynchronous copies both "
                  "through a cuda::pipeline and through the pipeline "
                  "primitives or cp.async, whose groups the pipeline does "
                  "not count: use one of them");
    if (Mine.isInvalid())
      Mine = At->getBeginLoc();
    return true;
  }

  /// `auto pipe = cuda::make_pipeline();` before the loop: the kernel's
  /// one pipeline.
  bool pipelineDeclaration(const VarDecl *VD, Phase P) {
    if (P != Phase::Prologue || !makesThreadPipeline(VD->getInit()) ||
        (Pipe && Pipe != VD))
      return fail(VD->getLocation(),
                  "expected one cuda::pipeline of thread scope, declared "
                  "before the loop: 'auto pipe = cuda::make_pipeline();' (a "
                  "pipeline of block scope, made from a group and a shared "
                  "state, is not followed)");
    Pipe = VD;
    return true;
  }

  /// Whether each thread's pipeline counts as many groups not waited for
  /// at the end of the loop body as at its start, so that every iteration
  /// waits as the one followed did (all threads, or the last with `Quick`).
  bool pipelineRepeats(bool Quick) {
    for (const ThreadState &T :
         llvm::ArrayRef(Threads).drop_front(Quick ? Threads.size() - 1 : 0))
      if (T.PipeUnwaited != T.PipeAtLoop)
        return fail(Loop->getForLoc(),
                    "the groups the cuda::pipeline commits and those its "
                    "'consumer_wait()' waits for differ in number in each "
                    "iteration, so that each iteration waits for other "
                    "groups: commit as many as it waits for");
    return true;
  }

  /// Commits that the last iterations skip, or that a loop of few
  /// iterations skips before it, are followed as if made. A pipeline's
  /// `consumer_wait()`, which counts the commits made, then waits for at
  /// least the groups it waits for where they are all made; a wait for all
  /// but N does not, so with one in the kernel such commits are refused.
  bool pipelineWaitsDynamic() {
    if (SkippedBeforeDynamic.isInvalid() || !StaticWait)
      return true;
    return fail(SkippedBeforeDynamic,
                "this commit is skipped where the loop has few iterations, "
                "and the kernel also waits for all but a fixed number of "
                "groups, which then leaves other groups in flight: commit "
                "outside the condition (an empty group), or wait with "
                "'pipe.consumer_wait();' alone");
  }

  /// `__pipeline_commit()`, `cp.async.commit_group`: the copies not yet
  /// committed become a group (an empty one where there are none; PTX ISA
  /// 9.7.9.25.3.2), in every iteration alike, or, under the prefetch's
  /// condition, in every iteration but the last (asyncWait).
  /// A commit under the condition of the copies before the loop
  /// (FirstGuard) makes fewer groups where the loop has fewer iterations:
  /// it is recorded, and refused at the loop (guardedCommits) unless a wait
  /// for every group outside any condition follows it before the loop.
  bool asyncCommit(const Stmt *At, bool Pipeline = false) {
    if (!asyncKind(At, Pipeline))
      return false;
    if (FirstGuard >= 0 && GuardedCommit.isInvalid())
      GuardedCommit = At->getBeginLoc();
    if (InPrefetch && !Drained)
      Cur->SkippedCommit = true;
    if (InPrefetch && !Drained && Pipeline && SkippedBeforeDynamic.isInvalid())
      SkippedBeforeDynamic = At->getBeginLoc();
    Cur->AsyncGroups.push_back(std::move(Cur->AsyncOpen));
    Cur->AsyncOpen.clear();
    return true;
  }

  /// `__pipeline_wait_prior(N)`, `cp.async.wait_group N`: every group but
  /// the N most recent is complete.
  /// After a commit that the last iteration skips, only a wait for every
  /// group is the same wait in the last iteration: one for all but the N
  /// most recent would there leave one more group in flight, an earlier
  /// iteration's (the copies of the tiles it reads).
  /// With `Dynamic`, the wait is a cuda::pipeline's `consumer_wait()`,
  /// whose N counts the groups committed (cudaPipelineStatement).
  bool asyncWait(const Stmt *At, int64_t N, bool Pipeline = false,
                 bool Dynamic = false) {
    if (!asyncKind(At, Pipeline))
      return false;
    StaticWait |= !Dynamic;
    if (InPrefetch && !Drained)
      return fail(At->getBeginLoc(), PrefetchWaitMessage);
    // Under the prefetch's condition with an `else` that drains, the wait
    // runs only where every earlier iteration made its commits.
    if (N > 0 && Cur->SkippedCommit && !Drained && !Dynamic)
      return fail(At->getBeginLoc(),
                  std::string("this wait follows a commit under the "
                              "prefetch's condition, which the last ") +
                      (Ahead > 1 ? std::to_string(Ahead) + " iterations skip"
                                 : std::string("iteration skips")) +
                      ": there it would leave the group of an earlier "
                      "iteration's copies in flight; commit outside the "
                      "condition, or wait for every group "
                      "('__pipeline_wait_prior(0);', 'cp.async.wait_group "
                      "0;')" +
                      (Pipeline ? std::string(", or for the oldest group "
                                              "not yet waited for "
                                              "('pipe.consumer_wait();')")
                                : std::string()));
    auto &G = Cur->AsyncGroups;
    if (int64_t(G.size()) > N)
      G.erase(G.begin(), G.end() - N);
    // Before the loop, a wait for every group that runs wherever the loop
    // does leaves nothing in flight, however many groups were committed.
    if (N == 0 && !Looping && !InPrefetch && FirstGuard < 0) {
      GuardedCommit = SourceLocation();
      Cur->SkippedCommit = false;
    }
    return true;
  }

  /// At the loop: no commit under the condition of the copies before it
  /// whose group may be missing (asyncCommit).
  bool guardedCommits() {
    if (GuardedCommit.isInvalid())
      return true;
    // A cuda::pipeline's waits count the groups committed: see
    // pipelineWaitsDynamic.
    if (PipelineAsync.isValid()) {
      SkippedBeforeDynamic = GuardedCommit;
      return true;
    }
    return fail(GuardedCommit,
                "this commit stands under the condition of the copies "
                "before the loop, so where the loop has fewer iterations "
                "fewer groups are in flight and a wait for all but the "
                "most recent leaves the first tiles' in flight: commit "
                "outside the condition, an empty group where it fails (or "
                "wait for every group before the loop, "
                "'__pipeline_wait_prior(0);')");
  }

  static constexpr const char *PrefetchWaitMessage =
      "the waits for asynchronous copies may not stand under the "
      "prefetch's condition: the last iteration, which skips it, would "
      "wait for other groups (unless an 'else' waits for every group, "
      "'else __pipeline_wait_prior(0);')";

  /// Whether `S` (an `else`) only waits for every group in flight:
  /// `__pipeline_wait_prior(0);`, asm statements without operands of
  /// 'cp.async.wait_group 0;', 'cp.async.wait_all;' (and commits).
  bool drainsAll(const Stmt *S) const {
    llvm::SmallVector<const Stmt *, 2> Stmts;
    if (auto *Block = dyn_cast<CompoundStmt>(S))
      Stmts.append(Block->body_begin(), Block->body_end());
    else
      Stmts.push_back(S);
    bool Drains = false;
    for (const Stmt *X : Stmts) {
      if (auto *A = dyn_cast<GCCAsmStmt>(X)) {
        std::optional<std::vector<int64_t>> Ops =
            asyncControlOps(A->getAsmString());
        if (A->getNumOutputs() || A->getNumInputs() || !Ops)
          return false;
        for (int64_t Op : *Ops) {
          const bool WaitsAll = Op == WaitAllOp || Op == 0;
          if (!WaitsAll && !(Op == CommitOp && !Drains))
            return false;
          Drains |= WaitsAll;
        }
        continue;
      }
      auto *C = dyn_cast<CallExpr>(single(X));
      std::optional<int64_t> N = pipelineCall(C) == "__pipeline_wait_prior"
                                     ? Ev.constant(C->getArg(0))
                                     : std::nullopt;
      if (!N || *N != 0)
        return false;
      Drains = true;
    }
    return Drains;
  }

  /// The tile element whose shared-memory address `E` is:
  /// `__cvta_generic_to_shared(&tile[i])` (the toolkit's), converted to an
  /// integer of 32 bits or more, or a local set to one (sharedAddresses).
  std::optional<std::pair<int32_t, int64_t>> sharedAddress(const Expr *E) {
    while (true) {
      E = E->IgnoreParens();
      auto *Cast = dyn_cast<CastExpr>(E);
      if (!Cast || !Cast->getType()->isIntegerType() ||
          Ctx.getTypeSize(Cast->getType()) < 32)
        break;
      E = Cast->getSubExpr();
    }
    if (auto *R = dyn_cast<DeclRefExpr>(E)) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      auto At = followed(Cur->SharedAddrs, VD);
      if (At && !resultsViewOutsideLoop(*At, VD, E))
        return std::nullopt;
      return At;
    }
    auto *C = dyn_cast<CallExpr>(E);
    const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
    if (!F || !F->getIdentifier() || !fromSystemHeader(F) ||
        F->getName() != "__cvta_generic_to_shared" || C->getNumArgs() != 1)
      return std::nullopt;
    return tilePointer(C->getArg(0));
  }

  /// `asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(s),
  /// "l"(&A[j]));` (`.ca`, an L2 prefetch size, 4 or 8 bytes for `.ca`, the
  /// size as an "n" operand, a source size `"r"(ok ? 16 : 0)` after it for
  /// a zero-filling copy), `cp.async.commit_group;`,
  /// `cp.async.wait_group 0;` and `cp.async.wait_all;` (PTX ISA 9.7.9.25),
  /// each alone in its statement, with no outputs: the pipeline primitives'
  /// copies, commits and waits (pipelineStatement).
  bool asmStatement(const GCCAsmStmt *A, Phase P) {
    const char *Expected =
        "expected 'cp.async.cg.shared.global [%0], [%1], 16;' with inputs "
        "\"r\"(<the shared address of a tile element>) and "
        "\"l\"(&matrix[j]) (and a source size \"r\"(ok ? 16 : 0) after "
        "the 16 for a copy under a bounds check) among the staging copies, "
        "then "
        "'cp.async.commit_group;' and 'cp.async.wait_group 0;' (or "
        "'cp.async.wait_all;') before the barrier that follows them; each "
        "copy alone in an asm statement without outputs, commits and waits "
        "alone or together without operands";
    std::string Text = A->getAsmString();
    llvm::StringRef T = llvm::StringRef(Text).trim();
    while (T.consume_back(";") || T.consume_back("\n"))
      T = T.rtrim();
    auto [Op, Rest] = T.split(' ');
    std::string Args;
    for (char Ch : Rest)
      if (!llvm::isSpace(Ch))
        Args += Ch;
    auto Input = [&](unsigned I) -> std::optional<int64_t> {
      return I < A->getNumInputs() && A->getInputConstraint(I) == "n"
                 ? Ev.constant(A->getInputExpr(I))
                 : std::nullopt;
    };
    bool Clobbers = false;
    for (unsigned I = 0; I < A->getNumClobbers(); ++I)
      Clobbers |= A->getClobber(I) != "memory";
    bool Writes = false;
    for (unsigned I = 0; I < A->getNumInputs(); ++I)
      Writes |= mayWrite(A->getInputExpr(I), Ctx);
    if (A->getNumOutputs() || Clobbers || Writes)
      return fail(A->getBeginLoc(), Expected);
    if (T.contains(';'))
      return asyncControls(A, T, Expected);
    const unsigned Inputs = A->getNumInputs();
    if (Op == "cp.async.commit_group" && Args.empty() && !Inputs)
      return asyncCommit(A);
    if (Op == "cp.async.wait_all" && Args.empty() && !Inputs)
      return asyncCommit(A) && asyncWait(A, 0);
    if (Op == "cp.async.wait_group" && Inputs == (Args == "%0" ? 1u : 0u)) {
      int64_t N = 0;
      std::optional<int64_t> Waits =
          Args == "%0"                                 ? Input(0)
          : !llvm::StringRef(Args).getAsInteger(10, N) ? std::optional(N)
                                                       : std::nullopt;
      return Waits && *Waits >= 0 ? asyncWait(A, *Waits)
                                  : fail(A->getBeginLoc(), Expected);
    }
    static const llvm::Regex Copy(
        "^cp\\.async\\.(ca|cg)\\.shared\\.global(\\.L2::(64|128|256)B)?$");
    llvm::SmallVector<llvm::StringRef, 4> M;
    std::optional<int64_t> Bytes;
    std::optional<Guard> Bounds = Guard();
    unsigned Used = 2;
    if (llvm::StringRef Size = Args; Size.consume_front("[%0],[%1],")) {
      // The copy size, then the source size where the copy zero-fills.
      auto [Copied, Source] = Size.split(',');
      int64_t B = 0;
      if (Copied == "%2")
        Bytes = Input(Used++);
      else if (!Copied.getAsInteger(10, B))
        Bytes = B;
      if (!Source.empty())
        Bounds = Bytes && Source == "%" + std::to_string(Used) &&
                         Used < Inputs && A->getInputConstraint(Used) == "r"
                     ? zeroFill(A->getInputExpr(Used++), *Bytes, false)
                     : std::nullopt;
    }
    if (!Copy.match(Op, &M) || !Bytes || !Bounds || Inputs != Used ||
        A->getInputConstraint(0) != "r" || A->getInputConstraint(1) != "l" ||
        (M[1] == "cg" && *Bytes != 16))
      return fail(A->getBeginLoc(), Expected);
    return asyncCopy(sharedAddress(A->getInputExpr(0)), A->getInputExpr(1),
                     *Bytes, A, P, Expected, *Bounds);
  }

  /// Several instructions in one asm statement without operands (`T`, its
  /// text): commits and waits alone, `cp.async.commit_group;
  /// cp.async.wait_group 0;`, each followed in order as if it stood alone.
  bool asyncControls(const GCCAsmStmt *A, llvm::StringRef T,
                     const char *Expected) {
    std::optional<std::vector<int64_t>> Ops = asyncControlOps(T);
    if (A->getNumInputs() || !Ops)
      return fail(A->getBeginLoc(), Expected);
    for (int64_t Op : *Ops) {
      const bool Ok = Op == CommitOp    ? asyncCommit(A)
                      : Op == WaitAllOp ? asyncCommit(A) && asyncWait(A, 0)
                                        : asyncWait(A, Op);
      if (!Ok)
        return false;
    }
    return true;
  }

  /// The instructions of an asm text of commits and waits, in order:
  /// CommitOp for 'cp.async.commit_group', WaitAllOp for
  /// 'cp.async.wait_all', N >= 0 for 'cp.async.wait_group N'; nullopt
  /// where it holds any other instruction.
  static constexpr int64_t CommitOp = -1, WaitAllOp = -2;
  static std::optional<std::vector<int64_t>>
  asyncControlOps(llvm::StringRef Text) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    Text.split(Parts, ';', -1, false);
    std::vector<int64_t> Ops;
    for (llvm::StringRef Part : Parts) {
      llvm::SmallVector<llvm::StringRef, 2> Words;
      llvm::SplitString(Part, Words);
      int64_t N = 0;
      if (Words.empty())
        continue;
      if (Words.size() == 1 && Words[0] == "cp.async.commit_group")
        Ops.push_back(CommitOp);
      else if (Words.size() == 1 && Words[0] == "cp.async.wait_all")
        Ops.push_back(WaitAllOp);
      else if (Words.size() == 2 && Words[0] == "cp.async.wait_group" &&
               !Words[1].getAsInteger(10, N) && N >= 0)
        Ops.push_back(N);
      else
        return std::nullopt;
    }
    return Ops;
  }

  /// At a barrier (or the end of the loop body, or of the code before
  /// it), every asynchronous copy of the thread is complete, but for the
  /// copies an iteration makes of the next iteration's tiles into their
  /// second buffer: those may stay in flight, committed, until the next
  /// iteration's first barrier, before which nothing reads that buffer
  /// (the iteration reads the other, and the next reads it after that
  /// barrier). Where the code before the loop ends without a barrier
  /// (`AtLoop`), its copies, committed, stay in flight until the first
  /// barrier likewise.
  bool asyncSettled(Phase P, bool AtLoop = false) {
    const bool BodyEnd = P == Phase::Rotated && CurSeg + 1 == RotSeg.size();
    // Where the next iteration reads a tile before its first barrier (the
    // wait at the bottom of the body), the barrier that ends this one
    // orders those reads: the copies of the next iteration's tiles are
    // complete there. (FirstRead is known here but where the first thread
    // followed reads nothing; firstReadsOrdered then refuses.)
    const bool NextReadsEarly =
        BodyEnd && !Wraps && PrologueBarrier && readsFirst();
    EndCheckedLax |= BodyEnd && !Wraps && !NextReadsEarly;
    // Copies in flight at the end of the body (or of the code before the
    // loop where no barrier ends it), committed or not, are the next
    // iteration's carried ones, complete at its first barrier (a
    // `cp.async.wait_all` there commits those not committed).
    // Otherwise, a copy whose buffer the iteration reads is complete at
    // the barrier. The first tiles, before the loop, may stay in flight
    // past its barrier where the loop's first barrier completes them
    // (PrologueInFlight; firstReadsOrdered).
    auto Fails = [&](const AsyncCopy &C) {
      if (AtLoop || (BodyEnd && Wraps))
        return false;
      if (P == Phase::Prologue && Rotated) {
        if (C.Ahead <= 1 && PrologueInFlight.isInvalid())
          PrologueInFlight = C.At;
        return false;
      }
      return P == Phase::Rotated ? C.Ahead <= (NextReadsEarly ? 1 : 0) : true;
    };
    for (const auto &G : Cur->AsyncGroups)
      for (const AsyncCopy &C : G)
        if (Fails(C))
          return fail(C.At,
                      (NextReadsEarly && C.Ahead == 1 ? bottomWaitMessage()
                       : !C.Carried                   ? SettledMessage
                       : Ahead > 1                    ? carriedRingMessage()
                                                      : CarriedMessage) +
                          pipelineHint());
    for (const AsyncCopy &C : Cur->AsyncOpen)
      if (Fails(C))
        return fail(C.At, (C.Carried ? UncommittedMessage : SettledMessage) +
                              pipelineHint());
    return true;
  }

  //===--- early returns -------------------------------------------------===//

  /// `if (m0 >= M || n0 >= N) return;` before the loop: comparisons `u >=
  /// X` (or `X <= u`) joined by `||`, u the same value for every thread of
  /// the block and X an extent. A block that returns stores nothing, which
  /// the kernel without the return also does where every store checks some
  /// `row < X` with row >= u (earlyReturnsStoreNothing): the return is then
  /// dropped.
  bool earlyReturn(const IfStmt *If) {
    const char *Expected =
        "expected an early return of whole blocks before the loop, 'if (m0 "
        ">= M || n0 >= N) return;': comparisons 'u >= X' joined by '||', u "
        "the same for every thread of the block and X an extent of C";
    std::vector<std::pair<Poly, Extent>> Parts;
    bool PerThread = false;
    std::function<bool(const Expr *)> Split = [&](const Expr *E) {
      E = bare(E);
      auto *B = dyn_cast<BinaryOperator>(E);
      if (B && B->getOpcode() == BO_LOr)
        return Split(B->getLHS()) && Split(B->getRHS());
      if (!B || (B->getOpcode() != BO_GE && B->getOpcode() != BO_LE))
        return false;
      const Expr *U = B->getOpcode() == BO_GE ? B->getLHS() : B->getRHS();
      const Expr *X = B->getOpcode() == BO_GE ? B->getRHS() : B->getLHS();
      std::optional<Extent> Ext = extentOf(X);
      std::optional<Poly> V = Ext ? Ev.eval(U) : std::nullopt;
      if (!V)
        return false;
      PerThread |= readsThreadIndex(U);
      Parts.push_back({*V, *Ext});
      return true;
    };
    if (!Split(If->getCond()))
      return fail(If->getBeginLoc(), Expected);
    if (PerThread)
      return threadReturn(If, std::move(Parts));
    if (!EarlyReturn) {
      EarlyReturn = If;
      EarlyReturnParts = std::move(Parts);
      return true;
    }
    // Every thread of the block returns alike.
    const bool Same =
        EarlyReturn == If && Parts.size() == EarlyReturnParts.size() &&
        std::equal(Parts.begin(), Parts.end(), EarlyReturnParts.begin(),
                   [](const auto &X, const auto &Y) {
                     return X.first == Y.first && X.second == Y.second;
                   });
    return Same ? true : fail(If->getBeginLoc(), Expected);
  }

  /// `if (u >= X || ...) return;` before the loop with u read from
  /// threadIdx (a warp whose tile lies outside C): in a kernel without
  /// barriers, the threads that return only skip their own work, so each
  /// store of the thread stands under `u < X && ...` (ThreadState::Kept),
  /// proved as any bounds check of the store is. The lanes of a warp must
  /// return alike: the wmma calls after it are warp-collective.
  bool threadReturn(const IfStmt *If, Guard Parts) {
    if (kernelHasBarrier())
      return fail(If->getBeginLoc(),
                  "an early return of some threads of the block before a "
                  "barrier: only whole blocks may return early here ('if "
                  "(m0 >= M || n0 >= N) return;', m0 and n0 the same for "
                  "every thread of the block)");
    Cur->Kept.insert(Cur->Kept.end(), Parts.begin(), Parts.end());
    if (leader())
      return true;
    const Guard &Lead = leaderOf().Kept;
    const bool Same = sameGuard(Lead, Cur->Kept);
    return Same ? true
                : fail(If->getBeginLoc(),
                       "the lanes of a warp must return alike before the "
                       "loop (wmma calls are warp-collective): expected a "
                       "return of whole warps, its condition the same for "
                       "every lane");
  }

  /// The current thread's checks of the `if` around the loop
  /// (AroundLoop::Guard), `u < X && ...`, into its LoopGuard. Where u reads
  /// threadIdx, the kernel must have no barrier (the threads kept out
  /// would miss those in the loop) and the lanes of a warp must agree (the
  /// wmma calls in the loop are warp-collective).
  bool loopGuard() {
    if (!LoopGuardIf)
      return true;
    Cur->LoopGuard.clear();
    if (!guard(LoopGuardIf->getCond(), Cur->LoopGuard))
      return false;
    if (!readsThreadIndex(LoopGuardIf->getCond()))
      return true;
    if (kernelHasBarrier())
      return fail(LoopGuardIf->getBeginLoc(),
                  "an 'if' around the loop that keeps some threads of the "
                  "block out of it, in a kernel with barriers: expected its "
                  "condition the same for every thread of the block ('if "
                  "(m0 < M && n0 < N)', m0 and n0 from blockIdx)");
    if (leader())
      return true;
    const Guard &Lead = leaderOf().LoopGuard;
    const bool Same = sameGuard(Lead, Cur->LoopGuard);
    return Same ? true
                : fail(LoopGuardIf->getBeginLoc(),
                       "the lanes of a warp must pass the 'if' around the "
                       "loop alike (wmma calls are warp-collective): "
                       "expected its condition the same for every lane");
  }

  /// A store inside the `if` around the loop stands under its checks.
  void underLoopGuard(StoreRecord &S) const {
    if (!LoopGuardIf)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    S.InLoopGuard =
        SM.isPointWithin(SM.getExpansionLoc(S.At),
                         SM.getExpansionLoc(LoopGuardIf->getBeginLoc()),
                         SM.getExpansionLoc(LoopGuardIf->getEndLoc()));
    if (S.InLoopGuard)
      S.Bounds.insert(S.Bounds.end(), Cur->LoopGuard.begin(),
                      Cur->LoopGuard.end());
  }

  /// A thread the `if` around the loop keeps out of it holds the
  /// accumulators' starting values, not the products: each of its stores
  /// must be skipped there, as earlyReturnsStoreNothing proves for an early
  /// return, by a check `row < X` of a row at u or after it for each `u <
  /// X` of the `if`. The threads that run the loop compute what the kernel
  /// without the `if` does. (Without barriers, a thread reads only what
  /// its own warp wrote, and the lanes of a warp pass the `if` alike.)
  bool loopGuardStoresNothing() {
    if (!LoopGuardIf)
      return true;
    for (const StoreRecord &S : Stores)
      for (const auto &[U, X] :
           S.InLoopGuard ? Guard() : Threads[S.Thread].LoopGuard) {
        if (!skipped(S, U, X))
          return fail(
              LoopGuardIf->getBeginLoc(),
              "the threads this 'if' keeps out of the loop would store "
              "elements of C without the products: expected each check 'u "
              "< X' of its condition to skip every store of the thread, each "
              "checking 'row < X' of a row (or column) at u or after it; the "
              "store at line " +
                  std::to_string(
                      Ctx.getSourceManager().getPresumedLoc(S.At).getLine()) +
                  " is not");
      }
    return true;
  }

  /// `if (row0 < M && col0 < N && k < K) { loads; mma; }` in a loop body
  /// without barriers (NVIDIA's WMMA blog, "Programming Tensor Cores in
  /// CUDA 9"). A check of the iteration's first element of K against the
  /// loop's own bound holds in every iteration; each other check must not
  /// read the loop variable, so it keeps one value in all of them, and goes
  /// into the thread's BodyGuard: where it fails, the thread multiplies
  /// nothing and its accumulators keep their starting values, so its
  /// stores must be skipped too (bodyGuardStoresNothing). The lanes of a
  /// warp must pass it alike (the wmma calls are warp-collective); inside
  /// it, only declarations and the wmma loads and products.
  bool bodyGuard(const IfStmt *If) {
    const char *Expected =
        "expected, around the loads and products of a loop body without "
        "barriers, one bounds check of the warp's tile, 'if (row0 < M && "
        "col0 < N && k < K)': k the iteration's first element of K, the "
        "other checks the same in every iteration (no loop variable in them)";
    if (BodyGuardIf && BodyGuardIf != If)
      return fail(If->getBeginLoc(), Expected);
    BodyGuardIf = If;
    Guard Parts;
    if (If->getInit() || If->getConditionVariable() ||
        !guard(If->getCond(), Parts))
      return Why.Message.empty() ? fail(If->getBeginLoc(), Expected) : false;
    for (const auto &[U, X] : Parts) {
      if (U.dependsOn(Counter)) {
        if (U != KOffset || X != G.K)
          return fail(If->getCond()->getBeginLoc(), Expected);
        continue;
      }
      if (!llvm::any_of(Cur->BodyGuard, [&](const auto &B) {
            return B.first == U && B.second == X;
          }))
        Cur->BodyGuard.push_back({U, X});
    }
    if (!leader() && !sameGuard(leaderOf().BodyGuard, Cur->BodyGuard))
      return fail(If->getBeginLoc(),
                  "the lanes of a warp must pass the bounds check around the "
                  "loads and products alike (wmma calls are "
                  "warp-collective): expected its condition the same for "
                  "every lane");
    if (!onlyFragmentProducts(If->getThen()))
      return fail(If->getThen()->getBeginLoc(), Expected);
    return exec(If->getThen(), Phase::Product);
  }

  /// Whether `S` holds only declarations, `wmma::load_matrix_sync` and
  /// `wmma::mma_sync` (in blocks).
  static bool onlyFragmentProducts(const Stmt *S) {
    if (auto *C = dyn_cast<CompoundStmt>(S))
      return llvm::all_of(C->body(), onlyFragmentProducts);
    if (isa<DeclStmt>(S) || isa<NullStmt>(S))
      return true;
    auto *Call = dyn_cast<CallExpr>(S);
    const FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
    return F && F->getIdentifier() &&
           (F->getName() == "load_matrix_sync" || F->getName() == "mma_sync");
  }

  /// A thread that fails the bounds check around the loads and products
  /// (bodyGuard) holds the accumulators' starting values: each of its
  /// stores must check `row < X` of a row (or column) at u or after it for
  /// each `u < X` of its BodyGuard, as loopGuardStoresNothing proves for
  /// the `if` around the loop.
  bool bodyGuardStoresNothing() {
    if (!BodyGuardIf)
      return true;
    for (const StoreRecord &S : Stores)
      for (const auto &[U, X] : Threads[S.Thread].BodyGuard)
        if (!skipped(S, U, X))
          return fail(
              BodyGuardIf->getBeginLoc(),
              "the warps this bounds check keeps from the products would "
              "store elements of C without them: expected each check 'u < X' "
              "of its condition to skip every store of the warp, each "
              "checking 'row < X' of a row (or column) at u or after it; the "
              "store at line " +
                  std::to_string(
                      Ctx.getSourceManager().getPresumedLoc(S.At).getLine()) +
                  " is not");
    return true;
  }

  /// Whether two threads' checks are the same, in the same order.
  static bool sameGuard(const Guard &A, const Guard &B) {
    return A.size() == B.size() && std::equal(A.begin(), A.end(), B.begin(),
                                              [](const auto &X, const auto &Y) {
                                                return X.first == Y.first &&
                                                       X.second == Y.second;
                                              });
  }

  /// Whether `S` is skipped where `U >= X`: it checks `row < X` of a row
  /// at U or after it.
  static bool skipped(const StoreRecord &S, const Poly &U, const Extent &X) {
    return llvm::any_of(S.Bounds, [&](const auto &B) {
      std::optional<int64_t> D = (B.first - U).constantValue();
      return B.second == X && D && *D >= 0;
    });
  }

  /// Whether `E` reads threadIdx, itself or through the initializers of
  /// the local variables it names.
  static bool readsThreadIndex(const Stmt *E, int Depth = 0) {
    if (!E || Depth > 16)
      return false;
    if (readsThreadIdx(E, 'x') || readsThreadIdx(E, 'y') ||
        readsThreadIdx(E, 'z'))
      return true;
    if (auto *R = dyn_cast<DeclRefExpr>(E))
      if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
          VD && VD->isLocalVarDecl())
        return readsThreadIndex(VD->getInit(), Depth + 1);
    return llvm::any_of(E->children(), [&](const Stmt *C) {
      return readsThreadIndex(C, Depth + 1);
    });
  }

  /// Whether the kernel, or a `__device__` helper it calls, has a barrier
  /// (isBarrier).
  bool kernelHasBarrier() const {
    struct Finder : RecursiveASTVisitor<Finder> {
      bool Found = false;
      bool VisitStmt(Stmt *S) {
        Found |= isBarrier(S);
        return !Found;
      }
    };
    Finder F;
    F.TraverseStmt(Kernel->getBody());
    for (const FunctionDecl *H : deviceHelpers(Kernel->getBody()))
      F.TraverseStmt(H->getBody());
    return F.Found;
  }

  /// Whether every store checks, for each comparison `u >= X` of the early
  /// return, some `row < X` with row - u a constant of 0 or more: where the
  /// block returns, u >= X, every store is skipped.
  bool earlyReturnsStoreNothing() {
    if (!EarlyReturn)
      return true;
    for (const auto &[U, X] : EarlyReturnParts)
      for (const StoreRecord &S : Stores) {
        if (!skipped(S, U, X))
          return fail(
              EarlyReturn->getBeginLoc(),
              "the blocks this early return skips would store "
              "elements of C without it: expected each comparison "
              "'u >= X' to skip every store, each checking 'row < X' "
              "of a row (or column) at u or after it; the store at "
              "line " +
                  std::to_string(
                      Ctx.getSourceManager().getPresumedLoc(S.At).getLine()) +
                  " is not");
      }
    return true;
  }

  /// With a cuda::pipeline, how its calls say what a failure asks for.
  std::string pipelineHint() const {
    if (PipelineAsync.isInvalid())
      return "";
    return "; through the cuda::pipeline, 'pipe.producer_commit();' commits "
           "a group and 'pipe.consumer_wait();' waits for the oldest group "
           "not yet waited for";
  }

  static constexpr const char *SettledMessage =
      "this asynchronous copy is not complete at the barrier that follows "
      "it: commit it and wait for it before ('__pipeline_commit(); "
      "__pipeline_wait_prior(0);', or 'cp.async.commit_group;' and "
      "'cp.async.wait_group 0;'), or, for the next iteration's tiles in the "
      "second buffer of a double-buffered tile, commit it in its iteration";
  static constexpr const char *CarriedMessage =
      "this asynchronous copy, made for the next iteration, is not complete "
      "at that iteration's first barrier: wait for it there, either at the "
      "top of the loop body ('__pipeline_wait_prior(0);' before the first "
      "barrier, the copies of the next tiles after it) or after the commit "
      "of the iteration's own copies ('__pipeline_wait_prior(1);' after one "
      "commit)";

  /// A copy of the next iteration's tiles in flight at the barrier that
  /// ends the body, where that iteration reads them before its first one.
  std::string bottomWaitMessage() const {
    const std::string W = std::to_string(Ahead - 1);
    return "this asynchronous copy of the next iteration's tiles is not "
           "complete at the barrier that ends the loop body, and the next "
           "iteration reads them before its first barrier: wait before that "
           "barrier for " +
           (Ahead > 1 ? "all groups but the " + W + " most recent"
                      : std::string("every group")) +
           " ('__pipeline_wait_prior(" + W + ");' or 'cp.async.wait_group " +
           W + ";' after the commit of each iteration's one group)";
  }

  std::string carriedRingMessage() const {
    const std::string D = std::to_string(Ahead), W = std::to_string(Ahead - 1);
    return "this asynchronous copy, made " + D +
           " iterations ahead (or before the loop), is not complete at the "
           "first barrier of the iteration that reads it: wait there for "
           "all groups but the " +
           W + " most recent ('__pipeline_wait_prior(" + W +
           ");' or 'cp.async.wait_group " + W +
           ";' before the first barrier, where each iteration commits one "
           "group after it)";
  }

  static constexpr const char *UncommittedMessage =
      "this asynchronous copy, made for the next iteration, is not "
      "committed before that iteration's first barrier, and a wait for "
      "groups ('__pipeline_wait_prior', 'cp.async.wait_group') waits for "
      "committed ones only: commit it ('__pipeline_commit();') before the "
      "wait, or wait with 'cp.async.wait_all;', which commits it";

  /// At the loop body's start, the copies in flight are an earlier
  /// iteration's; after the loop, those the last iteration skips are not
  /// made, and no other may be in flight.
  void asyncCarried() {
    // A ring skips the commit in its last Ahead iterations: the waits of
    // the iterations after the first skip see fewer groups.
    if (Ahead == 1)
      Cur->SkippedCommit = false;
    for (auto &G : Cur->AsyncGroups)
      for (AsyncCopy &C : G) {
        C.Carried = AnyCarried = true;
        --C.Ahead;
      }
    for (AsyncCopy &C : Cur->AsyncOpen) {
      C.Carried = AnyCarried = true;
      --C.Ahead;
    }
  }
  /// After an iteration, each thread's copies in flight (the last
  /// thread's alone, `LastOnly`), but those made before the loop (which a
  /// later iteration may wait for) unless `Before`, are skipped in the
  /// last iterations.
  bool asyncAfterLoop(bool Before, bool LastOnly = false) {
    for (const ThreadState &T : llvm::ArrayRef(Threads).drop_front(
             LastOnly ? Threads.size() - 1 : 0)) {
      std::vector<AsyncCopy> All = T.AsyncOpen;
      for (const auto &G : T.AsyncGroups)
        All.insert(All.end(), G.begin(), G.end());
      for (const AsyncCopy &C : All)
        if (!C.Conditional && (Before || C.InLoop))
          return fail(C.At,
                      "this asynchronous copy is still in flight after the "
                      "loop: stage the next iteration's tiles under 'if "
                      "(<the loop's condition " +
                          (Ahead > 1 ? std::to_string(Ahead) + " steps"
                                     : std::string("one step")) +
                          " on>)'");
    }
    return true;
  }

  /// The asynchronous copies a thread has in flight: its committed groups
  /// and those not yet committed.
  struct InFlightCopies {
    std::vector<std::vector<AsyncCopy>> Groups;
    std::vector<AsyncCopy> Open;
    bool SkippedCommit = false;
    int64_t PipeUnwaited = 0;
  };

  /// Whether each thread ends the iteration followed with the copies in
  /// flight it ended the one before with (as many groups, as many copies
  /// in each, into the same buffers, made in the loop alike), so that
  /// every later iteration is followed as this one was; else, with
  /// `Report`, a failure.
  bool asyncRepeats(const std::vector<InFlightCopies> &InFlight, bool Report) {
    auto SameCopies = [](const std::vector<AsyncCopy> &X,
                         const std::vector<AsyncCopy> &Y) {
      bool Same = X.size() == Y.size();
      for (size_t C = 0; Same && C < X.size(); ++C)
        Same = X[C].Ahead == Y[C].Ahead &&
               X[C].Conditional == Y[C].Conditional &&
               X[C].InLoop == Y[C].InLoop;
      return Same;
    };
    for (size_t I = 0; I < Threads.size(); ++I) {
      const auto &Now = Threads[I].AsyncGroups, &Then = InFlight[I].Groups;
      bool Same = Now.size() == Then.size() &&
                  SameCopies(Threads[I].AsyncOpen, InFlight[I].Open) &&
                  Threads[I].PipeUnwaited == InFlight[I].PipeUnwaited;
      for (size_t G = 0; Same && G < Now.size(); ++G)
        Same = SameCopies(Now[G], Then[G]);
      if (!Same && !Report)
        return false;
      if (!Same)
        return fail(Loop->getForLoc(),
                    "the asynchronous copies in flight at the end of an "
                    "iteration differ from one iteration to the next: each "
                    "iteration must commit and wait for its groups alike");
    }
    return true;
  }

  /// The registers a vector access `*reinterpret_cast<float4 *>(&reg[i])`
  /// (or `reinterpret_cast<float4 *>(reg)[j]`) spans: the first, an element
  /// of a local array, and how many; nullopt for anything else.
  std::optional<std::pair<Location, int64_t>>
  vectorRegister(const VectorRef &R) {
    auto *C = dyn_cast<ExplicitCastExpr>(R.Ptr);
    const Expr *Sub = C ? bare(C->getSubExpr()) : nullptr;
    std::optional<Location> L;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(Sub);
        U && U->getOpcode() == UO_AddrOf)
      L = location(U->getSubExpr(), false);
    else if (auto *D = dyn_cast_or_null<DeclRefExpr>(Sub);
             D && resolved(D->getDecl()) &&
             Cur->Floats.count(resolved(D->getDecl())))
      L = Location{resolved(D->getDecl()), 0};
    if (!L)
      return std::nullopt;
    const int64_t Size =
        Ctx.getTypeSizeInChars(Ctx.getBaseElementType(L->Var->getType()))
            .getQuantity();
    std::optional<int64_t> I = R.Index ? Ev.constant(R.Index) : 0;
    if (!I || R.Bytes % Size)
      return std::nullopt;
    const int64_t N = R.Bytes / Size;
    L->Index += *I * N;
    if (L->Index < 0 || L->Index + N > int64_t(Cur->Floats[L->Var].size()) ||
        (L->Index * Size) % R.Bytes)
      return std::nullopt;
    return std::pair(*L, N);
  }

  /// `*reinterpret_cast<float4 *>(&reg[i]) = *reinterpret_cast<const float4
  /// *>(&matrix[j])`: N registers of the matrix's type hold N consecutive
  /// elements of it, to be staged (FVal::Loaded).
  bool loadRegisters(const Location &First, int64_t N, const VectorRef &Dst,
                     const Expr *R, const Expr *L) {
    std::optional<VectorRef> Src = vectorAccess(R);
    auto P = Src ? vectorPlace(*Src) : std::nullopt;
    // The same type on both sides: a copy of bytes, not a conversion.
    if (!P || Src->Bytes != Dst.Bytes || Src->V != Dst.V ||
        !sameType(P->first->getType()->getPointeeType(),
                  Ctx.getBaseElementType(First.Var->getType())))
      return fail(L->getBeginLoc(),
                  "expected registers loaded with a vector of consecutive "
                  "elements of a matrix of their type, "
                  "'*reinterpret_cast<float4 *>(&reg[i]) = "
                  "*reinterpret_cast<const float4 *>(&matrix[j])'");
    for (int64_t I = 0; I < N; ++I) {
      std::optional<StagedElement> S = stagedAt(
          P->first, P->second + Poly::constant(I), L->getBeginLoc(), R);
      if (!S)
        return false;
      FVal F{FVal::Loaded};
      F.Index = int64_t(Cur->Fetched.size());
      Cur->Fetched.push_back(std::move(*S));
      at({First.Var, First.Index + I}) = F;
    }
    return true;
  }

  static constexpr const char *TileVectorMessage =
      "expected registers read as a vector of consecutive elements of one "
      "row of a tile of their type, starting at a multiple of the vector's "
      "size (else the kernel as written faults), "
      "'*reinterpret_cast<float4 *>(&reg[i]) = "
      "*reinterpret_cast<const float4 *>(&tile[r][c])'";

  /// `*reinterpret_cast<float4 *>(&reg[i]) = *reinterpret_cast<const float4
  /// *>(&tile[j])` in the product: N registers of the tile's type read N
  /// consecutive elements of one row of it, each as a scalar read would.
  bool tileToRegisters(std::pair<int32_t, int64_t> T, const Location &First,
                       int64_t N, const VectorRef &Src, const VectorRef &Dst,
                       const Expr *L, Phase P) {
    const SharedTile &X = Tiles[size_t(T.first)];
    if (Src.V != Dst.V || Src.Bytes != Dst.Bytes ||
        !sameType(tileElementType(X.Var, Ctx),
                  Ctx.getBaseElementType(First.Var->getType())) ||
        T.second % X.Cols + N > X.Cols)
      return fail(L->getBeginLoc(), TileVectorMessage);
    if (!prefetchWrite(First.Var, L))
      return false;
    for (int64_t I = 0; I < N; ++I) {
      std::optional<FVal> F = tileRead({T.first, T.second + I}, L, P);
      if (!F)
        return false;
      at({First.Var, First.Index + I}) = *F;
    }
    return true;
  }

  /// `*reinterpret_cast<float4 *>(&tile[i]) = *reinterpret_cast<float4
  /// *>(&reg[j])`: N registers loaded from a matrix staged into consecutive
  /// elements of a tile of their type.
  bool stageRegisters(std::pair<int32_t, int64_t> T, const Location &First,
                      int64_t N, const Expr *L) {
    const SharedTile &X = Tiles[size_t(T.first)];
    if (!sameType(tileElementType(X.Var, Ctx),
                  Ctx.getBaseElementType(First.Var->getType())) ||
        T.second % X.Cols + N > X.Cols)
      return fail(L->getBeginLoc(), "expected registers staged as they are, "
                                    "into a row of a tile of their type");
    for (int64_t I = 0; I < N; ++I) {
      const FVal &F = at({First.Var, First.Index + I});
      if (F.K != FVal::Loaded)
        return fail(L->getBeginLoc(),
                    "the register '" + First.Var->getName().str() +
                        "' does not hold a matrix element loaded in this "
                        "iteration");
      StagedElement S = Cur->Fetched[size_t(F.Index)];
      S.At = L->getBeginLoc();
      if (!record({T.first, T.second + I}, std::move(S)))
        return false;
    }
    return true;
  }

  /// The tile element a pointer `&tile[i]`, `&tile[i][j]`, `tile + i`,
  /// `tile[i] + j` or `tile` (one-dimensional) points at (for a double-
  /// buffered tile, `&tile[b][i][j]`, `tile[b][i] + j`, or `tile[b] + i` of
  /// one-dimensional buffers), inside one buffer.
  std::optional<std::pair<int32_t, int64_t>> tilePointer(const Expr *E) {
    E = bare(E);
    // A helper's parameter bound to a pointer into a tile (bindParameter).
    if (auto *R = dyn_cast<DeclRefExpr>(E)) {
      if (auto It = TileElements.find(R->getDecl()); It != TileElements.end())
        return It->second;
      if (auto View = tileView(R, E))
        return View;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
      return tileElement(U->getSubExpr(), true);
    // A one-dimensional tile decays to a pointer to its first element, a
    // row of a two-dimensional one to a pointer to the row's first.
    if (auto *R = dyn_cast<DeclRefExpr>(E); R && tileOf(R->getDecl()) >= 0) {
      const SharedTile &X = Tiles[size_t(tileOf(R->getDecl()))];
      if (X.Rows == 1 && X.Buffers == 1)
        return std::pair(tileOf(R->getDecl()), int64_t(0));
    }
    if (auto Row = tileRow(E))
      return Row;
    auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || B->getOpcode() != BO_Add)
      return std::nullopt;
    if (std::optional<int32_t> Ring = ringBase(E)) {
      std::vector<IndexTerm> Terms = indexTerms(E);
      llvm::erase_if(Terms, [&](const IndexTerm &T) {
        return T.E->getType()->isPointerType();
      });
      return ringElement(*Ring, Terms, E, true);
    }
    const Expr *Base = B->getLHS(), *Off = B->getRHS();
    if (!Base->getType()->isPointerType())
      std::swap(Base, Off);
    std::optional<int64_t> I = constantIndex(Off);
    // Pointer arithmetic counts the pointee: a whole row where the base
    // points to a row of a two-dimensional tile (the tile decayed, or a
    // sum with it, `(As + i) + j`).
    const QualType Pointee = Base->getType()->getPointeeType();
    const ConstantArrayType *Row =
        Pointee.isNull() ? nullptr : Ctx.getAsConstantArrayType(Pointee);
    if (!I || (Pointee.isNull() || (!Row && Pointee->isArrayType())) ||
        (Row && Row->getElementType()->isArrayType()))
      return std::nullopt;
    if (Row)
      *I *= int64_t(Row->getSize().getZExtValue());
    std::optional<std::pair<int32_t, int64_t>> At;
    if (auto *Inner = dyn_cast<BinaryOperator>(bare(Base));
        Inner && Inner->getOpcode() == BO_Add) {
      At = tilePointer(Inner); // (tile + i) + j
    } else if (auto View = tileView(dyn_cast<DeclRefExpr>(bare(Base)), E)) {
      At = View;
    } else if (auto *U = dyn_cast<UnaryOperator>(bare(Base));
               U && U->getOpcode() == UO_AddrOf) {
      At = tileElement(U->getSubExpr(), true); // &As[0][0] + i
    } else if (auto *R = dyn_cast<DeclRefExpr>(bare(Base));
               R && tileOf(R->getDecl()) >= 0 &&
               Tiles[size_t(tileOf(R->getDecl()))].Buffers == 1) {
      At = std::pair(tileOf(R->getDecl()), int64_t(0));
    } else {
      At = tileRow(Base);
    }
    if (!At)
      return std::nullopt;
    const SharedTile &X = Tiles[size_t(At->first)];
    const int64_t Buffer = At->second / X.buffer();
    At->second += *I;
    if (At->second < 0 || At->second >= X.size() ||
        At->second / X.buffer() != Buffer)
      return std::nullopt;
    return At;
  }

  /// The ring in dynamic shared memory that the pointer sum `E` moves
  /// (`As + b * C + i`, the tile its one pointer term), or nullopt.
  std::optional<int32_t> ringBase(const Expr *E) const {
    std::optional<int32_t> Ring;
    for (const IndexTerm &T : indexTerms(E)) {
      if (!T.E->getType()->isPointerType())
        continue;
      auto *R = dyn_cast<DeclRefExpr>(T.E);
      const int32_t Tile = R && !T.Negated ? tileOf(R->getDecl()) : -1;
      if (Tile < 0 || !Tiles[size_t(Tile)].DynamicRing || Ring)
        return std::nullopt;
      Ring = Tile;
    }
    return Ring;
  }

  /// The first element of the row of a tile that `E`, an array, names:
  /// `tile[i]` of a two-dimensional tile; of a double-buffered one,
  /// `tile[b][i]`, or `tile[b]` of one-dimensional buffers.
  std::optional<std::pair<int32_t, int64_t>> tileRow(const Expr *E) {
    auto *S = dyn_cast<ArraySubscriptExpr>(bare(E));
    if (!S || !S->getType()->isArrayType())
      return std::nullopt;
    const Expr *Base = bare(S->getBase());
    auto *Buf = dyn_cast<ArraySubscriptExpr>(Base);
    if (Buf)
      Base = bare(Buf->getBase());
    auto *R = dyn_cast<DeclRefExpr>(Base);
    const int32_t T = R ? tileOf(R->getDecl()) : -1;
    if (T < 0)
      return std::nullopt;
    const SharedTile &X = Tiles[size_t(T)];
    std::optional<int64_t> B = 0, Row = 0;
    if (const Expr *Buffer = bufferOf(R)) {
      // `P[i]` of a helper's parameter bound to one buffer, `As[b]`.
      if (Buf || X.Rows == 1)
        return std::nullopt;
      B = bufferIndex(X, Buffer), Row = constantIndex(S->getIdx());
    } else if (X.Buffers > 1 && X.Rows == 1 && !Buf)
      B = bufferIndex(X, S->getIdx());
    else if (X.Buffers > 1 && X.Rows > 1 && Buf)
      B = bufferIndex(X, Buf->getIdx()), Row = constantIndex(S->getIdx());
    else if (X.Buffers == 1 && X.Rows > 1 && !Buf)
      Row = constantIndex(S->getIdx());
    else
      return std::nullopt;
    if (!B || !Row || *Row < 0 || *Row >= X.Rows)
      return std::nullopt;
    return std::pair(T, (*B * X.Rows + *Row) * X.Cols);
  }

  //===--- the registers -------------------------------------------------===//

  /// The element of a thread's local variable `E` names (`x`, `a[i]`,
  /// `a[i][j]`), indices constant; nullopt for anything else.
  std::optional<Location> location(const Expr *E, bool Report,
                                   bool Fragments = false) {
    E = bare(E);
    // `a.y` of a vector read from a tile (tileVector).
    if (auto *M = dyn_cast<MemberExpr>(E); M && !Fragments && !M->isArrow()) {
      auto *R = dyn_cast<DeclRefExpr>(bare(M->getBase()));
      auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (VD && FD && vectorType(VD->getType()) && Cur->Floats.count(VD))
        return Location{VD, int64_t(FD->getFieldIndex())};
    }
    std::vector<const Expr *> Idx;
    while (auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      Idx.insert(Idx.begin(), S->getIdx());
      E = bare(S->getBase());
    }
    auto *R = dyn_cast<DeclRefExpr>(E);
    const VarDecl *VD = R ? resolved(R->getDecl()) : nullptr;
    if (!VD || !(Fragments ? Cur->Frags.count(VD) : Cur->Floats.count(VD)))
      return std::nullopt;
    int64_t Index = 0;
    QualType T = VD->getType();
    for (const Expr *I : Idx) {
      auto *A = Ctx.getAsConstantArrayType(T);
      std::optional<int64_t> V = constantIndex(I);
      const int64_t N = A ? int64_t(A->getSize().getZExtValue()) : 0;
      if (!A || !V || *V < 0 || *V >= N) {
        if (!Report)
          return std::nullopt;
        return fail(I->getBeginLoc(),
                    "the index of '" + VD->getName().str() +
                        "' must be a constant inside its extent for each "
                        "thread");
      }
      std::optional<int64_t> Inner = A->getElementType()->isArrayType()
                                         ? elementsOf(A->getElementType())
                                         : 1;
      Index += *V * *Inner;
      T = A->getElementType();
    }
    if (T->isArrayType())
      return std::nullopt;
    return Location{VD, Index};
  }

  std::optional<int64_t> elementsOf(QualType T) const {
    auto *A = Ctx.getAsConstantArrayType(T);
    return A ? std::optional<int64_t>(A->getSize().getZExtValue())
             : std::nullopt;
  }

  FVal &at(const Location &L) { return Cur->Floats[L.Var][size_t(L.Index)]; }

  /// `loc = R`: a zero, a tile element (in the product), a copy of another
  /// local, or `loc + x * y`, `fmaf(x, y, loc)`.
  bool assign(const Location &Loc, const Expr *R, Phase P) {
    const Expr *V = unconverted(R);
    if (auto *B = dyn_cast<BinaryOperator>(V); B && B->getOpcode() == BO_Add)
      for (auto [X, Y] : {std::pair(B->getLHS(), B->getRHS()),
                          std::pair(B->getRHS(), B->getLHS())}) {
        std::optional<Location> Same = location(X, false);
        if (Same && Same->Var == Loc.Var && Same->Index == Loc.Index)
          return accumulate(Loc, Y, R, P);
      }
    if (auto *C = dyn_cast<CallExpr>(V);
        C && C->getNumArgs() == 3 && C->getDirectCallee() &&
        llvm::is_contained({"fmaf", "__fmaf_rn"},
                           C->getDirectCallee()->getName())) {
      std::optional<Location> Same = location(C->getArg(2), false);
      if (Same && Same->Var == Loc.Var && Same->Index == Loc.Index)
        return product(Loc, C->getArg(0), C->getArg(1), R, P);
    }
    if (staging(P) &&
        readsMatrix(R, Ctx.getBaseElementType(Loc.Var->getType())))
      return load(Loc, R, nullptr, R->getBeginLoc());
    std::optional<FVal> X = fvalue(R, P);
    if (!X || !prefetchWrite(Loc.Var, R, X->K == FVal::Loaded))
      return false;
    at(Loc) = *X;
    return true;
  }

  /// Reading element T of a tile at `V` in phase P: between the barriers
  /// of the loop body (in a rotated loop, buffer i % 2, outside the
  /// prefetch), an element some staging copy of the iteration wrote.
  std::optional<FVal> tileRead(std::pair<int32_t, int64_t> T, const Expr *V,
                               Phase P) {
    if (P != Phase::Product && P != Phase::Rotated)
      return fail(V->getBeginLoc(),
                  "the __shared__ tiles may be read only between the "
                  "barriers of the loop body");
    if (P == Phase::Rotated) {
      SharedTile &X = Tiles[size_t(T.first)];
      if (InPrefetch)
        return fail(V->getBeginLoc(),
                    "the tiles are read under the prefetch's condition, "
                    "which the last iteration skips");
      if (T.second >= X.buffer())
        return fail(V->getBeginLoc(),
                    "the product must read buffer i % " +
                        std::to_string(X.Buffers) + " of '" +
                        X.Var->getName().str() +
                        "' in iteration i, the one staged for it");
      X.LastRead = X.Read ? std::max(X.LastRead, CurSeg) : CurSeg;
      X.FirstRead = std::min(X.FirstRead, CurSeg);
      X.Read = true;
      if (Recording) {
        FVal F{FVal::Staged};
        F.Tile = T.first;
        F.Index = -1;
        return F;
      }
    }
    if (Tiles[size_t(T.first)].Slot[size_t(T.second)] < 0)
      return fail(V->getBeginLoc(),
                  "reads an element of '" +
                      Tiles[size_t(T.first)].Var->getName().str() +
                      "' that no staging copy of the iteration writes");
    FVal F{FVal::Staged};
    F.Tile = T.first;
    F.Index = Tiles[size_t(T.first)].Slot[size_t(T.second)];
    return F;
  }

  /// The value of a float expression: zero, a tile element, another local.
  std::optional<FVal> fvalue(const Expr *E, Phase P) {
    const Expr *V = unconverted(E);
    if (isZero(V))
      return FVal{FVal::Zero};
    if (auto T = tileElement(V, true))
      return tileRead(*T, V, P);
    if (!Why.Message.empty())
      return std::nullopt;
    if (std::optional<Location> L = location(V, true)) {
      const FVal &F = at(*L);
      if (F.K == FVal::Staged || F.K == FVal::Zero ||
          (F.K == FVal::Loaded && staging(P)))
        return F;
      return fail(V->getBeginLoc(),
                  F.K == FVal::Sum
                      ? std::string("copies an accumulator; expected "
                                    "accumulators updated in place, "
                                    "'acc[i] += x * y'")
                      : "reads '" + L->Var->getName().str() +
                            "' before it is set in this iteration");
    }
    if (!Why.Message.empty())
      return std::nullopt;
    return fail(V->getBeginLoc(),
                "expected a zero, an element of a __shared__ tile or a "
                "local holding one");
  }

  /// `loc += x * y`.
  bool accumulate(const Location &Loc, const Expr *Prod, const Expr *At,
                  Phase P) {
    auto *M = dyn_cast<BinaryOperator>(unconverted(Prod));
    if (!M || M->getOpcode() != BO_Mul)
      return fail(At->getBeginLoc(), "expected a product accumulated, "
                                     "'acc[i] += x * y'");
    return product(Loc, M->getLHS(), M->getRHS(), At, P);
  }

  bool product(const Location &Loc, const Expr *X, const Expr *Y,
               const Expr *At, Phase P) {
    if (P == Phase::Rotated && InPrefetch)
      return fail(At->getBeginLoc(),
                  "a product under the prefetch's condition is skipped in "
                  "the last iteration");
    if (P != Phase::Product && P != Phase::Rotated)
      return fail(At->getBeginLoc(), "products may be accumulated only "
                                     "between the barriers of the loop body");
    if (!Loc.Var->getType()->getBaseElementTypeUnsafe()->isSpecificBuiltinType(
            BuiltinType::Float))
      return fail(At->getBeginLoc(), "the accumulator '" +
                                         Loc.Var->getName().str() +
                                         "' must be float");
    std::optional<FVal> FX = fvalue(X, P);
    std::optional<FVal> FY = FX ? fvalue(Y, P) : std::nullopt;
    if (!FY)
      return false;
    if (FX->K != FVal::Staged || FY->K != FVal::Staged)
      return fail(At->getBeginLoc(), "expected a product of two elements of "
                                     "the __shared__ tiles");
    if (P == Phase::Rotated && Recording)
      return true; // the tiles are read in the second pass

    FVal &A = at(Loc);
    if (A.K == FVal::Carried) {
      A = FVal{FVal::Sum};
      A.SumId = int32_t(Cur->Sums.size());
      A.Var = Loc.Var;
      A.Index = Loc.Index;
      Cur->Sums.emplace_back();
    } else if (A.K != FVal::Sum || A.Var != Loc.Var || A.Index != Loc.Index) {
      return fail(At->getBeginLoc(),
                  "accumulates into '" + Loc.Var->getName().str() +
                      "' after setting it in the loop: the accumulator must "
                      "carry its value from one iteration to the next");
    }
    Cur->Sums[size_t(A.SumId)].push_back(
        {int32_t(FX->Index), int32_t(FY->Index)});
    return true;
  }

  //===--- the wmma fragments ---------------------------------------------===//
  //
  // wmma calls are warp-collective (CUDA C++ Programming Guide, "Warp
  // Matrix Functions"): every lane of a warp must pass the same pointer,
  // leading dimension and fragments. Each lane is followed; the first lane
  // of each warp (or the one thread a quick attempt follows) finds the
  // elements its loads read and expands its stores into elements of C, and
  // the others must load and store what it did.

  /// Whether the thread followed leads its warp.
  bool leader() const {
    const int64_t Linear = Cur->Id[0] + Block.X * Cur->Id[1];
    return QuickRun || Linear % 32 == 0;
  }
  /// The warp leader of the thread followed.
  ThreadState &leaderOf() {
    const int64_t Linear = Cur->Id[0] + Block.X * Cur->Id[1];
    return Threads[size_t(Linear - Linear % 32)];
  }

  bool wmmaStatement(const CallExpr *C, Phase P) {
    const StringRef N = C->getDirectCallee()->getName();
    ++Cur->WmmaCalls;
    if (N == "fill_fragment" && C->getNumArgs() == 2)
      return fragmentFill(C, P);
    if (N == "load_matrix_sync" && C->getNumArgs() == 3)
      return fragmentLoad(C, P);
    if (N == "load_matrix_sync" && C->getNumArgs() == 4)
      return cFragmentLoad(C, P);
    if (N == "mma_sync" && C->getNumArgs() == 4)
      return fragmentProduct(C, P);
    if (N == "store_matrix_sync" && C->getNumArgs() == 4)
      return fragmentStore(C, P);
    return fail(C->getBeginLoc(),
                "expected 'wmma::fill_fragment(acc, 0.0f)' before the loop, "
                "'wmma::load_matrix_sync(frag, pointer, ld)' of A and B "
                "fragments and 'wmma::mma_sync(acc, a, b, acc)' in it, and "
                "'wmma::store_matrix_sync(C + offset, acc, ldc, "
                "wmma::mem_row_major)' after it");
  }

  /// The fragment `E` names, and its shape.
  std::optional<std::pair<Location, Fragment>> fragment(const Expr *E) {
    std::optional<Location> L = location(E, true, /*Fragments=*/true);
    if (!L && Why.Message.empty())
      return fail(E->getBeginLoc(), "expected a wmma fragment");
    if (!L)
      return std::nullopt;
    return std::pair(*L, FragKinds[L->Var]);
  }
  FragVal &atFragment(const Location &L) {
    return Cur->Frags[L.Var][size_t(L.Index)];
  }

  bool fragmentFill(const CallExpr *C, Phase P) {
    auto F = fragment(C->getArg(0));
    if (!F)
      return false;
    if (P != Phase::Prologue || F->second.Use != Fragment::Acc ||
        !isZero(C->getArg(1)))
      return fail(C->getBeginLoc(), "expected accumulators set to 0 before "
                                    "the loop, 'wmma::fill_fragment(acc, "
                                    "0.0f)'");
    atFragment(F->first) = FragVal{FragVal::Zero};
    return true;
  }

  /// `wmma::load_matrix_sync(frag, p, ld)` of an A or B fragment, p into a
  /// __shared__ tile (ld a constant, every element read staged in this
  /// iteration) or into a matrix.
  bool fragmentLoad(const CallExpr *C, Phase P) {
    auto F = fragment(C->getArg(0));
    if (!F)
      return false;
    const Fragment &Shape = F->second;
    if (Shape.Use == Fragment::Acc ||
        (P != Phase::Product && P != Phase::Rotated))
      return fail(C->getBeginLoc(),
                  "expected A and B fragments loaded between the barriers "
                  "of the loop body (or anywhere in a loop body without "
                  "barriers)");
    if (P == Phase::Rotated && InPrefetch)
      return fail(C->getBeginLoc(),
                  "the tiles are read under the prefetch's condition, which "
                  "the last iteration skips");
    FragmentLoad L;
    L.RowMajor = Shape.RowMajor;
    std::optional<Poly> Ld = eval(C->getArg(2), "the leading dimension");
    if (!Ld)
      return false;
    L.Ld = *Ld;
    const int64_t Rows = Shape.Use == Fragment::A ? Shape.M : Shape.K,
                  Cols = Shape.Use == Fragment::A ? Shape.K : Shape.N;
    std::optional<std::pair<int32_t, int64_t>> T = tilePointer(C->getArg(1));
    if (!T && !Why.Message.empty())
      return false;
    if (T) {
      if (!sharedLoad(C, *T, Rows, Cols, L))
        return false;
    } else if (auto Ptr = pointer(C->getArg(1))) {
      L.Source = Ptr->first;
      L.Offset = Ptr->second;
      if (leader() && !globalLoad(C, *Ptr, Rows, Cols, L))
        return false;
    } else {
      return fail(C->getArg(1)->getBeginLoc(),
                  "expected a pointer into a __shared__ tile or a matrix");
    }
    atFragment(F->first) = FragVal{FragVal::Loaded, int32_t(Cur->Loads.size())};
    Cur->Loads.push_back(std::move(L));
    return true;
  }

  /// `wmma::load_matrix_sync(c, C + offset, ldc, wmma::mem_row_major)` after
  /// the loop, c of the accumulator's type: C's old values (the CUDA
  /// samples' D = alpha * A * B + beta * C), which fragmentBlend weighs by
  /// beta and fragmentStore requires stored back to the same place.
  bool cFragmentLoad(const CallExpr *C, Phase P) {
    auto F = fragment(C->getArg(0));
    if (!F)
      return false;
    auto *Layout = dyn_cast<DeclRefExpr>(bare(C->getArg(3)));
    auto Ptr = pointer(C->getArg(1));
    std::optional<Poly> Ld = eval(C->getArg(2), "the leading dimension");
    if (!Ld)
      return false;
    if (P != Phase::Epilogue || F->second.Use != Fragment::Acc || !Ptr ||
        !Layout || Layout->getDecl()->getName() != "mem_row_major")
      return fail(C->getBeginLoc(),
                  "expected after the loop 'wmma::load_matrix_sync(c, C + "
                  "offset, ldc, wmma::mem_row_major)' of a fragment of the "
                  "accumulator's type, from where it is stored");
    Cur->CLoads.push_back({Ptr->first, Ptr->second, *Ld, Guards});
    atFragment(F->first) =
        FragVal{FragVal::CLoad, int32_t(Cur->CLoads.size() - 1)};
    return true;
  }

  /// The memory offset of element (r, c) of a fragment load.
  static int64_t offsetOf(bool RowMajor, int64_t Ld, int64_t R, int64_t C) {
    return RowMajor ? R * Ld + C : C * Ld + R;
  }

  bool sharedLoad(const CallExpr *C, std::pair<int32_t, int64_t> T,
                  int64_t Rows, int64_t Cols, FragmentLoad &L) {
    const SharedTile &X = Tiles[size_t(T.first)];
    std::optional<int64_t> Ld = L.Ld.constantValue();
    L.Source = X.Var;
    L.Offset = Poly::constant(T.second);
    // CUDA C++ Programming Guide, "Warp Matrix Functions": ldm a multiple
    // of 16 bytes, the pointer 256-bit aligned (relative to the tile).
    const int64_t Bytes =
        Ctx.getTypeSizeInChars(tileElementType(X.Var, Ctx)).getQuantity();
    if (!Ld || *Ld <= 0 || (*Ld * Bytes) % 16 || (T.second * Bytes) % 32)
      return fail(C->getArg(2)->getBeginLoc(),
                  "a fragment in shared memory needs a constant leading "
                  "dimension of a multiple of 16 bytes and a start 32 bytes "
                  "into the tile times a whole number");
    if (Rotated && Looping) {
      SharedTile &W = Tiles[size_t(T.first)];
      W.LastRead = W.Read ? std::max(W.LastRead, CurSeg) : CurSeg;
      W.FirstRead = std::min(W.FirstRead, CurSeg);
      W.Read = true;
    }
    // In a loop that stages the next tiles, buffer 0 is the one read.
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t Col = 0; Col < Cols; ++Col) {
        const int64_t At = T.second + offsetOf(L.RowMajor, *Ld, R, Col);
        if (At < 0 || At >= X.Rows * X.Cols)
          return fail(C->getBeginLoc(), "the fragment reaches outside '" +
                                            X.Var->getName().str() +
                                            "' (or the buffer it reads)");
        if (Rotated && Recording)
          continue; // the tiles are read in the second pass
        const int32_t Slot = X.Slot[size_t(At)];
        if (Slot < 0)
          return fail(C->getBeginLoc(),
                      "reads an element of '" + X.Var->getName().str() +
                          "' that no staging copy of the iteration writes");
        if (leader())
          L.Elems.push_back(Slot);
      }
    return true;
  }

  bool globalLoad(const CallExpr *C,
                  const std::pair<const ParmVarDecl *, Poly> &Ptr, int64_t Rows,
                  int64_t Cols, FragmentLoad &L) {
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t Col = 0; Col < Cols; ++Col) {
        const Poly Off = L.RowMajor
                             ? Poly::constant(R) * L.Ld + Poly::constant(Col)
                             : Poly::constant(Col) * L.Ld + Poly::constant(R);
        std::optional<StagedElement> S =
            stagedAt(Ptr.first, Ptr.second + Off, C->getBeginLoc(), C);
        if (!S)
          return false;
        L.Elems.push_back(int32_t(Staged.size()));
        Staged.push_back(std::move(*S));
      }
    return true;
  }

  /// `wmma::mma_sync(acc, a, b, acc)`: acc gains the product of the loads.
  bool fragmentProduct(const CallExpr *C, Phase P) {
    auto D = fragment(C->getArg(0));
    auto A = D ? fragment(C->getArg(1)) : std::nullopt;
    auto B = A ? fragment(C->getArg(2)) : std::nullopt;
    auto S = B ? fragment(C->getArg(3)) : std::nullopt;
    if (!S)
      return false;
    const FragVal FA = atFragment(A->first), FB = atFragment(B->first);
    if ((P != Phase::Product && P != Phase::Rotated) ||
        (P == Phase::Rotated && InPrefetch) || D->second.Use != Fragment::Acc ||
        S->first.Var != D->first.Var || S->first.Index != D->first.Index ||
        A->second.Use != Fragment::A || B->second.Use != Fragment::B ||
        A->second.M != D->second.M || B->second.N != D->second.N ||
        A->second.K != B->second.K || D->second.K != A->second.K ||
        A->second.M != B->second.M || A->second.N != B->second.N ||
        FA.K != FragVal::Loaded || FB.K != FragVal::Loaded)
      return fail(C->getBeginLoc(),
                  "expected 'wmma::mma_sync(acc, a, b, acc)' between the "
                  "barriers, a and b loaded in this iteration");
    if (P == Phase::Rotated && Recording)
      return true; // the tiles are read in the second pass
    FragVal &Acc = atFragment(D->first);
    if (Acc.K == FragVal::Carried) {
      Acc = FragVal{FragVal::Sum, int32_t(Cur->FragSums.size()), D->first.Var,
                    D->first.Index};
      Cur->FragSums.emplace_back();
    } else if (Acc.K != FragVal::Sum) {
      return fail(C->getBeginLoc(),
                  "accumulates into a fragment after setting it in the "
                  "loop: the accumulator must carry its value from one "
                  "iteration to the next");
    }
    Cur->FragSums[size_t(Acc.Id)].push_back({FA.Id, FB.Id});
    return true;
  }

  /// `wmma::store_matrix_sync(C + offset, acc, ldc, wmma::mem_row_major)`
  /// of an accumulator that was 0 before the loop: the warp leader expands
  /// it into stores of the elements of C, the other lanes must store what
  /// it stored.
  bool fragmentStore(const CallExpr *C, Phase P) {
    auto F = fragment(C->getArg(1));
    if (!F)
      return false;
    if (auto T = tilePointer(C->getArg(0));
        T && Tiles[size_t(T->first)].Results)
      return resultsFragmentStore(C, *F, *T, P);
    if (!Why.Message.empty())
      return false;
    auto *Layout = dyn_cast<DeclRefExpr>(bare(C->getArg(3)));
    auto Ptr = pointer(C->getArg(0));
    std::optional<Poly> Ld = eval(C->getArg(2), "the leading dimension");
    if (!Ld)
      return false;
    const FragVal &V = atFragment(F->first);
    // The accumulator the stored value sums (a C fragment blended with it
    // holds its sums, FragVal::Var).
    const Location Acc =
        V.K == FragVal::Sum ? Location{V.Var, V.Index} : F->first;
    auto Before = Cur->FragsBefore.find(Acc.Var);
    if (P != Phase::Epilogue || !Ptr || !Layout ||
        Layout->getDecl()->getName() != "mem_row_major" ||
        F->second.Use != Fragment::Acc || V.K != FragVal::Sum ||
        Before == Cur->FragsBefore.end() ||
        Before->second[size_t(Acc.Index)].K != FragVal::Zero ||
        (G.C && G.C != Ptr->first))
      return fail(C->getBeginLoc(),
                  "expected after the loop 'wmma::store_matrix_sync(C + "
                  "offset, acc, ldc, wmma::mem_row_major)' of an accumulator "
                  "set to 0 before it, without bounds checks or under 'if "
                  "(row < M && col < N)' of the fragment's first row and "
                  "column");
    G.C = Ptr->first;
    std::optional<ElementType> Out =
        elementOf(G.C->getType()->getPointeeType());
    if (Out != ElementType::F32)
      return fail(G.C->getLocation(), "C must point to float");
    G.Out = *Out;
    std::string Terms = "a";
    if (V.CTerm >= 0) {
      const CFragmentLoad &L = Cur->CLoads[size_t(V.CTerm)];
      if (L.Ptr != Ptr->first || L.Offset != Ptr->second || L.Ld != *Ld ||
          !sameGuard(L.Bounds, Guards))
        return fail(C->getBeginLoc(),
                    "the C fragment must be loaded from where it is stored, "
                    "with the same leading dimension and layout, under the "
                    "same bounds checks");
      Terms = V.CFirst ? "ca" : "ac";
    }
    if (!G.Terms.empty() &&
        (G.Terms != Terms || G.Alpha != V.Scale || G.Beta != V.Beta))
      return fail(C->getBeginLoc(), "expected every store of C to compute "
                                    "the same expression of its "
                                    "accumulator");
    G.Terms = Terms;
    G.Alpha = V.Scale;
    G.Beta = V.Beta;
    FragmentStore Mine{Ptr->second, *Ld, V.Id, V.Scale, V.Beta};
    if (!leader())
      return sameAsLeader(C, Mine);
    Cur->FragStores.push_back(Mine);
    return expandStore(C, F->second, Mine);
  }

  /// `wmma::store_matrix_sync(Cs + offset, acc, ld, layout)` into an array
  /// of results: the warp leader puts each element of the fragment, with
  /// the products it gained, into the array; the other lanes must store
  /// what it stored.
  bool resultsFragmentStore(const CallExpr *C,
                            const std::pair<Location, Fragment> &F,
                            std::pair<int32_t, int64_t> T, Phase P) {
    const SharedTile &X = Tiles[size_t(T.first)];
    auto *Layout = dyn_cast<DeclRefExpr>(bare(C->getArg(3)));
    const StringRef Order = Layout ? Layout->getDecl()->getName() : "";
    std::optional<int64_t> Ld = constantIndex(C->getArg(2));
    const FragVal &V = atFragment(F.first);
    auto Before = Cur->FragsBefore.find(F.first.Var);
    // CUDA C++ Programming Guide, "Warp Matrix Functions": ldm a multiple
    // of 16 bytes (4 floats), the pointer 256-bit aligned (8 floats).
    if (P != Phase::Epilogue || !Ld || *Ld <= 0 || *Ld % 4 || T.second % 8 ||
        (Order != "mem_row_major" && Order != "mem_col_major") ||
        F.second.Use != Fragment::Acc || V.K != FragVal::Sum || V.CTerm >= 0 ||
        Before == Cur->FragsBefore.end() ||
        Before->second[size_t(F.first.Index)].K != FragVal::Zero)
      return resultsFailure(
          C->getBeginLoc(),
          "expected after the loop "
          "'wmma::store_matrix_sync(Cs + offset, acc, ld, "
          "wmma::mem_row_major)' (or mem_col_major) of an "
          "accumulator set to 0 before it into the __shared__ array "
          "'" +
              X.Var->getName().str() +
              "', ld a constant multiple of 4 and offset of 8");
    FragmentStore Mine{Poly::constant(T.second), Poly::constant(*Ld), V.Id,
                       V.Scale};
    if (!leader())
      return sameAsLeader(C, Mine);
    Cur->FragStores.push_back(Mine);
    const Fragment &Shape = F.second;
    for (int64_t R = 0; R < Shape.M; ++R)
      for (int64_t Col = 0; Col < Shape.N; ++Col) {
        const int64_t At =
            T.second + offsetOf(Order == "mem_row_major", *Ld, R, Col);
        if (At >= X.Rows * X.Cols)
          return resultsFailure(C->getBeginLoc(),
                                "the fragment reaches outside '" +
                                    X.Var->getName().str() + "'");
        Cur->Sums.push_back(fragmentElement(Shape, V.Id, R, Col));
        if (!hold(T.first, At, int32_t(Cur->Sums.size() - 1), C, true, V.Scale))
          return false;
      }
    return true;
  }

  /// The products element (R, Col) of the fragment sum `SumId` gained.
  std::vector<Product> fragmentElement(const Fragment &Shape, int32_t SumId,
                                       int64_t R, int64_t Col) const {
    std::vector<Product> Ps;
    for (const auto &[IA, IB] : Cur->FragSums[size_t(SumId)]) {
      const FragmentLoad &A = Cur->Loads[size_t(IA)],
                         &B = Cur->Loads[size_t(IB)];
      for (int64_t K = 0; K < Shape.K; ++K)
        Ps.push_back({A.Elems[size_t(R * Shape.K + K)],
                      B.Elems[size_t(K * Shape.N + Col)]});
    }
    return Ps;
  }

  /// `Cs[i][j] = acc[k];` after the loop: an accumulator put as it is into
  /// an array of results.
  bool resultStore(std::pair<int32_t, int64_t> T, const Expr *R,
                   const Expr *L) {
    std::optional<Location> From = location(bare(R), false);
    const FVal *F = From ? &at(*From) : nullptr;
    auto Before = From ? Cur->Before.find(From->Var) : Cur->Before.end();
    if (!F || F->K != FVal::Sum || Before == Cur->Before.end() ||
        Before->second[size_t(From->Index)].K != FVal::Zero)
      return resultsFailure(
          L->getBeginLoc(),
          "expected an accumulator set to 0 before the loop put as "
          "it is into the __shared__ array '" +
              Tiles[size_t(T.first)].Var->getName().str() +
              "', 'Cs[i][j] = acc[k];'");
    return hold(T.first, T.second, F->SumId, L, false);
  }

  /// Element `At` of the array of results `T` is written with the followed
  /// thread's sum `SumId` (from a fragment store of its warp where
  /// `Collective`). Which write a read sees is settled once every thread
  /// has been followed (visible).
  bool hold(int32_t T, int64_t At, int32_t SumId, const Expr *Where,
            bool Collective, const VarDecl *Scale = nullptr) {
    Tiles[size_t(T)].Held[size_t(At)].push_back(
        HeldResult{int32_t(Cur - Threads.data()), SumId, EpiloguePart,
                   Collective, ++HeldSeq, Where->getBeginLoc(), Scale, Guards});
    return true;
  }

  /// A failure at an array of results: it names the store that breaks the
  /// pattern, so it outranks attempts of other blocks that fail before
  /// their stores, and a stored value that reads the element reports it.
  Failed resultsFailure(SourceLocation At, const std::string &Message) {
    Reached = std::max(Reached, 3);
    ResultsWhy = LiftFailure{At, Message};
    return fail(At, Message);
  }

  /// A read of an array of results by the followed thread: checked, and
  /// taken for the accumulator element it holds, once every thread has
  /// been followed through the epilogue (resolveHeld).
  bool heldRead(std::pair<int32_t, int64_t> T, const Expr *X) {
    StoredHeld = HeldRef{T.first,      T.second,
                         EpiloguePart, int32_t(Cur - Threads.data()),
                         ++HeldSeq,    X->getBeginLoc()};
    return true;
  }

  /// Whether an access of an array of results by `Thread` in `Part` at
  /// `Seq` is ordered before one by `Later` in `LaterPart` at `LaterSeq`:
  /// a block barrier between them, a warp barrier where one warp makes
  /// both, or one thread's program order within a part (not for a
  /// fragment store, `Collective`, whose elements any lane may write).
  bool ordered(int32_t Part, int32_t Thread, int64_t Seq, int32_t LaterPart,
               int32_t Later, int64_t LaterSeq, bool Collective) const {
    return BlockFences[size_t(LaterPart)] > BlockFences[size_t(Part)] ||
           (Part < LaterPart && Thread / 32 == Later / 32) ||
           (Part == LaterPart && !Collective && Thread == Later &&
            Seq < LaterSeq);
  }

  /// The write a read of an array of results sees: the last of those
  /// ordered before it, where every write of the element is ordered before
  /// or after the read and those before it one after another (a scratch
  /// reused for each fragment, with barriers between its stores and the
  /// reads of each); null where not.
  const HeldResult *visible(const HeldRef &R) {
    const SharedTile &Tile = Tiles[size_t(R.Tile)];
    const std::vector<HeldResult> &Writes = Tile.Held[size_t(R.Index)];
    const std::string Name = Tile.Var->getName().str();
    if (Writes.empty()) {
      resultsFailure(R.At, "reads an element of '" + Name +
                               "' that no store after the loop writes");
      return nullptr;
    }
    const HeldResult *Seen = nullptr;
    for (const HeldResult &W : Writes) {
      if (ordered(W.Part, W.Thread, W.Seq, R.Part, R.Reader, R.Seq,
                  W.Collective)) {
        if (Seen &&
            !ordered(Seen->Part, Seen->Thread, Seen->Seq, W.Part, W.Thread,
                     W.Seq, Seen->Collective || W.Collective)) {
          resultsFailure(W.At, "two stores after the loop write element " +
                                   std::to_string(R.Index) + " of '" + Name +
                                   "' with no barrier between them that "
                                   "orders the second after the first");
          return nullptr;
        }
        Seen = &W;
      } else if (!ordered(R.Part, R.Reader, R.Seq, W.Part, W.Thread, W.Seq,
                          W.Collective)) {
        // Within a part, only one thread's accesses have an order.
        const bool Later =
            W.Part > R.Part ||
            (W.Part == R.Part && W.Thread == R.Reader && W.Seq > R.Seq);
        resultsFailure(
            R.At, Later
                      ? "reads an element of '" + Name +
                            "' that a later store after the loop writes again "
                            "with no barrier between the read and that store "
                            "('__syncwarp();' after the reads where one warp "
                            "reuses its scratch, else '__syncthreads();')"
                      : "reads an element of '" + Name +
                            "' that is not written before the read: by another "
                            "thread with no '__syncthreads();' between (or "
                            "'__syncwarp();' in one warp), or after it");
        return nullptr;
      }
    }
    if (!Seen)
      resultsFailure(R.At, "reads an element of '" + Name +
                               "' that is not written before the read: by "
                               "another thread with no '__syncthreads();' "
                               "between (or '__syncwarp();' in one warp), or "
                               "after it");
    return Seen;
  }

  /// Checks every read of an array of results, and makes each store that
  /// reads one a store of the accumulator element it holds.
  bool resolveHeld() {
    // The scale of the fragments stored into the arrays (fragmentScale):
    // the same for every element read, which the stored value then
    // applies as alpha.
    std::optional<const VarDecl *> Scale;
    SourceLocation ScaledAt;
    auto SameScale = [&](const HeldResult &H) {
      if (H.Scale)
        ScaledAt = H.At;
      if (Scale && *Scale != H.Scale)
        return false;
      Scale = H.Scale;
      return true;
    };
    for (const HeldRef &R : LocalReads) {
      const HeldResult *H = visible(R);
      if (!H)
        return false;
      if (!H->Bounds.empty())
        return resultsFailure(R.At, checkedHeld(R));
      if (!SameScale(*H))
        return resultsFailure(R.At, DifferentScales);
    }
    for (StoreRecord &S : Stores) {
      if (!S.Held) {
        if (!SameScale(HeldResult{}))
          return resultsFailure(S.At, DifferentScales);
        continue;
      }
      const HeldResult *H = visible(*S.Held);
      if (!H)
        return false;
      for (const auto &[U, X] : H->Bounds)
        if (!skipped(S, U, X))
          return resultsFailure(S.At, checkedHeld(*S.Held));
      if (!SameScale(*H))
        return resultsFailure(S.At, DifferentScales);
      S.Thread = size_t(H->Thread);
      S.SumId = H->SumId;
    }
    if (!Scale || !*Scale)
      return true;
    if (G.Alpha)
      return resultsFailure(ScaledAt,
                            "the fragment is scaled before its store into "
                            "the array of results, and the value stored "
                            "into C scales it again; expected one scale");
    G.Alpha = *Scale;
    return true;
  }

  /// Where the write a read sees stands under a bounds check.
  std::string checkedHeld(const HeldRef &R) const {
    return "reads an element of '" +
           Tiles[size_t(R.Tile)].Var->getName().str() +
           "' that its store after the loop writes under a bounds check: "
           "expected the read in a store of C (not in a local) skipped "
           "wherever that check fails, the store under a check 'row < X' of "
           "a row (or column) at the checked one or after it for each 'u < X' "
           "of it";
  }

  static constexpr const char *DifferentScales =
      "expected every accumulator element stored into C to be scaled alike: "
      "all of them read from fragments scaled by one float parameter "
      "before their store into the array of results, or none";

  /// Every lane of a warp made as many wmma calls and stores as its first
  /// lane (a call some lanes skip is not the warp's).
  bool sameWarpCalls() {
    for (size_t I = 0; I < Threads.size(); ++I) {
      const ThreadState &L = Threads[I - I % 32], &T = Threads[I];
      if (T.WmmaCalls != L.WmmaCalls ||
          T.FragStores.size() != L.FragStores.size())
        return fail(Loop->getForLoc(),
                    "some lanes of a warp skip wmma calls the others make "
                    "(wmma calls are warp-collective)");
    }
    return true;
  }

  bool sameAsLeader(const CallExpr *C, const FragmentStore &Mine) {
    ThreadState &L = leaderOf();
    const size_t K = Cur->FragStores.size();
    Cur->FragStores.push_back(Mine);
    bool Same =
        K < L.FragStores.size() && L.FragStores[K].Offset == Mine.Offset &&
        L.FragStores[K].Ld == Mine.Ld && L.FragStores[K].Scale == Mine.Scale &&
        L.FragStores[K].Beta == Mine.Beta;
    const auto &Ours = Cur->FragSums[size_t(Mine.SumId)];
    const auto &Theirs =
        Same ? L.FragSums[size_t(L.FragStores[K].SumId)] : Ours;
    Same = Same && Ours.size() == Theirs.size();
    for (size_t I = 0; Same && I < Ours.size(); ++I)
      Same = Cur->Loads[size_t(Ours[I].first)].same(
                 L.Loads[size_t(Theirs[I].first)]) &&
             Cur->Loads[size_t(Ours[I].second)].same(
                 L.Loads[size_t(Theirs[I].second)]);
    if (!Same)
      return fail(C->getBeginLoc(),
                  "the lanes of a warp must load, multiply and store the "
                  "same fragments (wmma calls are warp-collective)");
    return true;
  }

  /// The leader's fragment store as stores of C's elements, each with the
  /// products its element gained.
  bool expandStore(const CallExpr *C, const Fragment &Shape,
                   const FragmentStore &S) {
    for (int64_t R = 0; R < Shape.M; ++R)
      for (int64_t Col = 0; Col < Shape.N; ++Col) {
        StoreRecord E;
        E.At = C->getBeginLoc();
        E.Thread = size_t(Cur - Threads.data());
        // Under `if (row < M && col < N)`: the whole fragment is stored where
        // its first element is inside C, which is where each element is
        // when M and N are multiples of its extents (storeBounds).
        E.Bounds = Guards;
        E.Bounds.insert(E.Bounds.end(), Cur->Kept.begin(), Cur->Kept.end());
        underLoopGuard(E);
        E.Guarded = !E.Bounds.empty();
        std::optional<Poly> U =
            unbatched(S.Offset + Poly::constant(R) * S.Ld + Poly::constant(Col),
                      G.CBatchStride, C);
        if (!U)
          return false;
        E.LC = *U;
        E.SumId = int32_t(Cur->Sums.size());
        Cur->Sums.push_back(fragmentElement(Shape, S.SumId, R, Col));
        Stores.push_back(std::move(E));
      }
    return true;
  }

  //===--- the stores
  //------------------------------------------------------===//

  /// `C[index] = value`, under the bounds checks of the enclosing `if`s.
  /// A store of C: `C[i] = R`, or with `Direct`, a copy of that accumulator
  /// (an element of a vector of them, storeRegisters).
  bool store(const GlobalAccess &Out, const Expr *L, const Expr *R,
             const Location *Direct = nullptr) {
    if (G.C && G.C != Out.Ptr)
      return fail(L->getBeginLoc(), "expected every store into one matrix");
    G.C = Out.Ptr;
    std::optional<ElementType> OutElem =
        elementOf(G.C->getType()->getPointeeType());
    if (!OutElem || G.C->getType()->getPointeeType().isConstQualified())
      return fail(G.C->getLocation(), "C must point to __nv_bfloat16, __half "
                                      "or float");
    G.Out = *OutElem;
    StoreRecord S;
    S.At = L->getBeginLoc();
    S.Thread = size_t(Cur - Threads.data());
    S.Bounds = Guards;
    S.Bounds.insert(S.Bounds.end(), Cur->Kept.begin(), Cur->Kept.end());
    underLoopGuard(S);
    S.Guarded = !S.Bounds.empty();
    S.Lane = StoreLane.first;
    S.Width = StoreLane.second;
    std::optional<Poly> LC = offset(Out.Index, "the store's index");
    if (!LC)
      return false;
    S.LC = *LC + Out.Offset;
    // The value's terms, checked the same for every store.
    const StoredValue Before = takeValue();
    Stored.reset();
    StoredHeld.reset();
    ResultsWhy.reset();
    NotZeroed = nullptr;
    const bool Valued =
        Direct ? directValue(*Direct, L) : GemmLoopReader::value(R, S.LC);
    if (!R)
      R = cast<Expr>(L);
    if (!Valued && ResultsWhy)
      return fail(ResultsWhy->Loc, ResultsWhy->Message);
    if (!Valued)
      return NotZeroed ? fail(NotZeroed->getLocation(),
                              "the accumulator '" + NotZeroed->getName().str() +
                                  "' must be set to 0 before the loop (the "
                                  "tile vocabulary's accumulators start at "
                                  "0)")
                       : false;
    if (!Stored && !StoredHeld)
      return fail(R->getBeginLoc(), "expected the stored value to read an "
                                    "accumulator");
    if (Stored && StoredHeld)
      return fail(R->getBeginLoc(), "expected the stored value to read one "
                                    "accumulator");
    if (StoredHeld) {
      S.Held = StoredHeld; // resolveHeld
    } else {
      S.From = *Stored;
      S.SumId = at(*Stored).SumId;
    }
    const StoredValue Now = takeValue();
    putValue(Now);
    if (!Stores.empty() && !(Before == Now))
      return fail(S.At, "expected every store of C to compute the same "
                        "expression of its accumulator");
    if (G.Bias) {
      StoreBias.push_back({BiasIndex, BiasAt});
    }
    std::optional<Poly> U = unbatched(S.LC, G.CBatchStride, L);
    if (!U)
      return false;
    S.LC = *U;
    PlainStore |= !AtomicStore;
    Stores.push_back(std::move(S));
    return true;
  }

  /// The value of a store that copies accumulator `Acc` as it is: one that
  /// gained products in the loop, from 0 before it, of C's type.
  bool directValue(const Location &Acc, const Expr *L) {
    auto B = Cur->Before.find(Acc.Var);
    if (at(Acc).K != FVal::Sum || B == Cur->Before.end() ||
        !sameType(Ctx.getBaseElementType(Acc.Var->getType()),
                  G.C->getType()->getPointeeType()))
      return fail(L->getBeginLoc(),
                  "expected a vector of accumulators copied as it is into C "
                  "of their type");
    if (B->second[size_t(Acc.Index)].K != FVal::Zero) {
      NotZeroed = Acc.Var;
      return false;
    }
    Stored = Acc;
    G.Terms = "a";
    return true;
  }

  /// `*reinterpret_cast<float4 *>(&C[i]) = *reinterpret_cast<float4
  /// *>(&acc[j])`: N stores of C, each of one accumulator.
  bool storeRegisters(const VectorRef &Dst, const Location &First, int64_t N,
                      const Expr *L) {
    auto P = vectorPlace(Dst);
    if (!P)
      return fail(L->getBeginLoc(), expected(Phase::Epilogue));
    for (int64_t I = 0; I < N; ++I) {
      const GlobalAccess Out{P->first, zeroIndex(L->getBeginLoc()),
                             P->second + Poly::constant(I)};
      const Location Acc{First.Var, First.Index + I};
      if (!store(Out, L, nullptr, &Acc))
        return false;
    }
    return true;
  }

  /// An accumulator read by the stored value: a local that gained products
  /// in the loop, from 0 before it.
  void setValueSourceAside() override {
    KeptStored = Stored;
    KeptHeld = StoredHeld.has_value();
    Stored.reset();
    StoredHeld.reset();
  }

  /// The two values of a beta choice read one element of one accumulator
  /// (not arrays of results, whose reads are resolved later).
  bool sameValueSource() const override {
    return !KeptHeld && !StoredHeld && KeptStored && Stored &&
           KeptStored->Var == Stored->Var && KeptStored->Index == Stored->Index;
  }

  bool isAccumulator(const Expr *X) override {
    if (!Cur)
      return false;
    if (auto T = tileElement(X, true))
      return Tiles[size_t(T->first)].Results && heldRead(*T, X);
    if (!Why.Message.empty()) {
      ResultsWhy = Why; // the value's own message would hide it
      return false;
    }
    std::optional<Location> L = location(X, false);
    if (!L)
      return false;
    const FVal &F = at(*L);
    auto B = Cur->Before.find(L->Var);
    if (F.K != FVal::Sum || B == Cur->Before.end())
      return false;
    if (B->second[size_t(L->Index)].K != FVal::Zero) {
      NotZeroed = L->Var;
      return false;
    }
    Stored = L;
    return true;
  }

  /// Splits a store's index into C's row and column: `row * ldc + col`,
  /// row = BM * blockIdx.<a> + r and col = BN * blockIdx.<b> + c, r and c
  /// constants inside the BM x BN window; under bounds checks, `row < M &&
  /// col < N`.
  bool decompose(StoreRecord &S) {
    for (const Extent &P : extents()) {
      if (G.Ldc && G.Ldc != P)
        continue;
      auto Split = S.LC.linearIn(P.Sym);
      if (!Split || Split->second == Poly())
        continue;
      for (char Axis : {'y', 'x'}) {
        if (RowAxis && RowAxis != Axis)
          continue;
        auto Rs = Split->second.linearIn(blockIdxSymbol(Axis));
        auto Cs =
            Split->first.linearIn(blockIdxSymbol(Axis == 'y' ? 'x' : 'y'));
        if (!Rs || !Cs)
          continue;
        std::optional<int64_t> R = Rs->first.constantValue(),
                               BM = Rs->second.constantValue(),
                               C = Cs->first.constantValue(),
                               BN = Cs->second.constantValue();
        if (!R || !BM || !C || !BN || *BM <= 0 || *BN <= 0 || *R < 0 ||
            *R >= *BM || *C < 0 || *C >= *BN || (WindowM && *BM != WindowM) ||
            (WindowN && *BN != WindowN) ||
            !storeBounds(S, Split->second, Split->first))
          continue;
        G.Ldc = P;
        RowAxis = Axis;
        WindowM = *BM;
        WindowN = *BN;
        S.Row = Split->second;
        S.Col = Split->first;
        S.R = *R;
        S.C = *C;
        return true;
      }
    }
    return fail(S.At,
                "the store must write C[row * ldc + col], row = BM * "
                "blockIdx.y + r and col = BN * blockIdx.x + c (or the block "
                "axes swapped) with r and c inside the block's BM x BN window"
                ", under 'row < M && col < N' where the staging is checked");
  }

  bool storeBounds(const StoreRecord &S, const Poly &Row, const Poly &Col) {
    if (!S.Guarded)
      return true;
    const Guard Bounds = tightest(S.Bounds);
    if (Bounds.size() != 2)
      return false;
    for (int Order = 0; Order < 2; ++Order) {
      const auto &RB = Bounds[size_t(Order)], &CB = Bounds[size_t(1 - Order)];
      if (lanesChecked(RB, Row) && lanesChecked(CB, Col) &&
          (!G.M || G.M == RB.second) && (!G.N || G.N == CB.second)) {
        G.M = RB.second;
        G.N = CB.second;
        return true;
      }
    }
    return false;
  }

  //===--- the proof
  //---------------------------------------------------------===//

  /// Every element of the BM x BN window is stored once.
  bool covered() {
    if (WindowM * WindowN > (int64_t(1) << 22))
      return fail(Stores.front().At, "the block's window of C is larger "
                                     "than any block computes");
    std::vector<uint8_t> Seen(size_t(WindowM * WindowN), 0);
    for (const StoreRecord &S : Stores)
      if (Seen[size_t(S.R * WindowN + S.C)]++)
        return fail(S.At, "two stores write the same element of C");
    for (size_t I = 0; I < Seen.size(); ++I)
      if (!Seen[I])
        return fail(
            Stores.front().At,
            "no thread stores element (" + std::to_string(I / size_t(WindowN)) +
                ", " + std::to_string(I % size_t(WindowN)) + ") of the " +
                std::to_string(WindowM) + " x " + std::to_string(WindowN) +
                " window of C that the "
                "block's stores cover");
    return true;
  }

  /// Each store's accumulator gained, per iteration, A(row, kk) * B(kk,
  /// col) for each kk = KOffset + k, k < BK, once.
  bool products() {
    for (const StoreRecord &S : Stores)
      if (!storedProducts(Threads[S.Thread], S))
        return false;
    return true;
  }

  bool storedProducts(ThreadState &T, const StoreRecord &S) {
    const std::vector<Product> &Ps = T.Sums[size_t(S.SumId)];
    std::vector<uint8_t> Ks(size_t(G.Tile), 0);
    const std::string Expected =
        "the accumulator stored at line " +
        std::to_string(Ctx.getSourceManager().getPresumedLineNumber(S.At)) +
        " does not gain A(row, t + k) * B(t + k, col) once for each k < " +
        std::to_string(G.Tile) + " per iteration";
    for (const Product &P : Ps) {
      UncheckedCopy = NotIm2col = nullptr;
      std::optional<int64_t> K = productK(P, S);
      if (NotIm2col)
        return fail(NotIm2col->At, Nest ? TapIm2colMessage : Im2colMessage);
      if (UncheckedCopy)
        return fail(UncheckedCopy->At,
                    "the bounds check of this staging copy is not 'row < M "
                    "&& k < K' of the element it reads, as the stores' "
                    "checks are (a copy of W elements under one check may "
                    "check any one of them, the first at a multiple of W)");
      if (!K || *K < 0 || *K >= G.Tile || Ks[size_t(*K)]++)
        return fail(S.At, Expected);
    }
    if (Ps.size() != size_t(G.Tile))
      return fail(S.At, Expected);
    return true;
  }

  /// The k of a product A(row, KOffset + k) * B(KOffset + k, col) of the
  /// store's row and column, in either order; the first fixes which matrix
  /// is A and both layouts.
  std::optional<int64_t> productK(const Product &P, const StoreRecord &S) {
    if (Im2col)
      return im2colProductK(P, S);
    const StagedElement &X = Staged[size_t(P.X)], &Y = Staged[size_t(P.Y)];
    if (!G.A.Data) {
      for (int Swap = 0; Swap < 2 && !G.A.Data; ++Swap)
        for (const Extent &LA : extents())
          for (const Extent &LB : extents())
            for (int Layout = 0; Layout < 4 && !G.A.Data; ++Layout) {
              LiftedOperand A{nullptr, LA, bool(Layout & 1), ""},
                  B{nullptr, LB, bool(Layout & 2), ""};
              const StagedElement &SA = Swap ? Y : X, &SB = Swap ? X : Y;
              std::optional<int64_t> KA = kOf(SA, A, S.Row, true);
              std::optional<int64_t> KB = kOf(SB, B, S.Col, false);
              if (KA && KA == KB && SA.Ptr != SB.Ptr) {
                G.A = {SA.Ptr, LA, A.KMajor, SA.BatchStride};
                G.B = {SB.Ptr, LB, B.KMajor, SB.BatchStride};
              }
            }
      if (!G.A.Data)
        return std::nullopt;
    }
    const bool XIsA = X.Ptr == G.A.Data;
    if (XIsA == (Y.Ptr == G.A.Data))
      return std::nullopt;
    const StagedElement &SA = XIsA ? X : Y, &SB = XIsA ? Y : X;
    std::optional<int64_t> KA = kOf(SA, G.A, S.Row, true);
    std::optional<int64_t> KB = kOf(SB, G.B, S.Col, false);
    if (!KA || KA != KB || SA.Ptr != G.A.Data || SB.Ptr != G.B.Data ||
        SA.BatchStride != G.A.BatchStride || SB.BatchStride != G.B.BatchStride)
      return std::nullopt;
    for (const auto &[E, MN, Bound] :
         {std::tuple(&SA, &S.Row, &G.M), std::tuple(&SB, &S.Col, &G.N)})
      if (S.Guarded && stagingChecked() && !guardOf(*E, *MN, *Bound, *KA)) {
        UncheckedCopy = E->Guarded ? E : nullptr;
        return std::nullopt;
      }
    return KA;
  }

  /// productK of an implicit GEMM: one element is the weights' (B, read as
  /// a GEMM's, its leading dimension a parameter or K's product), the other
  /// the im2col element (the store's row, KOffset + k) of the convolution
  /// that the first product's element fixes (im2colShape).
  std::optional<int64_t> im2colProductK(const Product &P,
                                        const StoreRecord &S) {
    const StagedElement &X = Staged[size_t(P.X)], &Y = Staged[size_t(P.Y)];
    if (!S.Guarded)
      return std::nullopt;
    if (!G.A.Data) {
      for (int Swap = 0; Swap < 2 && !G.A.Data; ++Swap) {
        const StagedElement &SA = Swap ? Y : X, &SB = Swap ? X : Y;
        std::vector<Extent> Lds = extents();
        Lds.push_back(G.K);
        for (const Extent &LB : Lds)
          for (bool KMajor : {true, false}) {
            LiftedOperand B{SB.Ptr, LB, KMajor, SB.BatchStride};
            std::optional<int64_t> KB = kOf(SB, B, S.Col, false);
            if (!KB || G.A.Data || SA.Ptr == SB.Ptr || !SA.BatchStride.empty())
              continue;
            const Poly KK = KOffset + Poly::constant(*KB);
            if (std::optional<Im2colShape> Sh =
                    im2colShape(SA.L, SA.Checks, S.Row, KK, extentPoly(G.M),
                                extentPoly(G.K), &ColumnUnchecked)) {
              Conv = *Sh;
              G.A = {SA.Ptr, Extent(), true, ""};
              G.B = B;
            } else {
              NotIm2col = &SA; // the weights read, the activations not
            }
          }
      }
      if (!G.A.Data)
        return std::nullopt;
      NotIm2col = nullptr;
    }
    const bool XIsA = X.Ptr == G.A.Data;
    if (XIsA == (Y.Ptr == G.A.Data))
      return std::nullopt;
    const StagedElement &SA = XIsA ? X : Y, &SB = XIsA ? Y : X;
    std::optional<int64_t> KB = kOf(SB, G.B, S.Col, false);
    if (!KB || SB.Ptr != G.B.Data || SB.BatchStride != G.B.BatchStride ||
        !SA.BatchStride.empty())
      return std::nullopt;
    if (!im2colElement(*Conv, SA.L, SA.Checks, S.Row,
                       KOffset + Poly::constant(*KB), &ColumnUnchecked)) {
      NotIm2col = &SA;
      return std::nullopt;
    }
    if (S.Guarded && !guardOf(SB, S.Col, G.N, *KB)) {
      UncheckedCopy = SB.Guarded ? &SB : nullptr;
      return std::nullopt;
    }
    return KB;
  }

  /// The epilogue's other matrix (C's old value's) and bias are neither A
  /// nor B: the tiled form takes each operand once. Which pointers are A
  /// and B is known only once the products are proved, after the stores
  /// were read (oldValue could not tell then).
  bool epilogueReadsApart() {
    for (const ParmVarDecl *P :
         {G.CIn,
          G.Bias ? G.Bias->Data : static_cast<const ParmVarDecl *>(nullptr)})
      if (P && (P == G.A.Data || P == G.B.Data))
        return fail(Stores.front().At,
                    "the stored value reads '" + P->getName().str() +
                        "', an operand of the product: the epilogue may add "
                        "C's old value (or that of another matrix of C's "
                        "type) and a bias, not an element of A or B");
    return true;
  }

  /// The k of a staged element of A (M x K stored K-major, row * lda + kk,
  /// or kk * lda + row) or B (N x K: col * ldb + kk; K x N: kk * ldb + col),
  /// MN the store's row (A) or column (B); nullopt where it is none.
  std::optional<int64_t> kOf(const StagedElement &E, const LiftedOperand &O,
                             const Poly &MN, bool IsA) const {
    (void)IsA;
    const Poly Ld = extentPoly(O.Ld);
    // Under one loop over the taps decoded r = rs / 3, s = rs % 3, the
    // weights' index (r * 3 + s) * C is rs * C (IndexEvaluator::recombined).
    const Poly L = Nest ? Ev.recombined(E.L) : E.L;
    if (O.KMajor)
      return (L - MN * Ld - KOffset).constantValue();
    auto Split = (L - MN - KOffset * Ld).linearIn(O.Ld.Sym);
    if (!Split || Split->first != Poly())
      return std::nullopt;
    return Split->second.constantValue();
  }

  /// The element's bounds check is `MN < Extent && KOffset + k < K`.
  /// An element of a copy of W consecutive elements under one check may
  /// have, on the axis the copy runs along, the check of any element of
  /// the copy (`k0 + c < K` for elements c .. c + W - 1): where the first
  /// one's coordinate is a multiple of W, and so is the extent (which the
  /// launcher requires, VectorExtents), the copy is inside the matrix
  /// exactly where each of its elements is.
  bool guardOf(const StagedElement &E, const Poly &MN, const Extent &Bound,
               int64_t K) {
    auto Checks = [&](const std::pair<Poly, Extent> &X, const Poly &At,
                      const Extent &Of) {
      return X.second == Of && lanesChecked(X, At);
    };
    // A loop of K / TILE whole tiles reads inside K without a check.
    if (G.KFloorTile && E.Guarded && E.Bounds.size() == 1)
      return Checks(E.Bounds[0], MN, Bound);
    // An implicit GEMM's copy without the column's check: one for whole
    // tiles of K, or of the channels (ColumnUnchecked).
    if (Im2col && E.Guarded && E.Bounds.size() == 1 &&
        Checks(E.Bounds[0], MN, Bound))
      return ColumnUnchecked = true;
    if (!E.Guarded || E.Bounds.size() != 2)
      return false;
    // Under loops over the taps, the channel's check (tapColumns).
    const Poly KK = (Nest ? ChannelOffset : KOffset) + Poly::constant(K);
    const Extent &KX = Nest ? ChannelK : G.K;
    for (int Order = 0; Order < 2; ++Order) {
      const auto &X = E.Bounds[size_t(Order)], &Y = E.Bounds[size_t(1 - Order)];
      if (Checks(X, MN, Bound) && Checks(Y, KK, KX))
        return true;
    }
    return false;
  }

  /// Whether the check `X` (`u < extent`) stands for `At < extent`: X
  /// checks At itself, or a place u that lies with At in one span of W
  /// places starting at a multiple of W (a power of two up to 1024, the
  /// least that does), an access of several elements under one check: a
  /// lane of a vector, an element of a wmma fragment checked at its first
  /// row and column. The extent must then be a multiple of W too
  /// (VectorExtents): u < extent exactly where At < extent.
  bool lanesChecked(const std::pair<Poly, Extent> &X, const Poly &At) {
    if (X.first == At)
      return true;
    std::optional<int64_t> D = (At - X.first).constantValue();
    if (!D)
      return false;
    int64_t CU = 0;
    for (const auto &[M, C] : X.first.terms())
      if (M.empty())
        CU = C;
    const Poly Sym = X.first - Poly::constant(CU);
    for (int64_t W = 2; W <= 1024 && alignedTo(Sym, W); W *= 2) {
      const int64_t A = ((CU % W) + W) % W;
      if (A + *D < 0 || A + *D >= W)
        continue;
      if (!llvm::is_contained(VectorExtents, std::pair(X.second, W)))
        VectorExtents.push_back({X.second, W});
      return true;
    }
    return false;
  }

  /// Whether `P` is a multiple of `W` for every value of its symbols (the
  /// K loop's element counter a multiple of its step).
  bool alignedTo(const Poly &P, int64_t W) const {
    const Poly Q = (Nest ? ChannelOffset : KOffset) == Poly::symbol(Counter)
                       ? P.substitute(Counter, Poly::constant(G.Tile) *
                                                   Poly::symbol(Counter))
                       : P;
    return Q.dividedExactly(W).has_value();
  }

  /// Whether some staging copy (or fragment load) is bounds-checked.
  bool stagingChecked() const {
    return llvm::any_of(Staged,
                        [](const StagedElement &S) { return S.Guarded; });
  }

  /// The staging copies and the stores are all bounds-checked, or none is;
  /// or the stores alone are (wmma loads have no bounds checks), and the
  /// tiled form runs only where the extents are multiples of the block's
  /// window, where the kernel's loads stay inside the matrices.
  bool guardsAgree() {
    const bool Checked = Stores.front().Guarded;
    G.Guarded = Checked;
    for (const StoreRecord &S : Stores)
      if (S.Guarded != Checked)
        return fail(S.At, "some stores are bounds-checked and some not");
    UncheckedLoads = Checked && !stagingChecked();
    for (const StagedElement &S : Staged)
      if (!UncheckedLoads && S.Guarded != Checked)
        return fail(S.At, Checked ? "the stores are bounds-checked, so the "
                                    "staging copies must be too"
                                  : "the staging copies are bounds-checked, "
                                    "so the stores must be too");
    return biasesAgree();
  }

  /// Each store's bias is indexed by its column (or each by its row).
  bool biasesAgree() {
    if (!G.Bias)
      return true;
    std::optional<bool> PerColumn;
    for (size_t I = 0; I < Stores.size(); ++I) {
      Row = Stores[I].Row;
      Col = Stores[I].Col;
      BiasIndex = StoreBias[I].first;
      BiasAt = StoreBias[I].second;
      if (!biasAgrees())
        return false;
      if (PerColumn && *PerColumn != G.Bias->PerColumn)
        return fail(BiasAt->getBeginLoc(), "expected one bias, per column "
                                           "or per row, for every store");
      PerColumn = G.Bias->PerColumn;
    }
    return true;
  }

  /// Integer variables set before the loop keep their values in it (one
  /// iteration then stands for all).
  bool unchangedInts() {
    for (const VarDecl *VD : PrologueInts)
      if (isModified(VD, Loop->getBody()))
        return fail(VD->getLocation(),
                    "the index variable '" + VD->getName().str() +
                        "' is changed in the loop; expected index variables "
                        "that keep their values across iterations");
    return true;
  }

  void launches() {
    const std::string X = std::to_string(Block.X), Y = std::to_string(Block.Y);
    G.Block = Block.Y == 1 ? X + " threads (one-dimensional)"
                           : X + " x " + Y + " threads";
    G.BlockDiffers = "tawa_block.x != " + X + " || tawa_block.y != " + Y +
                     " || tawa_block.z != 1";
    G.RowsCovered =
        std::string("tawa_grid.") + RowAxis + " * " + std::to_string(WindowM);
    G.ColsCovered = std::string("tawa_grid.") + (RowAxis == 'y' ? 'x' : 'y') +
                    " * " + std::to_string(WindowN);
    if (!G.Guarded) {
      // A multiple of 2 * TILE where the last tiles' buffer is named.
      G.M = G.N = Extent();
      wholeTilesOfK(EvenTileCount ? 2 : 1, "");
    } else if (UncheckedLoads) {
      const std::string BM = std::to_string(WindowM),
                        BN = std::to_string(WindowN),
                        T = std::to_string(G.Tile);
      G.ExtentsDiffer = G.M.factor() + " % " + BM + " != 0 || " + G.N.factor() +
                        " % " + BN + " != 0";
      if (G.KFloorTile) {
        G.Extents = G.M.words() + " and " + G.N.words() + " are multiples of " +
                    BM + " and " + BN;
      } else {
        G.ExtentsDiffer += " || " + G.K.factor() + " % " + T + " != 0";
        G.Extents = G.M.words() + ", " + G.N.words() + " and " + G.K.words() +
                    " are multiples of " + BM + ", " + BN + " and " + T;
      }
    }
    vectorExtents();
    if (Conv)
      im2colLaunches();
    if (EvenTileCount && G.Guarded)
      // An even count of TILE-wide tiles of K (the kernel runs as written
      // where the count is odd too).
      wholeTilesOfK(2, " (the code after the loop reads the last tiles from "
                       "the buffer they occupy where the tile count is even)");
    limitFloatTileCount();
  }

  /// Adds to the launch conditions that the loop runs a multiple of
  /// `Tiles` whole tiles of K, `Why` appended to the words: K a multiple of
  /// Tiles * TILE, or for a loop of K / TILE tiles (KFloorTile), which
  /// reads no element of a partial last tile, K / TILE a multiple of Tiles.
  void wholeTilesOfK(int Tiles, const std::string &Why) {
    const std::string T = std::to_string(G.Tile),
                      TT = std::to_string(int64_t(G.Tile) * Tiles);
    std::string Check, Words;
    if (!G.KFloorTile) {
      Check = G.K.factor() + " % " + TT + " != 0";
      Words = G.K.words() + " is a multiple of " + TT;
    } else if (Tiles > 1) {
      Check =
          G.K.factor() + " / " + T + " % " + std::to_string(Tiles) + " != 0";
      Words = G.K.words() + " / " + T + " is a multiple of " +
              std::to_string(Tiles);
    } else {
      return;
    }
    G.ExtentsDiffer +=
        std::string(G.ExtentsDiffer.empty() ? "" : " || ") + Check;
    G.Extents += std::string(G.Extents.empty() ? "" : "; ") + Words + Why;
  }

  /// The im2col view of an implicit GEMM's activations (LiftedIm2col, from
  /// Conv), and the launches its proof holds for: the extents the decodes
  /// divide by positive, and the output pixels whole images; elsewhere the
  /// kernel runs as written.
  void im2colLaunches() {
    const Im2colShape &Sh = *Conv;
    std::vector<std::string> Checks;
    for (const Poly *X : {&Sh.P, &Sh.Q, &Sh.C, &Sh.S, &Sh.R, &Sh.H, &Sh.W})
      if (!X->constantValue()) {
        const std::string Check = text(*X) + " <= 0";
        if (!llvm::is_contained(Checks, Check))
          Checks.push_back(Check);
      }
    std::string N;
    if (std::optional<Poly> Images = dividedBy(Sh.Rows, Sh.P * Sh.Q);
        Images && freeOfCoordinates(*Images) &&
        *Images * Sh.P * Sh.Q == Sh.Rows) {
      N = text(*Images);
    } else {
      // The view is built before the launcher's checks: no division by 0.
      const std::string Pixels = productText({&Sh.P, &Sh.Q});
      N = "(" + Pixels + " > 0 ? (" + text(Sh.Rows) + ") / (" + Pixels +
          ") : 0)";
      Checks.push_back("(" + text(Sh.Rows) + ") % (" + Pixels + ") != 0");
    }
    std::string Whole;
    if (ColumnUnchecked) {
      // Whole tiles of the columns (of the channels, under loops over the
      // taps): the checks left out would hold for every column.
      const Poly Cols = Nest ? TapChannels : extentPoly(G.K);
      const std::string T = text(Cols);
      Checks.push_back((T.find(' ') == std::string::npos ? T : "(" + T + ")") +
                       " % " + std::to_string(G.Tile) + " != 0");
      Whole = "; " + T + " is a multiple of " + std::to_string(G.Tile) +
              " (the staging copies leave out the column's check)";
    }
    G.Conv = LiftedIm2col{N,
                          text(Sh.H),
                          text(Sh.W),
                          text(Sh.C),
                          text(Sh.R),
                          text(Sh.S),
                          text(Sh.P),
                          text(Sh.Q),
                          text(Sh.PadH),
                          text(Sh.PadW),
                          text(Sh.StrideH),
                          text(Sh.StrideW),
                          text(Sh.DilH),
                          text(Sh.DilW)};
    for (const std::string &Check : Checks)
      G.ExtentsDiffer +=
          std::string(G.ExtentsDiffer.empty() ? "" : " || ") + Check;
    G.Extents += std::string(G.Extents.empty() ? "" : "; ") +
                 "the convolution's extents are positive and the output "
                 "pixels whole images" +
                 Whole;
  }

  /// The launch condition of copies of W elements under one bounds check
  /// (guardOf): their extents are multiples of W.
  void vectorExtents() {
    // The widest span of each extent, a power of two, implies the others.
    std::vector<std::pair<Extent, int64_t>> Widest;
    for (const auto &[X, W] : VectorExtents) {
      auto It =
          llvm::find_if(Widest, [&](const auto &Y) { return Y.first == X; });
      if (It == Widest.end())
        Widest.push_back({X, W});
      else
        It->second = std::max(It->second, W);
    }
    std::map<int64_t, std::vector<std::string>> ByWidth;
    for (const auto &[X, W] : Widest) {
      G.ExtentsDiffer += std::string(G.ExtentsDiffer.empty() ? "" : " || ") +
                         X.factor() + " % " + std::to_string(W) + " != 0";
      ByWidth[W].push_back(X.words());
    }
    for (const auto &[W, Names] : ByWidth) {
      const std::string Ws = std::to_string(W);
      G.Extents +=
          std::string(G.Extents.empty() ? "" : "; ") +
          llvm::join(Names, " and ") +
          (Names.size() > 1 ? " are multiples of " : " is a multiple of ") +
          Ws + " (accesses of " + Ws + " elements are under one bounds check)";
    }
    std::vector<std::string> Even;
    for (const Extent &X : EvenExtents) {
      if (llvm::any_of(VectorExtents, [&](const auto &Y) {
            return Y.first == X && Y.second % 2 == 0;
          }))
        continue;
      G.ExtentsDiffer += std::string(G.ExtentsDiffer.empty() ? "" : " || ") +
                         X.factor() + " % 2 != 0";
      Even.push_back(X.words());
    }
    if (!Even.empty())
      G.Extents += std::string(G.Extents.empty() ? "" : "; ") +
                   llvm::join(Even, " and ") +
                   (Even.size() > 1 ? " are even" : " is even") +
                   " (a pair's index halves the index of its first element)";
  }

  static constexpr int64_t StepLimit = 4000000;
  int64_t &Followed; ///< statements followed by every attempt of a loop
  BlockShape Block;
  std::vector<SharedTile> Tiles;
  DynamicTiles Dynamic; ///< the tiles in dynamic shared memory
  llvm::ArrayRef<Stmt *> Epilogue; ///< the statements after the loop
  std::vector<StagedElement> Staged;
  /// Extents that must be multiples of a width for copies of that many
  /// elements under one bounds check to read what each element's check
  /// allows (guardOf).
  std::vector<std::pair<Extent, int64_t>> VectorExtents;
  /// Extents that must be even for a pair's index `X / 2` to halve an even
  /// X (halvedIndex).
  std::vector<Extent> EvenExtents;
  /// The code after a loop counted from 1 reads the last tiles' buffer by
  /// its number, right where the tile count is even (peeledIteration).
  bool EvenTileCount = false;
  /// The body's flips that the last iteration after the loop leaves out.
  std::vector<const Stmt *> PeeledFlips;
  /// The lane and width of the vector store being followed (StoreRecord).
  std::pair<int64_t, int64_t> StoreLane{0, 1};
  /// A staging copy whose bounds check is not its element's (productK).
  const StagedElement *UncheckedCopy = nullptr;
  /// An activations' copy that is not the im2col element its product reads
  /// (im2colProductK).
  const StagedElement *NotIm2col = nullptr;
  static constexpr const char *TapIm2colMessage =
      "this staging copy does not read the im2col element of its tile row "
      "and column: expected in[((n * H + ih) * W + iw) * C + c0 + j] of the "
      "NHWC activations, the row's pixel m decoded as n = m / (P * Q), p = "
      "(m / Q) % P, q = m % Q, ih = p * stride - pad + r * dilation and iw = "
      "q * stride - pad + s * dilation (r, s the loops' taps, or rs / S and "
      "rs % S), under exactly the checks 'm < rows && c0 + j < C && 0 <= ih "
      "< H && 0 <= iw < W' (those against 0 may be left out without "
      "padding), C the channel tile loop's bound";
  static constexpr const char *Im2colMessage =
      "this staging copy does not read the im2col element of its tile row "
      "and column: expected in[((n * H + ih) * W + iw) * C + c] of the NHWC "
      "activations, the row's pixel m decoded as n = m / (P * Q), p = (m / "
      "Q) % P, q = m % Q, the column k as c = k % C, s = (k / C) % S, r = k "
      "/ (S * C), ih = p * stride - pad + r * dilation (iw alike), under "
      "exactly the checks 'm < rows && k < R * S * C && 0 <= ih < H && 0 <= "
      "iw < W' (those against 0 may be left out without padding)";
  std::vector<Stmt *> Seg[3];
  /// The loop stages the next iteration's tiles (rotatedForm); its body's
  /// parts between barriers, the part followed, the copies before the
  /// loop, and what the threads do now: stage the first tiles before the
  /// loop, follow the loop, record its copies (else read the tiles), run
  /// under a prefetch's condition (the depth).
  bool Rotated = false;
  /// The convolution of an implicit GEMM (Im2col), fixed by the first
  /// product proved.
  std::optional<Im2colShape> Conv;
  /// Whether a staging copy of an implicit GEMM leaves out the column's
  /// check (`k < R * S * C`, or the channel's under loops over the taps):
  /// the launcher then runs the tiled form only where that extent is a
  /// multiple of the K step, so that every column the loop visits lies
  /// inside it and the check would hold anyway (im2colLaunches).
  bool ColumnUnchecked = false;
  /// The annotated loop where it is loops over the filter taps (tapNest),
  /// whose channel tile's loop Loop then is; null otherwise. The
  /// declarations of the taps' loops, followed before the loop, and the
  /// channel tile's extent and first element (tapColumns).
  const ForStmt *Nest = nullptr;
  std::vector<Stmt *> TapDecls;
  Extent ChannelK;
  Poly ChannelOffset;
  /// The most buffers of a ring tile (`X[S][R][C]`, SharedTile).
  static constexpr int64_t MaxRing = 8;
  std::vector<std::vector<Stmt *>> RotSeg;
  size_t CurSeg = 0, PrologueSplit = 0;
  /// Whether a barrier ends the staging before the loop (rotatedSegments);
  /// where none does, its asynchronous copies stay in flight into the loop.
  bool PrologueBarrier = true, AsyncAtLoop = false, AnyCarried = false;
  /// A copy of a tile iteration 0 reads, in flight at the barrier before
  /// the loop; whether a barrier ending the body was checked without the
  /// next iteration's reads before its first barrier (asyncSettled).
  SourceLocation PrologueInFlight;
  bool EndCheckedLax = false;
  /// Whether the loop body's last part is not followed by a barrier.
  bool Wraps = false;
  /// The buffer indices toggled at the end of the loop body, and the
  /// statements that toggle them (toggledBuffers).
  llvm::SmallPtrSet<const VarDecl *, 2> ToggleVars;
  llvm::SmallPtrSet<const Stmt *, 2> Toggles;
  /// The updates `if (beta != 0) v += y;` of epilogue locals (betaLocal).
  llvm::SmallPtrSet<const Stmt *, 2> BetaUpdates;
  /// The early return before the loop, and its comparisons `u >= X`
  /// (earlyReturn).
  const IfStmt *EarlyReturn = nullptr;
  std::vector<std::pair<Poly, Extent>> EarlyReturnParts;
  /// The `if` whose branch the loop ends (AroundLoop::Guard), or null.
  const IfStmt *LoopGuardIf = nullptr;
  /// The rounds of a loop body that stages and multiplies tiles several
  /// times per iteration (coarsenedSegments): each round's staging copies
  /// and product, with the values of the inner loops' variables each
  /// statement is followed with; then the part after the last barrier.
  struct Round {
    std::vector<Stmt *> Stage, Product;
    std::vector<LoopBindings> StageBound, ProductBound;
  };
  std::vector<Round> Rounds;
  std::vector<Stmt *> RoundTail;
  std::vector<LoopBindings> RoundTailBound;
  /// The round being followed (0 outside a coarsened body).
  int32_t CurRound = 0;
  /// The bounds check around the loads and products of a loop body without
  /// barriers (bodyGuard), or null.
  const IfStmt *BodyGuardIf = nullptr;
  /// Whether the loop body has no barriers and no tiles (segments).
  bool GlobalBody = false;
  std::vector<StagedElement> FirstStaged;
  bool PrologueStaging = false, Looping = false, Recording = false;
  /// Following the body of a loop of the plain form (plainLoop).
  bool InLoopBody = false;
  int InPrefetch = 0;
  /// Within prefetches whose `else` waits for every group (drainsAll).
  int Drained = 0;
  /// Before the loop, under `if (b < tiles)` (firstTileCondition): b; -1
  /// elsewhere.
  int64_t FirstGuard = -1;
  /// The first commit under FirstGuard not yet followed by a wait for every
  /// group (asyncCommit); invalid where there is none.
  SourceLocation GuardedCommit;
  /// The kernel's cuda::pipeline (pipelineDeclaration).
  const VarDecl *Pipe = nullptr;
  /// The first commit or wait through the pipeline, and the first through
  /// the primitives or cp.async (asyncKind).
  SourceLocation PipelineAsync, PrimitiveAsync;
  /// A commit skipped in some iterations before a pipeline's
  /// `consumer_wait()`, and whether any wait waits for all groups but a
  /// fixed number (pipelineWaitsDynamic).
  SourceLocation SkippedBeforeDynamic;
  bool StaticWait = false;
  /// The locals declared under a prefetch's condition.
  llvm::SmallPtrSet<const VarDecl *, 8> PrefetchLocals;
  std::vector<std::pair<const Stmt *, const VarDecl *>> LoopAdvances;
  std::vector<ThreadState> Threads;
  ThreadState *Cur = nullptr;
  /// The blocks noteZeroFills has read, the checked copies that zero
  /// stores before them fill, and those zero stores.
  std::set<std::pair<const void *, size_t>> ZeroScanned;
  llvm::SmallPtrSet<const Stmt *, 8> ZeroFilled, ZeroStores;
  std::vector<const VarDecl *> PrologueInts;
  Guard Guards; ///< the bounds checks around the statement followed
  /// Members of vectors loaded under a bounds check read as their elements
  /// (fetch, which stages them under that check).
  bool StagingChecked = false;
  /// The body of the loop being unrolled, innermost (block's LoopBody).
  const Stmt *UnrolledBody = nullptr;
  /// The blocks being followed, innermost last, and the statement of each.
  std::vector<std::pair<llvm::ArrayRef<Stmt *>, size_t>> Blocks;
  std::vector<StoreRecord> Stores;
  /// Whether the store being read is an atomicAdd, and whether any store
  /// was not (splitKAgrees).
  bool AtomicStore = false, PlainStore = false;
  std::vector<std::pair<Poly, const Expr *>> StoreBias;
  std::optional<Location> Stored;
  /// The accumulator of the value where beta is 0, set aside
  /// (setValueSourceAside), and whether it read an array of results.
  std::optional<Location> KeptStored;
  bool KeptHeld = false;
  llvm::DenseMap<const VarDecl *, Fragment> FragKinds;
  /// The helpers being followed, outermost first, and their parameters
  /// bound to the caller's arrays and tiles (bindParameter).
  std::vector<const FunctionDecl *> Calling;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Aliases;
  /// Helpers' parameters bound to one buffer of a multi-buffered tile: the
  /// caller's buffer index (bufferOf).
  llvm::DenseMap<const VarDecl *, const Expr *> TileBuffers;
  /// The rings in dynamic shared memory: elements of a buffer, buffers.
  llvm::DenseMap<const VarDecl *, std::pair<int64_t, int64_t>> DynamicRings;
  /// A helper's parameters bound to a pointer to a tile element, and to a
  /// zero-filling copy's source `ok ? &A[j] : A`.
  llvm::DenseMap<const ValueDecl *, std::pair<int32_t, int64_t>> TileElements;
  llvm::DenseMap<const ValueDecl *, const Expr *> CopySources;
  bool QuickRun = false;
  const VarDecl *NotZeroed = nullptr; ///< an accumulator not set to 0
  char RowAxis = 0;
  int64_t WindowM = 0, WindowN = 0;
  int32_t EpiloguePart = 0; ///< the part of the epilogue followed
  int32_t EpilogueParts = 1; ///< the parts the epilogue's barriers make
  /// For each part of the epilogue, the block barriers before it.
  std::vector<int32_t> BlockFences;
  /// For each statement of the epilogue's part followed, the variables of
  /// the unrolled loops it stands in (splitEpilogue).
  const std::vector<LoopBindings> *EpilogueBindings = nullptr;
  /// Likewise, the conditions of the split `if`s around each statement.
  const std::vector<BranchConditions> *EpilogueConditions = nullptr;
  /// The stores are bounds-checked, the loads not (guardsAgree).
  bool UncheckedLoads = false;
  /// The element of an array of results the stored value reads.
  std::optional<HeldRef> StoredHeld;
  /// The reads of arrays of results in initializers of epilogue locals.
  std::vector<HeldRef> LocalReads;
  int64_t HeldSeq = 0; ///< counts the writes and reads of results
  /// Why a read of an array of results in the stored value failed.
  std::optional<LiftFailure> ResultsWhy;
};

/// The threads of `__launch_bounds__(N)` on the kernel, a constant power
/// of two from 32 to 1024; 0 for none.
int64_t launchBoundThreads(const FunctionDecl *Kernel) {
  const auto *A = Kernel->getAttr<CUDALaunchBoundsAttr>();
  if (!A || !A->getMaxThreads() || A->getMaxThreads()->isValueDependent())
    return 0;
  std::optional<llvm::APSInt> N =
      A->getMaxThreads()->getIntegerConstantExpr(Kernel->getASTContext());
  if (!N || *N < 32 || *N > 1024 || !N->isPowerOf2())
    return 0;
  return N->getExtValue();
}

/// The block of a launch's configuration `E` where it is constant: an
/// integer (X x 1), or a dim3 made from integer constants, z 1, directly
/// (`dim3(64, 2)`) or through a local never changed (`dim3 block(64,
/// 2);`); X * Y a multiple of 32 up to 1024. Nullopt otherwise.
std::optional<BlockShape> constantBlock(const Expr *E, ASTContext &Ctx) {
  // Through copies, casts and one local to the dim3 made.
  bool ThroughLocal = false;
  for (;;) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (auto *Copy = dyn_cast<CXXConstructExpr>(E);
        Copy && Copy->getNumArgs() == 1 &&
        Copy->getArg(0)->getType()->isRecordType()) {
      E = Copy->getArg(0);
      continue;
    }
    auto *R = dyn_cast<DeclRefExpr>(E);
    if (!R)
      break;
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    auto *F =
        VD ? dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod())
           : nullptr;
    if (ThroughLocal || !VD || !VD->isLocalVarDecl() || !VD->hasInit() || !F ||
        !F->getBody() || isModified(VD, F->getBody()))
      return std::nullopt;
    ThroughLocal = true;
    E = VD->getInit();
  }
  std::vector<int64_t> V;
  auto *C = dyn_cast<CXXConstructExpr>(E);
  for (const Expr *A :
       C ? llvm::ArrayRef<const Expr *>(C->getArgs(), C->getNumArgs())
         : llvm::ArrayRef<const Expr *>(E)) {
    if (isa<CXXDefaultArgExpr>(A)) {
      V.push_back(1);
      continue;
    }
    Expr::EvalResult R;
    if (!A->getType()->isIntegerType() || A->isValueDependent() ||
        !A->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    V.push_back(R.Val.getInt().getExtValue());
  }
  V.resize(3, 1);
  if (V[0] < 1 || V[1] < 1 || V[2] != 1 || (V[0] * V[1]) % 32 ||
      V[0] * V[1] > 1024)
    return std::nullopt;
  return BlockShape{V[0], V[1]};
}

/// The constant blocks of the kernel's launches in the main file, in
/// source order, each once.
std::vector<BlockShape> launchBlocks(const FunctionDecl *Kernel) {
  struct Launches : RecursiveASTVisitor<Launches> {
    const FunctionDecl *Kernel;
    ASTContext &Ctx;
    std::vector<BlockShape> Found;
    Launches(const FunctionDecl *K, ASTContext &C) : Kernel(K), Ctx(C) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool TraverseDecl(Decl *D) {
      const SourceManager &SM = Ctx.getSourceManager();
      if (D && !isa<TranslationUnitDecl>(D) &&
          !SM.isInMainFile(SM.getExpansionLoc(D->getLocation())))
        return true;
      return RecursiveASTVisitor<Launches>::TraverseDecl(D);
    }
    static const FunctionDecl *pattern(const FunctionDecl *F) {
      const FunctionDecl *P = F->getTemplateInstantiationPattern();
      return (P ? P : F)->getCanonicalDecl();
    }
    bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
      const FunctionDecl *F = E->getDirectCallee();
      const CallExpr *Config = E->getConfig();
      if (!F || !Config || Config->getNumArgs() < 2 ||
          pattern(F) != pattern(Kernel))
        return true;
      if (std::optional<BlockShape> S = constantBlock(Config->getArg(1), Ctx))
        if (llvm::none_of(Found, [&](BlockShape B) {
              return B.X == S->X && B.Y == S->Y;
            }))
          Found.push_back(*S);
      return true;
    }
  } L(Kernel, Kernel->getASTContext());
  L.TraverseDecl(Kernel->getASTContext().getTranslationUnitDecl());
  return L.Found;
}

/// The blocks to try: those the kernel's launches give, then that of its
/// `__launch_bounds__`, then largest first: X x 1 where the kernel never
/// reads threadIdx.y, else the two-dimensional shapes, squarest first.
std::vector<BlockShape> blockShapes(const FunctionDecl *Kernel) {
  std::vector<BlockShape> Out = launchBlocks(Kernel);
  const size_t Launched = Out.size();
  const bool TwoD = readsThreadIdx(Kernel->getBody(), 'y');
  const int64_t Bound = launchBoundThreads(Kernel);
  std::vector<int64_t> Sizes;
  if (Bound)
    Sizes.push_back(Bound);
  for (int64_t N = 1024; N >= 32; N /= 2)
    if (N != Bound)
      Sizes.push_back(N);
  for (int64_t N : Sizes) {
    if (!TwoD) {
      Out.push_back({N, 1});
      continue;
    }
    std::vector<BlockShape> Same;
    for (int64_t X = 1; X <= N; X *= 2)
      if (N / X > 1)
        Same.push_back({X, N / X});
    llvm::stable_sort(Same, [](BlockShape A, BlockShape B) {
      auto Skew = [](BlockShape S) {
        return S.X > S.Y ? S.X / S.Y : S.Y / S.X;
      };
      return Skew(A) < Skew(B);
    });
    Out.insert(Out.end(), Same.begin(), Same.end());
  }
  // Each shape once: those of the launches keep their place first.
  for (size_t I = Out.size(); I-- > Launched;)
    if (llvm::any_of(
            llvm::ArrayRef(Out).take_front(Launched),
            [&](BlockShape B) { return B.X == Out[I].X && B.Y == Out[I].Y; }))
      Out.erase(Out.begin() + I);
  return Out;
}

} // namespace

/// Whether the kernel declares a __shared__ array `X[2][N]` of scalars: two
/// rows, or two one-dimensional buffers of a double-buffered tile.
static bool declaresTwoByN(const FunctionDecl *Kernel) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitVarDecl(VarDecl *VD) {
      ASTContext &Ctx = VD->getASTContext();
      auto *Outer = Ctx.getAsConstantArrayType(VD->getType());
      auto *Inner =
          Outer ? Ctx.getAsConstantArrayType(Outer->getElementType()) : nullptr;
      Found |= VD->hasAttr<CUDASharedAttr>() && Inner &&
               Outer->getSize() == 2 && !Inner->getElementType()->isArrayType();
      return !Found;
    }
  } F;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

static std::optional<LiftedGemm>
liftBlockedWith(const FunctionDecl *Kernel, const ForStmt *Loop,
                ASTContext &Ctx, LiftFailure &Why, const NamedExtents *Named,
                bool Tf32, bool FlatBuffers, int &Reached, bool Im2col = false);

/// Whether the kernel divides, or takes a remainder, by something other
/// than a constant: an index decoded by extents of a launch, as an
/// implicit GEMM's staging copies decode a pixel and a filter tap.
static bool dividesByParameter(const FunctionDecl *Kernel) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *B) {
      const BinaryOperatorKind Op = B->getOpcode();
      Found |= (Op == BO_Div || Op == BO_Rem || Op == BO_DivAssign ||
                Op == BO_RemAssign) &&
               B->getType()->isIntegerType() &&
               !B->getRHS()->isValueDependent() &&
               !B->getRHS()->isIntegerConstantExpr(Kernel->getASTContext());
      return !Found;
    }
    const FunctionDecl *Kernel = nullptr;
  } F;
  F.Kernel = Kernel;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

std::optional<LiftedGemm> liftBlockedGemm(const FunctionDecl *Kernel,
                                          const ForStmt *Loop, ASTContext &Ctx,
                                          LiftFailure &Why,
                                          const NamedExtents *Named,
                                          bool Tf32) {
  if (readsThreadIdx(Kernel->getBody(), 'z')) {
    Why = {Loop->getForLoc(), "a register-blocked kernel must not read "
                              "threadIdx.z"};
    return std::nullopt;
  }
  int Rows = -1, Buffers = -1;
  std::optional<LiftedGemm> G =
      liftBlockedWith(Kernel, Loop, Ctx, Why, Named, Tf32, false, Rows);
  // `X[2][N]` read as two rows failed: as two buffers (either reading
  // models the same memory). The verdict is the one that got further.
  if (!G && declaresTwoByN(Kernel)) {
    LiftFailure Flat;
    G = liftBlockedWith(Kernel, Loop, Ctx, Flat, Named, Tf32, true, Buffers);
    if (G || Buffers >= Rows)
      Why = Flat;
  }
  // Indices decoded by extents: A read as an im2col matrix. Its verdict
  // stands where that reading got further.
  if (int Gathered = -1; !G && dividesByParameter(Kernel)) {
    LiftFailure Im2col;
    G = liftBlockedWith(Kernel, Loop, Ctx, Im2col, Named, Tf32, false, Gathered,
                        /*Im2col=*/true);
    if (G || Gathered >= std::max(Rows, Buffers))
      Why = Im2col;
  }
  return G;
}

static std::optional<LiftedGemm>
liftBlockedWith(const FunctionDecl *Kernel, const ForStmt *Loop,
                ASTContext &Ctx, LiftFailure &Why, const NamedExtents *Named,
                bool Tf32, bool FlatBuffers, int &Best, bool Im2col) {
  int64_t Followed = 0;
  for (BlockShape S : blockShapes(Kernel)) {
    LiftFailure Quick;
    BlockedLifter Probe(Kernel, Loop, Ctx, Quick, S, Followed, Named, Tf32);
    Probe.FlatBuffers = FlatBuffers;
    Probe.Im2col = Im2col;
    const bool Fits = Probe.run(/*Quick=*/true).has_value();
    const std::string Words = S.Y == 1 ? std::to_string(S.X) + " threads"
                                       : std::to_string(S.X) + " x " +
                                             std::to_string(S.Y) + " threads";
    if (Fits) {
      Best = 5; // past every part a probe reaches
      LiftFailure Failure;
      BlockedLifter Full(Kernel, Loop, Ctx, Failure, S, Followed, Named, Tf32);
      Full.FlatBuffers = FlatBuffers;
      Full.Im2col = Im2col;
      std::optional<LiftedGemm> G = Full.run(/*Quick=*/false);
      Why = Failure;
      if (!G && Full.Following)
        Why.Message += " (matched furthest as a block of " + Words + ")";
      return G;
    }
    if (Probe.Reached > Best) {
      Best = Probe.Reached;
      Why = Quick;
      if (Probe.Following)
        Why.Message += " (matched furthest as a block of " + Words + ")";
    }
    if (!Probe.Following || Probe.TooLong)
      break; // the same failure for every block
  }
  return std::nullopt;
}

bool loopInsideIf(const FunctionDecl *Kernel, const ForStmt *Loop) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return false;
  std::function<bool(const Stmt *)> Contains = [&](const Stmt *S) {
    return S == Loop || llvm::any_of(S->children(), [&](const Stmt *C) {
             return C && Contains(C);
           });
  };
  return llvm::any_of(Body->body(), [&](const Stmt *S) {
    return isa<IfStmt>(S) && Contains(S);
  });
}

/// Whether a loop in the body of `Loop` assigns an element of a __shared__
/// array; with `Operators`, also through a class's `operator=` (bf16 and
/// half tiles).
static bool stagesInLoops(const ForStmt *Loop, bool Operators) {
  struct Finder : RecursiveASTVisitor<Finder> {
    int Depth = 0;
    bool Found = false, Operators = false;
    bool TraverseForStmt(ForStmt *F) {
      ++Depth;
      RecursiveASTVisitor::TraverseForStmt(F);
      --Depth;
      return !Found;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Found |= Depth > 0 && B->isAssignmentOp() && writesShared(B->getLHS());
      return !Found;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      Found |= Operators && Depth > 0 && C->getOperator() == OO_Equal &&
               C->getNumArgs() == 2 && writesShared(C->getArg(0));
      return !Found;
    }
    static bool writesShared(const Expr *E) {
      while (auto *A = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()))
        E = A->getBase();
      auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      return VD && VD->hasAttr<CUDASharedAttr>();
    }
  } F;
  F.Operators = Operators;
  F.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  return F.Found;
}

bool stagesInLoop(const ForStmt *Loop) { return stagesInLoops(Loop, false); }

bool blockedLoopBody(const ForStmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitForStmt(ForStmt *F) {
      const Stmt *B = F->getBody();
      auto *C = dyn_cast_or_null<CompoundStmt>(B);
      if (C ? llvm::any_of(C->body(), LifterBase::isBarrier)
            : LifterBase::isBarrier(B))
        Found |= indexesAccumulators(F);
      return !Found;
    }
    /// Whether the loop's variable indexes a local array in its body (one
    /// accumulator per round: coarsening, not a loop over filter taps).
    static bool indexesAccumulators(const ForStmt *F) {
      auto *Init = dyn_cast_or_null<DeclStmt>(F->getInit());
      auto *V = Init && Init->isSingleDecl()
                    ? dyn_cast<VarDecl>(Init->getSingleDecl())
                    : nullptr;
      struct Uses : RecursiveASTVisitor<Uses> {
        const VarDecl *V = nullptr;
        bool Found = false;
        bool VisitArraySubscriptExpr(ArraySubscriptExpr *E) {
          auto *R = dyn_cast<DeclRefExpr>(E->getBase()->IgnoreParenImpCasts());
          auto *A = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
          Found |= A && A->isLocalVarDecl() && !A->hasAttr<CUDASharedAttr>() &&
                   mentions(E->getIdx(), V);
          return !Found;
        }
      } U;
      U.V = V;
      if (V)
        U.TraverseStmt(const_cast<Stmt *>(F->getBody()));
      return U.Found;
    }
    bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
      struct Shared : RecursiveASTVisitor<Shared> {
        bool Found = false;
        bool VisitDeclRefExpr(DeclRefExpr *R) {
          auto *VD = dyn_cast<VarDecl>(R->getDecl());
          Found |= VD && VD->hasAttr<CUDASharedAttr>();
          return !Found;
        }
      } S;
      S.TraverseStmt(E->getSubExpr());
      Found |= E->getType()->isPointerType() && S.Found;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Loop->getBody()));
  return F.Found;
}

bool stagesResultsAfterLoop(const FunctionDecl *Kernel, const ForStmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ForStmt *Loop;
    bool Found = false;
    bool VisitVarDecl(VarDecl *VD) {
      Found |= VD->hasAttr<CUDASharedAttr>() && VD->getType()->isArrayType() &&
               !VD->hasExternalStorage() && !mentions(Loop, VD);
      return !Found;
    }
  } F;
  F.Loop = Loop;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

} // namespace tawa
