//===- ArefGraph.cpp - building and printing the aref graph ---------------===//
#include "tawa/ArefGraph.h"
#include "tawa/Plan.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tawa {

std::optional<ArefGraph> buildArefGraph(const TileProgram &P,
                                        DiagReporter &Diags) {
  ArefGraph G;
  G.ArefOfLoad.assign(P.Loads.size(), ~0u);
  for (const TileMma &M : P.Mmas) {
    // Tiles consumed together share one aref.
    Aref A;
    for (unsigned L : {M.A, M.B}) {
      if (G.ArefOfLoad[L] != ~0u)
        continue;
      G.ArefOfLoad[L] = G.Arefs.size();
      A.Loads.push_back(L);
    }
    llvm::sort(A.Loads);
    for (unsigned L : A.Loads) {
      const TileLoad &T = P.Loads[L];
      A.Name += (A.Name.empty() ? "" : "_") + T.Var;
      A.BytesPerSlot += T.Rows * T.Cols * elementBytes(T.Elem);
    }
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
       << T.Rows << " x " << T.Cols << " " << elementName(T.Elem) << "] at ("
       << text(T.Row0, SM, LO) << ", " << text(T.Col0, SM, LO) << ") -> aref "
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
    OS << "  consumer: mma " << P.Acc.Var << " += " << P.Loads[M.A].Var << " * "
       << P.Loads[M.B].Var << (M.TransposeB ? "^T" : "") << " <- aref "
       << G.Arefs[G.ArefOfLoad[M.A]].Name << "\n";
  OS << "  accumulator " << P.Acc.Var << ": f32 " << P.Acc.Rows << " x "
     << P.Acc.Cols << ", loop-carried, in consumer registers";
  if (Plan)
    OS << " (" << Plan->Consumers << " warpgroups x " << 64 * Plan->MTiles
       << " rows)";
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

} // namespace tawa
