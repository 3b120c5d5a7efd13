//===- DynamicTiles.h - tiles carved out of dynamic shared memory -*- C++
//-*-===//
//
// Hand-written kernels often size their tiles at launch time: one
// `extern __shared__ T smem[];` array, split by pointers at constant offsets
// (`T *As = smem, *Bs = smem + TILE * TILE;`). The lifting front ends read
// such a pointer as a one-dimensional tile of the extent up to the next
// tile, once this component has proved that nothing else names the array
// and that no tile pointer changes.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_LIB_DYNAMICTILES_H
#define TAWA_LIB_DYNAMICTILES_H

#include "tawa/Lift.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tawa {

/// One tile in dynamic shared memory: `T *Var`, or a pointer to rows or
/// buffers of T (`T (*Var)[C]`, `T (*Var)[R][C]`), Offset bytes into Base.
struct DynamicTile {
  const clang::VarDecl *Var = nullptr;
  int64_t Offset = 0; ///< bytes from the start of the array
  /// Elements of T up to the next tile's offset; 0 for the last tile, whose
  /// extent is the launch's (the front ends bound its indices themselves).
  int64_t Extent = 0;
};

/// The dynamic shared-memory tiles of a kernel, in the order of their
/// offsets, or the reason they cannot be read as tiles.
struct DynamicTiles {
  /// The `extern __shared__ T Base[];` array (a local or a file-scope
  /// declaration); null where no tile pointer points into one.
  const clang::VarDecl *Base = nullptr;
  std::vector<DynamicTile> Tiles;
  std::optional<LiftFailure> Failure;

  /// The tile `VD` is, or null.
  const DynamicTile *find(const clang::VarDecl *VD) const;
};

/// The pointers declared in `Before` (the kernel body's statements before
/// the K loop) that point into an `extern __shared__` array of unknown
/// extent. Each must be initialized with `Base` or a tile declared before
/// it, moved by a constant (`p + c`, `c + p`, `p - c`, `&p[c]`) and
/// cast to any pointer type (`reinterpret_cast<half *>(smem + 512)`, or to
/// rows or buffers, `reinterpret_cast<half (*)[32][16]>(smem)`), at a
/// multiple of its element's size; no two may start at the same byte; none
/// may change in `Kernel` (assigned, advanced or its address taken); and
/// Base may be named nowhere else in the kernel or the `__device__` helpers
/// it calls. Any of these broken is a Failure at the construct that breaks
/// it.
DynamicTiles dynamicTiles(const clang::FunctionDecl *Kernel,
                          llvm::ArrayRef<clang::Stmt *> Before,
                          clang::ASTContext &Ctx);

/// One additive term of an index expression, negated or not.
struct IndexTerm {
  const clang::Expr *E = nullptr;
  bool Negated = false;
};

/// The additive terms of `E`: `a + b - (c - d)` is a, b, -c, d
/// (parentheses and implicit casts removed).
std::vector<IndexTerm> indexTerms(const clang::Expr *E);

/// Where `E` is `x * C` or `C * x`, C the integer constant `Stride`: x.
const clang::Expr *stridedBy(const clang::Expr *E, int64_t Stride,
                             clang::ASTContext &Ctx);

/// The elements of one buffer of `Tile`, where `Loop` indexes it as a ring
/// of buffers in dynamic shared memory, `Tile[(t % S) * C + i]`: every
/// subscript of it in the loop body whose index has a term `x * C` (C an
/// integer constant, x depending on the iteration: naming `Counter`, a
/// variable the body changes other than an inner loop's own, or a local of
/// the body set from either; the largest such C of the index) has the same
/// C, and one does. Nullopt otherwise. The front ends prove the buffer
/// each subscript selects themselves; this only reads the layout.
std::optional<int64_t> ringStride(const clang::VarDecl *Tile,
                                  const clang::ForStmt *Loop,
                                  const clang::VarDecl *Counter,
                                  clang::ASTContext &Ctx);

/// The element type of a tile: that of a __shared__ array, or of the
/// pointee of a dynamic tile's pointer (its elements where it points to
/// arrays), unqualified.
clang::QualType tileElementType(const clang::VarDecl *Tile,
                                clang::ASTContext &Ctx);

} // namespace tawa

#endif
