//===- AttentionEmitter.cpp - writing warp-specialized attention ----------===//
#include "tawa/AttentionEmitter.h"
#include "tawa/EmitText.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang;
using llvm::formatv;

namespace tawa {
namespace {

using Kind = TileOp::Kind;

/// Named barriers of the consumers: 1 + c their epilogues' (the GEMM
/// epilogue helpers'), then the turns of the ping-pong, then one for all
/// consumers.
int allConsumersBarrier(int Consumers) { return 1 + 2 * Consumers; }

class AttentionWriter {
public:
  AttentionWriter(const TileProgram &P, const AttentionProgram &A,
                  const ArefGraph &G, const AttentionPlan &Plan,
                  const SourceManager &SM, const LangOptions &LO)
      : P(P), A(A), G(G), Plan(Plan), SM(SM), LO(LO),
        K(P.Kernel->getNameAsString()), Storage(K + "_shared"),
        Sig(kernelSignature(P, SM, LO)),
        Operand(P.Values[A.Probs].Name + "_operand") {
    for (unsigned S : A.Stores)
      if (P.Ops[S].Value.S == ElemExpr::Shape::Matrix)
        MatrixStore = S;
  }

  std::string run() {
    W.line(formatv("/// {0} as written (the portable tile code of "
                   "tawa/tile.h): {0}_launch runs it where TMA cannot address "
                   "the data.",
                   K)
               .str());
    Out += referenceKernelText(P, SM, LO) + "\n\n";
    storage();
    kernelHead();
    producer();
    consumers();
    launcher();
    return Out;
  }

private:
  std::string coord(const Expr *E) const {
    return renameBuiltins(exprText(E, SM, LO), LO);
  }
  std::string value(unsigned V) const { return P.Values[V].Name; }
  const Aref &arefOf(unsigned Load) const {
    return G.Arefs[G.ArefOfLoad[Load]];
  }
  std::string mapName(unsigned L) const {
    return P.Loads[L].Matrix->getName().str() + "_tensor_map";
  }
  std::string storeMap() const {
    return P.Ops[*MatrixStore].Store.Matrix->getName().str() + "_store_map";
  }
  std::string elem() const { return cxxElement(Plan.Elem); }
  /// The ring depth of an aref's slots, as the kernel names it.
  const char *stagesOf(const Aref &R) const {
    return R.OneShot ? "kQueryStages" : "kStages";
  }
  std::string fragmentType(unsigned V) const {
    const TileValue &X = P.Values[V];
    return X.Kind == ValueKind::RowVector
               ? "tawa::rt::RowFragment<1>"
               : formatv("tawa::rt::WgmmaAccumulator<1, {0}>", X.Cols).str();
  }
  std::string stagingType() const {
    const unsigned Bytes =
        MatrixStore ? elementBytes(P.Ops[*MatrixStore].Store.Elem) : 2;
    return formatv("tawa::rt::EpilogueStaging<{0}, 64, {1}>",
                   Bytes == 4 ? "float" : elem(), Plan.StagingBuffers)
        .str();
  }
  /// The statement of op `I` as a comment.
  void comment(unsigned I) {
    std::string T = sourceText(P.Ops[I].S->getSourceRange(), SM, LO);
    W.line("// " + llvm::join(llvm::split(T, '\n'), " "));
  }

  void storage();
  void kernelHead();
  void producer();
  void loads(unsigned L);
  void prologue(bool Consumer);
  void consumers();
  void mainLoop();
  void iteration(bool First);
  void serialIteration();
  void outputMma();
  void epilogue();
  void releaseQueries();
  void launcher();
  std::string skipCondition() const;
  std::string maskOffset(const MaskPredicate &M, bool Slice) const;
  void op(unsigned I);
  void assign(unsigned I, bool Declares);
  std::string print(const ElemExpr &E, bool Matrix, const std::string &Target,
                    int MinPrec);
  void hoist(const ElemExpr &E, bool Matrix);

  const TileProgram &P;
  const AttentionProgram &A;
  const ArefGraph &G;
  const AttentionPlan &Plan;
  const SourceManager &SM;
  const LangOptions &LO;
  const std::string K, Storage;
  const KernelSignature Sig;
  const std::string Operand;
  std::optional<unsigned> MatrixStore;
  /// Row reductions of the op being lowered, hoisted into named fragments.
  std::vector<std::pair<const ElemExpr *, std::string>> Hoisted;
  std::string Out;
  Writer W{Out};
};

void AttentionWriter::storage() {
  W.line(formatv("/// Shared memory of {0}: arefs q (one slot, once per tile), "
                 "k and v ({1} stages each), their barriers{2}.",
                 K, Plan.Stages,
                 Plan.StagingInQ ? "; the epilogue stages in q's slot"
                                 : ", the epilogue staging")
             .str());
  W.open("struct " + Storage);
  W.line(formatv("static constexpr int kStages = {0};", Plan.Stages).str());
  W.line(
      formatv("static constexpr int kConsumers = {0};", Plan.Consumers).str());
  W.line(
      formatv("static constexpr int kQueryStages = {0};", Plan.QStages).str());
  for (const Aref &R : G.Arefs) {
    W.open("struct " + R.Name + "_slot");
    for (unsigned L : R.Loads)
      W.line(formatv("alignas(1024) {0} {1}[{2} * {3}];", elem(),
                     P.Loads[L].Var, P.Loads[L].Rows, P.Loads[L].Cols)
                 .str());
    W.close(";");
  }
  for (const Aref &R : G.Arefs)
    W.line(formatv("{0}_slot {0}[{1}];", R.Name, stagesOf(R)).str());
  for (const Aref &R : G.Arefs)
    W.line(formatv("tawa::rt::Aref<{0}> {1}_aref;", stagesOf(R), R.Name).str());
  W.line("using Staging = " + stagingType() + ";");
  if (Plan.StagingInQ)
    W.line(formatv("static_assert(sizeof(Staging) * kConsumers <= "
                   "sizeof({0}_slot), \"the staging fits the query slot\");",
                   arefOf(A.QLoad).Name)
               .str());
  else
    W.line("Staging epilogue[kConsumers];");
  W.close(";");
  W.line();
}

void AttentionWriter::kernelHead() {
  W.line(formatv("/// {0}, warp-specialized by tawa-rewrite from `#pragma tawa "
                 "tile` at {1}: warpgroup 0 loads q, k and v with TMA;",
                 K, Sig.Where)
             .str());
  W.line(formatv("/// consumer warpgroups 1-{0} own 64 queries each: S = Q K^T "
                 "and O += P V with wgmma, the softmax in registers{1}.",
                 Plan.Consumers, Plan.PingPong ? ", their wgmma in turns" : "")
             .str());
  std::string Maps;
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    Maps += ",\n    const __grid_constant__ CUtensorMap " + mapName(L);
  if (MatrixStore)
    Maps += ",\n    const __grid_constant__ CUtensorMap " + storeMap() +
            ", const bool tma_store";
  Maps += ",\n    const tawa::rt::OrderedTileSchedule schedule";
  W.line(formatv("{0}__global__ void __launch_bounds__({1}, 1)",
                 P.Kernel->getStorageClass() == SC_Static ? "static " : "",
                 Plan.Threads)
             .str());
  W.open(formatv("{0}({1}{2})", K, Sig.Params, Maps).str());
  W.line(formatv("constexpr int kStages = {0}::kStages;", Storage).str());
  W.line(formatv("constexpr int kConsumers = {0}::kConsumers;", Storage).str());
  W.line(formatv("constexpr int kQueryStages = {0}::kQueryStages;", Storage)
             .str());
  W.line("extern __shared__ unsigned char tawa_smem[];");
  W.line(
      formatv("{0} &smem = tawa::rt::shared_storage<{0}>(tawa_smem);", Storage)
          .str());
  W.open("if (threadIdx.x == 0)");
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    W.line(formatv("tawa::rt::prefetch_tensor_map(&{0});", mapName(L)).str());
  if (MatrixStore)
    W.line(formatv("if (tma_store) tawa::rt::prefetch_tensor_map(&{0});",
                   storeMap())
               .str());
  for (const Aref &R : G.Arefs)
    W.line(formatv("smem.{0}_aref.init(kConsumers);", R.Name).str());
  W.close();
  W.line("__syncthreads();");
  W.line();
}

/// The kernel's code before the loop, in order: its plain statements, and
/// per role the tile ops (the producer loads q; the consumers declare their
/// fragments).
void AttentionWriter::prologue(bool Consumer) {
  for (const Stmt *S : cast<CompoundStmt>(P.Kernel->getBody())->body()) {
    if (S == P.Loop)
      break;
    if (llvm::is_contained(P.PlainPrologue, S)) {
      std::string T =
          renameBuiltins(sourceText(S->getSourceRange(), SM, LO), LO);
      if (!isa<DeclStmt>(S) && !StringRef(T).rtrim().ends_with(";") &&
          !StringRef(T).rtrim().ends_with("}"))
        T += ";";
      W.line(T);
      continue;
    }
    for (unsigned I = 0; I < P.Ops.size(); ++I) {
      const TileOp &Op = P.Ops[I];
      if (Op.S != S)
        continue;
      if (Op.K == Kind::Load && !Consumer)
        loads(Op.Load);
      else if (Op.K != Kind::Load && Consumer)
        op(I);
    }
  }
}

/// The TMA load of P.Loads[L] into its aref's next slot.
void AttentionWriter::loads(unsigned L) {
  const TileLoad &T = P.Loads[L];
  const Aref &R = arefOf(L);
  W.line(
      formatv("smem.{0}_aref.put({0}, sizeof(smem.{0}[0].{1}));", R.Name, T.Var)
          .str());
  W.line(formatv("tawa::rt::tma_load_boxes<{0}, {1}, {2}>(smem.{3}[{3}."
                 "stage].{4}, &{5}, smem.{3}_aref.full_barrier({3}), {6}, "
                 "{7}, {8});",
                 T.Cols / 64, T.Rows, T.Batch ? "true" : "false", R.Name, T.Var,
                 mapName(L), coord(T.Col0), coord(T.Row0),
                 T.Batch ? coord(T.Batch) : "0")
             .str());
  W.line(R.Name + ".advance();");
}

std::string AttentionWriter::maskOffset(const MaskPredicate &M,
                                        bool Slice) const {
  std::string T;
  for (auto [Sign, E] : M.Form.Terms) {
    std::string X = parenthesized(coord(E), E);
    if (T.empty())
      T = Sign > 0 ? X : "-" + X;
    else
      T += (Sign > 0 ? " + " : " - ") + X;
  }
  if (T.empty())
    T = "0";
  if (Slice && M.Form.RowCoef)
    T += M.Form.RowCoef > 0 ? " + consumer * 64" : " - consumer * 64";
  return T;
}

/// Where a tile of keys may be skipped (Attention.h, the skip proof).
std::string AttentionWriter::skipCondition() const {
  std::string Any;
  for (unsigned I : A.SkipMasks) {
    const MaskPredicate &M = P.Ops[I].Predicate;
    Any += (Any.empty() ? "" : " || ") +
           formatv("tawa::rt::LinearPredicate<{0}, {1}, {2}>::holds_nowhere<"
                   "{3}, {4}>({5})",
                   M.Form.RowCoef, M.Form.ColCoef, M.Strict ? "true" : "false",
                   Plan.BM, Plan.BN, maskOffset(M, false))
               .str();
  }
  std::string Positive;
  for (const Expr *E : A.PositiveScalars)
    Positive += parenthesized(coord(E), E) + " > 0 && ";
  return Positive + (A.SkipMasks.size() > 1 ? "(" + Any + ")" : Any);
}

void AttentionWriter::producer() {
  W.open("if (tawa::rt::warpgroup_index() == 0)");
  W.line("// Producer warpgroup: one thread issues the TMA loads, q once per "
         "tile, k and v per iteration.");
  W.line(formatv("tawa::rt::warpgroup_release_registers<{0}>();",
                 Plan.Regs.Producer)
             .str());
  W.open("if (threadIdx.x == 0)");
  for (const Aref &R : G.Arefs)
    W.line(
        formatv("tawa::rt::ArefCursor<{0}> {1};", stagesOf(R), R.Name).str());
  W.open("for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x)");
  W.line("const uint3 tile = schedule.tile(t);");
  prologue(false);
  W.open(renameBuiltins(
      sourceText(SourceRange(P.Loop->getForLoc(), P.Loop->getRParenLoc()), SM,
                 LO),
      LO));
  if (!A.SkipMasks.empty()) {
    W.line("// Keys the mask hides entirely change nothing: skipped.");
    W.open("if (" + skipCondition() + ")");
    W.line("continue;");
    W.close();
  }
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    if (P.Loads[L].Where == Region::Loop)
      loads(L);
  W.close(); // k loop
  W.close(); // tile loop
  W.close(); // elected thread
  W.close(" else {");
}

/// Names the row reductions of `E` (Matrix: `E` is element-wise over an
/// accumulator) and the reciprocals of the row vectors it divides by: a
/// division by a row vector is one division per row and a product per
/// element.
void AttentionWriter::hoist(const ElemExpr &E, bool Matrix) {
  if (Matrix && E.K == ElemExpr::Kind::Div &&
      E.Args[1].S == ElemExpr::Shape::Row) {
    hoist(E.Args[0], true);
    hoist(E.Args[1], false);
    const ElemExpr &D = E.Args[1];
    const std::string Name =
        D.K == ElemExpr::Kind::Value
            ? value(D.Value) + "_reciprocal"
            : "reciprocal" + std::to_string(Hoisted.size());
    W.line("tawa::rt::RowFragment<1> " + Name + ";");
    W.line("#pragma unroll");
    W.line(formatv("for (int r = 0; r < {0}.kSize; ++r)", Name).str());
    W.line("  " + Name + "[r] = 1.0f / " + print(D, false, "", 3) + ";");
    Hoisted.push_back({&E, Name});
    return;
  }
  if (E.K == ElemExpr::Kind::RowMax || E.K == ElemExpr::Kind::RowSum) {
    std::string Name =
        std::string(E.K == ElemExpr::Kind::RowMax ? "row_max_" : "row_sum_") +
        value(E.Args[0].Value);
    for (auto &[X, N] : Hoisted)
      if (N == Name)
        Name += "_" + std::to_string(Hoisted.size());
    W.line(formatv("const auto {0} = tawa::rt::{1}({2});", Name,
                   E.K == ElemExpr::Kind::RowMax ? "row_max" : "row_sum",
                   value(E.Args[0].Value))
               .str());
    Hoisted.push_back({&E, Name});
    return;
  }
  for (const ElemExpr &X : E.Args)
    hoist(X, Matrix && X.S == ElemExpr::Shape::Matrix);
}

/// The element (Matrix: register `e` of `Target`'s fragment) or row (`r`)
/// of `E`, as C++.
std::string AttentionWriter::print(const ElemExpr &E, bool Matrix,
                                   const std::string &Target, int MinPrec) {
  using K = ElemExpr::Kind;
  auto Wrap = [&](int Prec, const std::string &S) {
    return Prec < MinPrec ? "(" + S + ")" : S;
  };
  switch (E.K) {
  case K::Value:
    if (P.Values[E.Value].Kind == ValueKind::Accumulator)
      return value(E.Value) + ".at(e)";
    return value(E.Value) +
           (Matrix ? "[" + Target + ".row_of(e)]" : std::string("[r]"));
  case K::Scalar:
    return parenthesized(coord(E.E), E.E);
  case K::RowMax:
  case K::RowSum:
    for (auto &[X, N] : Hoisted)
      if (X == &E)
        return N + (Matrix ? "[" + Target + ".row_of(e)]" : std::string("[r]"));
    return "?";
  case K::Exp2:
    return "tawa::rt::exp2(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Log2:
    return "log2f(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Relu:
    return "tawa::relu(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Gelu:
    return "tawa::gelu(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::GeluTanh:
    return "tawa::gelu_tanh(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Silu:
    return "tawa::silu(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Tanh:
    return "tawa::tanh(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::Sigmoid:
    return "tawa::sigmoid(" + print(E.Args[0], Matrix, Target, 0) + ")";
  case K::LeakyRelu:
    return "tawa::leaky_relu(" + print(E.Args[0], Matrix, Target, 0) + ", " +
           print(E.Args[1], Matrix, Target, 0) + ")";
  case K::Tile:
  case K::Select:
    return "?"; // refused by the attention analysis
  case K::Max:
    return "fmaxf(" + print(E.Args[0], Matrix, Target, 0) + ", " +
           print(E.Args[1], Matrix, Target, 0) + ")";
  case K::Sub:
    if (E.Args[1].S == ElemExpr::Shape::Row)
      return "tawa::rt::minus_row(" + print(E.Args[0], Matrix, Target, 0) +
             ", " + print(E.Args[1], Matrix, Target, 0) + ")";
    return Wrap(1, print(E.Args[0], Matrix, Target, 1) + " - " +
                       print(E.Args[1], Matrix, Target, 2));
  case K::Add:
    return Wrap(1, print(E.Args[0], Matrix, Target, 1) + " + " +
                       print(E.Args[1], Matrix, Target, 1));
  case K::Mul:
    return Wrap(2, print(E.Args[0], Matrix, Target, 2) + " * " +
                       print(E.Args[1], Matrix, Target, 2));
  case K::Div:
    for (auto &[X, N] : Hoisted)
      if (X == &E)
        return Wrap(2, print(E.Args[0], Matrix, Target, 2) + " * " + N + "[" +
                           Target + ".row_of(e)]");
    return Wrap(2, print(E.Args[0], Matrix, Target, 2) + " / " +
                       print(E.Args[1], Matrix, Target, 3));
  }
  return "?";
}

/// `Target = Value` (declaring Target where the op does) over the
/// consumer's fragment.
void AttentionWriter::assign(unsigned I, bool Declares) {
  const TileOp &Op = P.Ops[I];
  const std::string T = value(Op.Target);
  const bool Matrix = P.Values[Op.Target].Kind == ValueKind::Accumulator;
  // The statement as a comment, above its declaration or block, else at the
  // end of the loop's line (a comment right above '#pragma unroll' would be
  // laid out as a directive).
  std::string Comment =
      "// " +
      llvm::join(llvm::split(sourceText(Op.S->getSourceRange(), SM, LO), '\n'),
                 " ");
  if (Declares) {
    W.line(Comment);
    W.line(fragmentType(Op.Target) + " " + T + ";");
    Comment.clear();
  }
  Hoisted.clear();
  bool Scoped = false;
  std::function<bool(const ElemExpr &)> Hoists = [&](const ElemExpr &E) {
    return E.K == ElemExpr::Kind::RowMax || E.K == ElemExpr::Kind::RowSum ||
           (Matrix && E.K == ElemExpr::Kind::Div &&
            E.Args[1].S == ElemExpr::Shape::Row) ||
           llvm::any_of(E.Args, Hoists);
  };
  if (Hoists(Op.Value)) {
    if (!Comment.empty())
      W.line(Comment);
    Comment.clear();
    W.open("");
    Scoped = true;
    hoist(Op.Value, Matrix);
  }
  const char *Index = Matrix ? "e" : "r";
  W.line("#pragma unroll");
  W.line(formatv("for (int {0} = 0; {0} < {1}.kSize; ++{0}){2}{3}", Index, T,
                 Comment.empty() ? "" : " ", Comment)
             .str());
  const std::string Lhs = Matrix ? T + ".at(e)" : T + "[r]";
  const std::string Rhs = print(Op.Value, Matrix, T, 0);
  W.line("  " + Lhs + (Op.K == Kind::Scale ? " *= " : " = ") + Rhs + ";");
  if (Scoped)
    W.close();
}

/// One op of the consumers, lowered.
void AttentionWriter::op(unsigned I) {
  const TileOp &Op = P.Ops[I];
  switch (Op.K) {
  case Kind::Load:
    return;
  case Kind::Declare: {
    const TileValue &X = P.Values[Op.Target];
    if (X.Kind == ValueKind::RowVector) {
      W.line(formatv("{0} {1}({2});", fragmentType(Op.Target), X.Name,
                     X.Fill ? coord(X.Fill) : "0.0f")
                 .str());
    } else {
      W.line(fragmentType(Op.Target) + " " + X.Name + ";");
      // The score mma overwrites S (scale-d 0); others start at zero.
      if (Op.Target != A.S)
        W.line(X.Name + ".zero();");
    }
    return;
  }
  case Kind::Assign:
  case Kind::Scale:
    assign(I, Op.K == Kind::Assign && isa<DeclStmt>(Op.S));
    return;
  case Kind::Mask: {
    comment(I);
    const MaskPredicate &M = Op.Predicate;
    W.line(formatv("tawa::rt::mask<{0}, {1}, {2}>({3}, {4});", M.Form.RowCoef,
                   M.Form.ColCoef, M.Strict ? "true" : "false",
                   value(Op.Target), maskOffset(M, true))
               .str());
    return;
  }
  case Kind::Mma:
  case Kind::Store:
    return; // placed by the schedule
  }
}

/// Issues the P V of the previous iteration (or of the last one).
void AttentionWriter::outputMma() {
  const Aref &V = arefOf(A.VLoad);
  W.line(formatv("smem.{0}_aref.get({0});", V.Name).str());
  W.line(formatv("tawa::rt::wgmma_rs_mnmajor({0}, {1}, smem.{2}[{2}.stage]."
                 "{3});",
                 value(A.O), Operand, V.Name, P.Loads[A.VLoad].Var)
             .str());
}

void AttentionWriter::consumers() {
  ++W.Depth;
  W.line("// Consumer warpgroups: warpgroup 1 + c owns queries [64 c, 64 c + "
         "64) of each tile.");
  W.line(formatv("tawa::rt::warpgroup_acquire_registers<{0}>();",
                 Plan.Regs.Consumer)
             .str());
  W.line("const int consumer = tawa::rt::warpgroup_index() - 1;");
  if (Plan.PingPong) {
    W.line("// The consumers issue their wgmma in turn (FlashAttention-3's "
           "ping-pong): one's softmax runs under the other's products.");
    W.line("const tawa::rt::WarpgroupTurns<kConsumers, 1 + kConsumers> "
           "turns(consumer);");
  }
  for (const Aref &R : G.Arefs)
    W.line(
        formatv("tawa::rt::ArefCursor<{0}> {1};", stagesOf(R), R.Name).str());
  W.open("for (int t = blockIdx.x; t < schedule.count(); t += gridDim.x)");
  W.line("const uint3 tile = schedule.tile(t);");
  prologue(true);
  W.line(formatv("// {0} converted, the A operand of the P V wgmma.",
                 value(A.Probs))
             .str());
  W.line(
      formatv("tawa::rt::WgmmaOperandA<1, {0}> {1};", Plan.BN, Operand).str());
  const Aref &Q = arefOf(A.QLoad);
  W.line(formatv("smem.{0}_aref.get({0});", Q.Name).str());
  mainLoop();
  epilogue();
  W.close(); // tile loop
  if (MatrixStore) {
    W.line("// The stores must have read shared memory before the CTA ends.");
    W.open("if (tma_store && tawa::rt::warpgroup_thread() == 0)");
    W.line("tawa::rt::tma_store_wait_all();");
    W.close();
  }
  if (Plan.PingPong)
    W.line("turns.finish();");
  W.close(); // consumer branch
  W.close(); // kernel
  W.line();
}

void AttentionWriter::mainLoop() {
  const std::string Header = renameBuiltins(
      sourceText(SourceRange(P.Loop->getForLoc(), P.Loop->getRParenLoc()), SM,
                 LO),
      LO);
  if (Plan.Overlap)
    W.line("bool started = false;");
  W.open(Header);
  if (!A.SkipMasks.empty()) {
    W.open("if (" + skipCondition() + ")");
    W.line("continue;");
    W.close();
  }
  for (unsigned I = 0; I < A.ScoreMma; ++I)
    if (P.Ops[I].Where == Region::Loop && P.Ops[I].K == Kind::Declare)
      op(I);
  if (!Plan.Overlap) {
    serialIteration();
    W.close();
    releaseQueries();
    return;
  }
  W.open("if (!started)");
  W.line("// The first iteration: no P V of an earlier one to overlap.");
  iteration(true);
  W.line("started = true;");
  W.line("continue;");
  W.close();
  W.line("// The steady state: this iteration's scores and the previous one's "
         "P V issued together; the softmax runs while the P V does.");
  iteration(false);
  W.close(); // k loop
  releaseQueries();
  // The last P V.
  W.open("if (started)");
  if (Plan.PingPong)
    W.line("turns.wait();");
  outputMma();
  if (Plan.PingPong)
    W.line("turns.pass();");
  const Aref &V = arefOf(A.VLoad);
  W.line("tawa::rt::wgmma_wait<0>();");
  W.line(formatv("{0}.fence();", value(A.O)).str());
  W.line(formatv("{0}.fence();", Operand).str());
  W.line(formatv("smem.{0}_aref.consumed({0});", V.Name).str());
  W.line(V.Name + ".advance();");
  W.close();
}

/// One iteration of the pipelined loop (First: no earlier P V).
void AttentionWriter::iteration(bool First) {
  const Aref &Kr = arefOf(A.KLoad), &Vr = arefOf(A.VLoad),
             &Qr = arefOf(A.QLoad);
  W.line(formatv("smem.{0}_aref.get({0});", Kr.Name).str());
  if (Plan.PingPong)
    W.line("turns.wait();");
  W.line(formatv("tawa::rt::wgmma_ss_kmajor<{0}, {1}, {2}>({3}, smem.{4}[{4}."
                 "stage].{5} + consumer * 64 * 64, smem.{6}[{6}.stage].{7}, "
                 "/*accumulate=*/false);",
                 Plan.D, Plan.BM, Plan.BN, value(A.S), Qr.Name,
                 P.Loads[A.QLoad].Var, Kr.Name, P.Loads[A.KLoad].Var)
             .str());
  if (!First)
    outputMma();
  if (Plan.PingPong)
    W.line("turns.pass();");
  W.line(First ? "tawa::rt::wgmma_wait<0>();" : "tawa::rt::wgmma_wait<1>();");
  W.line(formatv("{0}.fence();", value(A.S)).str());
  W.line(formatv("smem.{0}_aref.consumed({0});", Kr.Name).str());
  W.line(Kr.Name + ".advance();");
  for (unsigned I : A.Softmax)
    op(I);
  if (!First) {
    W.line("// The previous P V is done: its slot is free, and the output "
           "may be rescaled.");
    W.line("tawa::rt::wgmma_wait<0>();");
    W.line(formatv("{0}.fence();", value(A.O)).str());
    W.line(formatv("{0}.fence();", Operand).str());
    W.line(formatv("smem.{0}_aref.consumed({0});", Vr.Name).str());
    W.line(Vr.Name + ".advance();");
  }
  for (unsigned I : A.Rescale)
    op(I);
  W.line(formatv("tawa::rt::convert_operand<{0}>({1}, {2});", elem(), Operand,
                 value(A.Probs))
             .str());
  for (unsigned I : A.Carry)
    op(I);
}

/// One iteration without the overlap (overlap(off)): the ops in order.
void AttentionWriter::serialIteration() {
  const Aref &Kr = arefOf(A.KLoad), &Vr = arefOf(A.VLoad),
             &Qr = arefOf(A.QLoad);
  W.line(formatv("smem.{0}_aref.get({0});", Kr.Name).str());
  if (Plan.PingPong)
    W.line("turns.wait();");
  W.line(formatv("tawa::rt::wgmma_ss_kmajor<{0}, {1}, {2}>({3}, smem.{4}[{4}."
                 "stage].{5} + consumer * 64 * 64, smem.{6}[{6}.stage].{7}, "
                 "/*accumulate=*/false);",
                 Plan.D, Plan.BM, Plan.BN, value(A.S), Qr.Name,
                 P.Loads[A.QLoad].Var, Kr.Name, P.Loads[A.KLoad].Var)
             .str());
  if (Plan.PingPong)
    W.line("turns.pass();");
  W.line("tawa::rt::wgmma_wait<0>();");
  W.line(formatv("{0}.fence();", value(A.S)).str());
  W.line(formatv("smem.{0}_aref.consumed({0});", Kr.Name).str());
  W.line(Kr.Name + ".advance();");
  for (unsigned I : A.Softmax)
    op(I);
  for (unsigned I : A.Rescale)
    op(I);
  W.line(formatv("tawa::rt::convert_operand<{0}>({1}, {2});", elem(), Operand,
                 value(A.Probs))
             .str());
  if (Plan.PingPong)
    W.line("turns.wait();");
  outputMma();
  if (Plan.PingPong)
    W.line("turns.pass();");
  W.line("tawa::rt::wgmma_wait<0>();");
  W.line(formatv("{0}.fence();", value(A.O)).str());
  W.line(formatv("{0}.fence();", Operand).str());
  W.line(formatv("smem.{0}_aref.consumed({0});", Vr.Name).str());
  W.line(Vr.Name + ".advance();");
  for (unsigned I : A.Carry)
    op(I);
}

/// The tile's scores are done: the query slot may take the next tile's
/// (unless the epilogue stages in it).
void AttentionWriter::releaseQueries() {
  if (Plan.StagingInQ)
    return;
  const Aref &Q = arefOf(A.QLoad);
  W.line("// Every score of the tile is computed: the next tile's queries may "
         "load.");
  W.line(formatv("smem.{0}_aref.consumed({0});", Q.Name).str());
  W.line(Q.Name + ".advance();");
}

void AttentionWriter::epilogue() {
  const Aref &Q = arefOf(A.QLoad);
  const std::string Staging =
      Plan.StagingInQ
          ? formatv("reinterpret_cast<{0}::Staging *>(smem.{1}[{1}.stage].{2})"
                    "[consumer]",
                    Storage, Q.Name, P.Loads[A.QLoad].Var)
                .str()
          : "smem.epilogue[consumer]";
  if (Plan.StagingInQ) {
    W.line("// The epilogue stages in the query slot: every consumer is done "
           "with the queries first.");
    W.line(formatv("tawa::rt::named_barrier_sync({0}, kConsumers * "
                   "tawa::rt::kWarpgroupThreads);",
                   allConsumersBarrier(Plan.Consumers))
               .str());
  }
  unsigned N = 0;
  for (unsigned I : A.Stores) {
    const TileOp &Op = P.Ops[I];
    comment(I);
    const bool Matrix = Op.Value.S == ElemExpr::Shape::Matrix;
    std::string V;
    if (Op.Value.K == ElemExpr::Kind::Value) {
      V = value(Op.Value.Value);
    } else {
      V = "stored" + (N++ ? std::to_string(N) : std::string());
      W.line((Matrix
                  ? formatv("tawa::rt::WgmmaAccumulator<1, {0}>", Plan.DV).str()
                  : std::string("tawa::rt::RowFragment<1>")) +
             " " + V + ";");
      Hoisted.clear();
      hoist(Op.Value, Matrix);
      W.line("#pragma unroll");
      W.line(formatv("for (int {0} = 0; {0} < {1}.kSize; ++{0})",
                     Matrix ? "e" : "r", V)
                 .str());
      W.line("  " + V + (Matrix ? ".at(e)" : "[r]") + " = " +
             print(Op.Value, Matrix, V, 0) + ";");
    }
    const TileStore &St = Op.Store;
    const std::string Row0 =
        parenthesized(coord(St.Row0), St.Row0) + " + consumer * 64";
    if (!Matrix) {
      W.line(formatv("tawa::rt::store_rows({0}, {1}, {2}, {3});",
                     coord(St.MatrixArg), Row0, coord(St.Col0), V)
                 .str());
      continue;
    }
    W.open("if (tma_store)");
    W.line(formatv("tawa::rt::store_accumulator_tma<{0}>(&{1}, {2}, {3}, {4}, "
                   "{5}, {6}, /*zero=*/false, /*barrier=*/1 + consumer);",
                   St.Batch ? "true" : "false", storeMap(), Staging, Row0,
                   coord(St.Col0), St.Batch ? coord(St.Batch) : "0", V)
               .str());
    W.close(" else {");
    ++W.Depth;
    W.line(formatv("tawa::rt::store_accumulator_staged({0}, {1}, {2}, {3}, "
                   "{4}, /*zero=*/false, /*barrier=*/1 + consumer);",
                   coord(St.MatrixArg), Staging, Row0, coord(St.Col0), V)
               .str());
    W.close();
  }
  if (Plan.StagingInQ) {
    W.line("// The stores have read the query slot before it is released.");
    if (MatrixStore) {
      W.open("if (tma_store && tawa::rt::warpgroup_thread() == 0)");
      W.line("tawa::rt::tma_store_wait_read<0>();");
      W.close();
    }
    W.line("tawa::rt::named_barrier_sync(1 + consumer, "
           "tawa::rt::kWarpgroupThreads);");
    W.line(formatv("smem.{0}_aref.consumed({0});", Q.Name).str());
    W.line(Q.Name + ".advance();");
  }
}

void AttentionWriter::launcher() {
  W.line(formatv("/// Launches {0} over the tiles of `grid` (the grid of the "
                 "original launch){1}: builds the tensor maps, raises the "
                 "dynamic shared-memory limit. Where TMA cannot load the "
                 "operands, runs the kernel as written with the original "
                 "`grid`, `block` and `shared`. Returns the first error.",
                 K,
                 Plan.Persistent
                     ? formatv(", one CTA per SM, {0}",
                               Plan.LongestFirst ? "longest tiles first"
                                                 : "tiles of one (y, z) "
                                                   "together")
                           .str()
                     : formatv(", one CTA per tile, {0}",
                               Plan.LongestFirst ? "longest tiles first"
                                                 : "tiles of one (y, z) "
                                                   "together")
                           .str())
             .str());
  W.open(formatv("inline cudaError_t {0}_launch(dim3 grid, dim3 block, size_t "
                 "shared, cudaStream_t stream, {1})",
                 K, Sig.LauncherParams)
             .str());
  std::string Decls;
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    Decls += (L ? ", " : "") + mapName(L);
  W.line("CUtensorMap " + Decls + ";");
  std::vector<std::string> Operands;
  for (const TileLoad &T : P.Loads)
    if (!llvm::is_contained(Operands, T.Matrix->getName().str()))
      Operands.push_back(T.Matrix->getName().str());
  writeOperandCopies(W, Operands);
  auto Step = [&](const std::string &Call) {
    W.line("if (maps == cudaSuccess) maps = " + Call + ";");
  };
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    Step(formatv("tawa::rt::make_tensor_map(&{0}, {1}_aligned, {2}, 64{3})",
                 mapName(L), P.Loads[L].Matrix->getName(), P.Loads[L].Rows,
                 P.Loads[L].Batch ? ", /*batched=*/true" : "")
             .str());
  W.open("if (maps != cudaSuccess)");
  W.line("// TMA cannot address this data: run the kernel as written.");
  W.line("static bool noted = false;");
  W.line(formatv("tawa::rt::note_fallback(\"{0}\", maps, noted);", K).str());
  W.line(formatv("{0}_reference<<<grid, block, shared, stream>>>({1});", K,
                 llvm::join(Sig.Names, ", "))
             .str());
  W.line("return cudaPeekAtLastError();");
  W.close();
  std::string Args = llvm::join(Sig.Names, ", ");
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    Args += ", " + mapName(L);
  if (MatrixStore) {
    const TileStore &St = P.Ops[*MatrixStore].Store;
    W.line(formatv("// Where TMA cannot address {0}, the consumers copy the "
                   "staged tile to it row by row.",
                   St.Matrix->getName())
               .str());
    W.line("CUtensorMap " + storeMap() + "{};");
    W.line(formatv("const bool tma_store = tawa::rt::make_tensor_map(&{0}, "
                   "{1}, 64, {2}{3}) == cudaSuccess;",
                   storeMap(), St.Matrix->getName(),
                   128 / elementBytes(St.Elem),
                   St.Batch ? ", /*batched=*/true" : "")
               .str());
    Args += ", " + storeMap() + ", tma_store";
  }
  Args += ", schedule";
  if (Plan.LongestFirst) {
    W.line("// Longest tiles first, in groups of (y, z) that fill the SMs, "
           "so the CTAs running together share their keys and values.");
    W.line("int group = 1;");
    W.line("if (cudaError_t e = tawa::rt::longest_first_group(grid, &group); "
           "e != cudaSuccess)");
    W.line("  return e;");
    W.line("const tawa::rt::OrderedTileSchedule schedule(grid, "
           "/*longest_first=*/true, group);");
  } else {
    W.line("const tawa::rt::OrderedTileSchedule schedule(grid, "
           "/*longest_first=*/false);");
  }
  if (Plan.Persistent) {
    W.line("int ctas = 0;");
    W.line("if (cudaError_t e = tawa::rt::persistent_ctas(schedule.count(), 1, "
           "&ctas); e != cudaSuccess)");
    W.line("  return e;");
  } else {
    W.line("const int ctas = schedule.count();");
  }
  writeSharedMemoryLimit(W, Storage, K);
  W.line(formatv("{0}<<<ctas, {1}, shared_bytes, stream>>>({2});", K,
                 Plan.Threads, Args)
             .str());
  W.line("return cudaPeekAtLastError();");
  W.close();
}

} // namespace

std::vector<std::string> attentionEmittedNames(const TileProgram &P,
                                               const AttentionProgram &A) {
  std::vector<std::string> N = {
      "kStages", "kConsumers",   "tawa_smem", "smem",      "consumer", "turns",
      "t",       "tile",         "schedule",  "started",   "e",        "r",
      "maps",    "noted",        "grid",      "block",     "shared",   "stream",
      "ctas",    "shared_bytes", "copies",    "tma_store", "stored",   "group"};
  N.push_back(P.Values[A.Probs].Name + "_operand");
  for (const TileLoad &L : P.Loads) {
    N.push_back(L.Matrix->getName().str() + "_tensor_map");
    N.push_back(L.Matrix->getName().str() + "_aligned");
  }
  for (unsigned S : A.Stores)
    N.push_back(P.Ops[S].Store.Matrix->getName().str() + "_store_map");
  for (const TileValue &V : P.Values) {
    N.push_back("row_max_" + V.Name);
    N.push_back("row_sum_" + V.Name);
    N.push_back(V.Name + "_reciprocal");
  }
  for (int I = 0; I < 8; ++I)
    N.push_back("reciprocal" + std::to_string(I));
  return N;
}

std::string emitAttention(const TileProgram &P, const AttentionProgram &A,
                          const ArefGraph &G, const AttentionPlan &Plan,
                          const SourceManager &SM, const LangOptions &LO) {
  return AttentionWriter(P, A, G, Plan, SM, LO).run();
}

} // namespace tawa
