//===- ArefGraph.cpp - building and printing the aref graph ---------------===//
#include "tawa/ArefGraph.h"
#include "tawa/EmitText.h"
#include "tawa/Plan.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace clang;

namespace tawa {

std::optional<ArefGraph> buildArefGraph(const TileProgram &P,
                                        DiagReporter &Diags) {
  ArefGraph G;
  G.ArefOfLoad.assign(P.Loads.size(), ~0u);
  auto LoadOf = [&](unsigned V) -> std::optional<unsigned> {
    for (unsigned L = 0; L < P.Loads.size(); ++L)
      if (P.Loads[L].Value == V)
        return L;
    return std::nullopt;
  };
  unsigned LoopMmas = 0;
  for (const TileOp &Op : P.Ops)
    LoopMmas += Op.K == TileOp::Kind::Mma;
  for (const TileOp &Op : P.Ops) {
    if (Op.K != TileOp::Kind::Mma)
      continue;
    // Tiles consumed together share one aref; a tile loaded before the
    // loop is its own, filled once per tile.
    Aref A;
    for (unsigned V : {Op.A, Op.B}) {
      std::optional<unsigned> L =
          Op.AConvert && V == Op.A ? std::nullopt : LoadOf(V);
      if (!L || G.ArefOfLoad[*L] != ~0u)
        continue;
      const TileLoad &T = P.Loads[*L];
      if (T.Where == Region::Prologue) {
        Aref One;
        One.Name = T.Var;
        One.Loads = {*L};
        One.BytesPerSlot = T.Rows * T.Cols * elementBytes(T.Elem);
        One.OneShot = true;
        One.Reason = "loaded before the loop: filled once per tile and "
                     "read by every iteration";
        G.ArefOfLoad[*L] = G.Arefs.size();
        G.Arefs.push_back(One);
        continue;
      }
      A.Loads.push_back(*L);
    }
    if (A.Loads.empty())
      continue;
    llvm::sort(A.Loads);
    for (unsigned L : A.Loads) {
      const TileLoad &T = P.Loads[L];
      G.ArefOfLoad[L] = G.Arefs.size();
      A.Name += (A.Name.empty() ? "" : "_") + T.Var;
      A.BytesPerSlot += T.Rows * T.Cols * elementBytes(T.Elem);
    }
    // precision(3xtf32): each fp32 tile's slot holds its tf32 low part too.
    if (P.Pragma.Precision && *P.Pragma.Precision == MmaPrecision::ThreeTf32 &&
        P.Loads[A.Loads.front()].Elem == ElementType::F32)
      A.BytesPerSlot *= 2;
    A.Reason = A.Loads.size() > 1 ? "consumed together by one mma"
               : LoopMmas > 1 ? "the only tile of the loop its mma reads: that "
                                "mma starts before the other mma's tiles land"
                              : "the only tile of the loop its mma reads";
    G.Arefs.push_back(A);
  }
  bool Ok = true;
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    if (G.ArefOfLoad[L] == ~0u) {
      Diags.error(P.Loads[L].Decl->getLocation(), DiagCategory::Unsupported,
                  "tile '" + P.Loads[L].Var +
                      "' is loaded but no 'tawa::mma' uses it");
      Ok = false;
    }
  if (!Ok)
    return std::nullopt;
  return G;
}

static std::string text(const Stmt *S, const SourceManager &SM,
                        const LangOptions &LO) {
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  return Lexer::getSourceText(SM.getExpansionRange(R), SM, LO).str();
}

void printArefGraph(const TileProgram &P, const ArefGraph &G,
                    const PipelinePlan *Plan, const SourceManager &SM,
                    const LangOptions &LO, raw_ostream &OS) {
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(P.Loop->getForLoc()));
  OS << "kernel " << P.Kernel->getName() << ": tile loop at "
     << llvm::sys::path::filename(PL.getFilename()) << ":" << PL.getLine()
     << ":" << PL.getColumn() << "\n";
  SourceLocation HeadEnd = P.Loop->getRParenLoc();
  OS << "  loop: "
     << Lexer::getSourceText(CharSourceRange::getTokenRange(
                                 SM.getExpansionLoc(P.Loop->getForLoc()),
                                 SM.getExpansionLoc(HeadEnd)),
                             SM, LO)
     << "\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    OS << "  producer: load " << T.Var << " = " << T.Matrix->getName() << "["
       << T.Rows << " x " << T.Cols << " " << elementName(T.Elem)
       << (T.MnMajor ? ", MN-major" : "") << "] at (" << text(T.Row0, SM, LO)
       << ", " << text(T.Col0, SM, LO) << ") -> aref "
       << G.Arefs[G.ArefOfLoad[L]].Name << "\n";
  }
  for (const Aref &A : G.Arefs) {
    OS << "  aref " << A.Name << ": {";
    for (unsigned I = 0; I < A.Loads.size(); ++I)
      OS << (I ? ", " : "") << P.Loads[A.Loads[I]].Var;
    OS << "}, " << A.BytesPerSlot << " bytes per slot";
    if (Plan)
      OS << ", " << Plan->Stages << " stages";
    OS << "\n";
  }
  for (const TileMma &M : P.Mmas)
    OS << "  consumer: mma " << P.Acc.Var << " += " << P.Loads[M.A].Var
       << (M.TransposeA ? "^T" : "") << " * " << P.Loads[M.B].Var
       << (M.TransposeB ? "^T" : "") << " <- aref "
       << G.Arefs[G.ArefOfLoad[M.A]].Name << "\n";
  OS << "  accumulator " << P.Acc.Var << ": f32 " << P.Acc.Rows << " x "
     << P.Acc.Cols << ", loop-carried, in consumer registers";
  if (Plan)
    OS << " (" << Plan->Consumers << " warpgroups x " << 64 * Plan->MTiles
       << " rows" << (Plan->PingPong ? ", alternate tiles" : "") << ")";
  OS << "\n";
  OS << "  epilogue: store " << P.Acc.Var << " -> " << P.Store.Matrix->getName()
     << "[" << elementName(P.Store.Elem) << "] at ("
     << text(P.Store.Row0, SM, LO) << ", " << text(P.Store.Col0, SM, LO)
     << ")\n";
  if (Plan)
    OS << "  roles: producer warpgroup 0 (setmaxnreg " << Plan->Regs.Producer
       << "), consumer warpgroups 1-" << Plan->Consumers << " (setmaxnreg "
       << Plan->Regs.Consumer << "), " << Plan->Threads << " threads, "
       << Plan->SharedBytes << " bytes of shared memory\n";
}

void printArefGraphJson(const TileProgram &P, const ArefGraph &G,
                        const PipelinePlan *Plan, const SourceManager &SM,
                        const LangOptions &LO, raw_ostream &OS) {
  namespace json = llvm::json;
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(P.Loop->getForLoc()));
  auto Range = [&](SourceLocation B, SourceLocation E) {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(SM.getExpansionLoc(B),
                                              SM.getExpansionLoc(E)),
               SM, LO)
        .str();
  };
  json::Array Loads, Arefs, Mmas;
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    Loads.push_back(json::Object{{"tile", T.Var},
                                 {"matrix", T.Matrix->getName()},
                                 {"rows", T.Rows},
                                 {"cols", T.Cols},
                                 {"type", elementName(T.Elem)},
                                 {"row0", text(T.Row0, SM, LO)},
                                 {"col0", text(T.Col0, SM, LO)},
                                 {"major", T.MnMajor ? "mn" : "k"},
                                 {"aref", G.Arefs[G.ArefOfLoad[L]].Name}});
  }
  for (const Aref &A : G.Arefs) {
    json::Array Tiles;
    for (unsigned L : A.Loads)
      Tiles.push_back(P.Loads[L].Var);
    json::Object O{{"name", A.Name},
                   {"tiles", std::move(Tiles)},
                   {"bytes_per_slot", A.BytesPerSlot}};
    if (Plan)
      O["stages"] = Plan->Stages;
    Arefs.push_back(std::move(O));
  }
  for (const TileMma &M : P.Mmas)
    Mmas.push_back(json::Object{{"acc", P.Acc.Var},
                                {"a", P.Loads[M.A].Var},
                                {"b", P.Loads[M.B].Var},
                                {"transpose_a", M.TransposeA},
                                {"transpose_b", M.TransposeB},
                                {"aref", G.Arefs[G.ArefOfLoad[M.A]].Name}});
  json::Object Root{
      {"file", PL.getFilename()},
      {"line", PL.getLine()},
      {"column", PL.getColumn()},
      {"kernel", P.Kernel->getName()},
      {"loop", Range(P.Loop->getForLoc(), P.Loop->getRParenLoc())},
      {"loads", std::move(Loads)},
      {"arefs", std::move(Arefs)},
      {"mmas", std::move(Mmas)},
      {"accumulator", json::Object{{"name", P.Acc.Var},
                                   {"type", "f32"},
                                   {"rows", P.Acc.Rows},
                                   {"cols", P.Acc.Cols}}},
      {"epilogue", json::Object{{"matrix", P.Store.Matrix->getName()},
                                {"type", elementName(P.Store.Elem)},
                                {"row0", text(P.Store.Row0, SM, LO)},
                                {"col0", text(P.Store.Col0, SM, LO)}}},
      {"plan", nullptr}};
  if (Plan)
    Root["plan"] =
        json::Object{{"stages", Plan->Stages},
                     {"consumers", Plan->Consumers},
                     {"rows_per_consumer", 64 * Plan->MTiles},
                     {"schedule", Plan->PingPong ? "pingpong" : "cooperative"},
                     {"producer_registers", Plan->Regs.Producer},
                     {"consumer_registers", Plan->Regs.Consumer},
                     {"threads", Plan->Threads},
                     {"stage_bytes", Plan->StageBytes},
                     {"shared_bytes", Plan->SharedBytes}};
  OS << llvm::formatv("{0:2}", json::Value(std::move(Root)));
}

void printArefGraphDot(const TileProgram &P, const ArefGraph &G,
                       const PipelinePlan *Plan, const SourceManager &SM,
                       const LangOptions &LO, raw_ostream &OS) {
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(P.Loop->getForLoc()));
  std::string Where =
      (llvm::sys::path::filename(PL.getFilename()) + ":" + Twine(PL.getLine()))
          .str();
  OS << "digraph " << dotQuote(P.Kernel->getName()) << " {\n"
     << "  label="
     << dotQuote("kernel " + P.Kernel->getName().str() + " (" + Where + ")")
     << "; labelloc=t; rankdir=LR;\n"
     << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  std::string Producer = "producer warpgroup", Consumer = "consumer warpgroups";
  if (Plan) {
    Producer += " 0 (setmaxnreg " + std::to_string(Plan->Regs.Producer) + ")";
    Consumer += " 1-" + std::to_string(Plan->Consumers) + " (setmaxnreg " +
                std::to_string(Plan->Regs.Consumer) + ")";
  }
  OS << "  subgraph cluster_producer {\n    label=" << dotQuote(Producer)
     << "; style=filled; fillcolor=\"#e8f0fe\";\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L) {
    const TileLoad &T = P.Loads[L];
    OS << "    load" << L << " [label="
       << dotQuote("TMA load " + T.Var + " = " + T.Matrix->getName().str() +
                   "[" + std::to_string(T.Rows) + " x " +
                   std::to_string(T.Cols) + " " + elementName(T.Elem).str() +
                   (T.MnMajor ? ", MN-major" : "") + "]\nat (" +
                   text(T.Row0, SM, LO) + ", " + text(T.Col0, SM, LO) + ")")
       << "];\n";
  }
  OS << "  }\n";
  for (unsigned A = 0; A < G.Arefs.size(); ++A) {
    std::string Label = "aref " + G.Arefs[A].Name + "\n" +
                        std::to_string(G.Arefs[A].BytesPerSlot) +
                        " bytes per slot";
    if (Plan)
      Label += " x " + std::to_string(Plan->Stages) + " stages";
    OS << "  aref" << A << " [shape=cylinder, style=filled, "
       << "fillcolor=\"#fef7e0\", label=" << dotQuote(Label) << "];\n";
  }
  OS << "  subgraph cluster_consumer {\n    label=" << dotQuote(Consumer)
     << "; style=filled; fillcolor=\"#e6f4ea\";\n";
  for (unsigned M = 0; M < P.Mmas.size(); ++M) {
    const TileMma &X = P.Mmas[M];
    OS << "    mma" << M << " [label="
       << dotQuote("wgmma " + P.Acc.Var + " += " + P.Loads[X.A].Var +
                   (X.TransposeA ? "^T" : "") + " * " + P.Loads[X.B].Var +
                   (X.TransposeB ? "^T" : ""))
       << "];\n";
  }
  OS << "    acc [shape=ellipse, label="
     << dotQuote("accumulator " + P.Acc.Var + "\nf32 " +
                 std::to_string(P.Acc.Rows) + " x " +
                 std::to_string(P.Acc.Cols) + ", registers")
     << "];\n"
     << "    store [label="
     << dotQuote("epilogue: store " + P.Acc.Var + " -> " +
                 P.Store.Matrix->getName().str() + "[" +
                 elementName(P.Store.Elem).str() + "]")
     << "];\n  }\n";
  for (unsigned L = 0; L < P.Loads.size(); ++L)
    OS << "  load" << L << " -> aref" << G.ArefOfLoad[L] << ";\n";
  for (unsigned M = 0; M < P.Mmas.size(); ++M) {
    unsigned A = G.ArefOfLoad[P.Mmas[M].A];
    OS << "  aref" << A << " -> mma" << M << " [label=\"full\"];\n"
       << "  mma" << M << " -> aref" << A
       << " [label=\"empty\", style=dashed, constraint=false];\n"
       << "  mma" << M << " -> acc;\n";
  }
  OS << "  acc -> store;\n}\n";
}

} // namespace tawa
