//===- EmitText.cpp - source text helpers of the emitters -----------------===//
#include "tawa/EmitText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {

std::string sourceText(SourceRange R, const SourceManager &SM,
                       const LangOptions &LO) {
  CharSourceRange CR = SM.getExpansionRange(CharSourceRange::getTokenRange(R));
  return Lexer::getSourceText(CR, SM, LO).str();
}

std::string exprText(const Expr *E, const SourceManager &SM,
                     const LangOptions &LO) {
  return sourceText(E->getSourceRange(), SM, LO);
}

std::string cxxElement(ElementType T) {
  switch (T) {
  case ElementType::BF16:
    return "__nv_bfloat16";
  case ElementType::F16:
    return "__half";
  case ElementType::F32:
    return "float";
  case ElementType::E4M3:
    return "__nv_fp8_e4m3";
  case ElementType::E5M2:
    return "__nv_fp8_e5m2";
  }
  return "?";
}

std::string renameBuiltins(StringRef Text, const LangOptions &LO) {
  const std::string Buf = Text.str(); // the lexer needs a terminating NUL
  Lexer Lex(SourceLocation(), LO, Buf.data(), Buf.data(),
            Buf.data() + Buf.size());
  std::string Out;
  size_t Pos = 0;
  Token Tok;
  bool End = false;
  while (!End) {
    End = Lex.LexFromRawLexer(Tok);
    if (!Tok.is(tok::raw_identifier))
      continue;
    StringRef Id = Tok.getRawIdentifier();
    const char *Name = Id == "blockIdx"  ? "tile"
                       : Id == "gridDim" ? "schedule.tiles"
                                         : nullptr;
    if (!Name)
      continue;
    const size_t Off = Id.data() - Buf.data();
    Out += Buf.substr(Pos, Off - Pos);
    Out += Name;
    Pos = Off + Id.size();
  }
  return Out + Buf.substr(Pos);
}

std::string parenthesized(const std::string &Text, const Expr *E) {
  const Expr *S = E->IgnoreImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, ParenExpr, MemberExpr>(S))
    return Text;
  return "(" + Text + ")";
}

std::string referenceKernelText(const TileProgram &P, const SourceManager &SM,
                                const LangOptions &LO) {
  CharSourceRange R = SM.getExpansionRange(P.Kernel->getSourceRange());
  FileID FID = SM.getFileID(R.getBegin());
  StringRef Buffer = SM.getBufferData(FID);
  unsigned B = SM.getFileOffset(R.getBegin());
  unsigned E =
      SM.getFileOffset(Lexer::getLocForEndOfToken(R.getEnd(), 0, SM, LO));
  unsigned N = SM.getFileOffset(SM.getExpansionLoc(P.Kernel->getLocation()));
  SourceLocation Pragma = SM.getExpansionLoc(P.Pragma.Loc);
  unsigned Line = SM.getExpansionLineNumber(Pragma);
  unsigned L0 = SM.getFileOffset(SM.translateLineCol(FID, Line, 1));
  size_t L1 = Buffer.find('\n', L0);
  L1 = L1 == StringRef::npos ? E : L1 + 1;
  if (!(B <= N && N < L0 && L1 <= E))
    return "";
  const std::string K = P.Kernel->getNameAsString();
  return (Buffer.slice(B, N) + K + "_reference" +
          Buffer.slice(N + K.size(), L0) + Buffer.slice(L1, E))
      .str();
}

KernelSignature kernelSignature(const TileProgram &P, const SourceManager &SM,
                                const LangOptions &LO) {
  KernelSignature S;
  S.Where = P.Where;
  for (const ParmVarDecl *PV : P.Kernel->parameters()) {
    // Without a default argument: parameters follow in both signatures.
    SourceRange Range = PV->hasDefaultArg()
                            ? SourceRange(PV->getBeginLoc(), PV->getLocation())
                            : PV->getSourceRange();
    S.Params += (S.Params.empty() ? "" : ", ") + sourceText(Range, SM, LO);
    S.LauncherParams += (S.LauncherParams.empty() ? "" : ", ") +
                        sourceText(PV->getSourceRange(), SM, LO);
    S.Names.push_back(PV->getNameAsString());
  }
  return S;
}

std::string locationText(SourceLocation Loc, const SourceManager &SM) {
  PresumedLoc PL = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (PL.isInvalid())
    return "?";
  return (llvm::sys::path::filename(PL.getFilename()) + ":" +
          llvm::Twine(PL.getLine()) + ":" + llvm::Twine(PL.getColumn()))
      .str();
}

std::string dotQuote(StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

void writeOperandCopies(Writer &W, const std::vector<std::string> &Operands,
                        StringRef Output) {
  W.line("// Operands TMA cannot read in place (an `ld` that is not a "
         "multiple of 16 bytes, say) are copied to aligned buffers on the "
         "stream, freed after the launch (tawa/runtime/operand_copy.cuh).");
  W.line("tawa::rt::OperandCopies copies(stream);");
  if (!Output.empty()) {
    W.line("// So are those whose rows are an odd number of 16 bytes apart, "
           "which TMA reads slowly, where the launch is large enough for "
           "that to pay.");
    W.line(llvm::formatv("copies.pad_odd_pitch = "
                         "tawa::rt::odd_pitch_copy_pays({0}.rows, {0}.cols);",
                         Output)
               .str());
  }
  if (Operands.empty())
    W.line("cudaError_t maps = cudaSuccess;");
  for (const std::string &M : Operands)
    W.line(llvm::formatv("auto {0}_aligned = {0};", M).str());
  for (unsigned I = 0; I < Operands.size(); ++I)
    W.line(
        (I ? "if (maps == cudaSuccess) maps = " : "cudaError_t maps = ") +
        llvm::formatv("copies.aligned({0}, &{0}_aligned)", Operands[I]).str() +
        ";");
}

void writeSharedMemoryLimit(Writer &W, StringRef Storage, StringRef Kernel) {
  W.line(llvm::formatv("constexpr size_t shared_bytes = "
                       "tawa::rt::shared_bytes<{0}>();",
                       Storage)
             .str());
  W.line(llvm::formatv("if (cudaError_t e = cudaFuncSetAttribute({0}, "
                       "cudaFuncAttributeMaxDynamicSharedMemorySize, "
                       "shared_bytes); e != cudaSuccess)",
                       Kernel)
             .str());
  W.line("  return e;");
}

} // namespace tawa
