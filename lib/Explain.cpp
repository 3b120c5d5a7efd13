//===- Explain.cpp - the --explain report of a tile loop ------------------===//
#include "tawa/Explain.h"
#include "tawa/EmitText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {
namespace {

class Printer {
public:
  Printer(const PipelinePlan *Plan, const SourceManager &SM,
          llvm::raw_ostream &OS)
      : Plan(Plan), SM(SM), OS(OS) {}

  /// One choice: its value and the reason, from the planner if it gave one,
  /// else from the clause that set it, else `Fallback`.
  template <class T>
  void choice(llvm::StringRef Name, const llvm::Twine &Value,
              const Clause<T> *Set, llvm::StringRef ClauseText,
              llvm::StringRef Fallback) {
    OS << "  " << Name << ": " << Value;
    std::string Why = planReason(Name);
    if (Why.empty() && Set && *Set)
      Why = (ClauseText + " at " + locationText(Set->Loc, SM)).str();
    if (Why.empty())
      Why = Fallback.str();
    if (!Why.empty())
      OS << " -- " << Why;
    OS << "\n";
    Printed.push_back(Name.str());
  }

  /// The planner's reasons for choices not printed above.
  void rest() {
    if (!Plan)
      return;
    for (const auto &[Name, Why] : Plan->Explain)
      if (!llvm::is_contained(Printed, Name))
        OS << "  " << Name << ": " << Why << "\n";
  }

private:
  std::string planReason(llvm::StringRef Name) {
    if (Plan)
      for (const auto &[N, Why] : Plan->Explain)
        if (N == Name)
          return Why;
    return "";
  }

  const PipelinePlan *Plan;
  const SourceManager &SM;
  llvm::raw_ostream &OS;
  std::vector<std::string> Printed;
};

/// "a K-major (M x K)" or "b MN-major (K x N, 4 TMA boxes of 64 x 64)".
std::string operandLayout(llvm::StringRef Name, const TileLoad &T,
                          llvm::StringRef MN) {
  if (T.TransposedCopy)
    return (Name + " K-major (" + MN + " x K) from a transposed copy of '" +
            T.Matrix->getName() + "' (stored K x " + MN + ")")
        .str();
  if (!T.MnMajor)
    return (Name + " K-major (" + MN + " x K)").str();
  return (Name + " MN-major (K x " + MN + ", " +
          llvm::Twine(T.mnExtent() / 64) + " TMA boxes of " +
          llvm::Twine(T.kExtent()) + " x 64)")
      .str();
}

} // namespace

void printExplanation(const FunctionDecl *Kernel, const ForStmt *Loop,
                      const TileProgram *P, const ArefGraph *G,
                      const PipelinePlan *Plan, llvm::StringRef Failure,
                      const SourceManager &SM, const LangOptions &LO,
                      llvm::raw_ostream &OS) {
  OS << "kernel " << Kernel->getName() << ": tile loop at "
     << locationText(Loop->getForLoc(), SM) << "\n";
  if (Failure.empty())
    OS << "  result: rewritten into a warp-specialized kernel\n";
  else
    OS << "  result: left unchanged: " << Failure << "\n";
  if (!P)
    return;
  const TilePragma &Pragma = P->Pragma;
  Printer X(Plan, SM, OS);
  const Clause<int> *None = nullptr;
  if (Plan && !P->Mmas.empty()) {
    const TileMma &M = P->Mmas.front();
    const TileLoad &A = P->Loads[M.A], &B = P->Loads[M.B];
    X.choice("tile",
             llvm::Twine(Plan->BM) + " x " + llvm::Twine(Plan->BN) + " x " +
                 llvm::Twine(Plan->BK) + " " + elementName(Plan->Elem) +
                 (Plan->ElemB != Plan->Elem
                      ? " x " + elementName(Plan->ElemB).str()
                      : std::string()) +
                 (Plan->ThreeTf32    ? " split into tf32 high and low parts, "
                                       "three products per step "
                                       "(precision(3xtf32))"
                  : Pragma.Precision ? " read as tf32 (precision(tf32))"
                                     : "") +
                 " (BM x BN x BK, elements)",
             None, "",
             !P->Merge.Reason.empty()
                 ? P->Merge.Reason
                 : ("the tiles '" + A.Var + "' (" + llvm::Twine(A.Rows) +
                    " x " + llvm::Twine(A.Cols) + ") and '" + B.Var + "' (" +
                    llvm::Twine(B.Rows) + " x " + llvm::Twine(B.Cols) +
                    ") of the mma")
                       .str());
    X.choice("layout",
             operandLayout("a", A, "M") + ", " + operandLayout("b", B, "N"),
             None, "",
             A.TransposedCopy || B.TransposedCopy
                 ? "from the mma and the element type: wgmma reads " +
                       std::string(isFp8(A.Elem) ? "fp8" : "tf32") +
                       " operands K-major only (PTX ISA 9.7.15.5.1), so the "
                       "launcher transposes a K x MN operand on the stream, "
                       "one read and one write of it per call "
                       "(tawa/runtime/operand_copy.cuh)"
                 : "from the mma: a tile loaded K x MN is read by wgmma "
                   "MN-major (its transpose bit, PTX ISA 9.7.15.5.1), one "
                   "loaded MN x K K-major; no copy or transpose of the "
                   "matrices");
    X.choice("operands", "read in place by TMA", None, "",
             "the launcher copies an operand on the stream to rows 128 bytes "
             "apart where TMA cannot address it (a base or ld not a multiple "
             "of 16 bytes) and, for an m x n output with m n / (m + n) >= "
             "1600, where its rows are an odd number of 16 bytes apart, "
             "which TMA reads 25-35% slower (tawa/runtime/operand_copy.cuh, "
             "results/h100/alignment/), unless the kernel chosen has a "
             "cluster twin, which reads such rows in place");
  }
  if (G)
    for (const Aref &R : G->Arefs) {
      std::string Tiles;
      for (unsigned L : R.Loads)
        Tiles += (Tiles.empty() ? "" : ", ") + P->Loads[L].Var;
      X.choice("aref " + R.Name,
               "{" + Tiles + "}, " + llvm::Twine(R.BytesPerSlot) +
                   " bytes per slot",
               None, "",
               R.Loads.size() > 1
                   ? "tiles consumed by the same mma share one aref: one "
                     "slot and one pair of barriers per iteration"
                   : "the only tile its mma reads through TMA");
    }
  if (!Plan) {
    X.rest();
    return;
  }
  X.choice("roles",
           "producer warpgroup 0 (TMA loads), " +
               (Plan->Consumers == 1
                    ? llvm::Twine("consumer warpgroup 1")
                    : "consumer warpgroups 1-" + llvm::Twine(Plan->Consumers)) +
               (Plan->PingPong ? llvm::Twine(" (wgmma, whole tiles in turn), ")
                               : " (wgmma, " + llvm::Twine(64 * Plan->MTiles) +
                                     " rows each), ") +
               llvm::Twine(Plan->Threads) + " threads",
           &Pragma.Consumers,
           ("consumers(" + llvm::Twine(Plan->Consumers) + ")").str(),
           "planner default (no consumers clause)");
  X.choice("stages",
           llvm::Twine(Plan->Stages) + " slots of " +
               llvm::Twine(Plan->StageBytes) + " bytes in the aref ring" +
               (Plan->StepsPerSlot > 1
                    ? ", " + llvm::Twine(Plan->StepsPerSlot) + " K steps each"
                    : llvm::Twine()),
           &Pragma.Stages, ("stages(" + llvm::Twine(Plan->Stages) + ")").str(),
           "planner default (no stages clause): the deepest ring the "
           "shared-memory budget allows, within the planner's cap");
  X.choice("registers",
           "setmaxnreg " + llvm::Twine(Plan->Regs.Producer) + " (producer), " +
               llvm::Twine(Plan->Regs.Consumer) + " (consumers); " +
               llvm::Twine(Plan->AccRegisters) +
               " accumulator registers per consumer thread",
           &Pragma.Regs,
           ("regs(" + llvm::Twine(Plan->Regs.Producer) + ", " +
            llvm::Twine(Plan->Regs.Consumer) + ")")
               .str(),
           "planner default (no regs clause) for " +
               std::to_string(Plan->Consumers) + " consumer warpgroup(s)");
  X.choice("shared memory",
           llvm::Twine(Plan->SharedBytes) + " of " +
               llvm::Twine(hopper::kSharedMemoryBytes) + " bytes",
           None, "",
           (llvm::Twine(Plan->Stages) + " x " + llvm::Twine(Plan->StageBytes) +
            " bytes of slots, then barriers and alignment")
               .str());
  X.rest();
}

} // namespace tawa
