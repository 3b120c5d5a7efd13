//===- ZeroFills.h - a zero store followed by a checked copy ----*- C++ -*-===//
//
// Hand-written staging code often clears a place and then copies into it
// where a bounds check holds:
//
//   As[ty][tx] = 0.0f;
//   if (row < M && t + tx < K) As[ty][tx] = A[row * K + t + tx];
//
// which stores what `As[ty][tx] = row < M && t + tx < K ? A[...] : 0` does.
// The front ends read such a pair as that one checked copy.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_ZEROFILLS_H
#define TAWA_LIB_ZEROFILLS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace tawa {

/// The zero-then-copy pairs among `Body`, the statements of one block, in
/// order: each copy `if (c) x = v;` (no `else`) mapped to the zero store
/// `x = 0;` before it (any zero, isZero), or the declaration of a scalar
/// `T x = 0;`, that it overwrites wherever `c` holds. `x` is a variable or an
/// element of an array variable whose indices have no side effects, the same
/// expression in both (Stmt::Profile); `c` and `v` do not name x's variable;
/// the statements between the two do not name x's variable, write none of the
/// variables x's indices read, and call nothing but the CUDA headers' functions
/// (mayWrite). Together the two store `x = c ? v : 0`.
llvm::DenseMap<const clang::IfStmt *, const clang::Stmt *>
zeroFilledCopies(llvm::ArrayRef<const clang::Stmt *> Body,
                 clang::ASTContext &Ctx);

} // namespace tawa

#endif
