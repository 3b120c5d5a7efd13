//===- tawa/AttentionReport.h - --dump-arefs and --explain of attention ---===//
//
// The attention pipeline as `--dump-arefs=text|json|dot` and `--explain`
// show it: the producer's loads and the arefs they fill (q one-shot, k and v
// apart, with the reason), the consumers' ops in order with the part of
// the schedule each runs in (softmax, rescale after the previous P V,
// carry), the values by where they live (iteration-local or loop-carried,
// in consumer registers), the skipped tiles of keys and the epilogue's
// stores; with a plan, the stages, roles, registers and shared memory.
// The formats are documented in docs/cli.md.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_ATTENTIONREPORT_H
#define TAWA_ATTENTIONREPORT_H

#include "tawa/AttentionPlan.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

namespace tawa {

void printAttentionText(const TileProgram &P, const AttentionProgram &A,
                        const ArefGraph &G, const AttentionPlan *Plan,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LO, llvm::raw_ostream &OS);
void printAttentionJson(const TileProgram &P, const AttentionProgram &A,
                        const ArefGraph &G, const AttentionPlan *Plan,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LO, llvm::raw_ostream &OS);
void printAttentionDot(const TileProgram &P, const AttentionProgram &A,
                       const ArefGraph &G, const AttentionPlan *Plan,
                       const clang::SourceManager &SM,
                       const clang::LangOptions &LO, llvm::raw_ostream &OS);

/// --explain of an attention tile loop (the format of tawa/Explain.h):
/// `Failure` is the message that stopped the conversion, "" if rewritten.
void printAttentionExplanation(const TileProgram &P, const AttentionProgram *A,
                               const ArefGraph *G, const AttentionPlan *Plan,
                               llvm::StringRef Failure,
                               const clang::SourceManager &SM,
                               llvm::raw_ostream &OS);

} // namespace tawa

#endif
