//===- tawa/GemmEpilogue.h - element-wise ops between mma and store -------===//
//
// The value a GEMM stores may be an element-wise expression of its
// accumulator: scalars (alpha), epilogue operands (tiles loaded in the value
// of the store: C's own window for `+ beta * C`, a 1 x BN row of biases per
// column, a BM x 1 column of biases per row), + - * /, tawa::exp2 and the
// activations tawa::relu, tawa::gelu, tawa::gelu_tanh and tawa::silu
// (tawa/tile.h). The rewritten consumers evaluate it on the accumulator's
// registers, element by element, before the store (no extra pass over C):
// tawa::rt::apply_epilogue (tawa/runtime/epilogue.cuh).
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_GEMMEPILOGUE_H
#define TAWA_GEMMEPILOGUE_H

#include "tawa/Diagnostics.h"
#include "tawa/TileProgram.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace tawa {

/// Whether the GEMM's stored value is its accumulator as it is.
bool plainEpilogue(const TileProgram &P);

/// Checks the value `Value` stored by the GEMM `P` (Acc filled): an
/// expression of the accumulator whose every op the consumers can apply to
/// one element from the element's row and column alone. Reports, at the
/// expression that breaks it: row reductions, row vectors, an epilogue
/// operand that is not R x C, 1 x C or R x 1 of the accumulator's R x C, an
/// R (or C) extent at another origin than the store's (element (i, j) of
/// the operand must be that of the stored element), a window of the stored
/// matrix other than the stored window, and scalars or origins that read
/// threadIdx, blockDim, blockIdx.x/y or gridDim.x/y (the rewritten kernel's
/// threads and tiles are others) or have side effects.
bool checkGemmEpilogue(const TileProgram &P, const TileStore &Store,
                       const ElemExpr &Value, DiagReporter &Diags);

/// The epilogue as the arguments of tawa::rt::apply_epilogue
/// (tawa/runtime/epilogue.cuh): the broadcast operands (1 x C: one value per
/// column; R x 1: one per row) are read into arrays once per column or row
/// of a thread, the rest of the expression per element.
struct EpilogueCode {
  int ColOps = 0, RowOps = 0; ///< broadcast operands per column, per row
  /// Statements filling `tawa_by_col[i]` from the int `tawa_col` and
  /// `tawa_by_row[i]` from `tawa_row` ("" when there is none).
  std::string ByCol, ByRow;
  /// The stored value of element (tawa_row, tawa_col) as a C++ expression of
  /// the float `tawa_acc` and the arrays above.
  std::string Value;
};

/// The epilogue of `P` (checked by checkGemmEpilogue); `Text` gives the
/// source text of a user expression as the emitted code spells it.
EpilogueCode
epilogueCode(const TileProgram &P,
             llvm::function_ref<std::string(const clang::Expr *)> Text);

/// For --explain: what the epilogue computes, its operands and how each is
/// read ("" for a plain store).
std::string
describeEpilogue(const TileProgram &P,
                 llvm::function_ref<std::string(const clang::Expr *)> Text);

} // namespace tawa

#endif
