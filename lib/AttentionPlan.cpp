//===- AttentionPlan.cpp - planning attention's pipeline ------------------===//
#include "tawa/AttentionPlan.h"
#include "tawa/Plan.h"

#include "llvm/ADT/Twine.h"

using namespace clang;

namespace tawa {
namespace {

/// Deepest K/V ring chosen by default: two stages keep the next iteration's
/// keys and values in flight while one is consumed (FlashAttention-3 uses 2
/// for head dimension 128); deeper rings help short head dimensions.
constexpr int kMaxStages = 4;
/// Registers a consumer thread needs beyond its fragments (addresses,
/// descriptors, loop state, row statistics), as measured on the head
/// dimension 128 kernel (168 registers, 152 of them fragments).
constexpr int kOverheadRegisters = 16;

bool unsupported(DiagReporter &Diags, SourceLocation Loc, const Twine &Msg) {
  Diags.error(Loc, DiagCategory::Unsupported, Msg);
  return false;
}

/// Clauses of GEMM tile loops only.
bool gemmClauses(const TilePragma &Pr, DiagReporter &Diags) {
  const std::pair<const char *, SourceLocation> Gemm[] = {
      {"cluster", Pr.Cluster ? Pr.Cluster.Loc : SourceLocation()},
      {"raster", Pr.Raster ? Pr.Raster.Loc : SourceLocation()},
      {"tail", Pr.SplitTail ? Pr.SplitTail.Loc : SourceLocation()},
      {"shape", Pr.Shape ? Pr.Shape.Loc : SourceLocation()},
      {"narrow", Pr.Narrow ? Pr.Narrow.Loc : SourceLocation()},
      {"precision", Pr.Precision ? Pr.Precision.Loc : SourceLocation()}};
  for (auto [Name, Loc] : Gemm)
    if (Loc.isValid())
      return unsupported(Diags, Loc,
                         Twine("clause '") + Name +
                             "' applies to GEMM tile loops; attention's takes "
                             "stages, consumers, regs, persistent, schedule "
                             "and overlap");
  return true;
}

/// The tiles wgmma and TMA can run: D and DV whole 128-byte boxes up to 256
/// (wgmma's N for DV), BN whole k16 steps up to 256, 64 queries per consumer.
bool tiles(const TileProgram &P, const AttentionProgram &A, AttentionPlan &Plan,
           DiagReporter &Diags) {
  const TileLoad &Q = P.Loads[A.QLoad], &K = P.Loads[A.KLoad],
                 &V = P.Loads[A.VLoad];
  if (A.D % 64 || A.D > 256)
    return unsupported(Diags, Q.Decl->getLocation(),
                       "the head dimension of '" + Q.Var + "' is " +
                           Twine(A.D) +
                           "; attention's tiles take 64, 128, 192 or 256 "
                           "(whole 128-byte TMA boxes)");
  if (A.DV % 64 || A.DV > 256)
    return unsupported(Diags, V.Decl->getLocation(),
                       "the head dimension of '" + V.Var + "' is " +
                           Twine(A.DV) +
                           "; attention's tiles take 64, 128, 192 or 256 "
                           "(whole 128-byte TMA boxes, wgmma's N <= 256)");
  if (A.BN % 16 || A.BN < 16 || A.BN > 256)
    return unsupported(Diags, K.Decl->getLocation(),
                       "'" + K.Var + "' has " + Twine(A.BN) +
                           " keys; expected a multiple of 16 from 16 to 256 "
                           "(the k16 steps of P V, wgmma's N of Q K^T)");
  if (A.BM % 64 || A.BM > 192)
    return unsupported(Diags, Q.Decl->getLocation(),
                       "'" + Q.Var + "' has " + Twine(A.BM) +
                           " queries; expected 64, 128 or 192 (a consumer "
                           "warpgroup per 64 rows, at most 3)");
  Plan.Elem = A.Elem;
  Plan.BM = A.BM;
  Plan.BN = A.BN;
  Plan.D = A.D;
  Plan.DV = A.DV;
  Plan.Consumers = A.BM / 64;
  const Clause<int> &C = P.Pragma.Consumers;
  if (C && *C != Plan.Consumers)
    return unsupported(Diags, C.Loc,
                       "consumers(" + Twine(*C) +
                           "): attention's consumer warpgroups own 64 query "
                           "rows each, so '" +
                           Q.Var + "' (" + Twine(A.BM) +
                           " rows) takes consumers(" + Twine(Plan.Consumers) +
                           ")");
  Plan.Explain.push_back(
      {"consumers", std::to_string(Plan.Consumers) + " -- one per 64 of the " +
                        std::to_string(A.BM) + " queries of '" + Q.Var + "'" +
                        (C ? " (clause)" : "")});
  return true;
}

/// setmaxnreg: the producer keeps 24, the consumers share the rest.
bool registers(const TileProgram &P, AttentionPlan &Plan, DiagReporter &Diags) {
  Plan.Threads = 128 * (1 + Plan.Consumers);
  Plan.ConsumerRegisters =
      Plan.DV / 2 + Plan.BN / 2 + Plan.BN / 4 + kOverheadRegisters;
  Plan.Regs =
      Plan.Consumers == 3 ? RegisterSplit{24, 160} : RegisterSplit{24, 240};
  std::string Why = "the most a consumer can take beside a 24-register "
                    "producer (" +
                    std::to_string(Plan.Consumers) + " x 128 x " +
                    std::to_string(Plan.Regs.Consumer) +
                    " + 128 x 24 <= 65536)";
  if (const Clause<RegisterSplit> &R = P.Pragma.Regs) {
    const long long Sum =
        128LL * R->Producer + 128LL * Plan.Consumers * R->Consumer;
    if (Sum > hopper::kRegisters)
      return unsupported(Diags, R.Loc,
                         "regs(" + Twine(R->Producer) + ", " +
                             Twine(R->Consumer) + ") needs " + Twine(Sum) +
                             " registers with " + Twine(Plan.Consumers) +
                             " consumer warpgroups; an SM has 65536");
    Plan.Regs = *R;
    Why = "clause";
  }
  if (Plan.ConsumerRegisters > Plan.Regs.Consumer)
    return unsupported(
        Diags, P.Pragma.Regs ? P.Pragma.Regs.Loc : P.Pragma.Loc,
        "a consumer thread needs about " + Twine(Plan.ConsumerRegisters) +
            " registers (" + Twine(Plan.DV / 2) + " of the output, " +
            Twine(Plan.BN / 2) + " of the scores, " + Twine(Plan.BN / 4) +
            " of the probabilities, " + Twine(kOverheadRegisters) +
            " more) but gets " + Twine(Plan.Regs.Consumer) +
            "; use fewer keys per iteration");
  Plan.Explain.push_back(
      {"registers", std::to_string(Plan.Regs.Producer) + "/" +
                        std::to_string(Plan.Regs.Consumer) + " -- " + Why +
                        "; a consumer needs "
                        "about " +
                        std::to_string(Plan.ConsumerRegisters)});
  return true;
}

/// The K/V ring and the epilogue's staging within 227 KB.
bool sharedMemory(const TileProgram &P, const AttentionProgram &A,
                  AttentionPlan &Plan, DiagReporter &Diags) {
  const unsigned E = elementBytes(Plan.Elem);
  Plan.QBytes = Plan.BM * Plan.D * E;
  Plan.KBytes = Plan.BN * Plan.D * E;
  Plan.VBytes = Plan.BN * Plan.DV * E;
  const unsigned Stage = Plan.KBytes + Plan.VBytes;
  unsigned OutBytes = 2;
  for (unsigned S : A.Stores)
    if (P.Ops[S].Value.S == ElemExpr::Shape::Matrix)
      OutBytes = elementBytes(P.Ops[S].Store.Elem);
  const int Chunks = Plan.DV * OutBytes / 128;
  const unsigned Budget = hopper::kSharedMemoryBytes -
                          hopper::kSharedAlignSlack - 1024 /* barriers */;
  auto StagesWith = [&](unsigned Staging) {
    return Budget < Plan.QBytes + Staging
               ? 0
               : static_cast<int>((Budget - Plan.QBytes - Staging) / Stage);
  };
  const Clause<int> &S = P.Pragma.Stages;
  const int Want = S ? *S : 2;
  for (int Buffers : {Chunks, 2, 1}) {
    if (Buffers > Chunks || Buffers < 1)
      continue;
    const unsigned Staging = Plan.Consumers * Buffers * 64 * 128;
    if (StagesWith(Staging) >= Want) {
      Plan.StagingBuffers = Buffers;
      Plan.StagingBytes = Staging;
      break;
    }
  }
  if (!Plan.StagingBuffers) {
    // The staging in the query slot, free once the tile's scores are done.
    Plan.StagingInQ = true;
    Plan.StagingBuffers = std::min(
        Chunks, static_cast<int>(Plan.QBytes / (Plan.Consumers * 64 * 128)));
  }
  const int Fit = StagesWith(Plan.StagingBytes);
  // A second query slot where it fits beside two stages (and the staging
  // is not in the query slot): the next tile's queries load under this
  // tile's loop instead of after it.
  const bool TwoQ = !Plan.StagingInQ &&
                    StagesWith(Plan.StagingBytes + Plan.QBytes) >= (S ? *S : 2);
  Plan.QStages = TwoQ ? 2 : 1;
  const int FitWithQ = StagesWith(Plan.StagingBytes + (TwoQ ? Plan.QBytes : 0));
  Plan.Stages = S ? *S : std::min(FitWithQ, kMaxStages);
  Plan.SharedBytes = Plan.QStages * Plan.QBytes + Plan.Stages * Stage +
                     Plan.StagingBytes + 1024 + hopper::kSharedAlignSlack;
  if (Plan.Stages < 2 || Plan.Stages > Fit || !Plan.StagingBuffers)
    return unsupported(
        Diags, S ? S.Loc : P.Loads[A.KLoad].Decl->getLocation(),
        "attention's rings need " + Twine(Plan.QBytes) +
            " bytes of queries + " + Twine(Plan.Stages < 2 ? 2 : Plan.Stages) +
            " stages x " + Twine(Stage) + " bytes of keys and values; " +
            Twine(hopper::kSharedMemoryBytes) +
            " bytes of shared memory hold " + Twine(Fit) +
            " stages; use fewer keys per iteration");
  Plan.Explain.push_back(
      {"stages", std::to_string(Plan.Stages) + " -- " +
                     (S ? std::string("clause")
                        : "the most that fit " +
                              std::to_string(hopper::kSharedMemoryBytes) +
                              " bytes beside the queries and the staging, "
                              "capped at " +
                              std::to_string(kMaxStages))});
  Plan.Explain.push_back(
      {"query slots",
       std::to_string(Plan.QStages) + " -- " +
           (TwoQ ? "the next tile's queries load while this tile's loop runs"
                 : "a second slot does not fit beside the rings" +
                       std::string(Plan.StagingInQ ? " (the staging is in "
                                                     "the query slot)"
                                                   : ""))});
  Plan.Explain.push_back(
      {"staging", Plan.StagingInQ
                      ? "in the query slot -- separate buffers leave no room "
                        "for 2 stages; the consumers release the queries "
                        "after their stores have read them"
                      : std::to_string(Plan.StagingBuffers) +
                            " buffers of 64 x 128 bytes per consumer"});
  Plan.Explain.push_back(
      {"shared-memory", std::to_string(Plan.SharedBytes) + " bytes"});
  return true;
}

/// Ping-pong, overlap and the walk.
void schedule(const TileProgram &P, const AttentionProgram &A,
              AttentionPlan &Plan) {
  const TilePragma &Pr = P.Pragma;
  Plan.PingPong = Plan.Consumers > 1;
  std::string Why = "the consumers issue their wgmma in turn, so one's "
                    "softmax runs under the other's matrix products";
  if (Pr.Schedule) {
    Plan.PingPong =
        *Pr.Schedule == ConsumerSchedule::PingPong && Plan.Consumers > 1;
    Why = "clause";
  } else if (Plan.Consumers == 1) {
    Why = "one consumer warpgroup";
  }
  Plan.Explain.push_back(
      {"schedule",
       std::string(Plan.PingPong ? "pingpong" : "cooperative") + " -- " + Why});
  Plan.Overlap = Pr.Overlap ? *Pr.Overlap : true;
  Plan.Explain.push_back(
      {"overlap",
       std::string(Plan.Overlap ? "on" : "off") + " -- " +
           (Pr.Overlap ? "clause"
                       : "the softmax of one iteration runs while the P V "
                         "wgmma of the previous one does")});
  // Where a mask skips tiles of keys (causal), the tiles' work differs:
  // one CTA per tile, longest first, which the block scheduler balances as
  // CTAs finish. Otherwise a persistent walk of equal tiles. Measured on the
  // H100 (results/h100/attention/): causal 16k keys, hd 128, 572 TFLOP/s
  // persistent against 643 one CTA per tile (hd 256: 595 against 723);
  // without a mask, the persistent walk was as fast or faster (hd 128, 2k
  // keys: 391 against 359; 16k: 648 against 643).
  // Tiles of queries differ in work where a skipping mask involves the row
  // (a causal mask); a mask of columns only (the keys past the sequence)
  // skips the same keys for every tile.
  Plan.LongestFirst = llvm::any_of(A.SkipMasks, [&](unsigned I) {
    return P.Ops[I].Predicate.Form.RowCoef != 0;
  });
  Plan.Persistent = !Plan.LongestFirst && !P.PrologueReturn;
  if (Pr.Persistent)
    Plan.Persistent = *Pr.Persistent && !P.PrologueReturn;
  const std::string Order =
      Plan.LongestFirst
          ? "longest tiles first (skipped tiles of keys make the tiles' "
            "work differ)"
          : "the tiles of one (y, z) together (they read the same keys and "
            "values)";
  std::string Walk = "clause";
  if (P.PrologueReturn)
    Walk = "the code before the loop returns";
  else if (!Pr.Persistent)
    Walk = Plan.Persistent
               ? "equal tiles: one CTA per SM walks them"
               : "the block scheduler balances tiles of different lengths as "
                 "CTAs finish";
  Plan.Explain.push_back(
      {"persistent", (Plan.Persistent ? "on, " : "off, one CTA per tile, ") +
                         Order + " -- " + Walk});
}

} // namespace

std::optional<AttentionPlan> planAttention(const TileProgram &P,
                                           const AttentionProgram &A,
                                           DiagReporter &Diags) {
  AttentionPlan Plan;
  if (!gemmClauses(P.Pragma, Diags) || !tiles(P, A, Plan, Diags) ||
      !registers(P, Plan, Diags) || !sharedMemory(P, A, Plan, Diags))
    return std::nullopt;
  schedule(P, A, Plan);
  return Plan;
}

} // namespace tawa
