//===- PeeledIteration.h - a tile loop's last iteration after it -*- C++
//-*-===//
//
// Double-buffered kernels are often written with the tile loop counted from
// 1: the code before the loop stages tile 0, iteration t stages tile t into
// one buffer while it multiplies tile t - 1 from the other, and the code
// after the loop multiplies the last tile, which no iteration reached:
//
//   for (int t = 1; t < tiles; ++t) {
//     int cur = (t - 1) & 1, nxt = t & 1;
//     <copies of tile t into buffer nxt>
//     <product of buffer cur>
//     __syncthreads();
//   }
//   int cur = (tiles - 1) & 1;
//   <product of buffer cur>
//
// Read with i = t - 1, that is the loop from 0 that stages tile i + 1 and
// multiplies tile i, whose last iteration (i = tiles - 1, t = tiles) has
// been moved after the loop without its copies. This component proves the
// second half of that reading: that the statements after the loop are the
// body's own statements for t = tiles, and that the body's statements they
// leave out (the copies of a tile no product reads) change nothing they or
// the code after them read. The lifting front end proves the first half.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_PEELEDITERATION_H
#define TAWA_LIB_PEELEDITERATION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <optional>
#include <string>

namespace tawa {

/// Why the statements after a loop are not its last iteration.
struct PeelFailure {
  clang::SourceLocation Loc;
  std::string Message;
};

/// How the front end reads expressions of the loop for peeledIteration.
struct PeelReading {
  /// Whether `E`, after the loop, is the loop's bound (its condition's
  /// right side): the counter's value in the last iteration.
  std::function<bool(const clang::Expr *)> IsBound;
  /// Where `E`, in the body, is the parity of the counter plus a constant
  /// (`(t - 1) & 1`, `t % 2`, or a variable the body sets to one and never
  /// changes): its value in the last iteration where the loop's bound is
  /// even; nullopt otherwise.
  std::function<std::optional<int64_t>(const clang::Expr *)> ParityIfEven;
  /// The variable a statement of the body flips between buffers (`cur ^=
  /// 1;`), or null.
  std::function<const clang::VarDecl *(const clang::Stmt *)> FlipOf;
};

/// The statements after a loop that are its last iteration (peeledIteration).
struct PeeledStatements {
  size_t Count = 0; ///< how many of the statements after the loop
  /// Whether they hold only where the loop's bound is even: they read a
  /// buffer by its number (`s_a[1]`) where the body reads it by the
  /// counter's parity (`s_a[(t - 1) & 1]`).
  bool EvenBound = false;
  /// The body's flips (FlipOf) left out whose variables the statements
  /// after the loop read: right only where each is a buffer index the
  /// body toggles at its end, changed by nothing else, which the caller
  /// must check. After the loop it has been flipped once per iteration, as
  /// at the start of the last one.
  std::vector<const clang::Stmt *> Flips;
};

/// The statements at the front of `After` that repeat the body of `Loop` (a
/// compound statement) for its counter `Counter` equal to the loop's bound:
/// statement by statement, in order, a subsequence of the body's top-level
/// statements, equal in their AST but for each read of the counter, which
/// `After` replaces by an expression that `R.IsBound` accepts; the
/// variables each declares, which stand for the body's; and a parity of
/// the counter (`R.ParityIfEven`) where `After` has an integer literal of
/// its value (then `EvenBound`). The body's statements left out must be
/// barriers or statements that call no function with side effects beyond
/// their value (no asm, no call of a void function or through a non-const
/// pointer or reference), whose writes go to variables (the base of each
/// assigned array element, member or pointee) that are __shared__ or that
/// neither the repeated statements nor the code after them in `After`
/// name; a __shared__ one the code after them in `After` may not name
/// either; a flip of a buffer index may write one the repeated statements
/// read (then listed in Flips).
///
/// On failure, `Why` says where and why; its message names the expected
/// form (`(t - 1) & 1` read as `(tiles - 1) & 1`).
std::optional<PeeledStatements>
peeledIteration(const clang::ForStmt *Loop, const clang::VarDecl *Counter,
                llvm::ArrayRef<clang::Stmt *> After, const PeelReading &R,
                clang::ASTContext &Ctx, PeelFailure &Why);

} // namespace tawa

#endif // TAWA_LIB_PEELEDITERATION_H
