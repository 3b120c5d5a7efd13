//===- Attention.cpp - the attention view of a tile program ---------------===//
#include "tawa/Attention.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/APFloat.h"

using namespace clang;

namespace tawa {
namespace {

using Kind = TileOp::Kind;

/// Builds the view, reporting the first construct out of the form.
class AttentionAnalysis {
public:
  AttentionAnalysis(const TileProgram &P, DiagReporter &Diags)
      : P(P), Diags(Diags) {}

  std::optional<AttentionProgram> run() {
    if (!mmas() || !loads() || !shapes() || !loop() || !prologue() ||
        !epilogue())
      return std::nullopt;
    skips();
    return A;
  }

private:
  bool fail(SourceLocation Loc, const Twine &Msg) {
    Diags.error(Loc, DiagCategory::Unsupported, Msg);
    return false;
  }
  SourceLocation at(unsigned Op) const { return P.Ops[Op].S->getBeginLoc(); }
  const TileValue &value(unsigned V) const { return P.Values[V]; }
  std::string name(unsigned V) const { return "'" + value(V).Name + "'"; }

  std::optional<unsigned> loadOf(unsigned V) const {
    for (unsigned L = 0; L < P.Loads.size(); ++L)
      if (P.Loads[L].Value == V)
        return L;
    return std::nullopt;
  }

  /// The score mma S = Q K^T and the output mma O += convert(P) V.
  bool mmas() {
    std::vector<unsigned> M;
    for (unsigned I = 0; I < P.Ops.size(); ++I)
      if (P.Ops[I].K == Kind::Mma) {
        if (P.Ops[I].Where != Region::Loop)
          return fail(at(I), "'tawa::mma' belongs in the tile loop");
        M.push_back(I);
      }
    A.ScoreMma = M[0];
    A.OutputMma = M[1];
    const TileOp &Score = P.Ops[M[0]], &Out = P.Ops[M[1]];
    if (Score.AConvert || Score.TransposeA || !Score.TransposeB ||
        value(Score.Target).Where != Region::Loop)
      return fail(at(M[0]),
                  "the first 'tawa::mma' of attention's tile loop computes "
                  "the scores, 'tawa::mma(s, q, tawa::transpose(k))', into "
                  "an accumulator declared in the loop, q loaded before the "
                  "loop and k in it");
    if (!Out.AConvert || Out.TransposeA || Out.TransposeB ||
        value(Out.Target).Where != Region::Prologue)
      return fail(at(M[1]),
                  "the second 'tawa::mma' of attention's tile loop "
                  "accumulates the output, 'tawa::mma(o, "
                  "tawa::convert<T>(p), v)', into an accumulator declared "
                  "before the loop, p an accumulator of the loop and v a "
                  "tile loaded in it");
    A.S = Score.Target;
    A.Q = Score.A;
    A.K = Score.B;
    A.O = Out.Target;
    A.Probs = Out.A;
    A.V = Out.B;
    if (value(A.Probs).Where != Region::Loop)
      return fail(at(M[1]), "the probabilities " + name(A.Probs) +
                                " of 'tawa::mma(o, tawa::convert<T>(p), v)' "
                                "are computed in the loop");
    return true;
  }

  /// Q loaded before the loop, K and V in it, all of one 16-bit type.
  bool loads() {
    std::optional<unsigned> Q = loadOf(A.Q), K = loadOf(A.K), V = loadOf(A.V);
    if (!Q || P.Loads[*Q].Where != Region::Prologue)
      return fail(at(A.ScoreMma),
                  "the A operand of the score mma is the query tile, loaded "
                  "with 'tawa::load' before the tile loop (once per tile)");
    if (!K || P.Loads[*K].Where != Region::Loop || !V ||
        P.Loads[*V].Where != Region::Loop)
      return fail(at(!K || P.Loads[*K].Where != Region::Loop ? A.ScoreMma
                                                             : A.OutputMma),
                  "the keys and values are tiles loaded with 'tawa::load' in "
                  "the tile loop");
    A.QLoad = *Q;
    A.KLoad = *K;
    A.VLoad = *V;
    for (unsigned L = 0; L < P.Loads.size(); ++L)
      if (L != *Q && L != *K && L != *V)
        return fail(P.Loads[L].Decl->getLocation(),
                    "attention's tile loop loads the queries before the loop "
                    "and the keys and values in it; tile '" +
                        P.Loads[L].Var + "' is none of them");
    A.Elem = P.Loads[*Q].Elem;
    for (unsigned L : {*K, *V})
      if (P.Loads[L].Elem != A.Elem)
        return fail(P.Loads[L].Decl->getLocation(),
                    "the queries, keys and values of attention have one "
                    "element type");
    if (A.Elem == ElementType::F32 || isFp8(A.Elem))
      return fail(P.Loads[*Q].Decl->getLocation(),
                  "attention's tiles are __nv_bfloat16 or __half (wgmma's "
                  "16-bit inputs); got " +
                      elementName(A.Elem));
    if (*P.Ops[A.OutputMma].AConvert != A.Elem)
      return fail(at(A.OutputMma),
                  "'tawa::convert<T>(p)' converts to the element type of the "
                  "values (" +
                      elementName(A.Elem) + ")");
    return true;
  }

  /// Q: BM x D, K: BN x D, V: BN x DV, S and P: BM x BN, O: BM x DV.
  bool shapes() {
    const TileLoad &Q = P.Loads[A.QLoad], &K = P.Loads[A.KLoad],
                   &V = P.Loads[A.VLoad];
    A.BM = Q.Rows;
    A.D = Q.Cols;
    A.BN = K.Rows;
    A.DV = V.Cols;
    auto Shape = [](int R, int C) {
      return std::to_string(R) + " x " + std::to_string(C);
    };
    if (K.Cols != A.D)
      return fail(K.Decl->getLocation(),
                  "the keys have the head dimension of the queries: " +
                      Shape(A.BN, A.D) + ", not " + Shape(K.Rows, K.Cols));
    if (V.Rows != A.BN)
      return fail(V.Decl->getLocation(),
                  "the values have the rows of the keys: " + Shape(A.BN, A.DV) +
                      ", not " + Shape(V.Rows, V.Cols));
    for (unsigned Idx = 0; Idx < P.Values.size(); ++Idx) {
      const TileValue &X = P.Values[Idx];
      if (X.Kind == ValueKind::Tile)
        continue;
      const bool Out = Idx == A.O;
      const int Cols = X.Kind == ValueKind::RowVector ? 1 : Out ? A.DV : A.BN;
      if (X.Rows != A.BM || X.Cols != Cols)
        return fail(X.Decl->getLocation(),
                    "'" + X.Name + "' has the shape " +
                        (X.Kind == ValueKind::RowVector
                             ? std::to_string(A.BM) + " (a row per query)"
                             : Shape(A.BM, Cols)) +
                        " in attention's tile loop, not " +
                        (X.Kind == ValueKind::RowVector
                             ? std::to_string(X.Rows)
                             : Shape(X.Rows, X.Cols)));
    }
    return true;
  }

  /// Before the score mma: loads and declarations; between the mma: the
  /// softmax and the rescales of O; after: the carry.
  bool loop() {
    for (unsigned I = 0; I < P.Ops.size(); ++I) {
      const TileOp &Op = P.Ops[I];
      if (Op.Where != Region::Loop || Op.K == Kind::Mma || Op.K == Kind::Load)
        continue;
      if ((Op.K == Kind::Declare || Op.K == Kind::Assign) &&
          value(Op.Target).Where == Region::Loop && Op.Target != A.S)
        A.Locals.push_back(Op.Target);
      if (I < A.ScoreMma) {
        if (Op.K == Kind::Declare)
          continue;
        return fail(at(I), "before the score mma, attention's tile loop "
                           "holds the loads and declarations");
      }
      if (I > A.OutputMma) {
        if (Op.K != Kind::Assign || Op.Target == A.O || Op.Target == A.Probs ||
            Op.reads(A.O))
          return fail(at(I),
                      "after 'tawa::mma(o, ...)' attention's tile loop may "
                      "only assign row vectors and accumulators other than "
                      "'" +
                          value(A.O).Name + "' and '" + value(A.Probs).Name +
                          "'");
        A.Carry.push_back(I);
        continue;
      }
      if (!softmaxOp(I))
        return false;
    }
    return rescalesMayMove();
  }

  bool softmaxOp(unsigned I) {
    const TileOp &Op = P.Ops[I];
    if (Op.K == Kind::Scale && Op.Target == A.O) {
      if (Op.Value.reads(A.O))
        return fail(at(I), "'" + value(A.O).Name +
                               " *= x' scales by a row vector or a scalar");
      A.Rescale.push_back(I);
      return true;
    }
    if (Op.reads(A.O) || Op.writes(A.O))
      return fail(at(I),
                  "between the two mma only 'o *= x' may use '" +
                      value(A.O).Name +
                      "': the previous iteration's 'tawa::mma(o, ...)' is "
                      "still accumulating into it while the softmax runs");
    if (Op.K == Kind::Mask && Op.Target != A.S)
      return fail(at(I), "'tawa::mask' applies to the scores " + name(A.S));
    if (Op.K == Kind::Store)
      return fail(at(I), "'tawa::store' belongs after the tile loop");
    A.Softmax.push_back(I);
    return true;
  }

  /// The rescales of O run after the rest of the softmax: nothing after a
  /// rescale may write what it reads.
  bool rescalesMayMove() {
    for (unsigned R : A.Rescale)
      for (unsigned X : A.Softmax)
        for (unsigned V = 0; X > R && V < P.Values.size(); ++V)
          if (P.Ops[R].Value.reads(V) && P.Ops[X].writes(V)) {
            fail(at(X), "'" + value(V).Name + "' is written after '" +
                            value(A.O).Name +
                            " *= ...' reads it; the rescale of the output "
                            "runs after the softmax, so compute its factor "
                            "first");
            Diags.note(at(R), "the rescale is here");
            return false;
          }
    return true;
  }

  /// Before the loop: the query load, the output accumulator, row vectors.
  bool prologue() {
    for (const TileValue &X : P.Values)
      if (X.Where == Region::Prologue && X.Kind == ValueKind::Accumulator &&
          X.Decl != value(A.O).Decl)
        return fail(X.Decl->getLocation(),
                    "attention's tile loop has one accumulator before the "
                    "loop, the output " +
                        name(A.O));
    return true;
  }

  /// After the loop: stores of the output and the row vectors.
  bool epilogue() {
    for (unsigned I = 0; I < P.Ops.size(); ++I) {
      const TileOp &Op = P.Ops[I];
      if (Op.K != Kind::Store)
        continue;
      if (Op.Value.S == ElemExpr::Shape::Matrix && !Op.Value.reads(A.O))
        return fail(at(I), "the stored accumulator is the output " + name(A.O));
      if (!P.EpilogueLoads.empty())
        return fail(at(I), "attention's stores take no epilogue operands "
                           "('tawa::load' in the stored value) yet");
      if (Op.Value.holds(ElemExpr::Kind::Select))
        return fail(at(I), "attention's stored value has no conditional "
                           "'cond ? x : y' yet");
      A.Stores.push_back(I);
    }
    if (A.Stores.empty())
      return fail(P.Loop->getForLoc(),
                  "the output " + name(A.O) +
                      " is never stored; expected 'tawa::store(O, row0, "
                      "col0, ...)' after the loop");
    return true;
  }

  void skips();

  const TileProgram &P;
  DiagReporter &Diags;
  AttentionProgram A;
};

// The skip proof. Where a mask holds nowhere in a tile of keys, the scores
// are -inf everywhere after it. If the loop is online softmax,
//   m_new = max(m, row_max(s) * c);  p = exp2(s * c - m_new);
//   alpha = exp2(m - m_new);  l = l * alpha + row_sum(p);  o *= alpha;
//   o += convert(p) v;  m = m_new;
// with c > 0: m_new = m, p = 0 (the row subtraction counts -inf as 0), and
// alpha = 1 where m is finite, 0 where m = -inf. So l, o and m keep their
// values where m is finite, and become 0, 0, -inf where m = -inf, which is
// what they are there: the invariant "m = -inf implies l = 0 and o = 0"
// holds before the loop (o = 0, and l = 0 or m finite) and after every
// iteration (a row whose m_new is -inf has p = 0 and alpha = 0). Assumed:
// the values V and the loop-carried statistics hold no NaN, and V no
// infinity (0 * inf is NaN).

/// `E` as `a (op) b` in either order, binding the operands.
bool binary(const ElemExpr &E, ElemExpr::Kind K, const ElemExpr *&X,
            const ElemExpr *&Y) {
  if (E.K != K || E.Args.size() != 2)
    return false;
  X = &E.Args[0];
  Y = &E.Args[1];
  return true;
}

bool isValue(const ElemExpr &E, unsigned V) {
  return E.K == ElemExpr::Kind::Value && E.Value == V;
}

/// `max(m, row_max(s) * c)`, in any order: sets M and C.
bool isNewMax(const ElemExpr &E, unsigned S, unsigned &M,
              const clang::Expr *&C) {
  const ElemExpr *X, *Y;
  if (!binary(E, ElemExpr::Kind::Max, X, Y))
    return false;
  if (X->K != ElemExpr::Kind::Value)
    std::swap(X, Y);
  const ElemExpr *R, *Sc;
  if (X->K != ElemExpr::Kind::Value || !binary(*Y, ElemExpr::Kind::Mul, R, Sc))
    return false;
  if (R->K != ElemExpr::Kind::RowMax)
    std::swap(R, Sc);
  if (R->K != ElemExpr::Kind::RowMax || !isValue(R->Args[0], S) ||
      Sc->K != ElemExpr::Kind::Scalar)
    return false;
  M = X->Value;
  C = Sc->E;
  return true;
}

/// `exp2(s * c - m_new)`.
bool isProbs(const ElemExpr &E, unsigned S, unsigned MNew,
             const clang::Expr *C) {
  const ElemExpr *X, *Y, *Sv, *Sc;
  if (E.K != ElemExpr::Kind::Exp2 ||
      !binary(E.Args[0], ElemExpr::Kind::Sub, X, Y) || !isValue(*Y, MNew) ||
      !binary(*X, ElemExpr::Kind::Mul, Sv, Sc))
    return false;
  if (!isValue(*Sv, S))
    std::swap(Sv, Sc);
  return isValue(*Sv, S) && Sc->K == ElemExpr::Kind::Scalar &&
         Expr::isSameComparisonOperand(Sc->E, C);
}

/// `exp2(m - m_new)`.
bool isAlpha(const ElemExpr &E, unsigned M, unsigned MNew) {
  const ElemExpr *X, *Y;
  return E.K == ElemExpr::Kind::Exp2 &&
         binary(E.Args[0], ElemExpr::Kind::Sub, X, Y) && isValue(*X, M) &&
         isValue(*Y, MNew);
}

/// `l * alpha + row_sum(p)`, in any order.
bool isNewSum(const ElemExpr &E, unsigned L, unsigned Alpha, unsigned Probs) {
  const ElemExpr *X, *Y, *U, *W;
  if (!binary(E, ElemExpr::Kind::Add, X, Y))
    return false;
  if (X->K != ElemExpr::Kind::Mul)
    std::swap(X, Y);
  if (!binary(*X, ElemExpr::Kind::Mul, U, W) ||
      Y->K != ElemExpr::Kind::RowSum || !isValue(Y->Args[0], Probs))
    return false;
  return (isValue(*U, L) && isValue(*W, Alpha)) ||
         (isValue(*U, Alpha) && isValue(*W, L));
}

/// The constant value of `E` (a row vector's fill; null is 0).
std::optional<llvm::APFloat> constantFill(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return llvm::APFloat(0.0f);
  llvm::APFloat F(0.0f);
  if (E->EvaluateAsFloat(F, Ctx))
    return F;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return llvm::APFloat(static_cast<float>(R.Val.getInt().getSExtValue()));
  return std::nullopt;
}

void AttentionAnalysis::skips() {
  std::vector<unsigned> Masks, Assigns;
  for (unsigned I : A.Softmax) {
    const TileOp &Op = P.Ops[I];
    if (Op.K == Kind::Mask) {
      if (!Assigns.empty()) {
        A.SkipReason = "a mask follows other ops of the softmax";
        return;
      }
      Masks.push_back(I);
    } else if (Op.K == Kind::Assign) {
      Assigns.push_back(I);
    }
  }
  if (Masks.empty()) {
    A.SkipReason = "the loop masks no scores";
    return;
  }
  A.SkipReason = "the loop is not online softmax in the form of "
                 "docs/tile-language.md (m_new = max(m, row_max(s) * c), "
                 "p = exp2(s * c - m_new), alpha = exp2(m - m_new), "
                 "l = l * alpha + row_sum(p), o *= alpha, then m = m_new)";
  if (Assigns.size() != 4 || A.Rescale.size() != 1 || A.Carry.size() != 1)
    return;
  // m_new, p, alpha and l, in the order their operands allow.
  const TileOp &NewMax = P.Ops[Assigns[0]];
  unsigned M = 0;
  const clang::Expr *C = nullptr;
  if (!isNewMax(NewMax.Value, A.S, M, C) || !value(M).LoopCarried)
    return;
  const unsigned MNew = NewMax.Target;
  std::optional<unsigned> Alpha, L;
  bool Probs = false;
  for (unsigned I : llvm::ArrayRef(Assigns).drop_front()) {
    const TileOp &Op = P.Ops[I];
    if (Op.Target == A.Probs && isProbs(Op.Value, A.S, MNew, C))
      Probs = true;
    else if (isAlpha(Op.Value, M, MNew) && !Alpha)
      Alpha = Op.Target;
    else if (Alpha && value(Op.Target).LoopCarried &&
             isNewSum(Op.Value, Op.Target, *Alpha, A.Probs) && Probs)
      L = Op.Target;
  }
  const TileOp &Rescale = P.Ops[A.Rescale[0]], &Carry = P.Ops[A.Carry[0]];
  if (!Probs || !Alpha || !L || !isValue(Rescale.Value, *Alpha) ||
      Carry.Target != M || !isValue(Carry.Value, MNew))
    return;
  // Before the loop: m = -inf implies l = 0 (o is 0).
  ASTContext &Ctx = P.Kernel->getASTContext();
  std::optional<llvm::APFloat> MFill = constantFill(value(M).Fill, Ctx),
                               LFill = constantFill(value(*L).Fill, Ctx);
  if (!MFill || !LFill || MFill->isNaN() ||
      (MFill->isInfinity() && !MFill->isNegative()) ||
      (MFill->isInfinity() && !LFill->isZero())) {
    A.SkipReason = "the row statistics '" + value(M).Name + "' and '" +
                   value(*L).Name +
                   "' do not start as online softmax's (-inf or a finite "
                   "maximum, and a sum of 0)";
    return;
  }
  A.SkipMasks = Masks;
  A.PositiveScalars = {C};
  A.SkipReason.clear();
}

} // namespace

std::optional<AttentionProgram> analyzeAttention(const TileProgram &P,
                                                 DiagReporter &Diags) {
  return AttentionAnalysis(P, Diags).run();
}

} // namespace tawa
