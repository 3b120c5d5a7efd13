//===- tawa/Emitter.h - warp-specialized CUDA from a planned tile loop ----===//
//
// Writes the source text that replaces an annotated kernel: its shared-memory
// storage (the aref rings and their barriers), the warp-specialized kernel
// (producer warpgroup issuing TMA, consumer warpgroups running wgmma, the
// epilogue) and a host launcher that builds the tensor maps and launches it.
// The text is written against the device runtime in include/tawa/runtime/
// and reads like a hand-written kernel; docs/output.md walks through it.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_EMITTER_H
#define TAWA_EMITTER_H

#include "tawa/TileShape.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace tawa {

/// Names used by the emitted code that must not collide with user names.
std::vector<std::string> emittedNames(const TileProgram &P, const ArefGraph &G);

/// The text that replaces the kernel definition of `P`: the kernel as written
/// (`<kernel>_reference`, the fallback), the storage struct, the kernel, and
/// the launcher `<kernel>_launch(dim3 grid, dim3 block, size_t shared,
/// cudaStream_t stream, <the kernel's parameters, with their defaults>)`
/// returning cudaError_t. With `Narrow`, also each narrow kernel
/// `<kernel>_narrow<N>` (N: its CTA tile's columns), its storage and
/// launcher, which the launcher calls where tawa::rt::choose_narrow chooses
/// it.
std::string emitKernel(const TileProgram &P, const ArefGraph &G,
                       const PipelinePlan &Plan, const clang::SourceManager &SM,
                       const clang::LangOptions &LO,
                       const NarrowTiles *Narrow = nullptr);

/// The text that replaces `Call` (a `<<<...>>>` launch of P's kernel whose
/// callee names the kernel): a call of the launcher with the launch's
/// configuration (its defaults written in) and the arguments written (those
/// left out take the launcher's defaults, which are the kernel's).
std::string emitLaunch(const TileProgram &P,
                       const clang::CUDAKernelCallExpr *Call,
                       const clang::SourceManager &SM,
                       const clang::LangOptions &LO);

} // namespace tawa

#endif
