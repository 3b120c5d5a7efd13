//===- Emitter.cpp - writing the warp-specialized kernel ------------------===//
#include "tawa/Emitter.h"
#include "tawa/EmitText.h"
#include "tawa/GemmEpilogue.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <memory>

using namespace clang;
using llvm::formatv;

namespace tawa {
namespace {

/// The name of the tensor map parameter of load `L`.
std::string tensorMapName(const TileProgram &P, unsigned L) {
  const ParmVarDecl *M = P.Loads[L].Matrix;
  unsigned Uses =
      llvm::count_if(P.Loads, [&](const TileLoad &T) { return T.Matrix == M; });
  return (Uses == 1 ? M->getName().str() : P.Loads[L].Var) + "_tensor_map";
}

/// The kernel's source text from the start of the body to the pragma's line,
/// without the accumulator declaration: what every role runs first.
std::string prologueText(const TileProgram &P, const SourceManager &SM,
                         const LangOptions &LO) {
  auto *Body = cast<CompoundStmt>(P.Kernel->getBody());
  SourceLocation Begin =
      SM.getExpansionLoc(Body->getLBracLoc()).getLocWithOffset(1);
  SourceLocation Pragma = SM.getExpansionLoc(P.Pragma.Loc);
  FileID FID = SM.getFileID(Pragma);
  unsigned PragmaLine = SM.getExpansionLineNumber(Pragma);
  SourceLocation End = SM.translateLineCol(FID, PragmaLine, 1);
  StringRef Buffer = SM.getBufferData(FID);
  unsigned B = SM.getFileOffset(Begin), E = SM.getFileOffset(End);
  CharSourceRange AccRange = SM.getExpansionRange(P.Acc.Stmt->getSourceRange());
  unsigned AB = SM.getFileOffset(AccRange.getBegin());
  unsigned AE = SM.getFileOffset(
      Lexer::getLocForEndOfToken(AccRange.getEnd(), 0, SM, LO));
  // Drop the declaration's whole line when it stands alone on it.
  while (AB > B && (Buffer[AB - 1] == ' ' || Buffer[AB - 1] == '\t'))
    --AB;
  if (AE < E && Buffer[AE] == '\n')
    ++AE;
  std::string Text = (Buffer.slice(B, AB) + Buffer.slice(AE, E)).str();
  StringRef T(Text);
  T = T.ltrim("\n").rtrim(" \t");
  return T.str();
}

} // namespace

std::vector<std::string> emittedNames(const TileProgram &P,
                                      const ArefGraph &G) {
  // Locals and parameters of the emitted kernel and launcher.
  std::vector<std::string> N = {"kStages",
                                "kConsumers",
                                "kCluster",
                                "tawa_smem",
                                "smem",
                                "consumer",
                                "slot",
                                "t",
                                "tile",
                                "schedule",
                                "k_steps",
                                "k_iter",
                                "tawa_k",
                                "tawa_step",
                                "tawa_first_slot",
                                "walk",
                                "work",
                                "split_tail",
                                "tma_store",
                                "ctas",
                                "rank",
                                "maps",
                                "noted",
                                "grid",
                                "block",
                                "shared",
                                "stream",
                                "shared_bytes",
                                "part",
                                "row_part",
                                "tawa_box_row",
                                "trips",
                                "narrow",
                                "turn",
                                "idle",
                                "tawa_acc",
                                "tawa_row",
                                "tawa_col",
                                "tawa_by_col",
                                "tawa_by_row",
                                P.Store.Matrix->getName().str() + "_store_map"};
  for (const Aref &A : G.Arefs) {
    N.push_back(A.Name);
    N.push_back(A.Name + "_release");
  }
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    N.push_back(tensorMapName(P, L));
    N.push_back(tensorMapName(P, L) + "_edge");
    N.push_back(P.Loads[L].Matrix->getName().str() + "_aligned");
    N.push_back(P.Loads[L].Matrix->getName().str() + "_transposed");
  }
  N.push_back("copies");
  N.push_back("cluster_twin");
  return N;
}

namespace {

/// Writes the replacement of one kernel: the kernel as written (the
/// fallback), the shared storage, the warp-specialized kernel and its
/// launcher, in that order.
class KernelEmitter {
public:
  KernelEmitter(const TileProgram &P, const ArefGraph &G,
                const PipelinePlan &Plan, const SourceManager &SM,
                const LangOptions &LO, const std::string &Suffix = "");
  /// The kernel's text; `Narrow`: the emitters of its narrow kernels,
  /// narrowest first, whose texts (kernel and launcher) come before this
  /// launcher, which runs one where it pays. A narrow kernel's own text has
  /// no copy of the kernel as written.
  /// `Twins`: their ping-pong twins, at the same index (null: none).
  /// `Clusters`: their cluster twins, at the same index (null: none), and
  /// `Cluster` that of this kernel (NarrowTiles::Cluster). `FewRows`: their
  /// few-rows twins, at the same index (null: none); a narrow kernel whose
  /// twins leave it no launch (every row count goes to one of them) is not
  /// written. `FewClusters`: the few-rows twins' cluster twins, at the same
  /// index (null: none); `TwinClusters` the ping-pong twins' cluster twins
  /// along x. Only the kernel without a suffix has the copy of the kernel
  /// as written.
  std::string
  run(llvm::ArrayRef<std::unique_ptr<KernelEmitter>> Narrow = {},
      llvm::ArrayRef<std::unique_ptr<KernelEmitter>> Twins = {},
      llvm::ArrayRef<std::unique_ptr<KernelEmitter>> Clusters = {},
      KernelEmitter *Cluster = nullptr,
      llvm::ArrayRef<std::unique_ptr<KernelEmitter>> FewRows = {},
      llvm::ArrayRef<std::unique_ptr<KernelEmitter>> FewClusters = {},
      llvm::ArrayRef<std::unique_ptr<KernelEmitter>> TwinClusters = {}) {
    if (K == Base)
      reference();
    storage();
    kernelHead();
    producer();
    consumers();
    for (unsigned I = 0; I < Narrow.size(); ++I) {
      const std::unique_ptr<KernelEmitter> &N = Narrow[I];
      const KernelEmitter *Few =
          I < FewRows.size() && I < Twins.size() && Twins[I] ? FewRows[I].get()
                                                             : nullptr;
      // The few-rows twin runs up to its row limit, the ping-pong twin past
      // half a tile: with a limit of at least that, N never runs.
      const long long FewLimit = Few ? Few->P.Merge.RowOffset + kFewRows : 0;
      const bool Unused = Few && FewLimit >= Plan.BM / 2;
      if (!Unused)
        Out += N->run() + "\n";
      std::string Twin, FewTwin;
      std::string TwinCluster, TwinWalk;
      if (I < Twins.size() && Twins[I]) {
        Out += Twins[I]->run() + "\n";
        Twin = Twins[I]->K + "_launch";
        if (I < TwinClusters.size() && TwinClusters[I]) {
          Out += TwinClusters[I]->run() + "\n";
          TwinCluster = TwinClusters[I]->K + "_launch";
          TwinWalk = Twins[I]->schedule();
        }
      }
      if (Few) {
        Out += FewRows[I]->run() + "\n";
        FewTwin = FewRows[I]->K + "_launch";
      }
      std::string ClusterTwin;
      if (I < Clusters.size() && Clusters[I]) {
        Out += Clusters[I]->run() + "\n";
        ClusterTwin = Clusters[I]->K + "_launch";
      }
      NarrowLaunches.push_back({Unused ? "" : N->K + "_launch", N->Plan.BN,
                                Twin, ClusterTwin, FewTwin, FewLimit});
      NarrowLaunches.back().TwinCluster = TwinCluster;
      NarrowLaunches.back().TwinWalk = TwinWalk;
      if (Few) {
        NarrowLaunch &L = NarrowLaunches.back();
        if (I < FewClusters.size() && FewClusters[I]) {
          Out += FewClusters[I]->run() + "\n";
          L.FewCluster = FewClusters[I]->K + "_launch";
        }
        L.RowParts = Few->P.Merge.RowParts;
        L.FewWalk = Few->schedule();
        L.PartRows = Few->Plan.BM;
        L.TileRows = Few->P.Merge.KernelBM;
        L.RowOffset = Few->P.Merge.RowOffset;
      }
      if (N->P.Merge.Across)
        StoreColOffset = N->P.Merge.ColOffset;
    }
    if (Cluster) {
      Out += Cluster->run() + "\n";
      ClusterLaunch = Cluster->K + "_launch";
    }
    launcher();
    return Out;
  }

private:
  void reference();
  void storage();
  void kernelHead();
  void producer();
  void splitWarps();
  void consumers();
  void epilogueOperands(const std::string &Row0);
  void epilogueOps(const std::string &Row0);
  void launcher();
  void narrowChoice();
  bool xClusterChoice();
  std::string fewerColumnsArguments(bool XClusterFirst) const;
  std::string rowPartsChoice(bool Trips);
  std::string fewRowsArgument() const;
  void clusterChoice();
  std::string oddPitch() const;
  void narrowDispatch();
  std::string schedule() const;

  /// Whether this is a few-rows twin (NarrowTiles::FewRows): CTA tiles of
  /// the first rows of the kernel's.
  bool fewRows() const {
    return !P.Merge.merged() && P.Merge.KernelBM > Plan.BM;
  }
  /// The text of `E` with the block coordinates read from the tile walk.
  std::string coord(const Expr *E) const {
    return renameBuiltins(exprText(E, SM, LO), LO);
  }
  /// The M (or N) origin of load `L`'s window; the B of the mma's moves by
  /// the part's columns of a narrow tile.
  std::string mnOriginOf(unsigned L) const {
    const TileLoad &T = P.Loads[L];
    const bool Part = P.Merge.narrow() && L == Mma.B;
    const bool RowPart = P.Merge.RowParts > 1 && L == Mma.A;
    if (!Part && !RowPart)
      return coord(T.mnOrigin());
    return formatv("{0} + {1} * {2}",
                   parenthesized(coord(T.mnOrigin()), T.mnOrigin()),
                   Part ? "part" : "row_part", T.mnExtent())
        .str();
  }
  /// The row origin of the store, moved by the row part's rows.
  std::string storeRow() const {
    const std::string Row0 = parenthesized(coord(P.Store.Row0), P.Store.Row0);
    if (P.Merge.RowParts == 1)
      return Row0;
    return formatv("{0} + row_part * {1}", Row0, Plan.BM).str();
  }
  /// The column origin of the store, moved by the part's columns.
  std::string storeCol() const {
    if (!P.Merge.narrow())
      return coord(P.Store.Col0);
    return formatv("{0} + part * {1}",
                   parenthesized(coord(P.Store.Col0), P.Store.Col0), Plan.BN)
        .str();
  }
  /// Whether load `L` comes in edge boxes (tawa/runtime/edge_boxes.cuh): the
  /// mma's A, K-major and loaded in the K loop of a kernel without a
  /// cluster, whose M origin is the store's
  /// row origin, so that its rows past A's end meet accumulator rows stored
  /// only past the stored matrix's last row, which the launcher checks
  /// (make_edge_maps' `stored`). B keeps whole boxes: on the H100 its edge
  /// boxes gained nothing where N ends inside a tile (1000^3, 3000^3,
  /// 777 x 1555 x 2333) and 4096 x 16 x 4096 ran in 26.3 us against 21.7
  /// with them, where A's took 160 x 4096 x 4096 from 34.7 to 27.3 us
  /// (results/h100/edge-boxes/).
  bool edgeBoxes(unsigned L) const {
    const TileLoad &T = P.Loads[L];
    // Cluster kernels keep whole boxes: the edge loads' registers made one
    // of 240 registers per thread spill (test/nvcc/variants.test).
    // Boxes of at most 64 rows have fewer rows past the end than edge boxes
    // need to pay (edgeMinPast).
    if (L != Mma.A || Mma.A == Mma.B || T.MnMajor || T.Where != Region::Loop ||
        Clustered || T.Im2col || T.Rows <= 64)
      return false;
    return coord(T.mnOrigin()) == coord(P.Store.Row0);
  }
  /// Whether load `L` is a shifted box (tawa::rt::box_row, in
  /// tawa/runtime/edge_boxes.cuh): the mma's A, K-major and loaded in the K
  /// loop, not in edge boxes, in boxes of at most 64 rows, whose M origin is
  /// the store's row origin and whose rows are the tile's. The 128-row boxes
  /// of cluster kernels keep their rows past the end: there the tile's store
  /// without TMA cost more than the fill (1000^3 on the H200, 2-4% slower,
  /// results/h200/sweep/run3/). Where the box would reach past A's end it is
  /// loaded from A's last rows; accumulator row i is then row
  /// `tawa_box_row + i` of A and of the stored matrix, and the rows before
  /// the tile's own are not stored.
  bool shiftedBox(unsigned L) const {
    const TileLoad &T = P.Loads[L];
    return L == Mma.A && Mma.A != Mma.B && !Plan.ClusterAlongX && !T.MnMajor &&
           !T.Im2col && !T.TransposedCopy && T.Where == Region::Loop &&
           !edgeBoxes(L) && T.Rows <= 64 && T.Rows == Plan.BM &&
           coord(T.mnOrigin()) == coord(P.Store.Row0);
  }
  /// The row at which load `L`'s box is loaded: its M (or N) origin, or the
  /// shifted box's row.
  std::string boxRow(unsigned L) const {
    if (!shiftedBox(L))
      return mnOriginOf(L);
    return formatv("tawa::rt::box_row<{0}>({1}, {2}.rows, {3}.rows)",
                   P.Loads[L].Rows, mnOriginOf(L), coord(P.Loads[L].MatrixArg),
                   coord(P.Store.MatrixArg))
        .str();
  }
  /// The rows of a box that must lie past the operand's end for its edge
  /// boxes to be loaded (make_edge_maps' `min_past`,
  /// tawa/runtime/edge_boxes.cuh): 64 where each consumer takes whole tiles
  /// of fewer columns than rows, else 0.
  int edgeMinPast() const {
    return Plan.PingPong && Plan.BN < Plan.BM ? 64 : 0;
  }
  /// The name of the edge maps of load `L`.
  std::string edgeMapsName(unsigned L) const {
    return tensorMapName(P, L) + "_edge";
  }
  /// The load a cluster's CTAs share through multicasts: the mma's A where
  /// they lie along x, else its B.
  unsigned shared() const { return Plan.ClusterAlongX ? Mma.A : Mma.B; }
  /// With narrow tiles, the part of the tile of unit `Unit`.
  void partLine(const char *Unit) {
    if (P.Merge.narrow())
      W.line(formatv("const int part = schedule.part({0}{1});", Unit,
                     Plan.ClusterAlongX ? ", rank" : "")
                 .str());
    if (P.Merge.RowParts > 1)
      W.line(formatv("const int row_part = schedule.row_part({0}{1});", Unit,
                     Clustered ? ", rank" : "")
                 .str());
  }
  void tileLoop(const char *Comment, const char *Increment = "");
  void kLoop();
  void release(const char *Condition);
  /// StepsPerSlot > 1: " + tawa_step * <elements of one step's tile L>",
  /// the tile of the current step in the slot; else "".
  std::string stepOffset(unsigned L) const;
  /// StepsPerSlot > 1: opens the loop over the K steps of one slot, which
  /// declares the tile loop's variable and leaves at the loop's end.
  void stepLoop();

  const TileProgram &P;
  const PipelinePlan &Plan;
  const SourceManager &SM;
  const LangOptions &LO;
  const TileMma &Mma;
  const Aref &R;
  /// The kernel's name, and that of the kernel emitted (with the suffix).
  const std::string Base, K, Storage, Slot, StoreMap;
  const bool Clustered;
  /// The kernel's parameters as written, without their default arguments
  /// (the kernel's signature) and with them (the launcher's, where they
  /// trail and are evaluated in the kernel's namespace).
  std::string Where, Params, LauncherParams;
  std::vector<std::string> ParamNames;
  std::string Prologue; ///< the user's code before the loop, renamed
  std::string Header;   ///< the loop header, renamed
  /// StepsPerSlot > 1 (steppedLoop): the header stepping by whole slots, the
  /// declaration of the loop's variable at a step of the slot, and the
  /// loop's condition.
  std::string SlotHeader, StepDecl, StepCond;
  /// The launchers of the narrow kernels and their CTA tiles' columns,
  /// narrowest first.
  struct NarrowLaunch {
    std::string Launch;  ///< the launcher's name
    int Cols;            ///< its CTA tiles' columns
    std::string Twin;    ///< the ping-pong twin's launcher, or empty
    std::string Cluster; ///< the cluster twin's launcher, or empty
    std::string Few;     ///< the few-rows twin's launcher, or empty
    long long FewLimit;  ///< the stored rows up to which Few may run
    /// Few's row parts (TileMerge::RowParts; 1: the first rows only), the
    /// rows of each and of the whole tile, and the store's row offset.
    int RowParts = 1, PartRows = 0, TileRows = 0;
    long long RowOffset = 0;
    std::string FewCluster; ///< Few's cluster twin's launcher, or empty
    /// With row parts, Few's walk over them (a TileSchedule expression).
    std::string FewWalk;
    /// Twin's cluster twin along x and Twin's walk, or empty.
    std::string TwinCluster, TwinWalk;
  };
  /// Whether a narrow kernel's few-rows twin walks every row part of its
  /// tiles, so the launcher may run it for any rows.
  bool rowParts() const {
    return llvm::any_of(NarrowLaunches,
                        [](const NarrowLaunch &L) { return L.RowParts > 1; });
  }
  /// The mask of the narrow kernels whose few-rows twins do.
  unsigned rowPartKernels() const {
    unsigned Mask = 0;
    for (unsigned I = 0; I < NarrowLaunches.size(); ++I)
      if (NarrowLaunches[I].RowParts > 1)
        Mask |= 1u << I;
    return Mask;
  }
  std::vector<NarrowLaunch> NarrowLaunches;
  std::string ClusterLaunch; ///< the cluster twin's launcher, or empty
  /// The store's column offset, which a narrow kernel that walks across the
  /// columns finds (TileMerge::ColOffset); 0 without one.
  long long StoreColOffset = 0;
  std::string Out;
  Writer W{Out};
};

KernelEmitter::KernelEmitter(const TileProgram &P, const ArefGraph &G,
                             const PipelinePlan &Plan, const SourceManager &SM,
                             const LangOptions &LO, const std::string &Suffix)
    : P(P), Plan(Plan), SM(SM), LO(LO), Mma(P.Mmas.front()),
      R(G.Arefs[G.ArefOfLoad[Mma.A]]), Base(P.Kernel->getNameAsString()),
      K(Base + Suffix), Storage(K + "_shared"), Slot(R.Name + "_slot"),
      StoreMap(P.Store.Matrix->getName().str() + "_store_map"),
      Clustered(Plan.Cluster > 1) {
  Where = P.Where;
  for (const ParmVarDecl *PV : P.Kernel->parameters()) {
    // Without a default argument: parameters follow in both signatures.
    SourceRange Range = PV->hasDefaultArg()
                            ? SourceRange(PV->getBeginLoc(), PV->getLocation())
                            : PV->getSourceRange();
    Params += (Params.empty() ? "" : ", ") + sourceText(Range, SM, LO);
    LauncherParams += (LauncherParams.empty() ? "" : ", ") +
                      sourceText(PV->getSourceRange(), SM, LO);
    ParamNames.push_back(PV->getNameAsString());
  }
  // The user's code, with the block coordinates of the original launch read
  // from the tile of the walk.
  Prologue = StringRef(renameBuiltins(prologueText(P, SM, LO), LO))
                 .rtrim("\n \t")
                 .str();
  Header = renameBuiltins(
      sourceText(SourceRange(P.Loop->getForLoc(), P.Loop->getRParenLoc()), SM,
                 LO),
      LO);
  if (Plan.StepsPerSlot > 1) {
    const SteppedLoop L = *steppedLoop(P.Loop);
    auto Text = [&](const Expr *E) {
      return renameBuiltins(exprText(E, SM, LO), LO);
    };
    const std::string Type = L.Var->getType().getAsString(PrintingPolicy(LO));
    const std::string Op = L.Inclusive ? "<=" : "<";
    const std::string Var = L.Var->getNameAsString();
    SlotHeader = formatv("for ({0} tawa_k = {1}; tawa_k {2} {3}; tawa_k += "
                         "{4} * ({5}))",
                         Type, Text(L.Init), Op, Text(L.Bound),
                         Plan.StepsPerSlot, Text(L.Step))
                     .str();
    StepDecl = formatv("const {0} {1} = tawa_k + tawa_step * ({2});", Type, Var,
                       Text(L.Step))
                   .str();
    StepCond = formatv("{0} {1} {2}", Var, Op, Text(L.Bound)).str();
  }
}

/// Opens the loop over the tiles of the walk and runs the prologue in it.
/// `Increment` is added to the loop's increment expression.
void KernelEmitter::tileLoop(const char *Comment, const char *Increment) {
  if (Comment)
    W.line(Comment);
  if (Clustered) {
    W.open(formatv("for (int t = blockIdx.x / kCluster; t < schedule.count(); "
                   "t += gridDim.x / kCluster{0})",
                   Increment)
               .str());
    W.line("const uint3 tile = schedule.tile(t, rank);");
    partLine("t");
  } else if (Plan.SplitTail) {
    // `k_iter` holds the trips of the last whole tile when the walk reaches
    // its last partial wave, where it decides the split.
    W.line("// Whole tiles, then the last partial wave, split by K where the "
           "launch found it pays (tawa/runtime/split_tail.cuh).");
    if (Plan.CountTrips) {
      W.line("// Every tile runs this K loop: counted first, its trips let a "
             "launch of fewer tiles than CTAs split them all.");
      W.line("int trips = 0;");
      W.open(Plan.StepsPerSlot > 1 ? SlotHeader : Header);
      W.line("++trips;");
      W.close();
    }
    W.line(formatv("const tawa::rt::SplitTailWalk<{0}> walk(split_tail, "
                   "schedule.count());",
                   Plan.BK * Plan.StepsPerSlot)
               .str());
    W.line("int k_iter = 0;");
    W.open(formatv("for (tawa::rt::TileWork work = walk.first({0}); "
                   "walk.valid(work); walk.advance(work, k_iter))",
                   Plan.CountTrips ? "trips" : "")
               .str());
    W.line("const uint3 tile = schedule.tile(work.unit);");
    partLine("work.unit");
  } else {
    W.open(formatv("for (int t = blockIdx.x; t < schedule.count(); t += "
                   "gridDim.x{0})",
                   Increment)
               .str());
    W.line("const uint3 tile = schedule.tile(t);");
    partLine("t");
  }
  if (!Prologue.empty())
    Out += Prologue + "\n";
}

/// Opens the tile loop (the K loop); with the split tail, it runs only
/// iterations [work.k_begin, work.k_end).
void KernelEmitter::kLoop() {
  const std::string &Loop = Plan.StepsPerSlot > 1 ? SlotHeader : Header;
  if (!Plan.SplitTail) {
    W.open(Loop);
    return;
  }
  W.line("k_iter = 0;");
  W.open(Loop);
  W.open("if (k_iter++ < work.k_begin)");
  W.line("continue;");
  W.close();
  W.open("if (k_iter > work.k_end)");
  W.line("break;");
  W.close();
}

std::string KernelEmitter::stepOffset(unsigned L) const {
  if (Plan.StepsPerSlot == 1)
    return "";
  return formatv(" + tawa_step * {0} * {1}", P.Loads[L].Rows, P.Loads[L].Cols)
      .str();
}

void KernelEmitter::stepLoop() {
  W.line("#pragma unroll");
  W.open(formatv("for (int tawa_step = 0; tawa_step < {0}; ++tawa_step)",
                 Plan.StepsPerSlot)
             .str());
  W.line(StepDecl);
  W.open("if (!(" + StepCond + "))");
  W.line("break;");
  W.close();
}

/// Releases the slot of the wgmma group that has completed.
void KernelEmitter::release(const char *Condition) {
  W.open(Condition);
  W.line(formatv("smem.{0}_aref.{1}({0}_release);", R.Name,
                 Clustered ? "consumed_in_cluster<kCluster>" : "consumed")
             .str());
  W.line(R.Name + "_release.advance();");
  W.close();
}

/// The kernel as written, for data TMA cannot address.
void KernelEmitter::reference() {
  W.line(formatv("/// {0} as written (the portable tile code of tawa/tile.h): "
                 "{0}_launch runs it where TMA cannot address the data "
                 "(unaligned addresses or leading dimensions).",
                 K)
             .str());
  Out += referenceKernelText(P, SM, LO) + "\n\n";
}

/// The shared storage: the aref ring, its barriers, the epilogue staging.
void KernelEmitter::storage() {
  std::string Tiles;
  for (unsigned I = 0; I < R.Loads.size(); ++I) {
    const TileLoad &T = P.Loads[R.Loads[I]];
    Tiles += formatv("{0}{1}: {2} x {3}", I ? ", " : "", T.Var, T.Rows, T.Cols);
    if (T.MnMajor)
      Tiles += formatv(" as {0} box{1} of {2} x 64", T.Cols / 64,
                       T.Cols == 64 ? "" : "es", T.Rows);
  }
  const std::string Steps =
      Plan.StepsPerSlot > 1
          ? formatv("{0} K steps of ", Plan.StepsPerSlot).str()
          : std::string();
  W.line(
      formatv("/// Shared memory of {0}: aref `{1}`, {2} stages of {5}{{{3}} "
              "({4} bytes each).",
              K, R.Name, Plan.Stages, Tiles, R.BytesPerSlot * Plan.StepsPerSlot,
              Steps)
          .str());
  W.open("struct " + Storage);
  W.open("struct " + Slot);
  for (unsigned L : R.Loads)
    W.line(formatv("alignas(1024) {0} {1}[{4}{2} * {3}];",
                   cxxElement(P.Loads[L].Elem), P.Loads[L].Var, P.Loads[L].Rows,
                   P.Loads[L].Cols,
                   Plan.StepsPerSlot > 1
                       ? std::to_string(Plan.StepsPerSlot) + " * "
                       : std::string())
               .str());
  if (Plan.ThreeTf32) {
    W.line("// precision(3xtf32): the tf32 low parts of the tiles, whose high "
           "parts replace them.");
    for (unsigned L : R.Loads)
      W.line(formatv("alignas(1024) float {0}_low[{1} * {2}];", P.Loads[L].Var,
                     P.Loads[L].Rows, P.Loads[L].Cols)
                 .str());
  }
  W.close(";");
  W.line(formatv("{0} {1}[{2}];", Slot, R.Name, Plan.Stages).str());
  W.line(formatv("tawa::rt::Aref<{0}> {1}_aref;", Plan.Stages, R.Name).str());
  if (Plan.ThreeTf32)
    W.line(
        formatv("tawa::rt::SplitBarriers<{0}> {1}_split;", Plan.Stages, R.Name)
            .str());
  if (Plan.TmaStore)
    W.line(formatv("tawa::rt::EpilogueStaging<{0}, {1}, {2}> epilogue[{3}];",
                   cxxElement(P.Store.Elem), 64 * Plan.MTiles,
                   Plan.StagingBuffers, Plan.Consumers)
               .str());
  W.close(";");
  W.line();
}

/// The kernel's signature, barrier set-up and role split.
void KernelEmitter::kernelHead() {
  W.line(formatv("/// {0}, warp-specialized by tawa-rewrite from `#pragma tawa "
                 "tile` at {1}:",
                 K, Where)
             .str());
  W.line(formatv("/// warpgroup 0 produces aref `{0}` with TMA; {1} consume{2} "
                 "it with",
                 R.Name,
                 Plan.Consumers == 1
                     ? std::string("warpgroup 1")
                     : formatv("warpgroups 1-{0}", Plan.Consumers).str(),
                 Plan.Consumers == 1 ? "s" : "")
             .str());
  // The wgmma shape: K of 32 bytes per instruction (PTX ISA 9.7.15.5.1).
  const std::string Shape =
      formatv("m64n{0}k{1}", Plan.BN, 32 / elementBytes(Plan.Elem)).str() +
      (Plan.ThreeTf32 ? " (three per step: precision(3xtf32))" : "");
  if (Plan.PingPong)
    W.line(formatv("/// wgmma {2} in turns, each the whole {1} x {0} "
                   "accumulator of alternate tiles.",
                   Plan.BN, Plan.BM, Shape)
               .str());
  else
    W.line(formatv("/// wgmma {4}, {1} rows of the {2} x {3} accumulator each.",
                   Plan.BN, 64 * Plan.MTiles, Plan.BM, Plan.BN, Shape)
               .str());
  if (P.Merge.Across)
    W.line(formatv("/// Narrow tiles: CTA tiles of {0} x {1} side by side "
                   "across the columns of the original launch, for launches "
                   "of few tiles.",
                   Plan.BM, Plan.BN)
               .str());
  else if (P.Merge.Parts > 1 && fewRows() && P.Merge.RowParts > 1)
    W.line(formatv("/// Narrow tiles of few rows: each block's tile of the "
                   "original launch is {0} CTA tiles of {1} x {2}, which this "
                   "kernel computes in {3} parts of {4} rows (row_part), for "
                   "launches of at most {4} rows or whose last row of tiles "
                   "stores few.",
                   P.Merge.Parts, P.Merge.KernelBM, Plan.BN, P.Merge.RowParts,
                   Plan.BM)
               .str());
  else if (P.Merge.Parts > 1 && fewRows())
    W.line(formatv("/// Narrow tiles of few rows: each block's tile of the "
                   "original launch is {0} CTA tiles of {1} x {2}, of which "
                   "this kernel computes the first {3} rows, for launches "
                   "that store no others.",
                   P.Merge.Parts, P.Merge.KernelBM, Plan.BN, Plan.BM)
               .str());
  else if (P.Merge.Parts > 1)
    W.line(formatv("/// Narrow tiles: each block's tile of the original launch "
                   "is {0} CTA tiles of {1} x {2}, for launches of few tiles.",
                   P.Merge.Parts, Plan.BM, Plan.BN)
               .str());
  std::string Maps;
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    Maps += ",\n    const __grid_constant__ CUtensorMap " + tensorMapName(P, L);
    if (edgeBoxes(L))
      Maps += ",\n    const __grid_constant__ tawa::rt::EdgeMaps " +
              edgeMapsName(L);
  }
  if (Plan.TmaStore)
    Maps += ",\n    const __grid_constant__ CUtensorMap " + StoreMap +
            ", const bool tma_store";
  Maps += ",\n    const tawa::rt::TileSchedule schedule";
  if (Plan.SplitTail)
    Maps += ",\n    const tawa::rt::SplitTail split_tail";
  W.line(formatv("{0}__global__ void __launch_bounds__({1}, 1)",
                 P.Kernel->getStorageClass() == SC_Static ? "static " : "",
                 Plan.Threads)
             .str());
  W.open(formatv("{0}({1}{2})", K, Params, Maps).str());
  W.line(formatv("constexpr int kStages = {0};", Plan.Stages).str());
  W.line(formatv("constexpr int kConsumers = {0};", Plan.Consumers).str());
  if (Clustered)
    W.line(formatv("constexpr int kCluster = {0};", Plan.Cluster).str());
  W.line("extern __shared__ unsigned char tawa_smem[];");
  W.line(
      formatv("{0} &smem = tawa::rt::shared_storage<{0}>(tawa_smem);", Storage)
          .str());
  W.open("if (threadIdx.x == 0)");
  W.line("// The tensor maps reach the cache TMA reads them from while the "
         "barriers are set up.");
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    W.line(formatv("tawa::rt::prefetch_tensor_map(&{0});", tensorMapName(P, L))
               .str());
  if (Plan.TmaStore)
    W.line(
        formatv("if (tma_store) tawa::rt::prefetch_tensor_map(&{0});", StoreMap)
            .str());
  if (Plan.PingPong && Clustered) {
    W.line("// One consumer reads each slot, in every CTA of the cluster.");
    W.line(
        formatv("smem.{0}_aref.init(/*consumer_arrivals=*/kCluster);", R.Name)
            .str());
  } else if (Plan.PingPong) {
    W.line(formatv("smem.{0}_aref.init(/*consumer_arrivals=*/1); // one "
                   "consumer reads each slot",
                   R.Name)
               .str());
  } else
    W.line(formatv("smem.{0}_aref.init(kConsumers{1});", R.Name,
                   Clustered ? " * kCluster" : "")
               .str());
  if (Plan.ThreeTf32)
    W.line(
        formatv("smem.{0}_split.init(/*warps=*/3); // warps 1-3 split", R.Name)
            .str());
  W.close();
  if (Clustered) {
    W.line(
        "// Every CTA of the cluster has its barriers before any multicast.");
    W.line("tawa::rt::cluster_sync();");
    W.line("const int rank = tawa::rt::cluster_ctarank();");
  } else {
    W.line("__syncthreads();");
  }
  W.line();
}

/// The producer warpgroup: one thread issues the TMA loads.
void KernelEmitter::producer() {
  W.open("if (tawa::rt::warpgroup_index() == 0)");
  W.line("// Producer warpgroup: one thread issues the TMA loads of every "
         "stage.");
  W.line(formatv("tawa::rt::warpgroup_release_registers<{0}>();",
                 Plan.Regs.Producer)
             .str());
  W.open("if (threadIdx.x == 0)");
  W.line(formatv("tawa::rt::ArefCursor<kStages> {0};", R.Name).str());
  const std::string Across =
      formatv("// Tile (0, y, z), part c: the columns [{0} c, {0} c + {0}) "
              "from the windows of block (0, y, z) of the original launch, "
              "the c-th narrow CTA tile across those of its blocks (x, y, z).",
              Plan.BN)
          .str();
  tileLoop(P.Merge.Across ? Across.c_str()
           : P.Merge.Parts > 1
               ? "// Tile (x, y, z) is the work of block (x, y, z) of the "
                 "original launch; part p computes the p-th of its narrow "
                 "column parts."
               : "// Tile (x, y, z) is the work of block (x, y, z) of the "
                 "original launch.");
  kLoop();
  W.line(formatv("{0}::{1} &slot = smem.{2}[{2}.stage];", Storage, Slot, R.Name)
             .str());
  std::string Bytes;
  for (unsigned L : R.Loads)
    Bytes +=
        (Bytes.empty() ? "" : " + ") +
        (edgeBoxes(L) ? formatv("tawa::rt::edge_bytes<{0}>({1}, {2})",
                                P.Loads[L].Rows, edgeMapsName(L), mnOriginOf(L))
                            .str()
                      : "sizeof(slot." + P.Loads[L].Var + ")" +
                            (Plan.StepsPerSlot > 1
                                 ? " / " + std::to_string(Plan.StepsPerSlot)
                                 : ""));
  if (Plan.StepsPerSlot > 1) {
    W.line(formatv("// A slot holds {0} K steps (fewer at the loop's end): "
                   "taken once, armed with each step's bytes, committed "
                   "after the last.",
                   Plan.StepsPerSlot)
               .str());
    W.line(formatv("smem.{0}_aref.acquire({0});", R.Name).str());
    stepLoop();
    W.line(formatv("smem.{0}_aref.expect({0}, {1});", R.Name, Bytes).str());
  } else {
    W.line(formatv("smem.{0}_aref.put({0}, {1});", R.Name, Bytes).str());
  }
  for (unsigned L : R.Loads) {
    const TileLoad &T = P.Loads[L];
    const std::string Dst = T.Var + stepOffset(L);
    if (Clustered && L == shared() && T.MnMajor &&
        T.Cols >= 64 * Plan.Cluster) {
      W.line(formatv("// {0} is shared across the cluster: rank r loads its "
                     "64-column boxes [{1} r / {2}, {1} (r + 1) / {2}) into "
                     "every CTA.",
                     T.Var, T.Cols / 64, Plan.Cluster)
                 .str());
      W.line(formatv("tawa::rt::tma_load_boxes_multicast<{0}, {1}, {2}, {3}>("
                     "slot.{4}, &{5}, smem.{6}_aref.full_barrier({6}), {7}, "
                     "{8}, {9}, rank, /*cta_mask=*/0b{10});",
                     T.Cols / 64, Plan.Cluster, T.Rows,
                     T.Batch ? "true" : "false", Dst, tensorMapName(P, L),
                     R.Name, mnOriginOf(L), coord(T.kOrigin()),
                     T.Batch ? coord(T.Batch) : "0",
                     std::string(Plan.Cluster, '1'))
                 .str());
      continue;
    }
    if (Clustered && L == shared()) {
      // An N x K tile in parts of its N rows; a K x N tile of one 64-column
      // box, fewer than the CTAs, in parts of its K rows (whole swizzle
      // atoms).
      const int Part = T.Rows / Plan.Cluster;
      W.line(formatv("// {0} is shared across the cluster: rank r loads {1}"
                     "rows [{2} r, {2} r + {2}) into every CTA.",
                     T.Var, T.MnMajor ? "its K " : "", Part)
                 .str());
      const std::string Col = T.MnMajor ? mnOriginOf(L) : coord(T.Col0);
      const std::string Row =
          T.MnMajor ? parenthesized(coord(T.kOrigin()), T.kOrigin())
                    : parenthesized(mnOriginOf(L), T.Row0);
      W.line(formatv("tawa::rt::tma_load_{0}d_multicast(slot.{1} + rank * {2} "
                     "* {3}, &{4}, smem.{5}_aref.full_barrier({5}), {6}, {7} + "
                     "rank * {2}{8}, /*cta_mask=*/0b{9});",
                     T.Batch ? 3 : 2, Dst, Part, T.Cols, tensorMapName(P, L),
                     R.Name, Col, Row, T.Batch ? ", " + coord(T.Batch) : "",
                     std::string(Plan.Cluster, '1'))
                 .str());
      continue;
    }
    if (T.Im2col) {
      W.line(formatv("tawa::rt::tma_load_im2col_window(slot.{0}, &{1}, "
                     "smem.{2}_aref.full_barrier({2}), {3}, {4}, {5});",
                     Dst, tensorMapName(P, L), R.Name, coord(T.MatrixArg),
                     mnOriginOf(L), coord(T.kOrigin()))
                 .str());
      continue;
    }
    if (T.MnMajor) {
      W.line(formatv("tawa::rt::tma_load_boxes<{0}, {1}, {2}>(slot.{3}, &{4}, "
                     "smem.{5}_aref.full_barrier({5}), {6}, {7}, {8});",
                     T.Cols / 64, T.Rows, T.Batch ? "true" : "false", Dst,
                     tensorMapName(P, L), R.Name, mnOriginOf(L),
                     coord(T.kOrigin()), T.Batch ? coord(T.Batch) : "0")
                 .str());
      continue;
    }
    if (edgeBoxes(L)) {
      W.line(formatv("tawa::rt::tma_load_rows<{0}, {1}>(slot.{2}, &{3}, {4}, "
                     "smem.{5}_aref.full_barrier({5}), {6}, {7}, {8});",
                     T.Rows, T.Batch ? "true" : "false", Dst,
                     tensorMapName(P, L), edgeMapsName(L), R.Name,
                     coord(T.Col0), mnOriginOf(L),
                     T.Batch ? coord(T.Batch) : "0")
                 .str());
      continue;
    }
    W.line(formatv("tawa::rt::tma_load_{0}d(slot.{1}, &{2}, "
                   "smem.{3}_aref.full_barrier({3}), {4}, {5}{6});",
                   T.Batch ? 3 : 2, Dst, tensorMapName(P, L), R.Name,
                   coord(T.Col0), boxRow(L),
                   T.Batch ? ", " + coord(T.Batch) : "")
               .str());
  }
  if (Plan.StepsPerSlot > 1) {
    W.close(); // steps
    W.line(formatv("smem.{0}_aref.commit({0});", R.Name).str());
  }
  W.line(R.Name + ".advance();");
  W.close(); // k loop
  W.close(); // tile loop
  if (Plan.ThreeTf32) {
    W.line("// The splitting warps stop at the slot after the last one.");
    W.line(formatv("smem.{0}_split.finish(smem.{0}_aref, {0});", R.Name).str());
    W.close(" else if (threadIdx.x >= 32) {");
    ++W.Depth;
    splitWarps();
  }
  W.close(); // elected thread (and the splitting warps)
  W.close(" else {");
}

/// precision(3xtf32): the producer warpgroup's warps 1-3 follow the ring
/// behind the TMA loads and split each slot's fp32 tiles into tf32 high
/// and low parts (tawa/runtime/tf32_split.cuh) before the consumers read it.
void KernelEmitter::splitWarps() {
  W.line("// Warps 1-3: split each slot's fp32 tiles into tf32 high parts (in "
         "place) and low parts once they land, for the consumers' three "
         "products.");
  W.open(
      formatv("for (tawa::rt::ArefCursor<kStages> {0};; {0}.advance())", R.Name)
          .str());
  W.line(formatv("smem.{0}_aref.get({0});", R.Name).str());
  W.open(formatv("if (smem.{0}_split.done_at({0}))", R.Name).str());
  W.line("break;");
  W.close();
  W.line(formatv("{0}::{1} &slot = smem.{2}[{2}.stage];", Storage, Slot, R.Name)
             .str());
  for (unsigned L : R.Loads) {
    const TileLoad &T = P.Loads[L];
    W.line(formatv("tawa::rt::tf32_split_tile<96, {0} * {1}>(slot.{2}, "
                   "slot.{2}_low, threadIdx.x - 32);",
                   T.Rows, T.Cols, T.Var)
               .str());
  }
  W.line(formatv("smem.{0}_split.arrive({0});", R.Name).str());
  W.close(); // ring
}

/// The epilogue's broadcast operands (a bias per column or per row),
/// read into registers before the main loop of a consumer's tile
/// (tawa::rt::load_epilogue_operands), the loads' latency hidden behind it.
/// The accumulator's rows start at `Row0`.
void KernelEmitter::epilogueOperands(const std::string &Row0) {
  const EpilogueCode Code =
      epilogueCode(P, [&](const Expr *E) { return coord(E); });
  if (Code.ColOps == 0 && Code.RowOps == 0) {
    W.line(formatv("const auto tawa_operands = "
                   "tawa::rt::no_epilogue_operands({0});",
                   P.Acc.Var)
               .str());
    return;
  }
  W.line("// The epilogue's broadcast operands, read before the main loop so "
         "that their loads overlap it.");
  W.line(formatv("const auto tawa_operands = "
                 "tawa::rt::load_epilogue_operands<{0}, {1}>(",
                 Code.ColOps, Code.RowOps)
             .str());
  ++W.Depth;
  W.line(formatv("{0}, {1}, {2},", P.Acc.Var, Row0, storeCol()).str());
  auto Values = [&](StringRef Dim, const std::string &Fill, StringRef End) {
    W.line(Fill.empty() ? ("tawa::rt::NoValues{}" + End).str()
                        : formatv("[&](int tawa_{0}, float *tawa_by_{0}) {{ "
                                  "{1}}{2}",
                                  Dim, Fill, End)
                              .str());
  };
  Values("col", Code.ByCol, ",");
  Values("row", Code.ByRow, ");");
  --W.Depth;
}

/// The epilogue's element-wise ops (GemmEpilogue.h), applied to the
/// consumer's accumulator registers, whose rows start at `Row0`, with the
/// broadcast operands epilogueOperands read.
void KernelEmitter::epilogueOps(const std::string &Row0) {
  const std::string Text = sourceText(P.Epilogue.E->getSourceRange(), SM, LO);
  std::string Source;
  for (StringRef Line : llvm::split(Text, '\n'))
    Source += (Source.empty() ? "" : " ") + Line.trim().str();
  W.line("// The epilogue: " + Source);
  const EpilogueCode Code =
      epilogueCode(P, [&](const Expr *E) { return coord(E); });
  W.line("tawa::rt::apply_epilogue(");
  ++W.Depth;
  W.line(formatv("{0}, {1}, {2}, /*zero=*/k_steps == 0, tawa_operands,",
                 P.Acc.Var, Row0, storeCol())
             .str());
  W.line("[&](float tawa_acc, int tawa_row, int tawa_col, const float "
         "*tawa_by_col, const float *tawa_by_row) {");
  ++W.Depth;
  W.line("return " + Code.Value + ";");
  --W.Depth;
  W.line("});");
  --W.Depth;
}

/// The consumer warpgroups: wgmma over the ring, then the epilogue.
void KernelEmitter::consumers() {
  ++W.Depth;
  if (Plan.PingPong)
    W.line(formatv("// Consumer warpgroups: they take alternate tiles, each "
                   "the whole of {0}, their main loops in turn.",
                   P.Acc.Var)
               .str());
  else
    W.line(formatv("// Consumer warpgroups: warpgroup 1 + c owns rows [{0} c, "
                   "{0} c + {0}) of {1}.",
                   64 * Plan.MTiles, P.Acc.Var)
               .str());
  W.line(formatv("tawa::rt::warpgroup_acquire_registers<{0}>();",
                 Plan.Regs.Consumer)
             .str());
  W.line("const int consumer = tawa::rt::warpgroup_index() - 1;");
  W.line(formatv("tawa::rt::WgmmaAccumulator<{0}, {1}> {2};", Plan.MTiles,
                 Plan.BN, P.Acc.Var)
             .str());
  W.line(formatv("// `{0}` reads the ring; `{0}_release` trails it by the one "
                 "wgmma group kept in flight.",
                 R.Name)
             .str());
  W.line(
      formatv("tawa::rt::ArefCursor<kStages> {0}, {0}_release;", R.Name).str());
  if (Plan.PingPong) {
    W.line("// The same walk as the producer's; consumer c works on every "
           "other tile, from the c-th.");
    W.line("int turn = 0;");
    tileLoop(nullptr, ", ++turn");
    W.open("if (turn % kConsumers != consumer)");
    W.line("// The other consumer's tile: step over its slots.");
    W.open(Header);
    W.line(R.Name + ".advance();");
    W.line(R.Name + "_release.advance();");
    W.close();
    W.line("continue;");
    W.close();
    W.line("// Wait until the other consumer has taken its last slot.");
    W.open("if (turn > 0)");
    W.line("tawa::rt::wait_turn(consumer);");
    W.close();
  } else {
    tileLoop("// The same walk as the producer's.");
  }
  // Rows of the accumulator: a cooperative consumer's own, a ping-pong
  // consumer's all.
  const std::string RowsOffset =
      Plan.PingPong ? "" : formatv(" + consumer * {0}", 64 * Plan.MTiles).str();
  // A cooperative consumer whose rows all lie past the stored matrix's last
  // row (a tile of a short launch, decode's 16-64 rows) stores nothing: it
  // keeps the ring's pace but leaves the tensor cores to the others. So does
  // every consumer of a cluster's tile past the grid (TileSchedule::in_grid).
  const bool Idle = !Plan.PingPong && (Plan.Consumers > 1 || Clustered);
  const std::string Row0 = storeRow();
  const bool Shifted = shiftedBox(Mma.A);
  // The accumulator's first row: the store's, or where A's box was loaded.
  const std::string AccRow0 = Shifted ? "tawa_box_row" : Row0;
  if (Shifted) {
    W.line(formatv("// {0}'s rows start where {1}'s box was loaded: at {1}'s "
                   "last rows where the tile reaches past them "
                   "(tawa::rt::box_row), whose rows before the tile's own "
                   "are not stored.",
                   P.Acc.Var, P.Loads[Mma.A].Var)
               .str());
    W.line("const int tawa_box_row = " + boxRow(Mma.A) + ";");
  }
  if (Idle) {
    W.line(formatv("// This warpgroup's rows of the tile: none of them stored "
                   "where they {0} past {1}'s last row{2}.",
                   Shifted ? "come before the tile's own or start" : "start",
                   P.Store.Matrix->getName(),
                   Clustered ? ", or where the tile lies past the original "
                               "grid (the cluster's last tile along y)"
                             : "")
               .str());
    const std::string Past =
        Shifted ? formatv("tawa::rt::rows_idle<{0}>(tawa_box_row{1}, {2}, "
                          "{3}.rows)",
                          64 * Plan.MTiles, RowsOffset, Row0,
                          coord(P.Store.MatrixArg))
                      .str()
                : formatv("{0}{1} >= {2}.rows", Row0, RowsOffset,
                          coord(P.Store.MatrixArg))
                      .str();
    W.line(formatv("const bool idle = {0}{1};", Past,
                   Clustered ? " || !schedule.in_grid(t, rank)" : "")
               .str());
  }
  if (!plainEpilogue(P))
    epilogueOperands(AccRow0 + RowsOffset);
  W.line("int k_steps = 0;");
  kLoop();
  W.line(formatv("{0}::{1} &slot = smem.{2}[{2}.stage];", Storage, Slot, R.Name)
             .str());
  W.line(formatv(Plan.ThreeTf32 ? "smem.{0}_split.wait({0});"
                                : "smem.{0}_aref.get({0});",
                 R.Name)
             .str());
  if (Plan.StepsPerSlot > 1) {
    W.line("const bool tawa_first_slot = k_steps == 0;");
    stepLoop();
  }
  const TileLoad &A = P.Loads[Mma.A], &B = P.Loads[Mma.B];
  // Both operands K-major: wgmma_nt; a K x MN window sets wgmma's transpose
  // bit for its operand.
  const std::string Wgmma =
      A.MnMajor || B.MnMajor
          ? formatv("wgmma_ss<{0}, /*a_mn_major=*/{1}, /*b_mn_major=*/{2}>",
                    Plan.BK, A.MnMajor ? "true" : "false",
                    B.MnMajor ? "true" : "false")
                .str()
          : formatv("wgmma_nt<{0}>", Plan.BK).str();
  if (Idle)
    W.open("if (!idle)");
  const std::string AOffset =
      stepOffset(Mma.A) + (Plan.PingPong ? ""
                                         : formatv(" + consumer * {0} * {1}",
                                                   64 * Plan.MTiles, Plan.BK)
                                               .str());
  if (Plan.ThreeTf32)
    W.line(formatv("tawa::rt::wgmma_nt_3xtf32<{0}>({1}, slot.{2}{3}, "
                   "slot.{2}_low{3}, slot.{4}, slot.{4}_low, "
                   "/*accumulate=*/k_steps > 0);",
                   Plan.BK, P.Acc.Var, A.Var, AOffset, B.Var)
               .str());
  else
    W.line(formatv("tawa::rt::{5}({1}, slot.{2}{3}, slot.{4}{6}, "
                   "/*accumulate=*/k_steps > 0);",
                   Plan.BK, P.Acc.Var, A.Var, AOffset, B.Var, Wgmma,
                   stepOffset(Mma.B))
               .str());
  if (Idle)
    W.close();
  if (Plan.StepsPerSlot > 1) {
    W.line("++k_steps;");
    W.close(); // steps
  }
  // With several steps their groups issue back to back; the wait leaves
  // only the last in flight, so the previous slot's groups have completed.
  W.line("tawa::rt::wgmma_wait<1>();");
  release(Plan.StepsPerSlot > 1 ? "if (!tawa_first_slot)"
                                : "if (k_steps++ > 0)");
  W.line(R.Name + ".advance();");
  W.close(); // k loop
  if (Plan.PingPong) {
    W.line("// All slots of this tile taken: the other consumer's turn.");
    W.open(Clustered ? "if (t + gridDim.x / kCluster < schedule.count())"
                     : "if (t + gridDim.x < schedule.count())");
    W.line("tawa::rt::pass_turn(consumer);");
    W.close();
  }
  W.line("tawa::rt::wgmma_wait<0>();");
  // The epilogue's reads of the accumulator stay after the wait.
  W.line(P.Acc.Var + ".fence();");
  release("if (k_steps > 0)");
  if (Idle) {
    W.open("if (idle)");
    W.line("continue;");
    W.close();
  } else if (Clustered) {
    W.line("// A tile past the original grid (the cluster's last along x) "
           "stores nothing.");
    W.open("if (!schedule.in_grid(t, rank))");
    W.line("continue;");
    W.close();
  }
  if (Plan.SplitTail) {
    W.open("if (work.kind == tawa::rt::TileWork::Piece)");
    W.line("// A piece of a split tile: its partial sums go to the "
           "workspace, for the tile's head.");
    W.line(formatv("tawa::rt::store_piece<kConsumers>(split_tail, work.slot, "
                   "consumer, {0}, /*barrier=*/1 + consumer);",
                   P.Acc.Var)
               .str());
    W.line("continue;");
    W.close();
    W.open("if (work.kind == tawa::rt::TileWork::Head)");
    W.line(formatv("tawa::rt::add_pieces<kConsumers>(split_tail, walk, work, "
                   "consumer, {0}, /*barrier=*/1 + consumer);",
                   P.Acc.Var)
               .str());
    W.close();
  }
  // An epilogue's ops write the registers, zero where the K loop ran no step.
  std::string Zero = "k_steps == 0";
  if (!plainEpilogue(P)) {
    epilogueOps(AccRow0 + RowsOffset);
    Zero = "false";
  }
  // A shifted box's tile stores from its own first row.
  const std::string FirstRow =
      Shifted ? ", /*first_row=*/" + Row0 : std::string();
  auto directStore = [&] {
    W.line(formatv("tawa::rt::store_accumulator({0}, {1}{2}, "
                   "{3}, {4}, /*zero=*/{5}{6});",
                   coord(P.Store.MatrixArg), AccRow0, RowsOffset, storeCol(),
                   P.Acc.Var, Zero, FirstRow)
               .str());
  };
  if (Plan.TmaStore) {
    W.open(Shifted ? "if (tma_store && tawa_box_row == " + Row0 + ")"
                   : std::string("if (tma_store)"));
    W.line(formatv("tawa::rt::store_accumulator_tma<{0}>(&{1}, "
                   "smem.epilogue[consumer], {2}{3}, {4}, {5}, "
                   "{6}, /*zero=*/{7}, /*barrier=*/1 + consumer);",
                   P.Store.Batch ? "true" : "false", StoreMap, Row0, RowsOffset,
                   storeCol(), P.Store.Batch ? coord(P.Store.Batch) : "0",
                   P.Acc.Var, Zero)
               .str());
    if (Plan.StoreTailCols) {
      W.line(formatv("// The last {0} columns are not a whole 128-byte chunk: "
                     "stored from the registers.",
                     Plan.StoreTailCols)
                 .str());
      W.line(formatv("tawa::rt::store_accumulator<{0}>({1}, {2}{3}, {4}, {5}, "
                     "/*zero=*/{6}{7});",
                     Plan.BN - Plan.StoreTailCols, coord(P.Store.MatrixArg),
                     AccRow0, RowsOffset, storeCol(), P.Acc.Var, Zero, FirstRow)
                 .str());
    }
    W.close(" else {");
    ++W.Depth;
    W.line(Shifted ? "// TMA cannot address the output, or the box was shifted "
                     "(its rows before the tile's own must stay as they are): "
                     "the warpgroup copies the staged rows."
                   : "// TMA cannot address the output: the warpgroup copies "
                     "the staged rows.");
    W.line(formatv("tawa::rt::store_accumulator_staged({0}, "
                   "smem.epilogue[consumer], {1}{2}, {3}, {4}, "
                   "/*zero=*/{5}, /*barrier=*/1 + consumer{6});",
                   coord(P.Store.MatrixArg), AccRow0, RowsOffset, storeCol(),
                   P.Acc.Var, Zero, FirstRow)
               .str());
    W.close();
  } else {
    directStore();
  }
  W.close(); // tile loop
  if (Plan.TmaStore) {
    W.line("// The stores must have read shared memory before the CTA ends.");
    W.open("if (tma_store && tawa::rt::warpgroup_thread() == 0)");
    W.line("tawa::rt::tma_store_wait_all();");
    W.close();
  }
  W.close(); // consumer branch
  if (Clustered) {
    W.line("// The peer multicasts into this CTA and arrives on its barriers "
           "until it is done.");
    W.line("tawa::rt::cluster_sync();");
  }
  W.close(); // kernel
  W.line();
}

/// The launcher's choice of the few-rows twins' row parts, into
/// `row_parts`, where a narrow kernel's twin has them (`trips`: the K loop's
/// trips were counted). Returns choose_narrow's arguments for them, or
/// nothing.
std::string KernelEmitter::rowPartsChoice(bool Trips) {
  if (!rowParts())
    return "";
  const NarrowLaunch &L = *llvm::find_if(
      NarrowLaunches, [](const NarrowLaunch &L) { return L.RowParts > 1; });
  const std::string Where =
      formatv("grid, {0}, {1}, {2}.rows, /*row_offset=*/{3}", L.RowParts,
              L.PartRows, P.Store.Matrix->getName(), L.RowOffset)
          .str();
  W.line(formatv("// Where the last row of tiles stores few rows, or the K "
                 "loop is long (tawa::rt::choose_row_parts), the narrow "
                 "kernels' few-rows twins run every {0}-row part of the "
                 "tiles that stores anything, in place of the ping-pong "
                 "twins' whole tiles (tawa/TileShape.h).",
                 L.PartRows)
             .str());
  // The narrowest kernel's twin may also run over row parts any launch whose
  // tiles over them fill a wave.
  const NarrowLaunch &First = NarrowLaunches.front();
  std::string PartTiles;
  if (First.RowParts > 1) {
    W.line(formatv("// A launch whose {0}-column tiles over row parts fill at "
                   "most a wave of the SMs runs them too; with more than half "
                   "a wave, in clusters where there are "
                   "(tawa::rt::choose_row_cluster).",
                   First.Cols)
               .str());
    W.line("const tawa::rt::TileSchedule row_part_walk = " + First.FewWalk +
           ";");
    PartTiles = std::string(Trips ? "" : ", /*trips=*/0") +
                ", /*part_tiles=*/row_part_walk.count()";
  }
  W.line(formatv("bool row_parts = tawa::rt::choose_row_parts(grid, "
                 "/*tile_rows=*/{0}, /*part_rows=*/{1}, {2}.rows, "
                 "/*row_offset=*/{3}{4}{5});",
                 L.TileRows, L.PartRows, P.Store.Matrix->getName(), L.RowOffset,
                 Trips ? ", trips" : "", PartTiles)
             .str());
  return ",\n    row_parts ? tawa::rt::row_part_units(" + Where +
         ") : 0, /*row_part_kernels=*/" + std::to_string(rowPartKernels()) +
         ", &row_parts";
}

/// The launcher's choice of running the narrow kernel that has a cluster
/// twin along x in clusters, into `x_cluster`; whether it is the first
/// narrow kernel (none: false).
bool KernelEmitter::xClusterChoice() {
  bool First = false;
  for (unsigned I = 0; I < NarrowLaunches.size(); ++I) {
    const NarrowLaunch &L = NarrowLaunches[I];
    if (L.TwinCluster.empty())
      continue;
    W.line(formatv("// The {0}-column ping-pong kernel may run in clusters "
                   "of two CTAs of adjacent column tiles, which share A's "
                   "tile (tawa::rt::choose_x_cluster).",
                   L.Cols)
               .str());
    W.line(formatv("const bool x_cluster = tawa::rt::choose_x_cluster({0}, "
                   "{1}, tawa::rt::matrix_bytes({2}));",
                   L.TwinWalk, oddPitch(), P.Loads[Mma.A].Matrix->getName())
               .str());
    First = I == 0;
  }
  return First;
}

/// The arguments of choose_narrow after `trips` that let a launch whose A
/// is large take fewer column tiles (tawa::rt::fewer_column_tiles): A's
/// bytes and whether the first narrow kernel runs in clusters along x;
/// none where A is an im2col window or no narrow kernel walks across the
/// launch's columns.
std::string KernelEmitter::fewerColumnsArguments(bool XClusterFirst) const {
  const int Wide = P.Merge.merged() ? P.Merge.KernelBN : Plan.BN;
  const bool Across = llvm::any_of(NarrowLaunches, [&](const NarrowLaunch &L) {
    return !L.Launch.empty() && Wide % L.Cols != 0;
  });
  if (!Across || P.Loads[Mma.A].Im2col)
    return "";
  return formatv(", /*a_bytes=*/tawa::rt::matrix_bytes({0}), "
                 "/*x_cluster=*/{1}",
                 P.Loads[Mma.A].Matrix->getName(),
                 XClusterFirst ? "x_cluster" : "false")
      .str();
}

/// The launcher's choice of a narrow kernel, into `narrow` (-1: none).
void KernelEmitter::narrowChoice() {
  if (NarrowLaunches.empty())
    return;
  const std::string FewerColumns = fewerColumnsArguments(xClusterChoice());
  std::string Few = fewRowsArgument();
  const bool Trips = Plan.CountTrips && (rowParts() || !Few.empty());
  if (Trips) {
    // Every tile runs the same K loop, whose header reads only parameters.
    W.line("// The K loop's trips: where they are many, the few-rows twins "
           "run over row parts, and those of 128 columns split their tiles "
           "into more K ranges (tawa::rt::choose_row_parts, "
           "few_rows_choice).");
    W.line("int trips = 0;");
    W.open(Header);
    W.line("++trips;");
    W.close();
  }
  std::string Columns;
  for (const NarrowLaunch &L : NarrowLaunches)
    Columns += (Columns.empty() ? "" : ", ") + std::to_string(L.Cols);
  W.line(NarrowLaunches.size() == 1
             ? "// Launches of few tiles run as narrow CTA tiles where they "
               "fill at most one wave of the SMs, or where the wide tiles "
               "fill at most half a wave; launches of more than a wave "
               "where the narrow tiles' waves are shorter (tawa/TileShape.h)."
             : "// Launches of few tiles run as narrow CTA tiles: the "
               "narrowest kernel whose tiles fill at most one wave of the "
               "SMs, else, where the wide tiles fill at most half a wave, "
               "the widest; launches of more than a wave where the narrow "
               "tiles' waves are shorter (tawa/TileShape.h).");
  std::string RowUnits = rowPartsChoice(Trips);
  if (Few.empty() && !RowUnits.empty())
    Few = ", /*few_rows=*/0";
  if (Trips || !FewerColumns.empty()) {
    if (Few.empty())
      Few = ", /*few_rows=*/0";
    if (RowUnits.empty())
      RowUnits = ", /*row_units=*/0, /*row_part_kernels=*/0, "
                 "/*row_parts=*/nullptr";
    RowUnits += Trips ? ", trips" : ", /*trips=*/0";
    RowUnits += FewerColumns;
  }
  W.line("int narrow = -1;");
  W.line(formatv("if (cudaError_t e = tawa::rt::choose_narrow(grid, "
                 "/*merge_x=*/{0}, /*merge_y=*/{1}, /*block_cols=*/{2}, ",
                 P.Merge.X, P.Merge.Y,
                 P.Merge.merged() ? P.Merge.KernelBN : Plan.BN)
             .str() +
         "{" + Columns +
         formatv("}, {0}.cols, /*col_offset=*/{1}, &narrow{2}{3}); e != "
                 "cudaSuccess)",
                 P.Store.Matrix->getName(), StoreColOffset, Few, RowUnits)
             .str());
  W.line("  return e;");
}

/// The few_rows argument of choose_narrow: where the 64- and 128-column
/// kernels run as few-rows twins for every launch of at most BM / 2 rows,
/// the rows a launch stores there (tawa::rt::few_rows_choice), else nothing.
std::string KernelEmitter::fewRowsArgument() const {
  auto FewOnly = [&](unsigned I, int Cols) {
    return I < NarrowLaunches.size() && NarrowLaunches[I].Cols == Cols &&
           !NarrowLaunches[I].Few.empty() && NarrowLaunches[I].Launch.empty();
  };
  if (!FewOnly(0, 64) || !FewOnly(1, 128))
    return "";
  const std::string Rows = P.Store.Matrix->getName().str() + ".rows";
  return formatv(", /*few_rows=*/{0} <= {1} ? {0} : 0", Rows, Plan.BM / 2)
      .str();
}

/// Whether an operand's rows are an odd number of 16 bytes apart, as an
/// expression of the launcher (tawa::rt::odd_pitch).
std::string KernelEmitter::oddPitch() const {
  std::string Odd;
  std::vector<std::string> Seen;
  for (const TileLoad &T : P.Loads) {
    const std::string M = T.Matrix->getName().str();
    if (llvm::is_contained(Seen, M) || T.Im2col)
      continue;
    Seen.push_back(M);
    Odd += (Odd.empty() ? "" : " || ") + ("tawa::rt::odd_pitch(" + M + ")");
  }
  return Odd.empty() ? "false" : Odd;
}

/// The launcher's choice of the cluster twins, into `cluster_twin`.
void KernelEmitter::clusterChoice() {
  if (ClusterLaunch.empty())
    return;
  const std::string Odd = oddPitch();
  W.line("// Operand rows an odd number of 16 bytes apart make the launch "
         "L2-bound: the cluster twin of the kernel chosen runs it where there "
         "is one, two CTAs sharing B's tile, and reads them in place "
         "(tawa/TileShape.h).");
  W.line(formatv("const bool cluster_twin = tawa::rt::choose_cluster({0}, "
                 "grid, /*merge_y=*/{1});",
                 Odd, P.Merge.Y)
             .str());
}

/// The launcher's branches to the narrow kernels, their ping-pong and
/// cluster twins, that `narrow` names, then to the wide kernel's cluster
/// twin.
void KernelEmitter::narrowDispatch() {
  const std::string Rows = P.Store.Matrix->getName().str() + ".rows";
  const bool AnyFew = llvm::any_of(
      NarrowLaunches, [](const NarrowLaunch &L) { return !L.Few.empty(); });
  if (AnyFew)
    W.line(formatv("// Where {0} has more than {1} rows, each consumer takes "
                   "whole tiles (ping-pong); where every row stored lies in "
                   "the first {2} of a tile{3}, one consumer takes {2}-row "
                   "tiles, whose smaller slots keep more of the operands in "
                   "flight.",
                   P.Store.Matrix->getName(), Plan.BM / 2, kFewRows,
                   rowParts() ? ", or row_parts says so" : "")
               .str());
  else if (llvm::any_of(NarrowLaunches,
                        [](const NarrowLaunch &L) { return !L.Twin.empty(); }))
    W.line(formatv("// Where {0} has more than {1} rows, each consumer takes "
                   "whole tiles (ping-pong); else the consumers share each "
                   "tile's rows, one of them idle on the empty half.",
                   P.Store.Matrix->getName(), Plan.BM / 2)
               .str());
  auto Launch = [&](const std::string &Launcher) {
    W.line(formatv("return {0}(grid, block, shared, stream, {1});", Launcher,
                   llvm::join(ParamNames, ", "))
               .str());
  };
  for (unsigned I = 0; I < NarrowLaunches.size(); ++I) {
    const NarrowLaunch &L = NarrowLaunches[I];
    const std::string Twin =
        L.TwinCluster.empty()
            ? L.Twin
            : "(x_cluster ? " + L.TwinCluster + " : " + L.Twin + ")";
    W.open(formatv("if (narrow == {0})", I).str());
    if (L.RowParts > 1) {
      W.open("if (row_parts)");
      Launch(L.FewCluster.empty()
                 ? L.Few
                 : formatv("(tawa::rt::choose_row_cluster(row_part_walk, "
                           "{0}, /*row_offset=*/{1}, /*part_rows=*/{2}) ? {3} "
                           ": {4})",
                           Rows, L.RowOffset, L.PartRows, L.FewCluster, L.Few)
                       .str());
      W.close();
    }
    if (!L.Few.empty() && L.Launch.empty())
      Launch(formatv("({0} > {1} ? {2} : {3})", Rows, Plan.BM / 2, Twin, L.Few)
                 .str());
    else if (!L.Few.empty())
      Launch(formatv("({0} > {1} ? {2} : {0} <= {3} ? {4} : {5})", Rows,
                     Plan.BM / 2, Twin, L.FewLimit, L.Few, L.Launch)
                 .str());
    else if (!L.Twin.empty())
      Launch(
          formatv("({0} > {1} ? {2} : {3})", Rows, Plan.BM / 2, Twin, L.Launch)
              .str());
    else if (!L.Cluster.empty())
      Launch(formatv("(cluster_twin ? {0} : {1})", L.Cluster, L.Launch).str());
    else
      Launch(L.Launch);
    W.close();
  }
  if (ClusterLaunch.empty())
    return;
  W.open("if (cluster_twin)");
  Launch(ClusterLaunch);
  W.close();
}

/// The launcher's tile walk: a TileSchedule expression over the original
/// launch `grid`.
std::string KernelEmitter::schedule() const {
  const TileMerge &Merge = P.Merge;
  // The row parts that store anything (TileMerge::RowParts).
  const std::string RowParts =
      Merge.RowParts > 1
          ? formatv(",\n    /*row_parts=*/{0}, tawa::rt::row_part_units(grid, "
                    "{0}, {1}, {2}.rows, /*row_offset=*/{3})",
                    Merge.RowParts, Plan.BM, P.Store.Matrix->getName(),
                    Merge.RowOffset)
                .str()
          : "";
  // The column tiles that store anything (across_x_units).
  if (Merge.Across)
    return formatv("tawa::rt::TileSchedule::across(grid, /*group=*/{0}, "
                   "/*along_y=*/{1}, /*cluster=*/{2}, /*merge_y=*/{3}, "
                   "/*block_cols=*/{4}, /*width=*/{5},\n    "
                   "tawa::rt::across_x_units(grid, {4}, {5}, {7}.cols, "
                   "/*col_offset=*/{8}){6})",
                   Plan.Raster.Group, Plan.Raster.AlongM ? "true" : "false",
                   Plan.Cluster, Merge.Y, Merge.KernelBN, Plan.BN, RowParts,
                   P.Store.Matrix->getName(), Merge.ColOffset)
        .str();
  const bool Tail = Merge.merged() || Merge.Parts > 1 || Merge.RowParts > 1;
  std::string ScheduleTail;
  if (Clustered || Tail)
    ScheduleTail += formatv(", /*cluster=*/{0}", Plan.Cluster).str();
  if (Tail)
    ScheduleTail +=
        formatv(", /*merge_x=*/{0}, /*merge_y=*/{1}", Merge.X, Merge.Y).str();
  if (Merge.Parts > 1)
    ScheduleTail +=
        formatv(", /*parts=*/{0},\n    tawa::rt::narrow_x_units(grid, {1}, "
                "{0}, {2}, {3}.cols, /*col_offset=*/{4})",
                Merge.Parts, Merge.X, Plan.BN, P.Store.Matrix->getName(),
                Merge.ColOffset)
            .str();
  else if (Merge.RowParts > 1)
    ScheduleTail += ", /*parts=*/1, /*x_units=*/0";
  ScheduleTail += RowParts;
  // A cluster along x (of narrow parts, TileShape.h) takes adjacent parts.
  if (Plan.ClusterAlongX)
    ScheduleTail +=
        (RowParts.empty() ? ", /*row_parts=*/1, /*y_units=*/0" : "") +
        std::string(", /*cluster_x=*/true");
  return formatv("tawa::rt::TileSchedule(grid, /*group=*/{0}, "
                 "/*along_y=*/{1}{2})",
                 Plan.Raster.Group, Plan.Raster.AlongM ? "true" : "false",
                 ScheduleTail)
      .str();
}

/// The host launcher: tensor maps, fallback, schedule, launch.
void KernelEmitter::launcher() {
  W.line(
      formatv(
          "/// Launches {0} over the tiles of `grid` (the grid of the "
          "original launch, one {1} x {2} output tile per block{4}): "
          "builds "
          "the tensor maps, raises the dynamic shared-memory limit{3}. "
          "Where TMA cannot load the operands, runs the kernel as written "
          "with the original `grid`, `block` and `shared`{5}. Returns the "
          "first error.",
          K, P.Merge.merged() || fewRows() ? P.Merge.KernelBM : Plan.BM,
          P.Merge.merged() || P.Merge.Across ? P.Merge.KernelBN
                                             : Plan.BN * P.Merge.Parts,
          Plan.Persistent ? ", and starts one CTA per SM, which walk "
                            "the tiles in grouped raster order"
                          : "",
          (P.Merge.merged()
               ? formatv(", computed {0} x {1} at a time", P.Merge.Y, P.Merge.X)
                     .str()
               : std::string()) +
              (P.Merge.Across
                   ? formatv(", in narrow CTA tiles of {0} x {1} side by "
                             "side across its columns",
                             Plan.BM, Plan.BN)
                         .str()
               : P.Merge.Parts > 1
                   ? formatv(", in {0} narrow CTA tiles of {1} x {2} "
                             "each{3}",
                             P.Merge.Parts, Plan.BM, Plan.BN,
                             !fewRows() ? ""
                             : P.Merge.RowParts > 1
                                 ? ", each in parts of its rows"
                                 : ", the first rows of each part "
                                   "(launches that store no others)")
                         .str()
                   : std::string()),
          Plan.TmaStore ? formatv("; where it cannot store {0}, the "
                                  "consumers copy the staged tile row by row",
                                  P.Store.Matrix->getName())
                              .str()
                        : "")
          .str());
  W.open(formatv("inline cudaError_t {0}_launch(dim3 grid, dim3 block, size_t "
                 "shared, cudaStream_t stream, {1})",
                 K, LauncherParams)
             .str());
  narrowChoice();
  clusterChoice();
  narrowDispatch();
  // The body of a branch that runs the kernel as written, after `Note` says
  // so once.
  auto runAsWritten = [&](const std::string &Note) {
    W.line("static bool noted = false;");
    W.line(Note);
    W.line(formatv("{0}_reference<<<grid, block, shared, stream>>>({1});", Base,
                   llvm::join(ParamNames, ", "))
               .str());
    W.line("return cudaPeekAtLastError();");
    W.close();
  };
  // The walk across the columns merges no blocks along x: the launcher that
  // runs it has checked where its last column tile ends.
  if (P.Merge.merged() && (!P.Merge.Across || P.Merge.Y > 1)) {
    const TileMerge &Merge = P.Merge;
    const int X = Merge.Across ? 1 : Merge.X;
    const std::string C = P.Store.Matrix->getName().str();
    W.line(formatv("// Each CTA tile is {0} x {1} of the kernel's {2} x {3} "
                   "tiles. Where the grid stops inside {4} with a part of "
                   "one, run the kernel as written.",
                   Merge.Y, X, Merge.KernelBM, Merge.KernelBN, C)
               .str());
    W.open(formatv("if (!tawa::rt::merged_walk_exact(grid, {0}, {1}, {2}.cols, "
                   "{2}.rows, {3}, {4}, {5}, {6}))",
                   X, Merge.Y, C, Merge.KernelBN, Merge.KernelBM,
                   Merge.ColOffset, Merge.RowOffset)
               .str());
    runAsWritten(
        formatv("tawa::rt::note_partial_grid(\"{0}\", noted);", Base).str());
  }
  std::string MapDecls;
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    MapDecls += (L ? ", " : "") + tensorMapName(P, L);
  W.line("CUtensorMap " + MapDecls + ";");
  std::string EdgeDecls;
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    if (edgeBoxes(L))
      EdgeDecls += (EdgeDecls.empty() ? "" : ", ") + edgeMapsName(L);
  if (!EdgeDecls.empty()) {
    W.line("// Boxes that reach past an operand's last row load only the rows "
           "before it (tawa/runtime/edge_boxes.cuh).");
    W.line("tawa::rt::EdgeMaps " + EdgeDecls + ";");
  }
  // The loaded matrices, each once, in the order of their loads.
  std::vector<std::string> Operands, Transposed;
  for (const TileLoad &T : P.Loads) {
    std::vector<std::string> &List = T.TransposedCopy ? Transposed : Operands;
    // An Im2col view is read in place, or not by TMA at all.
    if (!T.Im2col && !llvm::is_contained(List, T.Matrix->getName().str()))
      List.push_back(T.Matrix->getName().str());
  }
  // A cluster reads rows an odd number of 16 bytes apart in place: sharing
  // B's tile paid more than the copy (results/h100/cluster-twin/).
  if (Clustered)
    W.line(formatv("// Operands whose rows are an odd number of 16 bytes "
                   "apart are read in place: the cluster's shared {0} tile "
                   "halves their L2 reads.",
                   Plan.ClusterAlongX ? "A" : "B")
               .str());
  writeOperandCopies(W, Operands,
                     Clustered ? StringRef() : P.Store.Matrix->getName());
  auto Step = [&](const Twine &Call) {
    W.line("if (maps == cudaSuccess) maps = " + Call + ";");
  };
  if (!Transposed.empty())
    W.line("// wgmma reads tf32 and fp8 operands K-major only: these are "
           "read from transposed copies (K x MN to MN x K), made on the "
           "stream and freed after the launch.");
  for (const std::string &M : Transposed) {
    W.line(formatv("auto {0}_transposed = {0};", M).str());
    Step(formatv("copies.transposed({0}, &{0}_transposed)", M));
  }
  auto Source = [&](const TileLoad &T) {
    return T.Matrix->getName().str() +
           (T.TransposedCopy ? "_transposed" : "_aligned");
  };
  // Boxes of 128 bytes along the stored rows: a K-major window is one box
  // (rows x K), a K x MN window one box per 64 columns.
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    if (T.Im2col) {
      // One im2col box per filter tap and 128 bytes of channels: the
      // channels must split into such blocks (tawa/runtime/im2col.cuh).
      Step(formatv("tawa::rt::make_im2col_map(&{0}, {1}, {2}, {3})",
                   tensorMapName(P, L), T.Matrix->getName(), T.Rows, T.Cols)
               .str());
      continue;
    }
    const bool Split = Clustered && L == shared() &&
                       (!T.MnMajor || T.Cols < 64 * Plan.Cluster);
    const int BoxRows = Split ? T.Rows / Plan.Cluster : T.Rows;
    Step(formatv("tawa::rt::make_tensor_map(&{0}, {1}, {2}, {3}{4})",
                 tensorMapName(P, L), Source(T), BoxRows,
                 T.MnMajor ? 64 : T.Cols, T.Batch ? ", /*batched=*/true" : "")
             .str());
    if (edgeBoxes(L))
      Step(formatv("tawa::rt::make_edge_maps(&{0}, {1}, {2}, {3}, "
                   "/*stored=*/{4}.rows{5})",
                   edgeMapsName(L), Source(T), BoxRows, T.Cols,
                   P.Store.Matrix->getName(),
                   (T.Batch ? ", /*batched=*/true" : "") +
                       (edgeMinPast()
                            ? formatv("{0}/*min_past=*/{1}",
                                      T.Batch ? ", " : ", /*batched=*/false, ",
                                      edgeMinPast())
                                  .str()
                            : ""))
               .str());
  }
  W.open("if (maps != cudaSuccess)");
  W.line("// TMA cannot address this data: run the kernel as written.");
  runAsWritten(
      formatv("tawa::rt::note_fallback(\"{0}\", maps, noted);", Base).str());
  if (Plan.TmaStore) {
    W.line(formatv("// Where TMA cannot address {0} (an `ld` that is not a "
                   "multiple of 16 bytes, say), the consumers copy the staged "
                   "tile to it row by row.",
                   P.Store.Matrix->getName())
               .str());
    W.line("CUtensorMap " + StoreMap + "{};");
    W.line(formatv("const bool tma_store = tawa::rt::make_tensor_map(&{0}, "
                   "{1}, {2}, {3}{4}) == cudaSuccess;",
                   StoreMap, P.Store.Matrix->getName(), 64 * Plan.MTiles,
                   Plan.StoreChunkCols,
                   P.Store.Batch ? ", /*batched=*/true" : "")
               .str());
  }
  const std::string Walk = schedule();
  StringRef Direct(Walk);
  if (Direct.consume_front("tawa::rt::TileSchedule("))
    W.line("const tawa::rt::TileSchedule schedule(" + Direct.str() + ";");
  else
    W.line("const tawa::rt::TileSchedule schedule = " + Walk + ";");
  if (Plan.Persistent) {
    W.line("int ctas = 0;");
    W.line(formatv("if (cudaError_t e = tawa::rt::persistent_ctas("
                   "schedule.count(), schedule.cluster, &ctas{0}); e != "
                   "cudaSuccess)",
                   Plan.CountTrips ? ", /*fill=*/true" : "")
               .str());
    W.line("  return e;");
  } else {
    W.line("const int ctas = schedule.count() * schedule.cluster;");
  }
  writeSharedMemoryLimit(W, Storage, K);
  std::string Args = llvm::join(ParamNames, ", ");
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    Args += ", " + tensorMapName(P, L);
    if (edgeBoxes(L))
      Args += ", " + edgeMapsName(L);
  }
  if (Plan.TmaStore)
    Args += ", " + StoreMap + ", tma_store";
  Args += ", schedule";
  if (Plan.SplitTail) {
    Args += ", split_tail";
    W.line("tawa::rt::SplitTail split_tail;");
    W.line(formatv("if (cudaError_t e = tawa::rt::split_tail_plan(ctas, {0}, "
                   "{1} * {2}, stream, &split_tail); e != cudaSuccess)",
                   Plan.Consumers, Plan.BM, Plan.BN)
               .str());
    W.line("  return e;");
  }
  if (Clustered) {
    W.line(formatv("return tawa::rt::launch_clustered({0}, ctas, {1}, "
                   "shared_bytes, stream, schedule.cluster, {2});",
                   K, Plan.Threads, Args)
               .str());
  } else {
    W.line(formatv("{0}<<<ctas, {1}, shared_bytes, stream>>>({2});", K,
                   Plan.Threads, Args)
               .str());
    W.line("return cudaPeekAtLastError();");
  }
  W.close();
}

} // namespace

std::string emitKernel(const TileProgram &P, const ArefGraph &G,
                       const PipelinePlan &Plan, const SourceManager &SM,
                       const LangOptions &LO, const NarrowTiles *Narrow) {
  std::vector<std::unique_ptr<KernelEmitter>> Narrows, Twins, Clusters, Fews,
      FewClusters, TwinClusters;
  std::unique_ptr<KernelEmitter> Cluster;
  // The emitter of kernel `N` (kept alive by `Narrow`), whose name takes
  // `Suffix`; null for none.
  auto emitter = [&](const NarrowKernel *N, const std::string &Suffix) {
    return N ? std::make_unique<KernelEmitter>(N->Program, N->Graph, N->Plan,
                                               SM, LO, Suffix)
             : nullptr;
  };
  auto suffix = [](const std::optional<NarrowKernel> &N, const char *Kind) {
    return N ? "_narrow" + std::to_string(N->Plan.BN) + Kind : "";
  };
  auto ptr = [](const std::optional<NarrowKernel> &N) {
    return N ? &*N : nullptr;
  };
  if (Narrow) {
    for (const NarrowKernel &N : Narrow->Kernels)
      Narrows.push_back(emitter(&N, "_narrow" + std::to_string(N.Plan.BN)));
    for (const std::optional<NarrowKernel> &N : Narrow->FullRows)
      Twins.push_back(emitter(ptr(N), suffix(N, "_pingpong")));
    for (const std::optional<NarrowKernel> &N : Narrow->Clusters)
      Clusters.push_back(emitter(ptr(N), suffix(N, "_cluster")));
    for (const std::optional<NarrowKernel> &N : Narrow->FewRows)
      Fews.push_back(emitter(
          ptr(N), suffix(N, ("_rows" + std::to_string(kFewRows)).c_str())));
    for (const std::optional<NarrowKernel> &N : Narrow->FewRowsClusters)
      FewClusters.push_back(emitter(
          ptr(N),
          suffix(N,
                 ("_rows" + std::to_string(kFewRows) + "_cluster").c_str())));
    for (const std::optional<NarrowKernel> &N : Narrow->PingPongClusters)
      TwinClusters.push_back(emitter(ptr(N), suffix(N, "_pingpong_cluster")));
    Cluster = emitter(ptr(Narrow->Cluster), "_cluster");
  }
  return KernelEmitter(P, G, Plan, SM, LO)
      .run(Narrows, Twins, Clusters, Cluster.get(), Fews, FewClusters,
           TwinClusters);
}

std::string emitLaunch(const TileProgram &P, const CUDAKernelCallExpr *Call,
                       const SourceManager &SM, const LangOptions &LO) {
  // The configuration as written, its defaults spelled out (the launcher
  // takes all four); the arguments as written, those left out to the
  // launcher's defaults, which are the kernel's.
  auto ArgText = [&](const Expr *E) {
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return exprText(D->getParam()->getDefaultArg(), SM, LO);
    return exprText(E, SM, LO);
  };
  const CallExpr *Config = Call->getConfig();
  std::string Config4[4] = {"", "", "0", "0"};
  for (unsigned I = 0; I < 4 && I < Config->getNumArgs(); ++I)
    Config4[I] = ArgText(Config->getArg(I));
  std::string Args;
  for (const Expr *A : Call->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Args += ", " + exprText(A, SM, LO);
  // The kernel's name as the call spells it, with its qualifier but without
  // parentheses, so that the launcher, declared beside the kernel, is found
  // the same way.
  const auto *Callee =
      cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  std::string Name = exprText(Callee, SM, LO);
  // A name brought in by a using-declaration does not bring the launcher:
  // name it by its namespace.
  if (isa<UsingShadowDecl>(Callee->getFoundDecl())) {
    PrintingPolicy Policy(LO);
    Policy.SuppressUnwrittenScope = true;
    Name = "::";
    llvm::raw_string_ostream OS(Name);
    Callee->getDecl()->printQualifiedName(OS, Policy);
  }
  return formatv("{0}_launch({1}, {2}, {3}, {4}{5})", Name, Config4[0],
                 Config4[1], Config4[2], Config4[3], Args)
      .str();
}

} // namespace tawa
