//===- TileShape.cpp - merging the kernel's tiles into a larger CTA tile --===//
#include "tawa/TileShape.h"
#include "LiftSupport.h"

#include "tawa/ArefGraph.h"
#include "tawa/Plan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;

namespace tawa {

llvm::ArrayRef<std::pair<int, int>> autoTileShapes() {
  static const std::pair<int, int> Shapes[] = {
      {128, 256}, {256, 128}, {128, 192}, {128, 128},
      {64, 256},  {128, 64},  {64, 128},  {64, 64}};
  return Shapes;
}

namespace {

/// `Stride * blockIdx.<d> + Offset`, Offset when it is a constant.
struct Linear {
  long long Stride = 0;
  std::optional<long long> Offset;
};

/// `E` as a linear function of blockIdx.<D>: through parentheses, integer
/// casts, +, -, * by a constant, and const locals' initializers. nullopt
/// where `E` reads blockIdx.<D> in any other way.
std::optional<Linear> linear(const Expr *E, StringRef D, ASTContext &Ctx,
                             int Depth = 0) {
  if (!E || Depth > 32)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (!readsBuiltin(E, "blockIdx", D)) {
    Linear L;
    if (!E->isValueDependent())
      if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
        L.Offset = V->getExtValue();
    return L;
  }
  if (auto *C = dyn_cast<ExplicitCastExpr>(E))
    return C->getType()->isIntegerType()
               ? linear(C->getSubExpr(), D, Ctx, Depth + 1)
               : std::nullopt;
  const Expr *Base = nullptr;
  if (auto *MP = dyn_cast<MSPropertyRefExpr>(E))
    Base = MP->getBaseExpr();
  else if (auto *ME = dyn_cast<MemberExpr>(E))
    Base = ME->getBase();
  if (Base) {
    // blockIdx.<D> itself (it reads blockIdx.<D>), or a member of something
    // computed from it.
    auto *R = dyn_cast<DeclRefExpr>(ignoreOpaque(Base));
    if (R && R->getDecl()->getName() == "blockIdx")
      return Linear{1, 0};
    return std::nullopt;
  }
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    if (VD && VD->getType().isConstQualified() && VD->hasInit())
      return linear(VD->getInit(), D, Ctx, Depth + 1);
    return std::nullopt;
  }
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return std::nullopt;
  std::optional<Linear> L = linear(B->getLHS(), D, Ctx, Depth + 1);
  std::optional<Linear> R = linear(B->getRHS(), D, Ctx, Depth + 1);
  if (!L || !R)
    return std::nullopt;
  auto both = [&](auto Op) -> std::optional<long long> {
    if (L->Offset && R->Offset)
      return Op(*L->Offset, *R->Offset);
    return std::nullopt;
  };
  switch (B->getOpcode()) {
  case BO_Add:
    return Linear{L->Stride + R->Stride,
                  both([](long long A, long long C) { return A + C; })};
  case BO_Sub:
    return Linear{L->Stride - R->Stride,
                  both([](long long A, long long C) { return A - C; })};
  case BO_Mul:
    if (L->Stride == 0 && L->Offset)
      return Linear{R->Stride * *L->Offset,
                    both([](long long A, long long C) { return A * C; })};
    if (R->Stride == 0 && R->Offset)
      return Linear{L->Stride * *R->Offset,
                    both([](long long A, long long C) { return A * C; })};
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether `F` is a math function of CUDA's headers, which computes its
/// result from its arguments alone (`sqrtf`, `expf`, ...).
static bool isMathFunction(const FunctionDecl *F) {
  static const llvm::StringSet<> Names = {
      "sqrtf",  "sqrt",   "rsqrtf",     "rsqrt",      "expf",       "exp",
      "exp2f",  "exp2",   "logf",       "log",        "log2f",      "log2",
      "powf",   "pow",    "fabsf",      "fabs",       "fminf",      "fmin",
      "fmaxf",  "fmax",   "floorf",     "floor",      "ceilf",      "ceil",
      "truncf", "roundf", "erff",       "tanhf",      "__fdividef", "__expf",
      "__logf", "__powf", "__fsqrt_rn", "__frsqrt_rn"};
  return F->getIdentifier() && Names.contains(F->getName()) &&
         fromSystemHeader(F);
}

/// Finds what may change state: a call of a function that is not
/// constexpr nor a math function, an assignment, an increment. The reads
/// of blockIdx and gridDim are calls in the semantic form of their
/// pseudo-objects, which it skips.
class EffectFinder : public RecursiveASTVisitor<EffectFinder> {
public:
  bool Found = false;
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return TraverseStmt(E->getSyntacticForm());
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    Found |= !F || !(F->isConstexpr() || isMathFunction(F));
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    Found |= B->isAssignmentOp();
    return !Found;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    Found |= U->isIncrementDecrementOp();
    return !Found;
  }
};

bool hasEffects(const Expr *E) {
  EffectFinder F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

/// Checks what any change of the CTA tile needs: the accumulator is the
/// mma's, the kernel reads no gridDim, and the code before the loop, which
/// the new walk runs once per CTA tile instead of once per block, only
/// declares values. Reports at `Loc` with the message `Lead` + ", but " +
/// the reason.
bool checkTileCode(const TileProgram &P, SourceLocation Loc, const Twine &Lead,
                   DiagReporter &Diags) {
  const TileMma &M = P.Mmas.front();
  const TileLoad &A = P.Loads[M.A], &B = P.Loads[M.B];
  auto refuse = [&](const Twine &Why, const Stmt *At, const Twine &Note) {
    Diags.error(Loc, DiagCategory::Unsupported, Lead + ", but " + Why);
    if (At)
      Diags.note(At->getBeginLoc(), Note);
    return false;
  };
  if (P.Acc.Rows != A.mnExtent() || P.Acc.Cols != B.mnExtent())
    return refuse("the accumulator '" + P.Acc.Var + "' is " +
                      Twine(P.Acc.Rows) + " x " + Twine(P.Acc.Cols) +
                      ", not the mma's " + Twine(A.mnExtent()) + " x " +
                      Twine(B.mnExtent()),
                  nullptr, "");
  if (const Expr *G = findBuiltinRead(P.Kernel->getBody(), "gridDim"))
    return refuse("the kernel reads gridDim, which the new walk changes", G,
                  "gridDim is read here");
  if (P.PrologueReturn)
    return refuse("the code before the loop may return, for one block of the "
                  "original launch",
                  nullptr, "");
  // Only declarations whose initializers have no side effects may be there.
  for (const Stmt *S : cast<CompoundStmt>(P.Kernel->getBody())->body()) {
    if (S == P.Loop)
      break;
    const auto *DS = dyn_cast<DeclStmt>(S);
    bool Pure = DS != nullptr;
    if (DS && DS != P.Acc.Stmt)
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->hasInit() && hasEffects(VD->getInit()))
          Pure = false;
    if (!Pure)
      return refuse("the code before the loop does more than declare values, "
                    "and the new walk would not run it once per block",
                    S, "this statement");
  }
  return true;
}

/// Checks that the operand window and the store of `P` that move along
/// grid `X` (else y) move with blockIdx by `Extent` elements per block, the
/// store's origin plus a constant (into `Offset`), and that nothing else of
/// the tile loop reads that coordinate: what a walk of other CTA tiles than
/// the kernel's needs along it. Reports at `Loc` with the message `Lead` +
/// ", but " + the reason.
bool checkMoves(const TileProgram &P, bool X, int Extent, SourceLocation Loc,
                const Twine &Lead, long long &Offset, DiagReporter &Diags) {
  ASTContext &Ctx = P.Kernel->getASTContext();
  const TileMma &M = P.Mmas.front();
  const TileLoad &A = P.Loads[M.A], &B = P.Loads[M.B];
  auto refuse = [&](const Twine &Why, const Stmt *At, const Twine &Note) {
    Diags.error(Loc, DiagCategory::Unsupported, Lead + ", but " + Why);
    if (At)
      Diags.note(At->getBeginLoc(), Note);
    return false;
  };
  const char *Name = X ? "x" : "y";
  const TileLoad &Load = X ? B : A;
  const Expr *Stored = X ? P.Store.Col0 : P.Store.Row0;
  const std::string Idx = std::string("blockIdx.") + Name;
  auto stride = [&](const Expr *E, const Twine &What, bool NeedOffset) {
    std::optional<Linear> L = linear(E, Name, Ctx);
    if (!L || L->Stride != Extent || (NeedOffset && !L->Offset))
      return refuse(What + " is not " + Idx + " * " + Twine(Extent) + " plus " +
                        (NeedOffset ? "a constant" : "a term without " + Idx),
                    E, "this origin");
    if (NeedOffset)
      Offset = *L->Offset;
    return true;
  };
  if (!stride(Load.mnOrigin(), "the origin of tile '" + Load.Var + "'",
              false) ||
      !stride(Stored, "the origin of the store", true))
    return false;
  // Everything else of the tile loop is the same for the blocks along it.
  const Stmt *Same[] = {A.kOrigin(),
                        B.kOrigin(),
                        X ? A.mnOrigin() : B.mnOrigin(),
                        X ? P.Store.Row0 : P.Store.Col0,
                        A.Batch,
                        B.Batch,
                        P.Store.Batch,
                        P.Loop->getInit(),
                        P.Loop->getCond(),
                        P.Loop->getInc()};
  for (const Stmt *S : Same)
    if (const Expr *R = findBuiltinRead(S, "blockIdx", Name))
      return refuse("this part of the tile loop reads " + Idx, R,
                    Idx + " is read here");
  return true;
}

/// Checks that the kernel's tiles of `P` can merge `X` x `Y` (the reasons in
/// TileShape.h); reports at `Loc` for the clause `Clause` and fills the
/// offsets of `Merge` otherwise.
bool checkMerge(const TileProgram &P, int X, int Y, SourceLocation Loc,
                const std::string &Clause, TileMerge &Merge,
                DiagReporter &Diags) {
  const std::string Lead = Clause + " merges the kernel's " +
                           std::to_string(Merge.KernelBM) + " x " +
                           std::to_string(Merge.KernelBN) + " tiles";
  return checkTileCode(P, Loc, Lead, Diags) &&
         (X == 1 || checkMoves(P, /*X=*/true, Merge.KernelBN, Loc, Lead,
                               Merge.ColOffset, Diags)) &&
         (Y == 1 || checkMoves(P, /*X=*/false, Merge.KernelBM, Loc, Lead,
                               Merge.RowOffset, Diags));
}

/// `P` with its tiles merged `X` x `Y`, or nullopt after reporting.
std::optional<TileProgram> merged(const TileProgram &P, int BM, int BN,
                                  SourceLocation Loc, const std::string &Clause,
                                  DiagReporter &Diags) {
  const TileMma &M = P.Mmas.front();
  TileProgram Q = P;
  TileMerge &Merge = Q.Merge;
  Merge.KernelBM = P.Loads[M.A].mnExtent();
  Merge.KernelBN = P.Loads[M.B].mnExtent();
  if (BM % Merge.KernelBM != 0 || BN % Merge.KernelBN != 0) {
    Diags.error(Loc, DiagCategory::Shape,
                Clause + " is not a multiple of the kernel's tile: " +
                    Twine(Merge.KernelBM) +
                    (P.Loads[M.A].MnMajor ? " columns" : " rows") + " of '" +
                    P.Loads[M.A].Var + "' by " + Twine(Merge.KernelBN) +
                    (P.Loads[M.B].MnMajor ? " columns" : " rows") + " of '" +
                    P.Loads[M.B].Var + "'");
    return std::nullopt;
  }
  Merge.X = BN / Merge.KernelBN;
  Merge.Y = BM / Merge.KernelBM;
  if (!checkMerge(P, Merge.X, Merge.Y, Loc, Clause, Merge, Diags))
    return std::nullopt;
  Q.Loads[M.A].setMnExtent(BM);
  Q.Loads[M.B].setMnExtent(BN);
  Q.Acc.Rows = BM;
  Q.Acc.Cols = BN;
  return Q;
}

std::string shapeText(int BM, int BN) {
  return std::to_string(BM) + " x " + std::to_string(BN);
}

} // namespace

std::optional<TileProgram> applyTileShape(const TileProgram &P,
                                          DiagReporter &Diags) {
  const Clause<TileShapeClause> &Clause = P.Pragma.Shape;
  if (!Clause || P.Mmas.empty())
    return P;
  const TileShapeClause *C = &*Clause;
  const TileMma &M = P.Mmas.front();
  const int KM = P.Loads[M.A].mnExtent(), KN = P.Loads[M.B].mnExtent();
  if (!C->Auto) {
    const std::string Text =
        "shape(" + std::to_string(C->BM) + ", " + std::to_string(C->BN) + ")";
    std::optional<TileProgram> Q =
        merged(P, C->BM, C->BN, Clause.Loc, Text, Diags);
    if (Q)
      Q->Merge.Reason = Text + ": " + std::to_string(Q->Merge.Y) + " x " +
                        std::to_string(Q->Merge.X) + " of the kernel's " +
                        shapeText(KM, KN) + " tiles";
    return Q;
  }
  // shape(auto): the first shape of the list that is a multiple of the
  // kernel's tile, merges, and plans; else the kernel's own.
  std::string FirstRefusal;
  for (auto [BM, BN] : autoTileShapes()) {
    if (BM % KM != 0 || BN % KN != 0 || (BM == KM && BN == KN))
      continue;
    DiagReporter Quiet = Diags.quiet();
    const std::string Text =
        "shape(" + std::to_string(BM) + ", " + std::to_string(BN) + ")";
    std::optional<TileProgram> Q = merged(P, BM, BN, Clause.Loc, Text, Quiet);
    std::optional<ArefGraph> G;
    if (Q)
      G = buildArefGraph(*Q, Quiet);
    if (G && planPipeline(*Q, *G, Quiet)) {
      Q->Merge.Reason = "shape(auto): " + std::to_string(Q->Merge.Y) + " x " +
                        std::to_string(Q->Merge.X) + " of the kernel's " +
                        shapeText(KM, KN) +
                        " tiles, the first of the shapes it tries "
                        "(tawa/TileShape.h) that the planner accepts" +
                        (FirstRefusal.empty() ? "" : "; " + FirstRefusal);
      return Q;
    }
    if (FirstRefusal.empty())
      FirstRefusal = shapeText(BM, BN) + " was refused: " + Quiet.lastError();
  }
  TileProgram Q = P;
  Q.Merge.KernelBM = KM;
  Q.Merge.KernelBN = KN;
  Q.Merge.Reason =
      "shape(auto): the kernel's own tile; " +
      (FirstRefusal.empty()
           ? std::string("no larger shape it tries is a multiple of it")
           : FirstRefusal);
  return Q;
}

/// The ping-pong twin of narrow kernel `K` (each consumer takes whole
/// tiles), where no clause fixes the schedule and the planner accepts it.
static std::optional<NarrowKernel> pingPongTwin(const NarrowKernel &K,
                                                DiagReporter &Diags) {
  const TilePragma &C = K.Program.Pragma;
  if (C.Schedule || (C.Cluster && *C.Cluster > 1) ||
      (C.Persistent && !*C.Persistent))
    return std::nullopt;
  TileProgram Q = K.Program;
  Q.Pragma.Schedule = {ConsumerSchedule::PingPong, C.Loc};
  DiagReporter Quiet = Diags.quiet();
  std::optional<ArefGraph> G = buildArefGraph(Q, Quiet);
  std::optional<PipelinePlan> P = G ? planPipeline(Q, *G, Quiet) : std::nullopt;
  if (!P)
    return std::nullopt;
  return NarrowKernel{std::move(Q), std::move(*G), std::move(*P)};
}

/// The cluster twin along x of ping-pong kernel `K` (NarrowTiles::
/// PingPongClusters): two CTAs take adjacent narrow parts of one tile, the
/// same rows, and share A's tile through a multicast. None where K's tiles
/// are not parts of the wide tiles side by side (TileMerge::Parts), A is
/// not a plain tile of a matrix (an im2col window, a transposed copy, B
/// itself), A is fp8 (on an H200 the fp8 GEMMs ran 3-9% slower in clusters
/// at 4096 x 256 x 8192 and 8192 x 128 x 4096, where bf16 gained,
/// results/h200/x-cluster/kinds/), the tile code does not allow a
/// cluster, or the planner refuses it.
static std::optional<NarrowKernel> clusterAlongXTwin(const NarrowKernel &K,
                                                     DiagReporter &Diags) {
  const TileProgram &P = K.Program;
  const TileLoad &A = P.Loads[P.Mmas.front().A];
  if (P.Merge.Parts < 2 || P.Merge.Across || P.Merge.RowParts > 1 ||
      K.Plan.Cluster > 1 || A.Im2col || A.TransposedCopy ||
      P.Mmas.front().A == P.Mmas.front().B || isFp8(K.Plan.Elem))
    return std::nullopt;
  DiagReporter Quiet = Diags.quiet();
  if (!checkTileCode(P, P.Pragma.Loc, "cluster(2)", Quiet))
    return std::nullopt;
  TileProgram Q = P;
  Q.Pragma.Cluster = {2, P.Pragma.Loc};
  Q.Pragma.ClusterAlongX = true;
  std::optional<ArefGraph> G = buildArefGraph(Q, Quiet);
  std::optional<PipelinePlan> Plan =
      G ? planPipeline(Q, *G, Quiet) : std::nullopt;
  if (!Plan)
    return std::nullopt;
  return NarrowKernel{std::move(Q), std::move(*G), std::move(*Plan)};
}

/// The few-rows twin of narrow kernel `K` (NarrowTiles::FewRows): the same
/// walk with CTA tiles of kFewRows rows of K's (every such part where only
/// the mma's A and the store read rows, TileMerge::RowParts, else the
/// first), one consumer warpgroup, and a ring of about K's bytes in flight,
/// kFewRowsSteps K steps to a slot.
/// None where a clause fixes the schedule or the cluster, K's tiles merge
/// along y, a load is an Im2col, the mma is 3xtf32, the store's row origin
/// does not move with blockIdx.y by K's rows plus a constant (the offset is
/// kept in the twin's Merge.RowOffset), or the planner refuses it.
static std::optional<NarrowKernel> fewRowsTwin(const NarrowKernel &K,
                                               DiagReporter &Diags) {
  const TileProgram &P = K.Program;
  const TilePragma &C = P.Pragma;
  if (C.Schedule || (C.Cluster && *C.Cluster > 1) ||
      (C.Persistent && !*C.Persistent) ||
      (C.Precision && *C.Precision == MmaPrecision::ThreeTf32) ||
      P.Merge.Y > 1 || K.Plan.BM <= kFewRows ||
      llvm::any_of(P.Loads, [](const TileLoad &L) { return L.Im2col; }))
    return std::nullopt;
  DiagReporter Quiet = Diags.quiet();
  TileProgram Q = P;
  if (!checkMoves(Q, /*X=*/false, K.Plan.BM, C.Loc, "few rows",
                  Q.Merge.RowOffset, Quiet))
    return std::nullopt;
  const unsigned A = Q.Mmas.front().A;
  Q.Loads[A].setMnExtent(kFewRows);
  Q.Acc.Rows = kFewRows;
  // Every row part of the tiles where only A and the store move with the
  // rows (the epilogue's operands read at the store's origin).
  if (Q.Loads.size() == 2 && A != Q.Mmas.front().B && K.Plan.BM % kFewRows == 0)
    Q.Merge.RowParts = K.Plan.BM / kFewRows;
  // Several K steps per slot where the loop can step by whole slots.
  Q.StepsPerSlot = steppedLoop(P.Loop) ? kFewRowsSteps : 1;
  // The clauses that arrange K's consumers describe K's tiles, not these.
  Q.Pragma.Consumers = {1, C.Loc};
  Q.Pragma.Regs = {};
  // K's stages are of K's slots; these are counted below.
  Q.Pragma.Stages = {};
  std::optional<ArefGraph> G = buildArefGraph(Q, Quiet);
  if (!G)
    return std::nullopt;
  const unsigned InFlight = K.Plan.Stages * K.Plan.StageBytes;
  std::optional<PipelinePlan> Plan;
  if (std::optional<PipelinePlan> First = planPipeline(Q, *G, Quiet)) {
    // As many stages as keep K's bytes in flight, where they fit.
    TileProgram R = Q;
    R.Pragma.Stages = {
        static_cast<int>(std::min<unsigned>(
            16, (InFlight + First->StageBytes - 1) / First->StageBytes)),
        C.Loc};
    DiagReporter Quieter = Diags.quiet();
    if (std::optional<PipelinePlan> Deep = planPipeline(R, *G, Quieter)) {
      Q = std::move(R);
      Plan = std::move(Deep);
    } else {
      Plan = std::move(First);
    }
  }
  if (!Plan)
    return std::nullopt;
  return NarrowKernel{std::move(Q), std::move(*G), std::move(*Plan)};
}

/// The cluster twin of the wide kernel `P` (NarrowTiles::Cluster), or
/// nullopt with `Why`.
static std::optional<NarrowKernel>
clusterTwin(const TileProgram &P, DiagReporter &Diags, std::string &Why) {
  const TilePragma &C = P.Pragma;
  if (C.Cluster) {
    Why = "cluster(" + std::to_string(*C.Cluster) + ") at the clause";
    return std::nullopt;
  }
  if (C.Schedule) {
    Why = "the schedule clause gives each consumer whole tiles";
    return std::nullopt;
  }
  // The CTAs of a cluster run their tiles in lockstep, and the tile past an
  // odd grid runs the kernel's code for the grid's last row: as for a merge,
  // the code before the loop may only declare values, and planning checks
  // that B's window and the trip count do not depend on blockIdx.y.
  DiagReporter Quiet = Diags.quiet();
  if (!checkTileCode(P, C.Loc, "cluster(2)", Quiet)) {
    Why = Quiet.lastError();
    return std::nullopt;
  }
  TileProgram Q = P;
  Q.Pragma.Cluster = {2, C.Loc};
  std::optional<ArefGraph> G = buildArefGraph(Q, Quiet);
  std::optional<PipelinePlan> Plan =
      G ? planPipeline(Q, *G, Quiet) : std::nullopt;
  if (!Plan) {
    Why = "cluster(2) was refused: " + Quiet.lastError();
    return std::nullopt;
  }
  return NarrowKernel{std::move(Q), std::move(*G), std::move(*Plan)};
}

/// The narrow kernel of `Width` columns of `P`, or nullopt with `Why`; an
/// explicit clause (not `Auto`) also reports why at the clause.
static std::optional<NarrowKernel>
narrowKernel(const TileProgram &P, const PipelinePlan &Plan, int Width,
             bool Auto, DiagReporter &Diags, std::string &Why) {
  const Clause<NarrowClause> &Clause = P.Pragma.Narrow;
  const std::string Text = "narrow(" + std::to_string(Width) + ")";
  if (Width >= Plan.BN) {
    Why = std::to_string(Width) + " columns are not fewer than the " +
          std::to_string(Plan.BN) + " columns of the tile";
    if (!Auto)
      Diags.error(Clause.Loc, DiagCategory::Shape, Text + ": " + Why);
    return std::nullopt;
  }
  DiagReporter Quiet = Diags.quiet();
  DiagReporter &D = Auto ? Quiet : Diags;
  const SourceLocation Loc = Clause ? Clause.Loc : P.Pragma.Loc;
  const bool Across = Plan.BN % Width != 0;
  const std::string Lead =
      Text + (Across ? " runs CTA tiles of " + std::to_string(Width) +
                           " columns across the launch's columns"
                     : " cuts the " + std::to_string(Plan.BM) + " x " +
                           std::to_string(Plan.BN) + " tiles into parts");
  TileProgram Q = P;
  const TileMma &M = Q.Mmas.front();
  // Where the width does not divide the tile, its CTA tiles straddle the
  // blocks' tiles: B's window and the store's column must move with
  // blockIdx.x by the kernel's tile width, as for a merge along x.
  TileMerge &Merge = Q.Merge;
  if (!Merge.merged()) {
    Merge.KernelBM = Plan.BM;
    Merge.KernelBN = Plan.BN;
  }
  const int BlockCols = Merge.KernelBN;
  Merge.Parts = Across ? 1 : Plan.BN / Width;
  Merge.Across = Across;
  std::optional<ArefGraph> Graph;
  std::optional<PipelinePlan> NPlan;
  if (checkTileCode(Q, Loc, Lead, D) &&
      (!Across || Merge.X > 1 ||
       checkMoves(Q, /*X=*/true, BlockCols, Loc, Lead, Merge.ColOffset, D))) {
    Q.Loads[M.B].setMnExtent(Width);
    Q.Acc.Cols = Width;
    // The choices the pragma left open are made again for the narrow tile,
    // and the ring keeps the bytes in flight a stages clause gives the
    // kernel's own: its smaller slots need more stages to cover the same
    // latency (results/README.md).
    const auto Stages = Q.Pragma.Stages;
    Q.Pragma.Stages = {};
    Graph = buildArefGraph(Q, D);
    if (Graph)
      NPlan = planPipeline(Q, *Graph, D);
    if (NPlan && Stages) {
      TileProgram R = Q;
      R.Pragma.Stages = Stages;
      R.Pragma.Stages.Value = std::min<unsigned>(
          16, (*Stages * Plan.StageBytes + NPlan->StageBytes - 1) /
                  NPlan->StageBytes);
      DiagReporter Quieter = Diags.quiet();
      if (std::optional<PipelinePlan> Scaled =
              planPipeline(R, *Graph, Quieter)) {
        Q = std::move(R);
        NPlan = std::move(Scaled);
      }
    }
  }
  if (!NPlan) {
    Why = Text + " was refused: " + Quiet.lastError();
    return std::nullopt;
  }
  return NarrowKernel{std::move(Q), std::move(*Graph), std::move(*NPlan)};
}

/// ", and as kernels of 64-row tiles ...", or nothing.
static std::string fewRowsText(const NarrowTiles &N) {
  std::vector<std::string> Widths;
  bool Steps = false, RowParts = false;
  for (const std::optional<NarrowKernel> &K : N.FewRows) {
    if (!K)
      continue;
    const PipelinePlan &Q = K->Plan;
    Steps |= Q.StepsPerSlot > 1;
    RowParts |= K->Program.Merge.RowParts > 1;
    Widths.push_back(
        llvm::formatv(
            "{0} x {1} ({2} stages{3})", Q.BM, Q.BN, Q.Stages,
            Q.StepsPerSlot > 1
                ? llvm::formatv(" of {0} K steps", Q.StepsPerSlot).str()
                : "")
            .str());
  }
  if (Widths.empty())
    return "";
  const std::string Clusters =
      !N.FewRowsClusters.empty() && N.FewRowsClusters.front()
          ? "; the first also as cluster(2) kernels, whose two CTAs take the "
            "two row parts of a tile and share B's tile through a multicast, "
            "where its tiles over the row parts fill more than half a wave "
            "and at most one, in a launch of one row of tiles or whose last "
            "part stores more than half its rows "
            "(tawa::rt::choose_row_cluster)"
          : "";
  return ", and as kernels of " + llvm::join(Widths, ", ") +
         " tiles with one consumer warpgroup, which run where every row "
         "stored lies in the first " +
         std::to_string(kFewRows) + " rows of a tile" +
         (RowParts ? ", or, over every " + std::to_string(kFewRows) +
                         "-row part of the tiles, where the last row of "
                         "tiles stores few rows, where the narrowest twin's "
                         "tiles over them fill at most a wave, or, in a "
                         "launch of at most "
                         "two rows of tiles, where the K loop is long "
                         "(tawa::rt::choose_row_parts)"
                   : "") +
         ": their smaller " +
         (Steps ? "tiles keep more of the stored rows' operands in flight, "
                  "and a slot of several K steps reads each operand row in "
                  "longer runs"
                : "slots keep more of the stored rows' operands in flight") +
         Clusters;
}

/// "; the first ping-pong kernel also in clusters along x ...", or nothing.
static std::string xClusterText(const NarrowTiles &N) {
  if (N.PingPongClusters.empty() || !N.PingPongClusters.front())
    return "";
  return "; the first ping-pong kernel also as cluster(2) kernels, whose two "
         "CTAs take adjacent column tiles and share A's tile through a "
         "multicast, where its columns of tiles are even, its tiles fill more "
         "than half a wave and at most one, and an operand's rows are an odd "
         "number of 16 bytes apart or A holds at least 32 MiB "
         "(tawa::rt::choose_x_cluster)";
}

/// "; those of 64 and 128 columns also ping-pong, ...", or nothing.
static std::string twinsText(const NarrowTiles &N) {
  std::vector<std::string> Widths;
  for (unsigned I = 0; I < N.FullRows.size(); ++I)
    if (N.FullRows[I])
      Widths.push_back(std::to_string(N.Kernels[I].Plan.BN));
  if (Widths.empty())
    return "";
  return "; " +
         (Widths.size() == 1
              ? "that of " + Widths[0]
              : "those of " +
                    llvm::join(llvm::ArrayRef(Widths).drop_back(), ", ") +
                    " and " + Widths.back()) +
         " columns also as ping-pong kernels, which run where the stored "
         "matrix has more rows than half a tile" +
         fewRowsText(N) + xClusterText(N);
}

/// narrowTiles without the cluster twin.
static std::optional<NarrowTiles> narrowKernels(const TileProgram &P,
                                                const PipelinePlan &Plan,
                                                DiagReporter &Diags) {
  NarrowTiles N;
  const Clause<NarrowClause> &Clause = P.Pragma.Narrow;
  if (Clause && Clause->Off) {
    N.Value = "off";
    N.Reason = "narrow(off) at the clause";
    return N;
  }
  const bool Auto = !Clause || Clause->Columns.empty();
  // narrow(auto): of wide 128 x 256 tiles, 64 columns were fastest at up to
  // a quarter wave, 128 up to half a wave, 192 up to three quarters
  // (results/README.md); 144 fills a wave where 128 takes more than one and
  // 192 leaves SMs idle, as cuBLAS's 128 x 144 tiles do: 1536^3 ran 1.18x
  // faster so, 2560^3 1.10x; 208 fills one where 192 takes more and the wide
  // tiles leave a quarter of the SMs idle: 1792^3 1.11x faster, 1792 x 1792 x
  // 8192 1.14x (H200, results/h200/fixed-cost/). 160, 176, 224 and 240 were
  // no faster on the launches that would run them (more-widths/).
  std::vector<int> Widths;
  if (!Auto)
    Widths = Clause->Columns;
  else
    for (int Width : {64, 128, 144, 192, 208})
      if (Width < Plan.BN)
        Widths.push_back(Width);
  if (Widths.empty()) {
    N.Value = "none";
    N.Reason = "the tile's " + std::to_string(Plan.BN) +
               " columns are not more than 64";
    return N;
  }
  // narrow(auto): the first width refused says why; the others are named.
  std::string Refused, AlsoRefused;
  for (int Width : Widths) {
    std::string Why;
    if (std::optional<NarrowKernel> K =
            narrowKernel(P, Plan, Width, Auto, Diags, Why))
      N.Kernels.push_back(std::move(*K));
    else if (!Auto)
      return std::nullopt;
    else if (Refused.empty())
      Refused = Why;
    else
      AlsoRefused += (AlsoRefused.empty() ? "" : ", ") + std::to_string(Width);
  }
  if (!AlsoRefused.empty())
    Refused += "; narrow(" + AlsoRefused + ") was refused too";
  if (N.Kernels.empty()) {
    N.Value = "none";
    N.Reason = Refused;
    return N;
  }
  // narrow(auto): a ping-pong twin of each kernel of at most 128 columns the
  // planner accepts it for, for tiles of more than half their rows
  // (results/h100/small-shapes/; wider twins were not measured, and 192
  // columns hold too many accumulators for one consumer). Where there is
  // one, also a twin of 64-row tiles for launches whose stored rows all lie
  // in the first 64 rows of the tiles.
  if (Auto)
    for (const NarrowKernel &K : N.Kernels) {
      N.FullRows.push_back(K.Plan.BN <= 128 ? pingPongTwin(K, Diags)
                                            : std::nullopt);
      N.FewRows.push_back(N.FullRows.back() ? fewRowsTwin(K, Diags)
                                            : std::nullopt);
    }
  // The cluster twin along x of the narrowest kernel's ping-pong twin: the
  // other widths' were not measured.
  if (!N.FullRows.empty() && N.FullRows.front())
    N.PingPongClusters.push_back(clusterAlongXTwin(*N.FullRows.front(), Diags));
  // The cluster twin of the narrowest kernel's few-rows twin over two row
  // parts only: those of wider tiles ran slower in clusters on every launch
  // measured (results/h200/row-cluster/), and with more row parts a cluster
  // would pair parts of different tiles, which was not measured.
  if (!N.FewRows.empty() && N.FewRows.front() &&
      N.FewRows.front()->Program.Merge.RowParts == 2) {
    std::string Ignored;
    N.FewRowsClusters.push_back(
        clusterTwin(N.FewRows.front()->Program, Diags, Ignored));
  }
  std::string Columns;
  for (const NarrowKernel &K : N.Kernels) {
    const TileMerge &M = K.Program.Merge;
    N.Value += (N.Value.empty() ? "" : ", ") + std::to_string(Plan.BM) + " x " +
               std::to_string(K.Plan.BN) + " (" +
               (M.Across ? std::string("across the launch's columns")
                         : std::to_string(M.Parts) + " parts of each tile") +
               ")";
    Columns += (Columns.empty() ? "" : ", ") + std::to_string(K.Plan.BN);
  }
  N.Reason =
      (Auto ? std::string("default")
            : "narrow(" + Columns + ") at the clause") +
      (N.Kernels.size() == 1 ? ": a second kernel" : ": further kernels") +
      "; the launch runs the narrowest whose tiles fill at most one "
      "wave of the SMs, else, where the wide tiles fill at most half "
      "a wave, the widest; a launch of more than a wave, one of at least "
      "half the width whose waves are 15% shorter "
      "(tawa/runtime/schedule.cuh)" +
      twinsText(N) + (Refused.empty() ? "" : "; " + Refused);
  return N;
}

std::optional<NarrowTiles> narrowTiles(const TileProgram &P,
                                       const PipelinePlan &Plan,
                                       DiagReporter &Diags) {
  std::optional<NarrowTiles> N = narrowKernels(P, Plan, Diags);
  if (!N)
    return std::nullopt;
  std::string Why;
  N->Cluster = clusterTwin(P, Diags, Why);
  if (!N->Cluster) {
    N->ClusterValue = "none -- " + Why;
    return N;
  }
  std::string Widths;
  for (unsigned I = 0; I < N->Kernels.size(); ++I) {
    std::string Ignored;
    const bool PingPong = I < N->FullRows.size() && N->FullRows[I];
    N->Clusters.push_back(
        PingPong ? std::nullopt
                 : clusterTwin(N->Kernels[I].Program, Diags, Ignored));
    if (N->Clusters.back())
      Widths += ", " + std::to_string(N->Kernels[I].Plan.BN);
  }
  N->ClusterValue =
      "cluster(2) kernels of " + std::to_string(Plan.BN) + Widths +
      " columns -- run instead of the kernel of the same tile where an "
      "operand's rows are an odd number of 16 bytes apart (L2-bound: five "
      "32-byte sectors read for four); two CTAs share B's tile through a "
      "multicast (tawa/runtime/schedule.cuh, choose_cluster)";
  return N;
}

} // namespace tawa
