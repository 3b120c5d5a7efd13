//===- Plan.cpp - choosing and checking the pipeline plan -----------------===//
#include "tawa/Plan.h"

using namespace clang;

namespace tawa {
namespace {

/// Registers a consumer thread needs beyond its accumulators (addresses,
/// descriptors, loop state); below this ptxas spills or serializes wgmma.
constexpr int kConsumerOverheadRegisters = 64;
/// Deepest ring chosen by default; deeper rings stop paying once the loads of
/// a few stages cover the memory latency.
constexpr int kDefaultMaxStages = 6;

unsigned sharedBytes(int Stages, unsigned StageBytes, unsigned Staging) {
  // Stages, the epilogue staging, then the barriers padded to the 1024-byte
  // alignment of the storage struct, then the slack for aligning the dynamic
  // base.
  return Stages * StageBytes + Staging + 1024 + hopper::kSharedAlignSlack;
}

SourceLocation at(const Clause<int> &C, SourceLocation Fallback) {
  return C.Loc.isValid() ? C.Loc : Fallback;
}

} // namespace

std::optional<PipelinePlan>
planPipeline(const TileProgram &P, const ArefGraph &G, DiagReporter &Diags) {
  const TileMma &M = P.Mmas.front();
  const TileLoad &A = P.Loads[M.A];
  const TileLoad &B = P.Loads[M.B];
  SourceLocation MmaLoc = M.Call->getBeginLoc();
  auto shape = [&](SourceLocation L, const Twine &Msg) {
    Diags.error(L, DiagCategory::Shape, Msg);
    return std::nullopt;
  };

  if (!M.TransposeB) {
    Diags.error(MmaLoc, DiagCategory::Unsupported,
                "'tawa::mma(acc, a, b)' with an N-major B is not rewritten "
                "yet; store B as N x K "
                "and write 'tawa::mma(acc, a, tawa::transpose(b))'");
    return std::nullopt;
  }
  if (A.Elem != B.Elem || A.Elem == ElementType::F32)
    return shape(MmaLoc, "wgmma operands must both be bf16 or both f16; got " +
                             elementName(A.Elem) + " and " +
                             elementName(B.Elem));

  PipelinePlan Plan;
  Plan.Elem = A.Elem;
  Plan.BM = A.Rows;
  Plan.BK = A.Cols;
  Plan.BN = B.Rows;
  const unsigned Bytes = elementBytes(A.Elem);
  if (B.Cols != A.Cols)
    return shape(B.Decl->getLocation(),
                 "tiles '" + A.Var + "' (" + Twine(A.Rows) + " x " +
                     Twine(A.Cols) + ") and '" + B.Var + "' (" + Twine(B.Rows) +
                     " x " + Twine(B.Cols) +
                     ") disagree on K: a * b^T needs equal column counts");
  if (Plan.BK * Bytes != 128)
    return shape(A.Decl->getLocation(),
                 "tile '" + A.Var + "' has K extent " + Twine(Plan.BK) +
                     "; expected " + Twine(128 / Bytes) + " " +
                     elementName(A.Elem) +
                     " elements (128 bytes: one row of the 128-byte swizzle "
                     "that TMA writes and "
                     "wgmma reads)");
  if (Plan.BM % 64 != 0 || Plan.BM > 256)
    return shape(A.Decl->getLocation(),
                 "tile '" + A.Var + "' has " + Twine(Plan.BM) +
                     " rows; expected a multiple of 64 (the M of wgmma per "
                     "warpgroup) up to "
                     "256 (the TMA box limit)");
  if (Plan.BN % 8 != 0 || Plan.BN < 8 || Plan.BN > 256)
    return shape(
        B.Decl->getLocation(),
        "tile '" + B.Var + "' has " + Twine(Plan.BN) +
            " rows, the N of wgmma; expected a multiple of 8 from 8 to 256");

  // Consumers: one warpgroup per 64 rows, up to three.
  const int Tiles64 = Plan.BM / 64;
  SourceLocation ConsLoc = at(P.Pragma.Consumers, P.Pragma.Loc);
  Plan.Consumers =
      P.Pragma.Consumers ? *P.Pragma.Consumers : (Tiles64 <= 3 ? Tiles64 : 2);
  if (Tiles64 % Plan.Consumers != 0) {
    Diags.error(ConsLoc, DiagCategory::Shape,
                Twine(Plan.Consumers) +
                    " consumer warpgroups cannot split the " + Twine(Plan.BM) +
                    " rows of '" + P.Acc.Var + "' into 64-row wgmma tiles");
    return std::nullopt;
  }
  Plan.MTiles = Tiles64 / Plan.Consumers;
  Plan.Threads = 128 * (1 + Plan.Consumers);
  Plan.AccRegisters = Plan.MTiles * Plan.BN / 2;

  // Registers: the split must fit the SM's register file.
  Plan.Regs = P.Pragma.Regs ? *P.Pragma.Regs
                            : (Plan.Consumers == 3 ? RegisterSplit{24, 160}
                                                   : RegisterSplit{40, 232});
  SourceLocation RegsLoc =
      P.Pragma.Regs.Loc.isValid() ? P.Pragma.Regs.Loc : P.Pragma.Loc;
  unsigned Total =
      128 * Plan.Regs.Producer + 128 * Plan.Consumers * Plan.Regs.Consumer;
  if (Total > hopper::kRegisters) {
    Diags.error(RegsLoc, DiagCategory::Budget,
                "regs(" + Twine(Plan.Regs.Producer) + ", " +
                    Twine(Plan.Regs.Consumer) + ") needs 128 x " +
                    Twine(Plan.Regs.Producer) + " + " +
                    Twine(128 * Plan.Consumers) + " x " +
                    Twine(Plan.Regs.Consumer) + " = " + Twine(Total) +
                    " registers; an SM has " + Twine(hopper::kRegisters) +
                    " (setmaxnreg.inc would block forever)");
    return std::nullopt;
  }
  if (Plan.AccRegisters + kConsumerOverheadRegisters > Plan.Regs.Consumer) {
    Diags.error(P.Acc.Decl->getLocation(), DiagCategory::Shape,
                "each consumer warpgroup would hold " +
                    Twine(Plan.MTiles * 64) + " x " + Twine(Plan.BN) +
                    " accumulators, " + Twine(Plan.AccRegisters) +
                    " registers per thread, leaving fewer than " +
                    Twine(kConsumerOverheadRegisters) + " of its " +
                    Twine(Plan.Regs.Consumer) +
                    "; ptxas would serialize wgmma (C7511) or spill. Use more "
                    "consumers, a "
                    "smaller tile, or a larger regs(P, C)");
    return std::nullopt;
  }

  // Epilogue: TMA stores through two 128-byte-wide staging buffers per
  // consumer where the tile splits into whole 128-byte column chunks.
  const unsigned OutBytes = elementBytes(P.Store.Elem);
  Plan.StoreChunkCols = 128 / OutBytes;
  Plan.TmaStore = Plan.BN % Plan.StoreChunkCols == 0;
  if (Plan.TmaStore)
    Plan.StagingBytes = Plan.Consumers * 2 * 64 * Plan.MTiles * 128;

  // Stages: from the clause, else as many as the shared-memory budget allows.
  Plan.StageBytes = 0;
  for (const Aref &R : G.Arefs)
    Plan.StageBytes += R.BytesPerSlot;
  int Fit = 0;
  while (sharedBytes(Fit + 1, Plan.StageBytes, Plan.StagingBytes) <=
         hopper::kSharedMemoryBytes)
    ++Fit;
  Plan.Stages =
      P.Pragma.Stages ? *P.Pragma.Stages : std::min(Fit, kDefaultMaxStages);
  Plan.SharedBytes =
      sharedBytes(Plan.Stages, Plan.StageBytes, Plan.StagingBytes);
  if (Plan.SharedBytes > hopper::kSharedMemoryBytes || Plan.Stages < 1) {
    Diags.error(at(P.Pragma.Stages, P.Pragma.Loc), DiagCategory::Budget,
                Twine(Plan.Stages) + " stages of " + Twine(Plan.StageBytes) +
                    " bytes" +
                    (Plan.StagingBytes ? " and " + Twine(Plan.StagingBytes) +
                                             " bytes of epilogue staging"
                                       : Twine()) +
                    " need " + Twine(Plan.SharedBytes) +
                    " bytes of shared memory with barriers and alignment; a "
                    "block may use " +
                    Twine(hopper::kSharedMemoryBytes) + " (at most " +
                    Twine(Fit) + " stages fit)");
    return std::nullopt;
  }
  if (Plan.Stages < 2 && !P.Pragma.Stages) {
    Diags.error(P.Pragma.Loc, DiagCategory::Budget,
                "one stage of " + Twine(Plan.StageBytes) +
                    " bytes leaves no room for a second; the producer could "
                    "not run ahead");
    return std::nullopt;
  }
  // Persistent walk over the output tiles, unless the prologue may leave the
  // kernel early (a return would end the walk, not skip one tile).
  if (P.Pragma.Persistent && *P.Pragma.Persistent && P.PrologueReturn) {
    Diags.error(P.Pragma.Persistent.Loc, DiagCategory::Unsupported,
                "a persistent walk needs a prologue without 'return'");
    Diags.note(P.PrologueReturn->getBeginLoc(), "the prologue returns here");
    return std::nullopt;
  }
  Plan.Persistent =
      P.Pragma.Persistent ? *P.Pragma.Persistent : !P.PrologueReturn;
  if (P.Pragma.Raster)
    Plan.Raster = *P.Pragma.Raster;
  return Plan;
}

} // namespace tawa
