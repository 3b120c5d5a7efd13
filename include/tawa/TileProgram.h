//===- tawa/TileProgram.h - the tile program of an annotated loop ---------===//
//
// Extracted from the AST of a `__global__` function whose main loop carries
// `#pragma tawa tile`: the ops of the loop body (tile loads, mma), the
// accumulator they carry across iterations, the code before the loop (the
// prologue, run by every role) and the store after it (the epilogue).
//
// Accepted form (docs/tile-language.md):
//   __global__ void k(tawa::Matrix<T> A, ..., tawa::Matrix<U> C) {
//     <prologue: declarations from blockIdx and the parameters>
//     tawa::Accumulator<float, M, N> acc;
//     #pragma tawa tile ...
//     for (<init>; <cond>; <inc>) {
//       auto a = tawa::load<M, K>(A, <row0>, <col0>);
//       auto b = tawa::load<N, K>(B, <row0>, <col0>);
//       tawa::mma(acc, a, tawa::transpose(b));
//     }
//     tawa::store(C, <row0>, <col0>, acc);
//   }
// Anything else is reported as [tawa-unsupported] at the construct, and the
// kernel is left unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TILEPROGRAM_H
#define TAWA_TILEPROGRAM_H

#include "tawa/Diagnostics.h"
#include "tawa/Pragma.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <string>
#include <vector>

namespace tawa {

/// Element types of tiles (16-bit inputs of wgmma) and of stored matrices.
enum class ElementType { BF16, F16, F32 };
llvm::StringRef elementName(ElementType T); ///< "bf16", "f16", "f32"
unsigned elementBytes(ElementType T);

/// `auto Var = tawa::load<Rows, Cols>(Matrix, Row0, Col0);`
struct TileLoad {
  std::string Var; ///< the tile variable
  const clang::VarDecl *Decl = nullptr;
  const clang::ParmVarDecl *Matrix =
      nullptr; ///< the kernel parameter loaded from
  ElementType Elem = ElementType::BF16;
  int Rows = 0, Cols = 0; ///< window extent, elements
  const clang::Expr *Row0 = nullptr,
                    *Col0 = nullptr;  ///< window origin, elements
  const clang::Expr *Batch = nullptr; ///< b of `Matrix.batch(b)`, else null
};

/// `tawa::mma(Acc, A, B)` or `tawa::mma(Acc, A, tawa::transpose(B))`.
struct TileMma {
  const clang::CallExpr *Call = nullptr;
  unsigned A = 0, B = 0; ///< indices into TileProgram::Loads
  bool TransposeB = false;
};

/// `tawa::Accumulator<float, Rows, Cols> Var;` declared before the loop.
struct TileAccumulator {
  std::string Var;
  const clang::VarDecl *Decl = nullptr;
  const clang::DeclStmt *Stmt = nullptr;
  int Rows = 0, Cols = 0;
};

/// `tawa::store(Matrix, Row0, Col0, Acc);` after the loop.
struct TileStore {
  const clang::CallExpr *Call = nullptr;
  const clang::ParmVarDecl *Matrix = nullptr;
  ElementType Elem = ElementType::BF16;
  const clang::Expr *Row0 = nullptr, *Col0 = nullptr;
  const clang::Expr *Batch = nullptr;     ///< b of `Matrix.batch(b)`, else null
  const clang::Expr *MatrixArg = nullptr; ///< the matrix argument as written
};

/// A `Kernel<<<Grid, Block, Shared, Stream>>>(Args...)` in the main file.
struct LaunchSite {
  const clang::CUDAKernelCallExpr *Call = nullptr;
};

/// How the CTA tile of the rewritten kernel covers the kernel's own tiles
/// (the `shape` clause, TileShape.h): X x Y of them, adjacent along grid x
/// (output columns) and y (rows). Tile (x, y) of the walk does the work of
/// blocks (X x, Y y) .. (X x + X - 1, Y y + Y - 1) of the original launch.
struct TileMerge {
  int X = 1, Y = 1;
  /// The kernel's own tile, elements (0 where neither merged nor narrow).
  int KernelBM = 0, KernelBN = 0;
  /// The constant parts of the stored window's origin: block (x, y) stores
  /// at row y * KernelBM + RowOffset, column x * KernelBN + ColOffset.
  long long RowOffset = 0, ColOffset = 0;
  /// Why this tile (for --explain); empty where the kernel's tile is kept
  /// without a shape clause.
  std::string Reason;
  /// Narrow tiles (TileShape.h, narrowTiles), CTA tiles of w columns, fewer
  /// than the X x Y blocks' tile has. Where w divides that tile's width,
  /// `Parts` (its width / w) of them compute it side by side along x, part p
  /// holding its columns [p w, p w + w). Where it does not (`Across`), they
  /// run side by side across all the columns of the launch: the walk's tile
  /// x is 0 and its part the column tile c, at c w columns from block 0's
  /// window, which needs the windows to move with blockIdx.x by the
  /// kernel's tile width (`ColOffset` then holds the store's offset).
  int Parts = 1;
  bool Across = false;
  bool merged() const { return X > 1 || Y > 1; }
  bool narrow() const { return Parts > 1 || Across; }
};

struct TileProgram {
  const clang::FunctionDecl *Kernel = nullptr;
  const clang::ForStmt *Loop = nullptr;
  TilePragma Pragma;
  TileAccumulator Acc;
  std::vector<TileLoad> Loads;
  std::vector<TileMma> Mmas;
  TileStore Store;
  std::vector<LaunchSite> Launches;
  /// A `return` in the prologue (skips a tile: no persistent walk then).
  const clang::Stmt *PrologueReturn = nullptr;
  /// The CTA tile against the kernel's (1 x 1 unless a shape clause merges).
  TileMerge Merge;
};

/// `E` without implicit casts and the opaque values of pseudo-objects (the
/// base of `blockIdx.x`, a property in clang's CUDA headers).
const clang::Expr *ignoreOpaque(const clang::Expr *E);

/// Whether `S` reads the built-in `Builtin` ("blockIdx", "threadIdx",
/// "gridDim"), its member `Member` (any member when empty), directly or
/// through the initializers of the local variables it reads.
bool readsBuiltin(const clang::Stmt *S, llvm::StringRef Builtin,
                  llvm::StringRef Member = "");
/// The first such read (a member expression, possibly in an initializer),
/// or null.
const clang::Expr *findBuiltinRead(const clang::Stmt *S,
                                   llvm::StringRef Builtin,
                                   llvm::StringRef Member = "");

/// Builds the TileProgram of `Loop` (the statement following `Pragma`) in
/// `Kernel`. Reports every construct outside the accepted form and returns
/// nullopt if there was any.
std::optional<TileProgram> extractTileProgram(clang::ASTContext &Ctx,
                                              const clang::FunctionDecl *Kernel,
                                              const clang::ForStmt *Loop,
                                              const TilePragma &Pragma,
                                              DiagReporter &Diags);

} // namespace tawa

#endif
