//===- tawa/AttentionPlan.h - the pipeline plan of attention --------------===//
//
// What the emitter needs for attention's tile loop (tawa/Attention.h), in
// the structure of FlashAttention-3 (arXiv 2407.08608): a producer
// warpgroup loading Q once per tile and K, V per iteration with TMA; one
// consumer warpgroup per 64 query rows; inter-warpgroup ping-pong (named
// barriers order one warpgroup's wgmma before the next one's, so one's
// softmax runs under the other's matrix products); intra-warpgroup overlap
// (the softmax of iteration j runs while the P V wgmma of iteration j - 1
// does); the setmaxnreg split; the persistent walk, longest tiles first
// where a mask skips tiles of keys. Pragma clauses override the defaults;
// a configuration Hopper cannot run is reported at the op or clause that
// causes it, with the numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_ATTENTIONPLAN_H
#define TAWA_ATTENTIONPLAN_H

#include "tawa/ArefGraph.h"
#include "tawa/Attention.h"

namespace tawa {

struct AttentionPlan {
  ElementType Elem = ElementType::BF16;
  int BM = 0, BN = 0, D = 0, DV = 0; ///< tiles, elements (Attention.h)
  int Consumers = 0;                 ///< consumer warpgroups, 64 rows each
  int Stages = 0;                    ///< depth of the k and v rings
  /// Slots of the query tile: 2 where they fit, so that the next tile's
  /// queries load while this tile's loop runs.
  int QStages = 1;
  RegisterSplit Regs{0, 0};
  int Threads = 0; ///< 128 * (1 + Consumers)
  /// Inter-warpgroup ping-pong of the consumers' wgmma (schedule(pingpong)).
  bool PingPong = false;
  /// Intra-warpgroup overlap of the softmax with the previous P V.
  bool Overlap = true;
  bool Persistent = true;    ///< one CTA per SM walks the tiles
  bool LongestFirst = false; ///< the walk starts with the longest tiles
  /// Estimated registers per consumer thread (accumulators, scores,
  /// probabilities, overhead).
  int ConsumerRegisters = 0;
  unsigned QBytes = 0, KBytes = 0, VBytes = 0; ///< bytes of one slot each
  /// The epilogue's staging of the stored accumulator: buffers of 64 rows x
  /// 128 bytes per consumer (StagingBuffers of them), or, where those do not
  /// fit beside the rings, inside the query tile's slot (StagingInQ), which
  /// the consumers then release after their stores have read it.
  int StagingBuffers = 0;
  bool StagingInQ = false;
  unsigned StagingBytes = 0;
  unsigned SharedBytes = 0; ///< dynamic shared memory requested
  /// (choice, reason) pairs for --explain, in the order decided.
  std::vector<std::pair<std::string, std::string>> Explain;
};

/// Plans `A`'s pipeline; returns nullopt after reporting when a limit is
/// exceeded or a clause does not apply to attention.
std::optional<AttentionPlan> planAttention(const TileProgram &P,
                                           const AttentionProgram &A,
                                           DiagReporter &Diags);

} // namespace tawa

#endif
