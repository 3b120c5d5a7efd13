//===- tawa/EmitText.h - source text helpers of the emitters and reports --===//
//
// What every kernel family's emitter needs to write the replacement of a
// kernel: the source text of user expressions with the block coordinates of
// the original launch read from the tile walk, an indenting line writer,
// the kernel as written (the fallback), its signature split for the
// rewritten kernel and its launcher, the launcher's shared lines; and what
// the reports (--explain, --dump-arefs) print locations and graphs with.
//
//===----------------------------------------------------------------------===//
#ifndef TAWA_EMITTEXT_H
#define TAWA_EMITTEXT_H

#include "tawa/TileProgram.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace tawa {

/// The text of `R` (a token range, through macro expansions).
std::string sourceText(clang::SourceRange R, const clang::SourceManager &SM,
                       const clang::LangOptions &LO);
std::string exprText(const clang::Expr *E, const clang::SourceManager &SM,
                     const clang::LangOptions &LO);

/// The C++ spelling of an element type ("__nv_bfloat16", "__half", "float").
std::string cxxElement(ElementType T);

/// `Text` with the built-in block coordinates of the original launch
/// replaced by those of the tile walk: `blockIdx` by `tile`, `gridDim` by
/// `schedule.tiles`. Works on the tokens of `Text` (clang's raw lexer), so
/// comments, literals and longer identifiers are left as they are.
std::string renameBuiltins(llvm::StringRef Text, const clang::LangOptions &LO);

/// `Text` (the text of `E`) as an operand of '+': parenthesized unless `E` is
/// a name, a literal or a member.
std::string parenthesized(const std::string &Text, const clang::Expr *E);

/// The kernel as written, renamed to `<kernel>_reference` and without its
/// pragma: what the launcher runs where the tensor maps cannot be built
/// ("" where the kernel's text cannot be cut so).
std::string referenceKernelText(const TileProgram &P,
                                const clang::SourceManager &SM,
                                const clang::LangOptions &LO);

/// Appends lines with indentation.
class Writer {
public:
  explicit Writer(std::string &Out) : Out(Out) {}
  Writer &line(const llvm::Twine &L = "") {
    if (!L.isTriviallyEmpty())
      Out.append(2 * Depth, ' ');
    Out += L.str();
    Out += '\n';
    return *this;
  }
  void open(const llvm::Twine &L) {
    line(L + " {");
    ++Depth;
  }
  void close(const llvm::Twine &Tail = "") {
    --Depth;
    line("}" + Tail);
  }
  int Depth = 0;

private:
  std::string &Out;
};

/// The kernel's parameters as written: without their default arguments (the
/// kernel's signature), with them (the launcher's, where they trail), and
/// their names.
struct KernelSignature {
  std::string Params, LauncherParams;
  std::vector<std::string> Names;
  /// `file:line` of the pragma, for the emitted comments.
  std::string Where;
};
KernelSignature kernelSignature(const TileProgram &P,
                                const clang::SourceManager &SM,
                                const clang::LangOptions &LO);

/// `file:line:col` of `Loc` (its expansion), "?" where it has none.
std::string locationText(clang::SourceLocation Loc,
                         const clang::SourceManager &SM);

/// `S` as a double-quoted graphviz string.
std::string dotQuote(llvm::StringRef S);

/// The launcher's lines that copy the operands TMA cannot read in place
/// (`Operands`, each matrix once, not empty) to aligned buffers and start the
/// chain of errors `maps` with those copies: `cudaError_t maps =
/// copies.aligned(...)`, then `if (maps == cudaSuccess) maps = ...` lines
/// the caller continues with its tensor maps. With an `Output` (the stored
/// matrix of a GEMM, m x n), operands whose rows are an odd number of
/// 16-byte units apart are also copied where odd_pitch_copy_pays(m, n).
void writeOperandCopies(Writer &W, const std::vector<std::string> &Operands,
                        llvm::StringRef Output = {});

/// The launcher's lines that raise kernel `Kernel`'s dynamic shared-memory
/// limit to `shared_bytes`, the size of its storage struct `Storage`.
void writeSharedMemoryLimit(Writer &W, llvm::StringRef Storage,
                            llvm::StringRef Kernel);

} // namespace tawa

#endif
