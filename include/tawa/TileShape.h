//===- tawa/TileShape.h - the CTA tile of the rewritten kernel ------------===//
//
// The `shape` clause lets the rewritten kernel compute a larger CTA tile than
// the kernel as written: `shape(BM, BN)` a given one, `shape(auto)` the first
// of autoTileShapes() that the planner accepts. The larger tile is X x Y of
// the kernel's tiles, adjacent in the output, so it computes the same
// products in fewer, larger wgmma tiles: along each grid dimension it merges,
// the window an operand or the store moves along must sit at
// `blockIdx.<d> * extent + offset` (offset constant for the store), and
// nothing else of the tile loop may read blockIdx.<d> or gridDim; the code
// before the loop, run once per merged tile, may only declare values.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_TILESHAPE_H
#define TAWA_TILESHAPE_H

#include "tawa/TileProgram.h"

#include "llvm/ADT/ArrayRef.h"

#include <utility>

namespace tawa {

/// The CTA tiles shape(auto) tries, largest first, as (rows, columns) of the
/// output in elements; 128 x 256 with two consumer warpgroups is the
/// fastest measured on the H100 (results/README.md).
llvm::ArrayRef<std::pair<int, int>> autoTileShapes();

/// Applies the shape clause of `P`. Without one returns `P`; with one,
/// returns `P` with its operand tiles, accumulator and Merge set to the CTA
/// tile chosen. Reports at the clause, with a note at the construct, and
/// returns nullopt where `shape(BM, BN)` is not a multiple of the kernel's
/// tile or the tiles cannot merge; `shape(auto)` then keeps the kernel's
/// tile and says why in Merge.Reason.
std::optional<TileProgram> applyTileShape(const TileProgram &P,
                                          DiagReporter &Diags);

} // namespace tawa

#endif
