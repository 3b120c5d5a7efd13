//===- GemmEpilogue.cpp - element-wise ops between mma and store ----------===//
#include "tawa/GemmEpilogue.h"
#include "tawa/EmitText.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallSet.h"

#include <optional>

using namespace clang;

namespace tawa {

namespace {

using K = ElemExpr::Kind;

/// Whether `A` and `B` are the same expression (same structure, same
/// declarations), so that they have the same value in one statement.
bool sameExpr(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  if (!A || !B)
    return A == B;
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

class Checker {
public:
  Checker(const TileProgram &P, const TileStore &Store, DiagReporter &Diags)
      : P(P), Store(Store), Diags(Diags), Ctx(P.Kernel->getASTContext()) {}

  bool expr(const ElemExpr &E) {
    switch (E.K) {
    case K::Value:
      return true; // the accumulator: row vectors are refused before
    case K::Scalar:
      return uniform(E.E, "a scalar of the epilogue") &&
             pure(E.E, "a scalar of the epilogue");
    case K::Tile:
      return tile(P.EpilogueLoads[E.Load], E.E);
    case K::Max:
    case K::Log2:
    case K::RowMax:
    case K::RowSum:
      return fail(E.E, "row reductions and row vectors are not epilogue ops "
                       "of a GEMM; its epilogue applies + - * /, "
                       "'tawa::exp2', 'tawa::relu', 'tawa::gelu', "
                       "'tawa::gelu_tanh', 'tawa::silu', 'tawa::leaky_relu', "
                       "'tawa::tanh' and 'tawa::sigmoid' to each element "
                       "of the accumulator, with scalars and tiles loaded "
                       "in the store");
    default:
      for (const ElemExpr &A : E.Args)
        if (!expr(A))
          return false;
      return true;
    }
  }

private:
  bool fail(const Expr *E, const Twine &Msg) {
    Diags.error(E->getBeginLoc(), DiagCategory::Unsupported, Msg,
                E->getSourceRange());
    return false;
  }

  /// Same value in every thread and every tile of the walk.
  bool uniform(const Expr *E, StringRef What) {
    for (auto [B, M] : {std::pair<StringRef, StringRef>{"threadIdx", ""},
                        {"blockDim", ""},
                        {"blockIdx", "x"},
                        {"blockIdx", "y"},
                        {"gridDim", "x"},
                        {"gridDim", "y"}})
      if (const Expr *Read = findBuiltinRead(E, B, M))
        return fail(Read, What + " reads '" + B + (M.empty() ? "" : ".") + M +
                              "'; the rewritten kernel's threads and tiles "
                              "are not the kernel's, so only its parameters, "
                              "constants and blockIdx.z may be read there "
                              "(an origin that moves with the tile is the "
                              "store's own)");
    return true;
  }

  bool pure(const Expr *E, StringRef What) {
    if (!E->HasSideEffects(Ctx))
      return true;
    return fail(E, What + " has side effects (a call or an assignment); "
                          "the epilogue evaluates it per element");
  }

  /// An epilogue operand: R x C, 1 x C or R x 1 of the accumulator; an
  /// extent R (C) at the store's row (column) origin, an extent of 1 at a
  /// uniform one.
  bool tile(const TileLoad &L, const Expr *E) {
    const int R = P.Acc.Rows, C = P.Acc.Cols;
    if ((L.Rows != R && L.Rows != 1) || (L.Cols != C && L.Cols != 1))
      return fail(E, "an epilogue operand of the " + Twine(R) + " x " +
                         Twine(C) + " accumulator is " + Twine(R) + " x " +
                         Twine(C) + ", 1 x " + Twine(C) +
                         " (a row for every "
                         "row) or " +
                         Twine(R) +
                         " x 1 (a column for every "
                         "column); this one is " +
                         Twine(L.Rows) + " x " + Twine(L.Cols));
    if (L.Matrix == Store.Matrix &&
        (L.Rows != R || L.Cols != C || !sameExpr(L.Batch, Store.Batch, Ctx)))
      return fail(E, "an epilogue operand of the stored matrix '" +
                         Store.Matrix->getName() +
                         "' is the stored window itself (" + Twine(R) + " x " +
                         Twine(C) +
                         " at the store's origin); another window "
                         "of it is written by other tiles");
    return origin(L.Row0, L.Rows == R, Store.Row0, "row") &&
           origin(L.Col0, L.Cols == C, Store.Col0, "column") &&
           (!L.Batch || (uniform(L.Batch, "the batch of an epilogue operand") &&
                         pure(L.Batch, "the batch of an epilogue operand")));
  }

  bool origin(const Expr *O, bool Full, const Expr *StoreO, StringRef Dim) {
    if (Full && !sameExpr(O, StoreO, Ctx))
      return fail(O, "the " + Dim +
                         " origin of an epilogue operand as wide "
                         "as the accumulator must be the store's, '" +
                         Twine(exprText(StoreO)) +
                         "', so that its elements are those of the stored "
                         "window; a " +
                         Dim +
                         " of one element may be taken "
                         "at any origin");
    if (Full)
      return true;
    return uniform(O, "the origin of a broadcast epilogue operand") &&
           pure(O, "the origin of a broadcast epilogue operand");
  }

  std::string exprText(const Expr *E) const {
    return tawa::exprText(E, Ctx.getSourceManager(), Ctx.getLangOpts());
  }

  const TileProgram &P;
  const TileStore &Store;
  DiagReporter &Diags;
  const ASTContext &Ctx;
};

using LoadSet = llvm::SmallSet<size_t, 4>;

/// Adds to `Out` the epilogue operands of `E` read in a value that a
/// conditional chooses (all of them where `Chosen`): those are read per
/// element where chosen, never ahead (a bias pointer may be null where its
/// value is not chosen).
void markChosen(const ElemExpr &E, bool Chosen, LoadSet &Out) {
  if (E.K == K::Tile && Chosen)
    Out.insert(E.Load);
  for (size_t I = 0; I < E.Args.size(); ++I)
    markChosen(E.Args[I], Chosen || (E.K == K::Select && I > 0), Out);
}

/// Which broadcast operand array an epilogue operand is read into.
enum class Broadcast { None, ByCol, ByRow };

Broadcast broadcastOf(const TileLoad &L) {
  if (L.Rows == 1 && L.Cols != 1)
    return Broadcast::ByCol;
  if (L.Cols == 1 && L.Rows != 1)
    return Broadcast::ByRow;
  return Broadcast::None;
}

/// The C++ code of an epilogue, precedence-aware.
class Printer {
public:
  Printer(const TileProgram &P,
          llvm::function_ref<std::string(const Expr *)> Text)
      : P(P), Text(Text) {
    markChosen(P.Epilogue, false, ChosenLoads);
    for (size_t I = 0; I < P.EpilogueLoads.size(); ++I) {
      Broadcast B = broadcastOf(I);
      std::optional<size_t> Same = earlierSame(I);
      Slot.push_back(Same                    ? Slot[*Same]
                     : B == Broadcast::ByCol ? Code.ColOps++
                     : B == Broadcast::ByRow ? Code.RowOps++
                                             : -1);
    }
  }

  EpilogueCode code() {
    for (size_t I = 0; I < P.EpilogueLoads.size(); ++I) {
      const TileLoad &L = P.EpilogueLoads[I];
      Broadcast B = broadcastOf(I);
      if (earlierSame(I))
        continue; // read once into the earlier one's slot
      if (B == Broadcast::ByCol)
        Code.ByCol += "tawa_by_col[" + std::to_string(Slot[I]) +
                      "] = " + element(L, scalar(L.Row0), "tawa_col") + "; ";
      else if (B == Broadcast::ByRow)
        Code.ByRow += "tawa_by_row[" + std::to_string(Slot[I]) +
                      "] = " + element(L, "tawa_row", scalar(L.Col0)) + "; ";
    }
    Code.Value = print(P.Epilogue, 0);
    return Code;
  }

private:
  std::string print(const ElemExpr &E, int MinPrec) const {
    auto Wrap = [&](int Prec, const std::string &S) {
      return Prec < MinPrec ? "(" + S + ")" : S;
    };
    auto Call = [&](StringRef F) {
      return (F + "(" + print(E.Args[0], 0) + ")").str();
    };
    switch (E.K) {
    case K::Value:
      return "tawa_acc";
    case K::Scalar:
      return scalar(E.E);
    case K::Tile:
      return tile(E.Load);
    case K::Add:
      return Wrap(1, print(E.Args[0], 1) + " + " + print(E.Args[1], 1));
    case K::Sub:
      return Wrap(1, print(E.Args[0], 1) + " - " + print(E.Args[1], 2));
    case K::Mul:
      return Wrap(2, print(E.Args[0], 2) + " * " + print(E.Args[1], 2));
    case K::Div:
      return Wrap(2, print(E.Args[0], 2) + " / " + print(E.Args[1], 3));
    case K::Exp2:
      return Call("exp2f");
    case K::Relu:
      return Call("tawa::relu");
    case K::Gelu:
      return Call("tawa::gelu");
    case K::GeluTanh:
      return Call("tawa::gelu_tanh");
    case K::Silu:
      return Call("tawa::silu");
    case K::Tanh:
      return Call("tawa::tanh");
    case K::Sigmoid:
      return Call("tawa::sigmoid");
    case K::LeakyRelu:
      return "tawa::leaky_relu(" + print(E.Args[0], 0) + ", " +
             print(E.Args[1], 0) + ")";
    case K::Select:
      return Wrap(0, scalar(E.Args[0].E) + " ? " + print(E.Args[1], 1) + " : " +
                         print(E.Args[2], 1));
    default:
      return "?"; // refused by checkGemmEpilogue
    }
  }

  /// The operand's element of the stored element: along an extent of the
  /// accumulator's (checked: any extent but 1, the accumulator's being at
  /// least 8), the same row (column); along an extent of 1, its origin. A
  /// broadcast operand's is in its array.
  std::string tile(unsigned Load) const {
    const TileLoad &L = P.EpilogueLoads[Load];
    switch (broadcastOf(Load)) {
    case Broadcast::ByCol:
      return "tawa_by_col[" + std::to_string(Slot[Load]) + "]";
    case Broadcast::ByRow:
      return "tawa_by_row[" + std::to_string(Slot[Load]) + "]";
    case Broadcast::None:
      break;
    }
    return element(L, L.Rows != 1 ? "tawa_row" : scalar(L.Row0),
                   L.Cols != 1 ? "tawa_col" : scalar(L.Col0));
  }

  /// An earlier broadcast operand that is the same window of the same
  /// matrix as broadcast operand `I`, whose slot it shares.
  std::optional<size_t> earlierSame(size_t I) const {
    const TileLoad &L = P.EpilogueLoads[I];
    if (broadcastOf(I) == Broadcast::None)
      return std::nullopt;
    const ASTContext &Ctx = P.Kernel->getASTContext();
    for (size_t J = 0; J < I; ++J) {
      const TileLoad &E = P.EpilogueLoads[J];
      if (broadcastOf(J) == broadcastOf(I) && E.Rows == L.Rows &&
          E.Cols == L.Cols && sameExpr(E.MatrixArg, L.MatrixArg, Ctx) &&
          sameExpr(E.Row0, L.Row0, Ctx) && sameExpr(E.Col0, L.Col0, Ctx) &&
          sameExpr(E.Batch, L.Batch, Ctx))
        return J;
    }
    return std::nullopt;
  }

  /// How epilogue operand `I` is read: into a broadcast array where it is
  /// 1 x C or R x 1 and read whatever a conditional chooses.
  Broadcast broadcastOf(size_t I) const {
    return ChosenLoads.contains(I) ? Broadcast::None
                                   : tawa::broadcastOf(P.EpilogueLoads[I]);
  }

  std::string element(const TileLoad &L, StringRef R, StringRef C) const {
    return "tawa::rt::epilogue_element(" + Text(L.MatrixArg) + ", " + R.str() +
           ", " + C.str() + ")";
  }

  std::string scalar(const Expr *E) const { return parenthesized(Text(E), E); }

  const TileProgram &P;
  llvm::function_ref<std::string(const Expr *)> Text;
  EpilogueCode Code;
  std::vector<int> Slot; ///< per epilogue load: its array index, or -1
  LoadSet ChosenLoads;
};

} // namespace

bool plainEpilogue(const TileProgram &P) { return P.Epilogue.K == K::Value; }

bool checkGemmEpilogue(const TileProgram &P, const TileStore &Store,
                       const ElemExpr &Value, DiagReporter &Diags) {
  return Checker(P, Store, Diags).expr(Value);
}

EpilogueCode epilogueCode(const TileProgram &P,
                          llvm::function_ref<std::string(const Expr *)> Text) {
  return Printer(P, Text).code();
}

std::string
describeEpilogue(const TileProgram &P,
                 llvm::function_ref<std::string(const Expr *)> Text) {
  if (plainEpilogue(P))
    return "";
  // The expression as written, its lines joined.
  const std::string Written = Text(P.Epilogue.E);
  std::string Source;
  for (StringRef Line : llvm::split(Written, '\n'))
    Source += (Source.empty() ? "" : " ") + Line.trim().str();
  std::string Out = "ops " + Source +
                    ", applied to the accumulator's registers before the "
                    "store";
  LoadSet Chosen;
  markChosen(P.Epilogue, false, Chosen);
  for (size_t I = 0; I < P.EpilogueLoads.size(); ++I) {
    const TileLoad &L = P.EpilogueLoads[I];
    Out += "; " + Text(L.MatrixArg) + " " + std::to_string(L.Rows) + " x " +
           std::to_string(L.Cols);
    if (L.Rows != 1 && L.Cols != 1)
      Out += " (the stored window)";
    else if (L.Rows == 1 && L.Cols == 1)
      Out += " (one element for the tile)";
    else if (Chosen.contains(I))
      Out += L.Rows == 1 ? " (one row, for every row)"
                         : " (one column, for every column)";
    else
      Out += L.Rows == 1 ? " (one row, for every row; read once per column "
                           "of a thread)"
                         : " (one column, for every column; read once per "
                           "row of a thread)";
    if (Chosen.contains(I))
      Out += " read from global memory per element where the conditional "
             "chooses it";
    else if (L.Rows != 1 && L.Cols != 1)
      Out += " read from global memory per element";
  }
  return Out;
}

} // namespace tawa
