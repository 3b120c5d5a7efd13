//===- GemmLoopReader.h - reading a shared-memory GEMM loop -----*- C++ -*-===//
//
// What the two shared-memory lifting front ends (Lift.cpp: one element of
// C per thread; BlockedLift.cpp: register-blocked micro-tiles) read alike:
// the K loop's header, bounds checks, pointers advanced in the loop body,
// the stored value (alpha, beta * C, a bias, ReLU) and the element types.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_GEMMLOOPREADER_H
#define TAWA_LIB_GEMMLOOPREADER_H

#include "LiftSupport.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace tawa {

/// A conjunction of conditions, each `0 <= X`, as the polynomials X.
using Conditions = std::vector<Poly>;

/// A bounds check `X < P && Y < Q` (P, Q extents), as pairs.
using Guard = std::vector<std::pair<Poly, Extent>>;

/// `G` without the pairs another implies: `X < P` where the check has `Y <
/// P` with Y - X a constant of at least 0 (and the first of equal pairs
/// kept), so that `r0 < M && r0 + 16 < M` is `r0 + 16 < M`.
Guard tightest(const Guard &G);

class GemmLoopReader : protected LifterBase {
public:
  using LifterBase::LifterBase;
  virtual ~GemmLoopReader() = default;

protected:
  /// The K loop: `for (int t = 0; t < K; t += TILE)` (an element counter)
  /// or `for (int t = 0; t < (K + TILE - 1) / TILE; ++t)` (a tile counter,
  /// also `(K - 1) / TILE + 1`, a local variable set to either, or `K /
  /// TILE`, recorded in FloorBound). Sets G.K, G.Tile, Counter, KOffset (the
  /// K index of the iteration's first element) and LoopCountsElements.
  bool tileLoopHeader();
  /// With ProductK, the K loop's bound may be a product of int parameters
  /// (boundOf: `R * S * C`, an implicit GEMM's columns), or a local int
  /// set to one and never changed.
  bool ProductK = false;
  std::optional<Extent> productBound(const clang::Expr *E) const;
  /// For a header of walking offsets (WalkMessage's form, where
  /// AcceptsWalkers), after the prologue has bound what their starts and
  /// steps read: binds each variable to its start plus its step times the
  /// iterations done, and finds K in the loop's bound. True for the other
  /// headers.
  bool bindWalkers();
  /// Whether the front end lifts split-K loops (bindWalkers reads them):
  /// `for (int k0 = blockIdx.z * chunk; k0 < min(blockIdx.z * chunk +
  /// chunk, K); k0 += TILE)`, the end also through a local int.
  bool AcceptsSplitK = false;
  /// For a split-K loop read by bindWalkers (G.SplitKChunk set): whether
  /// its partial sums are added into C as the tiled form's one sum may
  /// be, by `atomicAdd(&C[i], acc)` or `alpha * acc` (AtomicStore, and
  /// G.Terms "ca": no bias, activation or other term, which each layer
  /// would apply once), blockIdx.z entering no index of A, B or C. False,
  /// with the failure at `Store`, otherwise.
  bool splitKAgrees(bool AtomicStore, clang::SourceLocation Store);
  /// Where the loop counts tiles up to the ceil of a float quotient, adds
  /// to G's extents that K is at most 2^24 (the launcher runs the kernel as
  /// written beyond).
  void limitFloatTileCount();
  /// Appends the pairs of a bounds check `X < P && Y < Q` to `Out`; false,
  /// with the failure, where `E` is something else.
  bool guard(const clang::Expr *E, Guard &Out);
  /// Appends the comparisons of `E`, comparisons of index arithmetic joined
  /// by `&&` (`a < b`, `a >= 0`), to `Out` as conditions `0 <= X`; false,
  /// with the failure, for anything else.
  bool conditionsOf(const clang::Expr *E, Conditions &Out);
  /// The conditions a bool local names where the front end records them
  /// (`const bool ok = ih >= 0 && ih < H;`, BlockedLift.cpp), which
  /// conditionsOf reads in its place; null by default.
  virtual const Conditions *namedChecks(const clang::ValueDecl *) const {
    return nullptr;
  }
  /// `(unsigned)x < (unsigned)n` (also `<=`, `>`, `>=` with the operands
  /// swapped, and `x` or `n` converted implicitly), x signed, n a value
  /// that is never negative: the conditions 0 <= x and x < n, for C
  /// compares a negative x as 2^w + x, above every such n. False, adding
  /// nothing, for any other comparison.
  bool unsignedRange(const clang::BinaryOperator *B, Conditions &Out);
  /// The negation of the condition `E`: `X` of `!X`, the opposite
  /// comparison (`r >= M` of `r < M`), `!a && !b` of `a || b`; null for
  /// anything else. Built in the AST context, for the bounds checks read
  /// from it.
  const clang::Expr *negated(const clang::Expr *E) const;
  /// The condition under which the statements after `if (cond) return;`
  /// (or `continue;`) run: negated(cond), for an `if` without an else, an
  /// init-statement or a condition variable; null otherwise.
  const clang::Expr *keptCondition(const clang::IfStmt *If) const;
  /// The check and the element read of a copy `ok ? matrix[j] : 0`, or
  /// of `out ? 0 : matrix[j]` (the check the negation of `out`); nullopt
  /// where neither value is a zero.
  std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
  zeroOutside(const clang::ConditionalOperator *C) const;
  /// The integer variable that `S` flips between 0 and 1: `cur ^= 1;`,
  /// `cur = cur ^ 1;`, `cur = 1 - cur;`, `cur = !cur;`, `cur = (cur + 1)
  /// % 2;` (`& 1`, `1 + cur`) or `cur = cur ? 0 : 1;`; else null.
  static const clang::VarDecl *flippedVariable(const clang::Stmt *S);
  /// Whether `R` is the value of `VD` flipped between 0 and 1: `VD ^ 1`,
  /// `1 - VD`, `!VD`, `(VD + 1) % 2` (`& 1`, `1 + VD`), `VD ? 0 : 1`.
  static bool flipOf(const clang::Expr *R, const clang::VarDecl *VD);
  /// Finds the pointer advances of the loop body (`p += step;` at its top
  /// level, once per iteration, the step the same in every iteration and a
  /// multiple of TILE), records them in Steps and starts each advanced
  /// pointer at its value in iteration i: where it was before the loop plus
  /// i steps.
  bool advancesInLoop(const clang::CompoundStmt *Body);
  /// The stored value `V` of the store at index `LC` of C: a sum, in any
  /// order, of the accumulator (`acc` or `alpha * acc`, as isAccumulator
  /// says), optionally `beta * C[LC]` and a bias (checked by biasAgrees),
  /// optionally under ReLU, converted to C's type. Sets G.Terms, Alpha,
  /// Beta, Bias and Relu.
  bool value(const clang::Expr *V, const Poly &LC);
  /// The stored value `Cond ? T : F` (a conditional, or the values of an
  /// if/else's two stores of one element), `Cond` a test of beta against
  /// 0 (`beta == 0`, `beta != 0.0f`, `!beta`), beta a float parameter:
  /// the value chosen where beta is not 0 as `value` reads it, with beta
  /// times C's old value, and the other the same without that term
  /// (recorded in G.BetaZeroTerms).
  bool betaSelect(const clang::Expr *Cond, const clang::Expr *T,
                  const clang::Expr *F, const Poly &LC);
  /// The beta that `Cond` compares with 0, and whether it holds where beta
  /// is 0 (`beta == 0`, `!beta`) or where it is not (`beta != 0`).
  std::optional<std::pair<const clang::VarDecl *, bool>>
  betaTest(const clang::Expr *Cond) const;
  /// `if (beta == 0) C[i] = v0; else C[i] = v1;` (betaSelect's tests), each
  /// branch one assignment of the same element: its parts, for betaSelect.
  struct BetaStores {
    const clang::Expr *Cond, *L, *Then, *Else;
  };
  std::optional<BetaStores> betaStores(const clang::Stmt *S) const;
  /// The stored value as G records it (value), taken out of G (its fields
  /// reset), put back, and compared.
  struct StoredValue {
    std::string Terms, BetaZeroTerms;
    const clang::VarDecl *Alpha = nullptr, *Beta = nullptr;
    const clang::ParmVarDecl *CIn = nullptr;
    ElementType CInElem{};
    std::optional<LiftedBias> Bias;
    Activation Act = Activation::None;
    LeakySlope Slope;
    bool operator==(const StoredValue &O) const;
  };
  StoredValue takeValue();
  /// Whether `Z`, stored where `Beta` is 0, is the value G records (one
  /// with `Beta * C[index]`, C itself) without that term.
  bool zeroValueAgrees(const StoredValue &Z, const clang::VarDecl *Beta) const;
  void putValue(const StoredValue &V);
  /// Whether `X` reads the accumulator of the element stored.
  virtual bool isAccumulator(const clang::Expr *X) { return refersTo(X, Acc); }
  /// Records `VD`, a float local of the epilogue (`float v = acc +
  /// bias[col];`), whose uses in the stored value read as its initializer:
  /// where it is a float (not a 16-bit type, whose rounding the tiled form
  /// would not repeat) with an initializer and is never changed. False
  /// otherwise.
  bool epilogueLocal(const clang::VarDecl *VD);
  /// Records `S` where it updates the accumulator after the loop, before
  /// the store: `acc += x;`, `acc *= x;` or `acc = x;`, acc a float and x a
  /// float without side effects. Each use of the accumulator reads it as
  /// the updates before its statement left it (throughLocals): the store's
  /// as the last left it, a local's or an update's own as those before.
  /// False otherwise.
  /// Also `if (beta != 0) acc += x;` (betaTest's tests): the accumulator
  /// then reads as `beta != 0 ? acc + x : acc`, the choice on beta that
  /// value() reads.
  bool accumulatorUpdate(const clang::Stmt *S);
  /// Records `S` where it updates a float local of the epilogue
  /// (epilogueLocal): `v = x;` or `v op= x;` (op one of + - * /), x a float
  /// without side effects. Uses of v after it read x (`v op x`), x's own
  /// uses of the locals reading their values before `S` (`v =
  /// fmaxf(v, 0.0f);`). False otherwise.
  bool localUpdate(const clang::Stmt *S);
  /// The value a float variable holds after the assignment `B`: `x` of `v
  /// = x`, `v op x` (built in the AST context) of `v op= x`.
  const clang::Expr *assignedValue(const clang::BinaryOperator *B) const;
  /// Records `VD`, a float local of the epilogue as epilogueLocal wants it
  /// but for `Next`, the statement after its declaration: `if (beta != 0)
  /// VD += x;` (betaTest's tests, x not reading VD), its only change. Its
  /// uses after `Next` read as `beta != 0 ? init + x : init`; it has no
  /// uses between. False otherwise.
  bool betaUpdatedLocal(const clang::VarDecl *VD, const clang::Stmt *Next);
  /// Records `VD`, a float local declared before the loop that the loop
  /// does not read, as a scale the store may apply (`const float scale =
  /// 1.0f / sqrtf((float)K);`): where it is never changed and its
  /// initializer, outside any macro, reads only the kernel's arithmetic
  /// parameters and literals, through arithmetic, casts, conditionals and
  /// calls of functions of the system headers (sqrtf, ...) with arithmetic
  /// arguments. Every thread of every block computes the same value from
  /// it; the tiled form declares it alike, so the device computes it as it
  /// did. False otherwise.
  bool uniformScale(const clang::VarDecl *VD);
  /// The statement `S` stores after its float locals (epilogueLocal): `S`
  /// itself, or a block of local declarations and one statement; null with
  /// the failure `Expected` at `S` for anything else.
  const clang::Stmt *afterLocals(const clang::Stmt *S, const char *Expected);
  /// `E` without value-keeping conversions (unconverted, `Keep`) and with
  /// the epilogue's float locals read as their initializers.
  const clang::Expr *throughLocals(const clang::Expr *E,
                                   clang::QualType Keep = {}) const;
  /// Records in G.Slope the slope `S` of a LeakyReLU: a float constant, a
  /// float parameter of the kernel or a uniform scale (floatParam); false
  /// for anything else.
  bool leakySlope(const clang::Expr *S);
  /// The bias is indexed by the store's column, Col (a row of N values), or
  /// row, Row, holds bf16, fp16 or float.
  bool biasAgrees();
  /// `bias != nullptr ? bias[col] : 0.0f` (`bias ?`, `bias == nullptr ? 0 :
  /// ...`, `!bias ? 0 : ...`), bias a pointer parameter: the pointer
  /// tested and the value read where it is not null; nullopt otherwise.
  std::optional<std::pair<const clang::ParmVarDecl *, const clang::Expr *>>
  nonNullRead(const clang::ConditionalOperator *Sel) const;
  /// A and B have one 16-bit element type, that of the __shared__ tiles
  /// (or float tiles, where WidenedTiles); the extents and leading
  /// dimensions are `int`. An fp32 SGEMM is refused.
  bool elementTypes();

  // Double buffering: tiles `X[2][...]` of which iteration i reads buffer
  // i % 2, staged by the code before the loop (i = 0) or by iteration
  // i - 1, and writes buffer (i + 1) % 2 for iteration i + 1.

  /// The iteration's index: the loop variable of a tile counter, or
  /// `t / TILE` of an element counter.
  bool isIteration(const clang::Expr *E) const;
  /// Where `E` is the iteration plus a constant c (`i + 2`, `i - 1`, `t /
  /// TILE + 1`), c; nullopt otherwise.
  std::optional<int64_t> iterationOffset(const clang::Expr *E) const;
  /// Where `E` is `(i + c) % 2` (c >= 0) or `(i + c) & 1` (any c) of
  /// iteration i, whether c is odd; nullopt otherwise.
  std::optional<bool> iterationParity(const clang::Expr *E) const;
  /// The buffer iteration i reads: `(i + c) % 2` or `(i + c) & 1` of an
  /// even c (iterationParity), or a variable of CurrentVars.
  bool isCurrent(const clang::Expr *E) const;
  /// The buffer iteration i writes: `(i + c) % 2` or `(i + c) & 1` of an
  /// odd c, `1 - cur`, `cur ^ 1`, `!cur` (cur as isCurrent says), or a
  /// variable of NextVars.
  bool isNext(const clang::Expr *E) const;
  /// Whether `E` is the loop's condition Ahead steps on: `counter + step <
  /// bound` or `counter < bound - step` (step the loop's times Ahead), the
  /// bound the loop's own (the same polynomial, or the same expression
  /// where it is none), so that it holds in every iteration but the last
  /// Ahead.
  bool prefetchCondition(const clang::Expr *E) const;
  /// How many iterations ahead the loop stages tiles: 1 for double
  /// buffering, D for a ring of more buffers (`X[S][R][C]`) whose first D
  /// tiles are staged before the loop; prefetchCondition reads `t + D <
  /// bound`.
  int64_t Ahead = 1;
  /// Whether `Bound` is the loop's bound: the same polynomial, or the same
  /// expression where it is none.
  bool isLoopBound(const clang::Expr *Bound) const;
  /// Where `E`, before the loop, is its condition in iteration b, `b *
  /// step < bound` (`b * TILE < K` of a tile counter up to ceil(K / TILE)),
  /// b: the first b iterations run wherever it fails. Nullopt otherwise.
  std::optional<int64_t> firstTileCondition(const clang::Expr *E) const;
  /// Where `E` is `(i + c) % S` (c >= 0) or `(i + c) & (S - 1)` (S a power
  /// of two, any c) of iteration i (iterationOffset, or a tile counter's
  /// local set to `t + c`), or a local of the loop body set to one and not
  /// changed, or a ring counter of S (RingCounters) or `(r + c) % S` of
  /// one, c >= 0, c modulo S: the buffer of a ring of S that the
  /// iteration reads (0) or stages c iterations ahead.
  std::optional<int64_t> ringResidue(const clang::Expr *E, int64_t S) const;
  /// Local variables set to the buffer iteration i reads or writes.
  std::vector<const clang::ValueDecl *> CurrentVars, NextVars;
  /// Buffer indices advanced around a ring at the end of the loop body
  /// (`s = (s + 1) % S;`), each set to c before the loop, so that in
  /// iteration i, up to the advance, it is (i + c) % S: c and S.
  llvm::DenseMap<const clang::ValueDecl *, std::pair<int64_t, int64_t>>
      RingCounters;

  /// The scale `E` names: a float parameter of the kernel, or a uniform
  /// scale (uniformScale); null for anything else.
  const clang::VarDecl *floatParam(const clang::Expr *E) const;
  /// For a front end that records which accumulator a stored value reads
  /// (BlockedLift.cpp): sets that record aside before the other value of a
  /// beta choice is read, and then whether that value reads the same one.
  /// The other front ends have one accumulator.
  virtual void setValueSourceAside() {}
  virtual bool sameValueSource() const { return true; }

  /// Whether the front end takes a header of walking offsets (the CUDA
  /// samples' matrixMul) and calls bindWalkers after its prologue.
  bool AcceptsWalkers = false;
  /// Whether the front end takes a tile loop counted from 1 whose last
  /// iteration stands after it (PeeledIteration.h); then PeeledLast is set
  /// for one, and Counter's symbol stands for the iteration, one less than
  /// the counter (which evaluates to it plus 1).
  bool AcceptsPeeled = false;
  bool PeeledLast = false;
  /// Whether the front end's staging copies convert each element by value
  /// (never reinterpreting bits), so float tiles of 16-bit matrices hold
  /// their elements exactly (widening bf16 or fp16 to float is exact) and
  /// their products are those of the 16-bit values, which wgmma computes.
  bool WidenedTiles = false;
  /// A variable of a walking header and its step.
  struct Walker {
    const clang::VarDecl *Var;
    const clang::Expr *Step;
  };
  /// The variables of a walking header, the one compared with the bound
  /// first (Counter, whose symbol stands for the elements of K walked).
  std::vector<Walker> Walkers;

  /// The pragma's precision(tf32): fp32 operands are lifted (the tiled
  /// form carries the clause) rather than refused.
  bool Tf32 = false;

  static constexpr const char *BoundMessage =
      "expected 'for (int t = 0; t < K; t += TILE)', 'for (int t = 0; t < "
      "(K + TILE - 1) / TILE; ++t)' or 'for (int t = 0; t < K / TILE; ++t)' "
      "(whole tiles only, a partial last one dropped), K an integer "
      "parameter or a named constant";

  static constexpr const char *WalkMessage =
      "expected 'for (int a = aBegin, b = bBegin; a <= aBegin + K - 1; a += "
      "TILE, b += step)' (or 'a < aBegin + K'): integer variables that walk "
      "A and B, the first stepping by TILE elements along K, a constant, the "
      "others by a multiple of TILE, none changed in the body; K an integer "
      "parameter or a named constant, so that the loop covers K whole";

  static constexpr const char *SgemmMessage =
      "the kernel computes in fp32 (an SGEMM); the tensor cores take bf16 or "
      "fp16 inputs, which would change its results. Add "
      "'precision(3xtf32)' to the pragma for about fp32's accuracy (each "
      "operand split into two tf32 parts, three products per step), or "
      "'precision(tf32)' where tf32's 10-bit mantissas are acceptable; "
      "otherwise convert the inputs to bf16 or fp16 yourself "
      "(docs/migration.md, 'Precision')";

  /// A pointer advanced in the loop body, by `Step` elements at `At`.
  struct InLoopStep {
    const clang::Stmt *At;
    const clang::VarDecl *Ptr;
    Poly Step;
  };

  LiftedGemm G;
  std::vector<const clang::VarDecl *> Shared; ///< the __shared__ tiles
  const clang::VarDecl *Acc = nullptr;        ///< a scalar accumulator
  const clang::VarDecl *Counter = nullptr;    ///< the K loop's variable
  Poly KOffset;  ///< the K index of the iteration's first element
  Poly Row, Col; ///< the row and column of C stored, for biasAgrees
  const clang::Expr *BiasAt = nullptr; ///< the bias term of the stored value
  Poly BiasIndex;                      ///< its index, with its pointer's offset
  clang::SourceLocation FloorBound;    ///< a `K / TILE` loop bound
  bool LoopCountsElements = false;     ///< t += TILE, else ++t over tiles
  /// The epilogue's float locals and their values: initializers
  /// (epilogueLocal), then the values of their updates (localUpdate). A use
  /// of one in a statement before its last update reads the value it had
  /// there (LocalUseValue); any other use reads the last.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> FloatLocals;
  llvm::DenseMap<const clang::DeclRefExpr *, const clang::Expr *> LocalUseValue;
  /// Lists the uses of the epilogue's float locals in `E` as reading their
  /// current values.
  void bindLocalUses(const clang::Expr *E);
  /// Whether every change of `VD` in the kernel is an update statement,
  /// `VD = x;` or `VD op= x;` at the top level of a block (which
  /// localUpdate reads where the epilogue runs it; elsewhere the epilogue
  /// refuses it as it refuses any other statement).
  bool changedByUpdatesOnly(const clang::VarDecl *VD) const;
  /// The accumulator's values after its updates (accumulatorUpdate), in
  /// order; and for each use of it in an epilogue local or an update, the
  /// index of the value it reads (-1: the value the loop left). A use not
  /// listed reads the last.
  std::vector<const clang::Expr *> AccValues;
  llvm::DenseMap<const clang::DeclRefExpr *, int> AccValueOf;
  /// Whether `E` writes nothing and calls only functions that write
  /// nothing (mayWrite), or is a call of an activation helper.
  bool effectFree(const clang::Expr *E) const;
  /// Lists the uses of the accumulator in `E` as reading its current value.
  void bindAccumulatorUses(const clang::Expr *E);
  /// For `S`, `if (<a test of beta>) X += x;` with no else, X a float
  /// variable and x a float without side effects: `test ? Prior + x :
  /// Prior`, Prior what X reads as before `S`. Null for anything else.
  const clang::Expr *betaAdded(const clang::Stmt *S, const clang::VarDecl *X,
                               clang::Expr *Prior);
  /// The uniform scales declared before the loop (uniformScale).
  llvm::SmallPtrSet<const clang::VarDecl *, 2> UniformScales;
  bool FloatTileCount = false;         ///< the bound is ceil(K / (float)TILE)
  std::vector<InLoopStep> Steps;

private:
  /// Whether the header is one of walking offsets: several variables, a
  /// start other than 0, a bound compared with '<=' or several steps.
  bool walkingForm() const;
  /// Reads a walking header: its variables, their steps and TILE.
  bool walkingHeader();
  /// For a walking header of one variable starting at `Start`, a
  /// polynomial of blockIdx.z, whose bound `Cond` compares it with no
  /// polynomial: a split-K slice, Start = blockIdx.z * chunk and the end
  /// `min(Start + chunk, K)` (CUDA's or std::min, or `a < b ? a : b`),
  /// written in the condition or through a local int read nowhere else
  /// (SliceEnd). The loop variable is bound to KOffset, the K index of its
  /// iteration's first element; SliceEnd, to K: where chunk is a multiple
  /// of TILE (the launcher runs the kernel as written elsewhere), a
  /// layer's tiles lie inside its slice, where `e < end` and `e < K` agree
  /// for every element e. The layers' slices then partition the first
  /// min(grid.z * chunk, K) elements of K (G.SplitKChunk).
  bool splitKSlice(const Poly &Start, const clang::BinaryOperator *Cond);
  /// The operands of `min(a, b)` or of `a < b ? a : b` (`b > a ? a : b`,
  /// `<=`, `>=`), the smaller first where the test holds; nullopt for
  /// anything else.
  std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
  minOperands(const clang::Expr *E) const;
  const clang::VarDecl *SliceEnd = nullptr;
  /// The constant value of `E`, through the initializers of local variables
  /// set once (`int aStep = BLOCK_SIZE;`), before the prologue is bound.
  std::optional<int64_t> constantThroughLocals(const clang::Expr *E) const;
  /// `ceil(K / (float)TILE)` (ceilf; the quotient of K converted to float or
  /// double, or `1.0 * K`, by TILE): K, with TILE and whether the division
  /// is float's; null for anything else.
  const clang::Expr *ceilBound(const clang::Expr *E, int64_t &Tile,
                               bool &InFloat) const;
  /// The division of a tile loop's bound `N / D` or `N / D + 1`, or null.
  const clang::BinaryOperator *tileBound(const clang::Expr *E,
                                         bool &PlusOne) const;
  /// The terms of a sum, through the epilogue's float locals, in the order
  /// of the left fold that rounds as it does (`c + (a + b)`: a, b, c);
  /// false for a sum of two sums, which is no such fold.
  bool sumTerms(const clang::Expr *E,
                std::vector<const clang::Expr *> &Out) const;
  /// `value` without a conditional.
  bool plainValue(const clang::Expr *V, const Poly &LC);
  /// The caller's variable that `VD` stands for where `VD` is a parameter
  /// of a `__device__` helper being followed (BlockedLift.cpp), else `VD`.
  virtual const clang::VarDecl *standsFor(const clang::VarDecl *VD) const {
    return VD;
  }
  /// One term of the stored value: 'a' for the accumulator (sets Alpha
  /// where scaled), 'c' for beta * C[LC] (sets Beta), 'b' for an element of
  /// another pointer parameter (the bias, checked later), 0 for none.
  char term(const clang::Expr *X, const Poly &LC);
  /// Whether `Old`, whose index evaluates to `I`, reads the stored element's
  /// old value: C's, or that of another matrix of C's element type at C's
  /// index `LC`, which then becomes G.CIn (one such matrix).
  bool oldValue(const GlobalAccess &Old, const Poly &I, const Poly &LC);

protected:
  //===--- reading an implicit GEMM's im2col element (ConvLift.cpp,
  // BlockedLift.cpp): quotients and remainders as DivModAtom symbols ---===//

  /// Q with Num = Q * Den: Den one monomial dividing every term of Num, or
  /// a polynomial in which some symbol appears once with a constant
  /// coefficient (Q read off that symbol).
  std::optional<Poly> dividedBy(const Poly &Num, const Poly &Den) const;

  /// Whether A and B hold the same conditions, each as often.
  static bool sameConditions(const Conditions &A, const Conditions &B);

  /// Whether `P` names no thread, block or loop coordinate and no atom: a
  /// polynomial of parameters and constants.
  bool freeOfCoordinates(const Poly &P) const;

  /// The atom `S` is where it is a quotient or remainder of parameters and
  /// constants (`R / 2`), or null.
  const DivModAtom *fixedAtom(Symbol S) const;

  /// The atoms of P, and of the polynomials inside them.
  void atomsOf(const Poly &P, std::vector<const DivModAtom *> &Out) const;

  /// The symbol `P` is (1 times one symbol), or none.
  static std::optional<Symbol> symbolOf(const Poly &P);

  /// The quotient (remainder, with `Mod`) of X among `Atoms`, or null.
  static const DivModAtom *find(llvm::ArrayRef<const DivModAtom *> Atoms,
                                bool Mod, const Poly &X);

  /// The variable of `for (int v = 0; v < B; v += Step)` (++v, v++ for a
  /// step of 1; a Step of 0 takes any constant step of 2 or more), its
  /// bound (a polynomial of parameters and constants) and step; nullopt
  /// for anything else.
  struct CountingLoop {
    const clang::VarDecl *Var;
    Poly Bound;
    int64_t Step;
  };
  std::optional<CountingLoop> countingLoop(const clang::ForStmt *F,
                                           int64_t Step) const;
  /// The loop that `Body` is, or that ends it after declarations (each
  /// appended to OuterDecls with `Body`); null, with the failure
  /// `Expected`, for anything else.
  const clang::ForStmt *nextLoop(const clang::Stmt *Body, const char *Expected);
  /// Whether `Body` is declarations and then a loop of step 1 (one over
  /// the taps), the form nextLoop reads.
  bool endsInTapLoop(const clang::Stmt *Body) const;
  /// The loop that ends `Body` after declarations (or is `Body`); null for
  /// anything else.
  static const clang::ForStmt *loopAfterDecls(const clang::Stmt *Body);
  /// An implicit GEMM's K loop written as loops over the filter taps
  /// around a channel tile: `for (r < R) for (s < S) for (c0 < C; c0 +=
  /// TILE)`, or `for (rs < R * S)` with r and s its quotient and remainder
  /// by S. R is the rs loop's variable where one loop walks the taps (S
  /// then empty); the bounds are the loops'.
  struct TapLoops {
    Poly R, RBound, S, SBound;
  } Taps;
  /// The declarations in the bodies of the loops over the taps, and the
  /// body each is in.
  std::vector<std::pair<const clang::DeclStmt *, const clang::Stmt *>>
      OuterDecls;
  /// Where the register-blocked front end reads such loops
  /// (BlockedLift.cpp, tapNest): the channels C, the bound of the channel
  /// tile's loop, so that im2col column kk = tap * C + c of the tap (r * S
  /// + s, or rs) and the channel c; empty otherwise. The column's bounds
  /// check is then the channel's, `c < C`.
  Poly TapChannels;
  /// The tap index Taps stands for: r * S + s, or rs.
  Poly tapIndex() const {
    return Taps.S == Poly() ? Taps.R : Taps.R * Taps.SBound + Taps.S;
  }

  /// An input coordinate In = o * Stride - Pad + f * Dil (o the output
  /// pixel's coordinate, f the filter tap's) and the input extent it is
  /// checked against.
  struct Spatial {
    Poly In, Extent, Stride, Pad, Dil;
    /// Checks that may be absent: `In >= 0` where In is never negative (no
    /// padding).
    std::vector<Poly> Optional;
  };

  /// The coordinate of `O` (the output's) and `F` (the tap's) from the
  /// copy's checks `In >= 0` and `Extent - In - 1 >= 0` (the first may be
  /// absent where the padding is 0).
  bool spatial(const Conditions &Checks, const Poly &O, const Poly &F,
               Spatial &Out) const;

  /// The convolution whose im2col matrix an implicit GEMM reads as A
  /// (tile.h, tawa::Im2col: NHWC activations, row m the output pixel, column
  /// k = (r * S + s) * C + c): P x Q output pixels per image, C channels, an
  /// R x S filter, the input's H x W, and the padding, stride and dilation
  /// of each axis, polynomials of parameters and constants; Rows and Cols
  /// bound m and k (`m < Rows`, `k < R * S * C`).
  struct Im2colShape {
    Poly P, Q, C, R, S, H, W, PadH, PadW, StrideH, StrideW, DilH, DilW;
    Poly Rows, Cols;
  };
  /// The coordinates of im2col element (M, KK) of `Sh`: the pixel's image,
  /// row and column (n = m / (P Q), p = (m / Q) % P, q = m % Q) and the
  /// column's channel and tap (c = k % C, s = (k / C) % S, r = k / (C S)),
  /// as DivModAtom symbols; nullopt where a divisor is none.
  struct Im2colCoordinates {
    Poly N, P, Q, C, R, S;
  };
  std::optional<Im2colCoordinates>
  im2colCoordinates(const Im2colShape &Sh, const Poly &M, const Poly &KK) const;
  /// Reads the convolution off one staging copy's element: the address `L`
  /// it reads and its bounds checks `Checks` (each `0 <= X`), for im2col row
  /// `M` and column `KK`, bounded by `Rows` and `Cols`: the decodes from
  /// the atoms, padding, stride and dilation from the input row's and
  /// column's checks (spatial). The shape is returned where the element is
  /// then exactly the im2col element (im2colElement); nullopt otherwise.
  /// With `Unchecked`, the column's check may be left out (set to true
  /// where it is): a copy for whole tiles of K (im2colElement).
  std::optional<Im2colShape> im2colShape(const Poly &L,
                                         const Conditions &Checks,
                                         const Poly &M, const Poly &KK,
                                         const Poly &Rows, const Poly &Cols,
                                         bool *Unchecked = nullptr) const;
  /// Whether `L` under `Checks` is im2col element (M, KK) of `Sh`: the
  /// address ((n * H + ih) * W + iw) * C + c of the NHWC input, ih = p *
  /// StrideH - PadH + r * DilH (iw alike), and as checks exactly `m < Rows`,
  /// `k < Cols`, `0 <= ih < H` and `0 <= iw < W`, where `ih >= 0` (`iw >=
  /// 0`) may be left out without padding. Equal polynomials over the
  /// canonical atoms: for every thread, block, iteration and parameter
  /// value with positive extents. With `Unchecked`, the column's check
  /// (`k < Cols`, or the channel's) may be left out, and *Unchecked is set
  /// where it is: the copy is then the element only for columns inside the
  /// matrix, which every column of a whole tile of K (or of the channels,
  /// under loops over the taps) is; the caller's launcher must require
  /// those whole tiles.
  bool im2colElement(const Im2colShape &Sh, const Poly &L,
                     const Conditions &Checks, const Poly &M, const Poly &KK,
                     bool *Unchecked = nullptr) const;

  /// C++ text of a polynomial of parameters and constants: its terms in the
  /// order of their names, the constant last (`H - 2`).
  std::string text(const Poly &P) const;

  /// C++ text of the product of `Factors`, each parenthesized where it has
  /// several terms.
  std::string productText(std::initializer_list<const Poly *> Factors) const;

  /// `P` in C++, parenthesized where it has several terms.
  std::string factorText(const Poly &P) const { return productText({&P}); }
};

} // namespace tawa

#endif
