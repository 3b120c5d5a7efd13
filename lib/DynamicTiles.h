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

/// One tile in dynamic shared memory: `T *Var`, Offset bytes into Base.
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
/// cast to any pointer type (`reinterpret_cast<half *>(smem + 512)`), at a
/// multiple of its element's size; no two may start at the same byte; none
/// may change in `Kernel` (assigned, advanced or its address taken); and
/// Base may be named nowhere else in the kernel or the `__device__` helpers
/// it calls. Any of these broken is a Failure at the construct that breaks
/// it.
DynamicTiles dynamicTiles(const clang::FunctionDecl *Kernel,
                          llvm::ArrayRef<clang::Stmt *> Before,
                          clang::ASTContext &Ctx);

/// The element type of a tile: that of a __shared__ array, or the pointee
/// of a dynamic tile's pointer, unqualified.
clang::QualType tileElementType(const clang::VarDecl *Tile,
                                clang::ASTContext &Ctx);

} // namespace tawa

#endif
