//===- AttentionReport.cpp - --dump-arefs and --explain of attention ------===//
#include "tawa/AttentionReport.h"
#include "tawa/EmitText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {
namespace {

/// Source text on one line.
std::string oneLine(SourceRange R, const SourceManager &SM,
                    const LangOptions &LO) {
  std::string T = sourceText(R, SM, LO);
  std::string Out;
  for (char C : T)
    if (C != '\n' || (!Out.empty() && Out.back() != ' '))
      Out += C == '\n' ? ' ' : C;
  return Out;
}

/// Facts shared by the three forms.
struct Facts {
  const TileProgram &P;
  const AttentionProgram &A;
  const ArefGraph &G;
  const AttentionPlan *Plan;
  const SourceManager &SM;
  const LangOptions &LO;

  std::string text(const Stmt *S) const {
    return oneLine(S->getSourceRange(), SM, LO);
  }
  std::string loop() const {
    return oneLine(SourceRange(P.Loop->getForLoc(), P.Loop->getRParenLoc()), SM,
                   LO);
  }
  std::string name(unsigned V) const { return P.Values[V].Name; }
  int stages(const Aref &R) const {
    return R.OneShot ? (Plan ? Plan->QStages : 1) : Plan ? Plan->Stages : 0;
  }
  /// The part of the schedule op I runs in.
  std::string part(unsigned I) const {
    if (I == A.ScoreMma)
      return "scores";
    if (I == A.OutputMma)
      return "output";
    if (llvm::is_contained(A.Rescale, I))
      return "rescale";
    if (llvm::is_contained(A.Carry, I))
      return "carry";
    return "softmax";
  }
  std::string what(unsigned I) const {
    const TileOp &Op = P.Ops[I];
    if (I == A.ScoreMma)
      return "mma " + name(A.S) + " = " + name(A.Q) + " * " + name(A.K) +
             "^T <- arefs " + G.Arefs[G.ArefOfLoad[A.QLoad]].Name + ", " +
             G.Arefs[G.ArefOfLoad[A.KLoad]].Name +
             " (S in registers, scale-d 0: no accumulation across "
             "iterations)";
    if (I == A.OutputMma)
      return "mma " + name(A.O) + " += convert<" +
             elementName(*Op.AConvert).str() + ">(" + name(A.Probs) + ") * " +
             name(A.V) + " <- aref " + G.Arefs[G.ArefOfLoad[A.VLoad]].Name +
             " (A from registers)";
    return Op.name().str() + " " + text(Op.S);
  }
  std::string valueLine(unsigned V) const {
    const TileValue &X = P.Values[V];
    std::string Shape =
        X.Kind == ValueKind::RowVector
            ? "row vector of " + std::to_string(X.Rows)
            : "f32 " + std::to_string(X.Rows) + " x " + std::to_string(X.Cols);
    std::string Where = X.LoopCarried ? "loop-carried" : "iteration-local";
    std::string Regs = "in consumer registers";
    if (Plan)
      Regs += " (" + std::to_string(Plan->Consumers) + " warpgroups x 64 rows)";
    return X.Name + ": " + Shape + ", " + Where + ", " + Regs;
  }
  std::string skip() const {
    if (A.SkipMasks.empty())
      return "none -- " + A.SkipReason;
    std::string T = "tiles of keys where ";
    for (unsigned I = 0; I < A.SkipMasks.size(); ++I)
      T += (I ? " or " : "") + std::string("'") +
           text(P.Ops[A.SkipMasks[I]].S) + "' holds nowhere";
    T += " (online softmax leaves m, l and o unchanged there";
    for (const Expr *E : A.PositiveScalars)
      T += "; needs " + oneLine(E->getSourceRange(), SM, LO) +
           " > 0, checked at run time";
    return T + ")";
  }
};

} // namespace

void printAttentionText(const TileProgram &P, const AttentionProgram &A,
                        const ArefGraph &G, const AttentionPlan *Plan,
                        const SourceManager &SM, const LangOptions &LO,
                        raw_ostream &OS) {
  Facts F{P, A, G, Plan, SM, LO};
  OS << "kernel " << P.Kernel->getName() << ": tile loop at "
     << locationText(P.Loop->getForLoc(), SM) << " (attention)\n";
  OS << "  loop: " << F.loop() << "\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    OS << "  producer: load " << T.Var << " = " << T.Matrix->getName()
       << (T.Batch
               ? ".batch(" + oneLine(T.Batch->getSourceRange(), SM, LO) + ")"
               : std::string())
       << "[" << T.Rows << " x " << T.Cols << " " << elementName(T.Elem)
       << "] at (" << oneLine(T.Row0->getSourceRange(), SM, LO) << ", "
       << oneLine(T.Col0->getSourceRange(), SM, LO) << ")"
       << (T.Where == Region::Prologue ? " before the loop" : "") << " -> aref "
       << G.Arefs[G.ArefOfLoad[L]].Name << "\n";
  }
  for (const Aref &R : G.Arefs) {
    OS << "  aref " << R.Name << ": {";
    for (unsigned I = 0; I < R.Loads.size(); ++I)
      OS << (I ? ", " : "") << P.Loads[R.Loads[I]].Var;
    OS << "}, " << R.BytesPerSlot << " bytes per slot";
    if (F.stages(R))
      OS << ", " << F.stages(R) << (F.stages(R) == 1 ? " stage" : " stages");
    OS << " -- " << R.Reason << "\n";
  }
  for (unsigned I = 0; I < P.Ops.size(); ++I) {
    const TileOp &Op = P.Ops[I];
    if (Op.Where != Region::Loop || Op.K == TileOp::Kind::Load ||
        Op.K == TileOp::Kind::Declare)
      continue;
    OS << "  consumer (" << F.part(I) << "): " << F.what(I) << "\n";
  }
  for (unsigned V = 0; V < P.Values.size(); ++V)
    if (P.Values[V].Kind != ValueKind::Tile)
      OS << "  value " << F.valueLine(V) << "\n";
  OS << "  skip: " << F.skip() << "\n";
  for (unsigned I : A.Stores)
    OS << "  epilogue: " << F.text(P.Ops[I].S) << "\n";
  if (Plan)
    OS << "  roles: producer warpgroup 0 (setmaxnreg " << Plan->Regs.Producer
       << "), consumer warpgroups 1-" << Plan->Consumers << " (setmaxnreg "
       << Plan->Regs.Consumer << ", 64 queries each"
       << (Plan->PingPong ? ", wgmma in turns" : "")
       << (Plan->Overlap ? ", softmax under the previous P V" : "") << "), "
       << Plan->Threads << " threads, " << Plan->SharedBytes
       << " bytes of shared memory\n";
}

void printAttentionJson(const TileProgram &P, const AttentionProgram &A,
                        const ArefGraph &G, const AttentionPlan *Plan,
                        const SourceManager &SM, const LangOptions &LO,
                        raw_ostream &OS) {
  namespace json = llvm::json;
  Facts F{P, A, G, Plan, SM, LO};
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(P.Loop->getForLoc()));
  json::Array Loads, Arefs, Ops, Values, Stores;
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    Loads.push_back(
        json::Object{{"tile", T.Var},
                     {"matrix", T.Matrix->getName()},
                     {"rows", T.Rows},
                     {"cols", T.Cols},
                     {"type", elementName(T.Elem)},
                     {"row0", oneLine(T.Row0->getSourceRange(), SM, LO)},
                     {"col0", oneLine(T.Col0->getSourceRange(), SM, LO)},
                     {"region", regionName(T.Where)},
                     {"aref", G.Arefs[G.ArefOfLoad[L]].Name}});
  }
  for (const Aref &R : G.Arefs) {
    json::Array Tiles;
    for (unsigned L : R.Loads)
      Tiles.push_back(P.Loads[L].Var);
    json::Object O{{"name", R.Name},
                   {"tiles", std::move(Tiles)},
                   {"bytes_per_slot", R.BytesPerSlot},
                   {"one_shot", R.OneShot},
                   {"reason", R.Reason}};
    if (F.stages(R))
      O["stages"] = F.stages(R);
    Arefs.push_back(std::move(O));
  }
  for (unsigned I = 0; I < P.Ops.size(); ++I) {
    const TileOp &Op = P.Ops[I];
    if (Op.Where != Region::Loop || Op.K == TileOp::Kind::Load ||
        Op.K == TileOp::Kind::Declare)
      continue;
    Ops.push_back(json::Object{
        {"op", Op.name()}, {"part", F.part(I)}, {"text", F.text(Op.S)}});
  }
  for (const TileValue &V : P.Values)
    if (V.Kind != ValueKind::Tile)
      Values.push_back(
          json::Object{{"name", V.Name},
                       {"kind", V.Kind == ValueKind::RowVector ? "row_vector"
                                                               : "accumulator"},
                       {"rows", V.Rows},
                       {"cols", V.Cols},
                       {"loop_carried", V.LoopCarried}});
  for (unsigned I : A.Stores)
    Stores.push_back(F.text(P.Ops[I].S));
  json::Array Skip;
  for (unsigned I : A.SkipMasks)
    Skip.push_back(F.text(P.Ops[I].S));
  json::Object Root{
      {"file", PL.getFilename()},      {"line", PL.getLine()},
      {"column", PL.getColumn()},      {"kernel", P.Kernel->getName()},
      {"family", "attention"},         {"loop", F.loop()},
      {"loads", std::move(Loads)},     {"arefs", std::move(Arefs)},
      {"ops", std::move(Ops)},         {"values", std::move(Values)},
      {"skip_masks", std::move(Skip)}, {"skip_reason", A.SkipReason},
      {"epilogue", std::move(Stores)}, {"plan", nullptr}};
  if (Plan)
    Root["plan"] =
        json::Object{{"stages", Plan->Stages},
                     {"consumers", Plan->Consumers},
                     {"rows_per_consumer", 64},
                     {"schedule", Plan->PingPong ? "pingpong" : "cooperative"},
                     {"overlap", Plan->Overlap},
                     {"producer_registers", Plan->Regs.Producer},
                     {"consumer_registers", Plan->Regs.Consumer},
                     {"threads", Plan->Threads},
                     {"persistent", Plan->Persistent},
                     {"longest_first", Plan->LongestFirst},
                     {"staging_in_q", Plan->StagingInQ},
                     {"shared_bytes", Plan->SharedBytes}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Root)));
}

void printAttentionDot(const TileProgram &P, const AttentionProgram &A,
                       const ArefGraph &G, const AttentionPlan *Plan,
                       const SourceManager &SM, const LangOptions &LO,
                       raw_ostream &OS) {
  Facts F{P, A, G, Plan, SM, LO};
  OS << "digraph " << dotQuote(P.Kernel->getName()) << " {\n"
     << "  label="
     << dotQuote("kernel " + P.Kernel->getName().str() + " (attention, " +
                 locationText(P.Loop->getForLoc(), SM) + ")")
     << "; labelloc=t; rankdir=LR;\n"
     << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  OS << "  subgraph cluster_producer {\n    label="
     << dotQuote("producer warpgroup") << "; style=filled; "
     << "fillcolor=\"#e8f0fe\";\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    OS << "    load" << L << " [label="
       << dotQuote("TMA load " + T.Var + " [" + std::to_string(T.Rows) + " x " +
                   std::to_string(T.Cols) + "]" +
                   (T.Where == Region::Prologue ? "\nonce per tile" : ""))
       << "];\n";
  }
  OS << "  }\n";
  for (unsigned R = 0; R < G.Arefs.size(); ++R)
    OS << "  aref" << R << " [shape=cylinder, style=filled, "
       << "fillcolor=\"#fef7e0\", label="
       << dotQuote("aref " + G.Arefs[R].Name + "\n" +
                   std::to_string(G.Arefs[R].BytesPerSlot) + " bytes x " +
                   std::to_string(F.stages(G.Arefs[R])))
       << "];\n";
  OS << "  subgraph cluster_consumer {\n    label="
     << dotQuote("consumer warpgroups") << "; style=filled; "
     << "fillcolor=\"#e6f4ea\";\n";
  OS << "    scores [label=" << dotQuote("wgmma S = Q K^T") << "];\n"
     << "    softmax [label=" << dotQuote("online softmax (registers)")
     << "];\n"
     << "    output [label=" << dotQuote("wgmma O += P V (P in registers)")
     << "];\n"
     << "    store [label=" << dotQuote("epilogue: stores") << "];\n  }\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    OS << "  load" << L << " -> aref" << G.ArefOfLoad[L] << ";\n";
  OS << "  aref" << G.ArefOfLoad[A.QLoad] << " -> scores;\n"
     << "  aref" << G.ArefOfLoad[A.KLoad] << " -> scores;\n"
     << "  aref" << G.ArefOfLoad[A.VLoad] << " -> output;\n"
     << "  scores -> softmax -> output -> store;\n"
     << "  output -> softmax [label=\"overlap\", style=dashed];\n}\n";
}

void printAttentionExplanation(const TileProgram &P, const AttentionProgram *A,
                               const ArefGraph *G, const AttentionPlan *Plan,
                               StringRef Failure, const SourceManager &SM,
                               raw_ostream &OS) {
  OS << "kernel " << P.Kernel->getName() << ": tile loop at "
     << locationText(P.Loop->getForLoc(), SM) << "\n";
  OS << "  family: attention -- two mma in the loop (S = Q K^T, O += P V)\n";
  if (Failure.empty())
    OS << "  result: rewritten into a warp-specialized kernel\n";
  else
    OS << "  result: left unchanged: " << Failure << "\n";
  if (!A)
    return;
  OS << "  tile: " << A->BM << " queries x " << A->BN << " keys, head " << A->D
     << (A->DV != A->D ? " (values " + std::to_string(A->DV) + ")"
                       : std::string())
     << " " << elementName(A->Elem) << " -- the tiles of '"
     << P.Loads[A->QLoad].Var << "' and '" << P.Loads[A->KLoad].Var << "'\n";
  if (G)
    for (const Aref &R : G->Arefs)
      OS << "  aref " << R.Name << ": " << R.BytesPerSlot
         << " bytes per slot -- " << R.Reason << "\n";
  if (!A->SkipMasks.empty())
    OS << "  skip: tiles of keys a mask hides entirely -- the loop is online "
          "softmax, which such a tile leaves unchanged\n";
  else
    OS << "  skip: none -- " << A->SkipReason << "\n";
  if (!Plan)
    return;
  OS << "  roles: producer warpgroup 0 (TMA loads), consumer warpgroups 1-"
     << Plan->Consumers << ", " << Plan->Threads << " threads\n";
  for (const auto &[Name, Why] : Plan->Explain)
    OS << "  " << Name << ": " << Why << "\n";
}

} // namespace tawa
