//===- tawa/Attention.h - the attention view of a tile program ------------===//
//
// A tile loop with two mma is attention's forward loop (FlashAttention-2,
// arXiv 2307.08691, algorithm 1, as FlashAttention-3 pipelines it, arXiv
// 2407.08608):
//
//   auto q = tawa::load<BM, D>(Q..., m0, 0);           // once per tile
//   tawa::Accumulator<float, BM, DV> o;                 // loop-carried
//   tawa::RowVector<float, BM> m_i(-INFINITY), l_i;     // loop-carried
//   #pragma tawa tile
//   for (...) {
//     auto k = tawa::load<BN, D>(K..., n0, 0);
//     auto v = tawa::load<BN, DV>(V..., n0, 0);
//     tawa::Accumulator<float, BM, BN> s;
//     tawa::mma(s, q, tawa::transpose(k));              // the score mma
//     <masks of s; element-wise and row ops; o *= row vector>   // softmax
//     tawa::mma(o, tawa::convert<T>(p), v);             // the output mma
//     <assignments of row vectors>                       // carry
//   }
//   tawa::store(...o and row vectors...);               // epilogue
//
// The analysis checks that form and what the pipelined schedule needs: the
// output mma of iteration j may run while the softmax of iteration j + 1
// does (nothing between the two mma reads o but its rescale, which moves
// after the softmax), and, where the loop is online softmax, that a tile of
// keys that a mask hides entirely leaves every loop-carried value as it was,
// so the rewritten kernel may skip it.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_ATTENTION_H
#define TAWA_ATTENTION_H

#include "tawa/TileProgram.h"

namespace tawa {

/// What each op and value of an attention tile program is.
struct AttentionProgram {
  /// Indices into P.Loads of the query, key and value tiles.
  unsigned QLoad = 0, KLoad = 0, VLoad = 0;
  /// Values: the tiles, the scores S, the output accumulator O and the
  /// probabilities P (the accumulator the output mma converts).
  unsigned Q = 0, K = 0, V = 0, S = 0, O = 0, Probs = 0;
  /// Indices into P.Ops of the two mma.
  unsigned ScoreMma = 0, OutputMma = 0;
  /// Ops between the two mma but the rescales of O, in program order.
  std::vector<unsigned> Softmax;
  /// The `o *= x` ops between the two mma; they run after the previous
  /// iteration's output mma has completed.
  std::vector<unsigned> Rescale;
  /// Ops after the output mma in the loop.
  std::vector<unsigned> Carry;
  /// The stores after the loop.
  std::vector<unsigned> Stores;
  /// Loop-local values besides S (declared in the loop), in order.
  std::vector<unsigned> Locals;
  ElementType Elem = ElementType::BF16; ///< of Q, K, V and the P operand
  int BM = 0;                           ///< queries per tile (rows of Q, S, O)
  int BN = 0; ///< keys per iteration (rows of K and V, columns of S)
  int D = 0;  ///< head dimension of Q and K
  int DV = 0; ///< head dimension of V and O
  /// The masks (indices into P.Ops) a tile of keys is skipped by where they
  /// hold nowhere in it, and the scalars that must be positive at run time
  /// for the skip to leave the loop-carried values unchanged. Empty when
  /// the loop is not online softmax (SkipReason says why).
  std::vector<unsigned> SkipMasks;
  std::vector<const clang::Expr *> PositiveScalars;
  std::string SkipReason;
};

/// Checks that `P` (KernelFamily::Attention) has the form above and builds
/// its view; reports the first construct that breaks it, located, with the
/// form it expected.
std::optional<AttentionProgram> analyzeAttention(const TileProgram &P,
                                                 DiagReporter &Diags);

} // namespace tawa

#endif
