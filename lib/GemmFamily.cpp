//===- GemmFamily.cpp - the GEMM view of a tile program -------------------===//
//
// A tile loop with one mma is a GEMM: its planner and emitter (Plan.cpp,
// TileShape.cpp, Emitter.cpp) read the accumulator, the loads and the store
// from the view filled here. What does not have that form is reported at the
// op that breaks it.
//
//===----------------------------------------------------------------------===//
#include "tawa/GemmEpilogue.h"
#include "tawa/TileProgram.h"

#include "clang/AST/Stmt.h"

using namespace clang;

namespace tawa {

namespace {

/// The index into P.Loads of the load of value `V`.
std::optional<unsigned> loadOf(const TileProgram &P, unsigned V) {
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    if (P.Loads[L].Value == V)
      return L;
  return std::nullopt;
}

bool unsupported(DiagReporter &Diags, SourceLocation Loc, const Twine &Msg) {
  Diags.error(Loc, DiagCategory::Unsupported, Msg);
  return false;
}

/// The accumulator: one, declared before the loop.
bool accumulator(TileProgram &P, DiagReporter &Diags) {
  const TileValue *First = nullptr;
  for (const TileValue &V : P.Values) {
    if (V.Kind == ValueKind::RowVector)
      return unsupported(Diags, V.Decl->getLocation(),
                         "row vectors belong to attention's form (two "
                         "'tawa::mma'); a GEMM tile loop holds tile loads "
                         "and one mma");
    if (V.Kind != ValueKind::Accumulator)
      continue;
    if (First) {
      unsupported(Diags, V.Decl->getLocation(),
                  "a tile loop of one 'tawa::mma' (a GEMM) has one "
                  "accumulator");
      Diags.note(First->Decl->getLocation(), "first accumulator declared here");
      return false;
    }
    First = &V;
  }
  if (!First || First->Where != Region::Prologue)
    return unsupported(Diags, P.Loop->getForLoc(),
                       "no 'tawa::Accumulator<float, M, N>' is declared "
                       "before the annotated loop");
  const TileOp *Decl = nullptr;
  for (const TileOp &Op : P.Ops)
    if (Op.K == TileOp::Kind::Declare && Op.Target == First - &P.Values[0])
      Decl = &Op;
  P.Acc = {First->Name, First->Decl, cast<DeclStmt>(Decl->S), First->Rows,
           First->Cols};
  return true;
}

/// The loop: tile loads and the mma of two of them into the accumulator.
bool loop(TileProgram &P, DiagReporter &Diags) {
  for (const TileOp &Op : P.Ops) {
    if (Op.K == TileOp::Kind::Load && Op.Where == Region::Prologue)
      return unsupported(Diags, P.Loads[Op.Load].Decl->getLocation(),
                         "the tiles of a GEMM are loaded in the tile loop");
    if (Op.Where != Region::Loop || Op.K == TileOp::Kind::Load)
      continue;
    if (Op.K != TileOp::Kind::Mma)
      return unsupported(
          Diags, Op.S->getBeginLoc(),
          "'" + Op.name() +
              "' in a tile loop of one 'tawa::mma' (a GEMM), whose body "
              "holds tile loads and the mma; element-wise ops and masks "
              "belong to attention's form (two 'tawa::mma', "
              "docs/tile-language.md)");
    if (P.Values[Op.Target].Decl != P.Acc.Decl)
      return unsupported(Diags, Op.S->getBeginLoc(),
                         "expected 'tawa::mma(" + P.Acc.Var + ", a, b)' " +
                             "accumulating into '" + P.Acc.Var + "'");
    std::optional<unsigned> A = loadOf(P, Op.A), B = loadOf(P, Op.B);
    if (Op.AConvert || !A || !B)
      return unsupported(Diags, Op.S->getBeginLoc(),
                         "mma operands must be tiles loaded with 'tawa::load' "
                         "in the same iteration");
    // The layout each operand is read in: MN x K windows are K-major, K x MN
    // windows (B not transposed, A transposed) MN-major.
    const bool AMn = Op.TransposeA, BMn = !Op.TransposeB;
    if (*A == *B && AMn != BMn)
      return unsupported(Diags, Op.S->getBeginLoc(),
                         "tile '" + P.Loads[*A].Var +
                             "' is both operands of the mma, read once along "
                             "its rows and once along its columns; load it "
                             "twice");
    P.Loads[*A].MnMajor = AMn;
    P.Loads[*B].MnMajor = BMn;
    // wgmma reads tf32 and fp8 operands K-major only (PTX ISA 9.7.15.5.1:
    // the transpose bits are for 16-bit types): such a K x MN window is read
    // from a transposed copy of its matrix.
    for (unsigned L : {*A, *B}) {
      const ElementType E = P.Loads[L].Elem;
      if (*A != *B && P.Loads[L].MnMajor && (E == ElementType::F32 || isFp8(E)))
        P.Loads[L].readFromTransposedCopy();
    }
    P.Mmas.push_back(
        {cast<CallExpr>(Op.S), *A, *B, Op.TransposeA, Op.TransposeB});
  }
  return true;
}

/// The epilogue: one store of the accumulator, or of an element-wise
/// expression of it (GemmEpilogue.h).
bool epilogue(TileProgram &P, DiagReporter &Diags) {
  unsigned Acc = 0;
  while (P.Values[Acc].Decl != P.Acc.Decl)
    ++Acc;
  for (const TileOp &Op : P.Ops) {
    if (Op.K != TileOp::Kind::Store)
      continue;
    if (P.Store.Call || !Op.Value.reads(Acc))
      return unsupported(Diags, Op.S->getBeginLoc(),
                         "statement not supported after the tile loop; "
                         "expected one 'tawa::store(C, row0, col0, value)' "
                         "of '" +
                             P.Acc.Var +
                             "' or an element-wise expression of it");
    if (!checkGemmEpilogue(P, Op.Store, Op.Value, Diags))
      return false;
    P.Store = Op.Store;
    P.Epilogue = Op.Value;
  }
  if (!P.Store.Call)
    return unsupported(Diags, P.Loop->getForLoc(),
                       "the accumulator '" + P.Acc.Var +
                           "' is never stored; expected 'tawa::store(C, "
                           "row0, col0, " +
                           P.Acc.Var + ")' after the loop");
  return true;
}

} // namespace

bool gemmView(TileProgram &P, DiagReporter &Diags) {
  return accumulator(P, Diags) && loop(P, Diags) && epilogue(P, Diags);
}

} // namespace tawa
