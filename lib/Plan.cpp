//===- Plan.cpp - choosing and checking the pipeline plan -----------------===//
#include "tawa/Plan.h"
#include "tawa/EmitText.h"
#include "tawa/GemmEpilogue.h"

#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace tawa {
namespace {

/// Registers a consumer thread needs beyond its accumulators (addresses,
/// descriptors, loop state); below this ptxas spills or serializes wgmma.
constexpr int kConsumerOverheadRegisters = 64;
/// Deepest ring chosen by default; deeper rings stop paying once the loads in
/// flight cover the memory latency. 128 x 64 tiles (24 KB slots) still gained
/// from 6 to 8 stages on the H100: 0.74x to 0.83x cuBLAS at 128x4096x4096
/// (results/README.md).
constexpr int kDefaultMaxStages = 8;
/// Registers the split tail's walk and piece sums need beyond that overhead;
/// a 128 x 176 tile with one consumer (176 accumulators of 240) spilled.
constexpr int kSplitTailRegisters = 16;

unsigned sharedBytes(int Stages, unsigned StageBytes, unsigned Staging) {
  // Stages, the epilogue staging, then the barriers padded to the 1024-byte
  // alignment of the storage struct, then the slack for aligning the dynamic
  // base.
  return Stages * StageBytes + Staging + 1024 + hopper::kSharedAlignSlack;
}

/// Whether the trip count of the tile loop may differ between tiles: its
/// header depends on a block or thread coordinate.
bool tripsDependOnTile(const ForStmt *Loop) {
  for (const Stmt *S :
       {Loop->getInit(), static_cast<const Stmt *>(Loop->getCond()),
        static_cast<const Stmt *>(Loop->getInc())})
    if (S && (readsBuiltin(S, "blockIdx") || readsBuiltin(S, "threadIdx")))
      return true;
  return false;
}

/// Whether the header of the tile loop reads nothing but the kernel's
/// parameters, its own variable and constants, and calls nothing that is
/// not constexpr: then the launch can count its trips before the walk.
bool tripsFromParameters(const ForStmt *Loop) {
  struct Reads : RecursiveASTVisitor<Reads> {
    const ForStmt *Loop = nullptr;
    bool Other = false;
    bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
      Other = true; // blockIdx, threadIdx, gridDim
      return false;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const ValueDecl *D = E->getDecl();
      const auto *V = dyn_cast<VarDecl>(D);
      if (isa<ParmVarDecl, EnumConstantDecl, FunctionDecl>(D))
        return true;
      if (V && (V->isConstexpr() ||
                (V->getType().isConstQualified() && V->hasInit() &&
                 V->getInit()->isIntegerConstantExpr(D->getASTContext()))))
        return true;
      if (V && Loop->getInit() && isDeclaredIn(V, Loop->getInit()))
        return true;
      Other = true;
      return false;
    }
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      Other |= !F || !F->isConstexpr();
      return !Other;
    }
    static bool isDeclaredIn(const VarDecl *V, const Stmt *Init) {
      if (const auto *DS = dyn_cast<DeclStmt>(Init))
        return llvm::is_contained(DS->decls(), V);
      return false;
    }
  } R;
  R.Loop = Loop;
  for (const Stmt *S :
       {Loop->getInit(), static_cast<const Stmt *>(Loop->getCond()),
        static_cast<const Stmt *>(Loop->getInc())})
    if (S)
      R.TraverseStmt(const_cast<Stmt *>(S));
  return !R.Other;
}

SourceLocation at(const Clause<int> &C, SourceLocation Fallback) {
  return C.Loc.isValid() ? C.Loc : Fallback;
}

} // namespace

std::optional<SteppedLoop> steppedLoop(const ForStmt *Loop) {
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  const auto *Var = Init && Init->isSingleDecl()
                        ? dyn_cast<VarDecl>(Init->getSingleDecl())
                        : nullptr;
  if (!Var || !Var->hasInit() || !Var->getType()->isIntegerType() ||
      !tripsFromParameters(Loop))
    return std::nullopt;
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(Loop->getCond()->IgnoreParens());
  const auto *Inc =
      dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc()->IgnoreParens());
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) ||
      !refersTo(Cond->getLHS(), Var) || mentions(Cond->getRHS(), Var) || !Inc ||
      Inc->getOpcode() != BO_AddAssign || !refersTo(Inc->getLHS(), Var) ||
      mentions(Inc->getRHS(), Var))
    return std::nullopt;
  return SteppedLoop{Var, Var->getInit(), Cond->getRHS(), Inc->getRHS(),
                     Cond->getOpcode() == BO_LE};
}

/// Warns when the K offsets of a and b differ, or when the loop variable
/// they are loaded at steps by a constant other than the tiles' K extent.
static void checkKWalk(const TileProgram &P, const TileLoad &A,
                       const TileLoad &B, int BK, DiagReporter &Diags) {
  ASTContext &Ctx = P.Kernel->getASTContext();
  llvm::FoldingSetNodeID IA, IB;
  A.kOrigin()->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B.kOrigin()->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  if (IA != IB) {
    Diags.warning(B.kOrigin()->getBeginLoc(), DiagCategory::Shape,
                  "tiles '" + A.Var + "' and '" + B.Var +
                      "' are contracted over K but loaded at different K "
                      "offsets");
    Diags.note(A.kOrigin()->getBeginLoc(), "the K offset of '" + A.Var + "'");
    return;
  }
  // The loop variable and its constant step: `v += C`, `v = v + C`, `++v`.
  auto *Col = dyn_cast<DeclRefExpr>(A.kOrigin()->IgnoreParenImpCasts());
  const Expr *Inc = P.Loop->getInc();
  if (!Col || !Inc)
    return;
  std::optional<llvm::APSInt> Step;
  const Expr *Var = nullptr;
  if (auto *CA = dyn_cast<CompoundAssignOperator>(Inc->IgnoreParens());
      CA && CA->getOpcode() == BO_AddAssign) {
    Var = CA->getLHS();
    Step = CA->getRHS()->getIntegerConstantExpr(Ctx);
  } else if (auto *U = dyn_cast<UnaryOperator>(Inc->IgnoreParens());
             U && U->isIncrementOp()) {
    Var = U->getSubExpr();
    Step = llvm::APSInt::get(1);
  } else if (auto *BO = dyn_cast<BinaryOperator>(Inc->IgnoreParens());
             BO && BO->getOpcode() == BO_Assign) {
    auto *Sum = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    auto *Self =
        Sum ? dyn_cast<DeclRefExpr>(Sum->getLHS()->IgnoreParenImpCasts())
            : nullptr;
    auto *Target = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (Sum && Sum->getOpcode() == BO_Add && Self && Target &&
        Self->getDecl() == Target->getDecl()) {
      Var = BO->getLHS();
      Step = Sum->getRHS()->getIntegerConstantExpr(Ctx);
    }
  }
  auto *VarRef =
      Var ? dyn_cast<DeclRefExpr>(Var->IgnoreParenImpCasts()) : nullptr;
  if (!VarRef || VarRef->getDecl() != Col->getDecl() || !Step ||
      Step->getExtValue() == BK)
    return;
  Diags.warning(Inc->getBeginLoc(), DiagCategory::Shape,
                "the loop advances '" + Col->getDecl()->getName() + "' by " +
                    Twine(Step->getExtValue()) + " but tiles '" + A.Var +
                    "' and '" + B.Var + "' cover " + Twine(BK) +
                    " elements of K: consecutive iterations " +
                    (Step->getExtValue() < BK ? "overlap" : "skip elements"));
  Diags.note(A.kOrigin()->getBeginLoc(), "the K offset of '" + A.Var + "'");
}

/// Records why each choice the planner made by default was made (choices
/// set by a clause are explained by the clause).
static void explain(const TileProgram &P, PipelinePlan &Plan, int Fit,
                    const char *NoSplit) {
  auto Add = [&](const char *Name, const Twine &Why) {
    Plan.Explain.emplace_back(Name, Why.str());
  };
  if (!P.Pragma.Consumers)
    Add("roles", Plan.PingPong
                     ? Twine("two consumer warpgroups for schedule(pingpong)")
                     : "one consumer warpgroup per 64 rows of the " +
                           Twine(Plan.BM) + "-row accumulator (at most 3)");
  Add("schedule",
      Plan.PingPong
          ? Twine("pingpong -- schedule clause: the consumers take alternate "
                  "tiles, each the whole tile, their main loops in turn")
          : "cooperative -- " +
                Twine(P.Pragma.Schedule
                          ? "schedule clause"
                          : "default: every consumer works on every tile, so "
                            "the tile can be as large as their registers "
                            "together hold"));
  if (!P.Pragma.Stages)
    Add("stages", "the most that fit " + Twine(hopper::kSharedMemoryBytes) +
                      " bytes with the epilogue staging (" + Twine(Fit) +
                      "), capped at " + Twine(kDefaultMaxStages));
  if (!P.Pragma.Regs)
    Add("registers",
        "128 x " + Twine(Plan.Regs.Producer) + " + " +
            Twine(128 * Plan.Consumers) + " x " + Twine(Plan.Regs.Consumer) +
            " = " +
            Twine(128 * Plan.Regs.Producer +
                  128 * Plan.Consumers * Plan.Regs.Consumer) +
            " of 65536 registers: the producer keeps the least it needs, the "
            "consumers the rest (" +
            Twine(Plan.AccRegisters) + " accumulator registers + " +
            Twine(kConsumerOverheadRegisters) +
            " for addresses and loop state" +
            (Plan.Regs.Consumer == 240 ? Twine(" exceed 232") : Twine()) + ")");
  Add("shared memory",
      Twine(Plan.Stages) + " x " + Twine(Plan.StageBytes) +
          " bytes of slots + " + Twine(Plan.StagingBytes) +
          " bytes of epilogue staging + barriers and 1024-byte alignment");
  if (P.Pragma.Persistent)
    Add("persistent",
        Twine(Plan.Persistent ? "on" : "off") + " -- persistent clause");
  else if (Plan.Persistent)
    Add("persistent", "on -- one CTA per SM walks the tiles, so the "
                      "epilogue of one tile overlaps the loads of the next");
  else
    Add("persistent", "off -- the prologue returns, which would end a walk "
                      "instead of skipping one tile");
  Add("raster", Twine(Plan.Raster.AlongM ? "m" : "n") + ", " +
                    Twine(Plan.Raster.Group) + " -- " +
                    (P.Pragma.Raster ? "raster clause"
                                     : "default: groups of 8 tile rows share "
                                       "their operand tiles in L2"));
  Add("cluster",
      Twine(Plan.Cluster) + " -- " +
          (P.Pragma.Cluster
               ? "cluster clause"
               : "default: where operand rows are aligned, cluster(2) with "
                 "a multicast B measured no faster on an H200 and 3-9% "
                 "slower on an H100 (results/README.md); the cluster twins "
                 "run where they are not"));
  if (P.Pragma.SplitTail)
    Add("tail", Twine(Plan.SplitTail ? "split" : "whole") + " -- tail clause");
  else if (Plan.SplitTail)
    Add("tail", Twine("split -- default: at launch, where the K loop is long "
                      "enough, the tiles of the last partial wave are split "
                      "by K between the CTAs that would idle (costs measured "
                      "on an H100, tawa/runtime/split_tail.cuh)") +
                    (Plan.CountTrips
                         ? "; the K loop's header reads only parameters, so "
                           "its trips are counted first and a launch of "
                           "fewer tiles than SMs may be split from the start"
                         : ""));
  else
    Add("tail", Twine("whole -- ") + NoSplit);
  const int Chunks = Plan.StoreChunkCols ? Plan.BN / Plan.StoreChunkCols : 0;
  const SourceManager &SM = P.Kernel->getASTContext().getSourceManager();
  const LangOptions &LO = P.Kernel->getASTContext().getLangOpts();
  std::string Ops =
      describeEpilogue(P, [&](const Expr *E) { return exprText(E, SM, LO); });
  if (!Ops.empty())
    Ops += "; ";
  Add("epilogue",
      Twine(Ops) + (Plan.TmaStore
                        ? "TMA stores through " + Twine(Plan.StagingBuffers) +
                              " " + Twine(64 * Plan.MTiles) + " x " +
                              Twine(Plan.StoreChunkCols) + " staging buffer" +
                              (Plan.StagingBuffers == 1 ? "" : "s") +
                              " per consumer warpgroup (" +
                              (Plan.StagingBuffers >= Chunks
                                   ? Twine("one per column chunk: the tile is "
                                           "staged at once")
                                   : Twine(Chunks) + " column chunks, " +
                                         Twine(Plan.StagingBuffers) +
                                         " at a time; a buffer per "
                                         "chunk would not fit beside " +
                                         Twine(Plan.Stages) + " stages") +
                              ")" +
                              (Plan.StoreTailCols
                                   ? "; the last " + Twine(Plan.StoreTailCols) +
                                         " columns, not a whole chunk, from "
                                         "the registers"
                                   : Twine())
                        : "direct stores from registers: " + Twine(Plan.BN) +
                              " columns are fewer than a 128-byte chunk of " +
                              Twine(Plan.StoreChunkCols)));
}

/// fp32 operands need `precision(tf32)` or `precision(3xtf32)`, and the
/// clause needs them: the tensor cores take no fp32 inputs, and a GEMM's
/// precision changes only where its author says so.
static bool precisionAgrees(const TileProgram &P, const TileLoad &A,
                            const TileLoad &B, DiagReporter &Diags) {
  const Clause<MmaPrecision> &C = P.Pragma.Precision;
  const bool F32 = A.Elem == ElementType::F32 || B.Elem == ElementType::F32;
  if (F32 && !C) {
    const TileLoad &T = A.Elem == ElementType::F32 ? A : B;
    Diags.error(T.Decl->getLocation(), DiagCategory::Shape,
                "tile '" + T.Var +
                    "' is f32; the tensor cores take no fp32 inputs, and "
                    "multiplying them as tf32 (10-bit mantissas) would "
                    "change the kernel's results. Add 'precision(3xtf32)' "
                    "to the pragma for about fp32's accuracy (three tf32 "
                    "products per step), or 'precision(tf32)' where tf32's "
                    "is acceptable (docs/tile-language.md)");
    return false;
  }
  if (C && !F32) {
    Diags.error(C.Loc, DiagCategory::Shape,
                "clause 'precision' applies to fp32 operands; the mma's are " +
                    elementName(A.Elem) + " and " + elementName(B.Elem));
    return false;
  }
  return true;
}

/// Whether the CTAs of a cluster (Plan.Cluster > 1) can share their tile:
/// B's for vertically adjacent tiles, A's for horizontally adjacent ones
/// (Plan.ClusterAlongX). The shared tile's window and the tile loop's trip
/// count must not depend on the coordinate along which the CTAs differ,
/// and the prologue must not return (a CTA that leaves would stall its
/// peer). A K-major tile goes to the CTAs in parts of its rows, whole 8-row
/// swizzle atoms; an MN-major one in whole 64-column boxes or, where it is
/// one box, in parts of its K rows (checked with the layout). Reports at
/// the cluster clause, or at the pragma for the tool's twins.
static bool checkCluster(const TileProgram &P, const PipelinePlan &Plan,
                         DiagReporter &Diags) {
  const TileMma &M = P.Mmas.front();
  const bool X = Plan.ClusterAlongX;
  const char *Dim = X ? "x" : "y";
  const std::string Clause = "cluster(" + std::to_string(Plan.Cluster) + ")";
  const std::string Adjacent =
      X ? "horizontally adjacent tiles" : "vertically adjacent tiles";
  const SourceLocation Loc =
      P.Pragma.Cluster.Loc.isValid() ? P.Pragma.Cluster.Loc : P.Pragma.Loc;
  auto Depends = [&](const Expr *E) {
    return readsBuiltin(E, "blockIdx", Dim);
  };
  const TileLoad &Shared = P.Loads[X ? M.A : M.B];
  for (const Expr *E : {Shared.Row0, Shared.Col0, Shared.Batch})
    if (E && Depends(E)) {
      Diags.error(Loc, DiagCategory::Unsupported,
                  Clause + " multicasts tile '" + Shared.Var +
                      "' to the CTAs of " + Adjacent +
                      ", but its coordinates depend on blockIdx." + Dim);
      Diags.note(E->getBeginLoc(),
                 std::string("this coordinate depends on blockIdx.") + Dim);
      return false;
    }
  std::vector<const Expr *> Header = {dyn_cast_or_null<Expr>(P.Loop->getInit()),
                                      P.Loop->getCond(), P.Loop->getInc()};
  if (auto *DS = dyn_cast_or_null<DeclStmt>(P.Loop->getInit()))
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->hasInit())
        Header.push_back(VD->getInit());
  for (const Expr *E : Header)
    if (E && Depends(E)) {
      Diags.error(Loc, DiagCategory::Unsupported,
                  Clause + " runs the CTAs of " + Adjacent +
                      " in lockstep, but the trip count of the tile loop "
                      "depends on blockIdx." +
                      Dim);
      Diags.note(E->getBeginLoc(),
                 std::string("this depends on blockIdx.") + Dim);
      return false;
    }
  if (P.PrologueReturn) {
    Diags.error(Loc, DiagCategory::Unsupported,
                Clause + " needs a prologue without 'return': a CTA that "
                         "leaves would stall its peer");
    Diags.note(P.PrologueReturn->getBeginLoc(), "the prologue returns here");
    return false;
  }
  const int Rows = X ? Plan.BM : Plan.BN;
  if (!Shared.MnMajor && Rows % (8 * Plan.Cluster) != 0) {
    Diags.error(Loc, DiagCategory::Shape,
                Clause + " splits the " + std::to_string(Rows) +
                    " rows of tile '" + Shared.Var +
                    "' into parts that are not whole 8-row swizzle atoms");
    return false;
  }
  return true;
}

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

  if (!precisionAgrees(P, A, B, Diags))
    return std::nullopt;
  // wgmma's inputs (PTX ISA 9.7.15.5.1): both bf16, both f16, each e4m3 or
  // e5m2, or both tf32 (fp32 in memory, under precision(tf32)).
  const bool Fp8 = isFp8(A.Elem) && isFp8(B.Elem);
  const bool Tf32 = A.Elem == ElementType::F32;
  if (A.Elem != B.Elem && !Fp8)
    return shape(MmaLoc, "wgmma operands must both be bf16, both f16, both "
                         "fp8 (e4m3 or e5m2) or both f32 (as tf32); got " +
                             elementName(A.Elem) + " and " +
                             elementName(B.Elem));
  // wgmma reads fp8 and tf32 operands K-major only: the transpose operands
  // apply to .f16/.bf16 (PTX ISA 9.7.15.5.1, imm-trans-a/b).
  for (const TileLoad *T : {&A, &B})
    if ((Fp8 || Tf32) && T->MnMajor)
      return shape(T->Decl->getLocation(),
                   "tile '" + T->Var + "' is " + elementName(T->Elem) +
                       " stored K x " + (T == &A ? "M" : "N") +
                       "; wgmma reads " + (Tf32 ? "tf32" : "fp8") +
                       " operands K-major only (it has no transpose for " +
                       (Tf32 ? "32" : "8") + "-bit types). Store the matrix " +
                       (T == &A ? "M" : "N") +
                       " x K (transpose it once, ahead of the GEMM) and load "
                       "the window with K as its columns");
  if (isFp8(P.Store.Elem))
    return shape(P.Store.Call->getBeginLoc(),
                 "the stored matrix is " + elementName(P.Store.Elem) +
                     "; a GEMM stores bf16, f16 or f32 (convert to fp8 in a "
                     "later pass)");

  PipelinePlan Plan;
  Plan.ThreeTf32 = Tf32 && *P.Pragma.Precision == MmaPrecision::ThreeTf32;
  Plan.Elem = A.Elem;
  Plan.ElemB = B.Elem;
  Plan.BM = A.mnExtent();
  Plan.BK = A.kExtent();
  Plan.BN = B.mnExtent();
  const unsigned Bytes = elementBytes(A.Elem);
  auto Dims = [](const TileLoad &T) {
    return "'" + T.Var + "' (" + std::to_string(T.Rows) + " x " +
           std::to_string(T.Cols) + (T.MnMajor ? ", K x MN" : ", MN x K") + ")";
  };
  if (B.kExtent() != Plan.BK)
    return shape(B.Decl->getLocation(),
                 "tiles " + Dims(A) + " and " + Dims(B) +
                     " disagree on K, the extent the mma contracts");
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
                     (A.MnMajor ? " columns" : " rows") +
                     ", the M of the mma; expected a multiple of 64 (the M of "
                     "wgmma per warpgroup) up to 256 (the TMA box limit)");
  if (!B.MnMajor && (Plan.BN % 8 != 0 || Plan.BN < 8 || Plan.BN > 256))
    return shape(
        B.Decl->getLocation(),
        "tile '" + B.Var + "' has " + Twine(Plan.BN) +
            " rows, the N of wgmma; expected a multiple of 8 from 8 to 256");
  // A K x N window is read by wgmma in 64-column swizzle atoms (PTX ISA
  // 9.7.15.5.1.2, MN-major layouts), which TMA writes one box each.
  if (B.MnMajor && (Plan.BN % 64 != 0 || Plan.BN > 256))
    return shape(B.Decl->getLocation(),
                 "tile '" + B.Var + "' has " + Twine(Plan.BN) +
                     " columns, the N of wgmma; a K x N tile (B read "
                     "MN-major) needs a multiple of 64 (one 128-byte swizzle "
                     "atom) up to 256");

  // The K windows of both operands move with the loop: the same K offset, and
  // a loop step equal to their K extent (else iterations overlap or skip).
  checkKWalk(P, A, B, Plan.BK, Diags);

  // Consumers: cooperative, one warpgroup per 64 rows, up to three; ping-pong,
  // two, each holding the whole tile.
  const int Tiles64 = Plan.BM / 64;
  SourceLocation ConsLoc = at(P.Pragma.Consumers, P.Pragma.Loc);
  Plan.PingPong =
      P.Pragma.Schedule && *P.Pragma.Schedule == ConsumerSchedule::PingPong;
  if (Plan.PingPong && P.Pragma.Consumers && *P.Pragma.Consumers != 2) {
    Diags.error(ConsLoc, DiagCategory::Shape,
                "schedule(pingpong) alternates two consumer warpgroups; got "
                "consumers(" +
                    Twine(*P.Pragma.Consumers) + ")");
    return std::nullopt;
  }
  Plan.Consumers = Plan.PingPong        ? 2
                   : P.Pragma.Consumers ? *P.Pragma.Consumers
                                        : (Tiles64 <= 3 ? Tiles64 : 2);
  if (!Plan.PingPong && Tiles64 % Plan.Consumers != 0) {
    Diags.error(ConsLoc, DiagCategory::Shape,
                Twine(Plan.Consumers) +
                    " consumer warpgroups cannot split the " + Twine(Plan.BM) +
                    " rows of '" + P.Acc.Var + "' into 64-row wgmma tiles");
    return std::nullopt;
  }
  Plan.MTiles = Plan.PingPong ? Tiles64 : Tiles64 / Plan.Consumers;
  Plan.Threads = 128 * (1 + Plan.Consumers);
  Plan.AccRegisters = Plan.MTiles * Plan.BN / 2;

  // Registers: the split must fit the SM's register file.
  // By default the producer keeps 40 registers and the consumers 232, or 24
  // and 240 where the accumulators need more than 232 - the overhead; three
  // consumers leave 160 each (24 + 3 x 160 = 504 registers per thread slot).
  if (P.Pragma.Regs)
    Plan.Regs = *P.Pragma.Regs;
  else if (Plan.Consumers == 3)
    Plan.Regs = RegisterSplit{24, 160};
  else if (Plan.AccRegisters + kConsumerOverheadRegisters > 232)
    Plan.Regs = RegisterSplit{24, 240};
  else
    Plan.Regs = RegisterSplit{40, 232};
  // precision(3xtf32): the producer's splitting warps hold a 16-byte vector,
  // its two parts and their addresses; 24 registers would spill.
  if (Plan.ThreeTf32 && !P.Pragma.Regs && Plan.Regs.Producer < 40)
    Plan.Regs = RegisterSplit{40, int(hopper::kRegisters / 128 - 40) /
                                      Plan.Consumers / 8 * 8};
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

  // Epilogue: TMA stores through 128-byte-wide staging buffers where the
  // tile has a whole 128-byte column chunk; the columns past the last whole
  // chunk (16 of a 144-column bf16 tile) are stored from the registers.
  const unsigned OutBytes = elementBytes(P.Store.Elem);
  Plan.StoreChunkCols = 128 / OutBytes;
  Plan.TmaStore = Plan.BN >= Plan.StoreChunkCols;
  Plan.StoreTailCols = Plan.TmaStore ? Plan.BN % Plan.StoreChunkCols : 0;
  const int Chunks = Plan.TmaStore ? Plan.BN / Plan.StoreChunkCols : 0;
  auto staging = [&](int Buffers) {
    return unsigned(Plan.Consumers * Buffers * 64 * Plan.MTiles * 128);
  };
  if (Plan.TmaStore) {
    Plan.StagingBuffers = std::min(Chunks, 2);
    Plan.StagingBytes = staging(Plan.StagingBuffers);
  }

  // Stages: from the clause, else as many as the shared-memory budget allows
  // beside two staging buffers.
  Plan.StageBytes = 0;
  for (const Aref &R : G.Arefs)
    Plan.StageBytes += R.BytesPerSlot;
  Plan.StepsPerSlot = P.StepsPerSlot;
  Plan.StageBytes *= Plan.StepsPerSlot;
  int Fit = 0;
  while (sharedBytes(Fit + 1, Plan.StageBytes, Plan.StagingBytes) <=
         hopper::kSharedMemoryBytes)
    ++Fit;
  Plan.Stages =
      P.Pragma.Stages ? *P.Pragma.Stages : std::min(Fit, kDefaultMaxStages);
  // Then the staging that fits beside the ring: one buffer where the clause's
  // stages leave no room for two; a buffer per chunk where there is room (the
  // epilogue stages as many chunks per wait and pair of barriers as it has
  // buffers).
  auto fits = [&](int Buffers) {
    return sharedBytes(Plan.Stages, Plan.StageBytes, staging(Buffers)) <=
           hopper::kSharedMemoryBytes;
  };
  if (Plan.TmaStore) {
    if (!fits(Plan.StagingBuffers) && fits(1))
      Plan.StagingBuffers = 1;
    else if (Chunks > Plan.StagingBuffers && fits(Chunks))
      Plan.StagingBuffers = Chunks;
    Plan.StagingBytes = staging(Plan.StagingBuffers);
  }
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
  if (Plan.PingPong && !Plan.Persistent) {
    Diags.error(P.Pragma.Schedule.Loc, DiagCategory::Unsupported,
                "schedule(pingpong) alternates the tiles of the persistent "
                "walk, which is off here");
    if (P.PrologueReturn)
      Diags.note(P.PrologueReturn->getBeginLoc(), "the prologue returns here");
    return std::nullopt;
  }
  if (P.Pragma.Raster)
    Plan.Raster = *P.Pragma.Raster;

  // Cluster: CTAs of vertically adjacent tiles share B, which must then not
  // depend on the tile's row; along x, horizontally adjacent ones share A.
  // Only the tool's twins along x ping-pong in clusters.
  Plan.Cluster = P.Pragma.Cluster ? *P.Pragma.Cluster : 1;
  Plan.ClusterAlongX = Plan.Cluster > 1 && P.Pragma.ClusterAlongX;
  if (Plan.Cluster > 1 && Plan.PingPong && !Plan.ClusterAlongX) {
    Diags.error(P.Pragma.Cluster.Loc, DiagCategory::Unsupported,
                "cluster(" + Twine(Plan.Cluster) +
                    ") is not supported with schedule(pingpong)");
    return std::nullopt;
  }
  if (Plan.Cluster > 1 && !checkCluster(P, Plan, Diags))
    return std::nullopt;
  // The split tail: the pieces of a tile are combined by the CTAs of a plain
  // cooperative walk, and every tile must run the same K loop.
  const char *NoSplit =
      Plan.PingPong      ? "schedule(pingpong) gives each consumer whole tiles"
      : !Plan.Persistent ? "the walk is not persistent"
      : Plan.Cluster > 1 ? "the CTAs of a cluster walk their tiles in lockstep"
      : tripsDependOnTile(P.Loop)
          ? "the trip count of the tile loop depends on the block coordinates"
      : Plan.Regs.Consumer - Plan.AccRegisters <
              kConsumerOverheadRegisters + kSplitTailRegisters
          ? "the accumulators leave the consumers too few registers for the "
            "split's bookkeeping (ptxas spills)"
          : nullptr;
  if (P.Pragma.SplitTail && *P.Pragma.SplitTail && NoSplit) {
    Diags.error(P.Pragma.SplitTail.Loc, DiagCategory::Unsupported,
                Twine("tail(split) is not supported here: ") + NoSplit);
    return std::nullopt;
  }
  Plan.SplitTail = P.Pragma.SplitTail ? *P.Pragma.SplitTail : !NoSplit;
  Plan.CountTrips = Plan.SplitTail && tripsFromParameters(P.Loop);
  explain(P, Plan, Fit, NoSplit);
  return Plan;
}

} // namespace tawa
