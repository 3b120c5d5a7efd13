//===- tawa/AttentionEmitter.h - warp-specialized attention ---------------===//
//
// Writes the replacement of an attention kernel (tawa/Attention.h) planned
// by planAttention: the kernel as written (`<kernel>_reference`, the
// fallback), the shared storage (the q, k and v rings, their barriers, the
// epilogue staging), the warp-specialized kernel and its launcher. The
// consumers' code lowers the tile program op by op into the runtime's
// fragment helpers (tawa/runtime/rows.cuh, wgmma.cuh), inside the
// pipelined schedule: the first iteration, the steady state that issues the
// next scores and the previous P V together and overlaps the softmax with
// the latter, and the last P V. docs/output.md walks through it.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_ATTENTIONEMITTER_H
#define TAWA_ATTENTIONEMITTER_H

#include "tawa/AttentionPlan.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"

#include <string>
#include <vector>

namespace tawa {

/// Names the emitted attention kernel and launcher declare, which the
/// kernel's own variables must not use.
std::vector<std::string> attentionEmittedNames(const TileProgram &P,
                                               const AttentionProgram &A);

/// The text that replaces the kernel definition of `P`, with the launcher
/// `<kernel>_launch(dim3 grid, dim3 block, size_t shared, cudaStream_t
/// stream, <the kernel's parameters>)` returning cudaError_t (the same
/// contract as the GEMM launcher, tawa/Emitter.h; launch sites are
/// rewritten by emitLaunch).
std::string emitAttention(const TileProgram &P, const AttentionProgram &A,
                          const ArefGraph &G, const AttentionPlan &Plan,
                          const clang::SourceManager &SM,
                          const clang::LangOptions &LO);

} // namespace tawa

#endif
