//===- Migrate.cpp - a lifted kernel re-expressed in the tile vocabulary --===//
#include "tawa/Migrate.h"
#include "ActivationForm.h"
#include "tawa/EmitText.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using llvm::formatv;

namespace tawa {
namespace {

// The tile of the tiled kernel: the GEMM shape the planner runs fastest
// (results/README.md); K: 128 bytes (64 bf16/fp16 or 32 fp32 elements).
constexpr int kBM = 128, kBN = 256;

std::string name(const VarDecl *P) { return P->getName().str(); }

/// The float scalars of the stored value, each once: alpha, beta and
/// LeakyReLU's slope, where set.
std::vector<const VarDecl *> floatScalars(const LiftedGemm &G) {
  std::vector<const VarDecl *> Out;
  for (const VarDecl *V : {G.Alpha, G.Beta, G.Slope.Var})
    if (V && !llvm::is_contained(Out, V))
      Out.push_back(V);
  return Out;
}

/// The float scalars of the stored value that are locals of the kernel
/// rather than parameters (uniform scales, GemmLoopReader.h).
std::vector<const VarDecl *> localScales(const LiftedGemm &G) {
  std::vector<const VarDecl *> Out = floatScalars(G);
  llvm::erase_if(Out, [](const VarDecl *V) { return isa<ParmVarDecl>(V); });
  return Out;
}

/// The parameters of `Kernel` that the initializers of the local scales of
/// `G` read, in the kernel's order: the tiled form takes them and computes
/// the scales as the kernel does.
std::vector<const ParmVarDecl *> scaleInputs(const FunctionDecl *Kernel,
                                             const LiftedGemm &G) {
  struct Reads : RecursiveASTVisitor<Reads> {
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      if (auto *P = dyn_cast<ParmVarDecl>(E->getDecl()))
        Params.insert(P);
      return true;
    }
    llvm::SmallPtrSet<const ParmVarDecl *, 4> Params;
  } R;
  for (const VarDecl *V : localScales(G))
    R.TraverseStmt(const_cast<Expr *>(V->getInit()));
  std::vector<const ParmVarDecl *> Out;
  for (const ParmVarDecl *P : Kernel->parameters())
    if (R.Params.contains(P))
      Out.push_back(P);
  return Out;
}

/// The scalars a launcher passes to the tiled kernel after the matrices:
/// the float scales that are parameters, then the inputs of those that are
/// locals (scaleInputs).
std::string scalarArgs(const FunctionDecl *Kernel, const LiftedGemm &G) {
  std::string Out;
  for (const VarDecl *V : floatScalars(G))
    if (isa<ParmVarDecl>(V))
      Out += ", " + name(V);
  for (const ParmVarDecl *P : scaleInputs(Kernel, G))
    Out += ", " + name(P);
  return Out;
}

/// `, batches, batch_stride` of a Matrix view: the launch's grid.z matrices
/// `Stride` elements apart, or nothing for a single matrix.
std::string batchArgs(const std::string &Stride) {
  return Stride.empty() ? "" : ", int(tawa_grid.z), " + Stride;
}

/// `tawa::Matrix<T>{data, rows, cols, ld[, batches, batch_stride]}` of an
/// operand.
std::string view(const LiftedOperand &O, const std::string &Elem,
                 const std::string &Rows, const std::string &Cols) {
  return formatv("tawa::Matrix<const {0}>{{{1}, {2}, {3}, {4}{5}}", Elem,
                 name(O.Data), Rows, Cols, O.Ld.Name, batchArgs(O.BatchStride))
      .str();
}

/// `M` or, for a batched matrix, its matrix `Z` of the batch.
std::string matrixOf(const std::string &M, const std::string &Stride,
                     const std::string &Z) {
  return Stride.empty() ? M : M + ".batch(" + Z + ")";
}

/// A name of the tiled kernel's body that no parameter takes.
std::string freshName(const FunctionDecl *Kernel, std::string N) {
  for (bool Clash = true; Clash;) {
    Clash = false;
    for (const ParmVarDecl *P : Kernel->parameters())
      if (P->getName() == N) {
        N += "_";
        Clash = true;
      }
  }
  return N;
}

std::string launcherName(const FunctionDecl *Kernel,
                         const MigratedNames &Names);
std::string parameterText(const FunctionDecl *Kernel, const ParmVarDecl *P,
                          const SourceManager &SM, const LangOptions &LO);

std::string tiledKernel(const FunctionDecl *Kernel, const LiftedGemm &G,
                        const MigratedNames &Names, const SourceManager &SM,
                        const LangOptions &LO) {
  const std::string K = Names.Base, Elem = cxxElement(G.Elem),
                    Out = cxxElement(G.Out);
  const std::string A = name(G.A.Data), B = name(G.B.Data), C = name(G.C);
  const std::string M0 = freshName(Kernel, "m0"), N0 = freshName(Kernel, "n0"),
                    K0 = freshName(Kernel, "k0"),
                    Acc = freshName(Kernel, "acc"),
                    ATile = freshName(Kernel, "a"),
                    BTile = freshName(Kernel, "b"), Z = freshName(Kernel, "z");
  const std::string AOf = matrixOf(A, G.A.BatchStride, Z),
                    BOf = matrixOf(B, G.B.BatchStride, Z),
                    COf = matrixOf(C, G.CBatchStride, Z),
                    CInOf =
                        G.CIn ? matrixOf(name(G.CIn), G.CBatchStride, Z) : COf;
  // A convolution's activations are an Im2col view, whose columns the
  // weights' K extent counts.
  std::string Params =
      formatv("tawa::{5}<const {0}> {1}, "
              "tawa::Matrix<const {0}> {2}, "
              "tawa::Matrix<{3}> {4}",
              Elem, A, B, Out, C, G.Conv ? "Im2col" : "Matrix");
  if (G.CIn)
    Params += formatv(", tawa::Matrix<const {0}> {1}", cxxElement(G.CInElem),
                      name(G.CIn))
                  .str();
  if (G.Bias)
    Params += formatv(", tawa::Matrix<const {0}> {1}", cxxElement(G.Bias->Elem),
                      name(G.Bias->Data))
                  .str();
  for (const VarDecl *V : floatScalars(G))
    if (isa<ParmVarDecl>(V))
      Params += ", float " + name(V);
  // A scale the kernel computes before its loop is computed alike, from
  // the same parameters.
  std::string Scales;
  for (const ParmVarDecl *P : scaleInputs(Kernel, G))
    Params += ", " + parameterText(Kernel, P, SM, LO);
  for (const VarDecl *V : localScales(G))
    Scales += "\n  const float " + name(V) + " = " +
              sourceText(V->getInit()->getSourceRange(), SM, LO) + ";";
  // fp32 operands lift only under precision(tf32) or precision(3xtf32),
  // which the tiled kernel carries.
  const bool Tf32 = G.Elem == ElementType::F32;
  const int BK = 128 / static_cast<int>(elementBytes(G.Elem));
  const std::string LoadA =
      G.A.KMajor
          ? formatv("tawa::load<{0}, {1}>({2}, {3}, {4})", kBM, BK, AOf, M0, K0)
          : formatv("tawa::load<{0}, {1}>({2}, {3}, {4})", BK, kBM, AOf, K0,
                    M0);
  const std::string LoadB =
      G.B.KMajor
          ? formatv("tawa::load<{0}, {1}>({2}, {3}, {4})", kBN, BK, BOf, N0, K0)
          : formatv("tawa::load<{0}, {1}>({2}, {3}, {4})", BK, kBN, BOf, K0,
                    N0);
  const std::string OpA = G.A.KMajor ? ATile : "tawa::transpose(" + ATile + ")";
  const std::string OpB = G.B.KMajor ? "tawa::transpose(" + BTile + ")" : BTile;
  // The stored value's terms in the order the kernel adds them, under its
  // activation; as code and in words.
  auto ValueOf = [&](StringRef Terms) {
    std::string Value, Sum;
    for (char T : Terms) {
      std::string Term, Words;
      if (T == 'a') {
        Term = G.Alpha ? name(G.Alpha) + " * " + Acc : Acc;
        Words = G.Alpha ? "alpha * A * B" : "A * B";
      } else if (T == 'c') {
        Term = formatv("{0}tawa::load<{1}, {2}>({3}, {4}, {5})",
                       G.Beta ? name(G.Beta) + " * " : "", kBM, kBN, CInOf, M0,
                       N0);
        Words = (G.Beta ? "beta * " : "") +
                (G.CIn ? name(G.CIn) + " (C's input)" : std::string("C"));
      } else {
        const bool Col = G.Bias->PerColumn;
        Term = formatv("tawa::load<{0}, {1}>({2}, {3}, {4})", Col ? 1 : kBM,
                       Col ? kBN : 1, name(G.Bias->Data), Col ? "0" : M0,
                       Col ? N0 : "0");
        Words = Col ? "a bias per column" : "a bias per row";
        if (G.Bias->Optional)
          Words += " (0 where '" + name(G.Bias->Data) + "' is null)";
      }
      Value += (Value.empty() ? "" : " + ") + Term;
      Sum += (Sum.empty() ? "" : " + ") + Words;
    }
    if (G.Act == Activation::LeakyRelu) {
      const std::string Slope =
          G.Slope.Var ? name(G.Slope.Var) : floatLiteral(*G.Slope.Value);
      Value = "tawa::leaky_relu(" + Value + ", " + Slope + ")";
      Sum = "leaky_relu(" + Sum + ", " + Slope + ")";
    } else if (G.Act != Activation::None) {
      const std::string F = activationFunction(G.Act);
      Value = F + "(" + Value + ")";
      Sum = G.Act == Activation::Relu ? "max(" + Sum + ", 0)"
                                      : F.substr(6) + "(" + Sum + ")";
    }
    return std::pair(Value, Sum);
  };
  // An optional bias is read only where its pointer is not null, as the
  // kernel reads it: the conditional chooses the value without it where
  // the pointer is null (both branches are accumulators).
  auto OptionalBias = [&](const std::string &Terms) {
    auto [Value, Sum] = ValueOf(Terms);
    std::string Without = Terms;
    llvm::erase(Without, 'b');
    if (G.Bias && G.Bias->Optional && Without != Terms && !Without.empty())
      Value = name(G.Bias->Data) + ".data != nullptr ? " + Value + " : " +
              ValueOf(Without).first;
    return std::pair(Value, Sum);
  };
  auto [Value, Sum] = OptionalBias(
      G.Terms.empty() ? std::string("a") + (G.Beta ? "c" : "") : G.Terms);
  // Where beta is 0 the kernel stores the value without beta * C and reads
  // no element of C; the conditional chooses the same.
  if (!G.BetaZeroTerms.empty()) {
    auto Nested = [](const std::string &V) {
      return V.find('?') == std::string::npos ? V : "(" + V + ")";
    };
    Value = name(G.Beta) + " == 0.0f\n                  ? " +
            Nested(OptionalBias(G.BetaZeroTerms).first) +
            "\n                  : " + Nested(Value);
    Sum += " (" + (G.CIn ? name(G.CIn) : std::string("C")) +
           " not read where beta is 0)";
  }
  const std::string What =
      "C = " + Sum +
      (G.CBatchStride.empty() ? ""
                              : ", for each matrix blockIdx.z of a batch") +
      (G.CColumnMajor ? " (C column-major: computed as C^T = B^T * A^T, "
                        "the first operand the kernel's B)"
                      : "") +
      (G.Conv ? " (the convolution as an implicit GEMM: A the im2col matrix "
                "of the activations, a row per output pixel and a column per "
                "filter tap and channel; B the weights)"
              : "");
  return formatv(R"(
/// '{22}' in the tile vocabulary: {19} over the window of C that the launch
/// of '{22}' covers, in {3} x {4} tiles. Launched by {23}.
__global__ void {0}_tiled({1}) {{
  const int {5} = blockIdx.y * {3}, {6} = blockIdx.x * {4}{20};{24}
  tawa::Accumulator<float, {3}, {4}> {7};
#pragma tawa tile{21}
  for (int {8} = 0; {8} < {9}.{10}; {8} += {2}) {{
    auto {13} = {14};
    auto {15} = {16};
    tawa::mma({7}, {17}, {18});
  }
  tawa::store({11}, {5}, {6}, {12});
}
)",
                 K, Params, BK, kBM, kBN, M0, N0, Acc, K0, G.Conv ? B : A,
                 (G.Conv ? G.B.KMajor : G.A.KMajor) ? "cols" : "rows", COf,
                 Value, ATile, LoadA, BTile, LoadB, OpA, OpB, What,
                 G.CBatchStride.empty() ? "" : ", " + Z + " = blockIdx.z",
                 !Tf32                                    ? ""
                 : G.Precision == MmaPrecision::ThreeTf32 ? " precision(3xtf32)"
                                                          : " precision(tf32)",
                 Names.Callee, launcherName(Kernel, Names), Scales)
      .str();
}

/// Whether TMA can read both operands in place (16-byte aligned data and
/// rows; CUDA driver API, cuTensorMapEncodeTiled), as a C++ expression.
std::string inPlace(const LiftedGemm &G) {
  auto aligned = [&](const LiftedOperand &O) {
    std::string Text =
        formatv("reinterpret_cast<unsigned long long>({0}) % 16 == 0 && "
                "(1LL * {1} * sizeof({2})) % 16 == 0",
                name(O.Data), O.Ld.Name, cxxElement(G.Elem))
            .str();
    if (!O.BatchStride.empty())
      Text += formatv(" &&\n      ({0} * sizeof({1})) % 16 == 0", O.BatchStride,
                      cxxElement(G.Elem))
                  .str();
    return Text;
  };
  if (G.Conv)
    return "tawa::im2col_tma_loadable(tawa_x) &&\n      " + aligned(G.B);
  return aligned(G.A) + " &&\n      " + aligned(G.B);
}

/// `X` as a factor of a product: parenthesized unless a name or a number.
std::string factor(const std::string &X) {
  const bool Plain =
      llvm::all_of(X, [](char C) { return llvm::isAlnum(C) || C == '_'; });
  return Plain ? X : "(" + X + ")";
}

/// The Im2col view of a convolution's activations, from the launch's
/// parameters.
std::string im2colView(const LiftedGemm &G) {
  const LiftedIm2col &X = *G.Conv;
  return formatv("tawa::Im2col<const {0}>{{{1}, {2}, {3}, {4}, {5}, {6}, {7}, "
                 "{8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}}",
                 cxxElement(G.Elem), name(G.A.Data), X.N, X.H, X.W, X.C, X.R,
                 X.S, X.P, X.Q, X.PadH, X.PadW, X.StrideH, X.StrideW, X.DilH,
                 X.DilW)
      .str();
}

/// `, tawa::Matrix<const T>{bias, 1, cols, cols}` (a bias per column) or
/// `{bias, rows, 1, 1}` (per row) of the launch, or nothing.
std::string biasView(const LiftedGemm &G) {
  if (!G.Bias)
    return "";
  return formatv(",\n      tawa::Matrix<const {0}>{{{1}, {2}}",
                 cxxElement(G.Bias->Elem), name(G.Bias->Data),
                 G.Bias->PerColumn ? "1, tawa_cols, tawa_cols"
                                   : "tawa_rows, 1, 1")
      .str();
}

/// A comment line naming the named constants among the extents, which the
/// launcher writes as their values (Lift.h's Extent), or nothing.
std::string namedConstants(const LiftedGemm &G) {
  std::vector<std::string> Named;
  for (const Extent *X : {&G.M, &G.N, &G.K, &G.A.Ld, &G.B.Ld, &G.Ldc})
    if (*X && X->Value) {
      const std::string Words = X->Spelled + " = " + std::to_string(*X->Value);
      if (!llvm::is_contained(Named, Words))
        Named.push_back(Words);
    }
  if (Named.empty())
    return "";
  return "\n/// The kernel's named constants, written as their values here: " +
         llvm::join(Named, ", ") + ".";
}

/// Whether `X` is one parenthesized expression, `(a / b * b)` (not `(a) +
/// (b)`).
bool wrapped(const std::string &X) {
  if (X.size() < 2 || X.front() != '(' || X.back() != ')')
    return false;
  int Depth = 0;
  for (size_t I = 0; I + 1 < X.size(); ++I) {
    Depth += X[I] == '(' ? 1 : X[I] == ')' ? -1 : 0;
    if (Depth == 0)
      return false;
  }
  return true;
}

/// A comment line saying that the kernel's K loop stops at its last whole
/// tile (LiftedGemm::KFloorTile), or nothing.
std::string wholeTilesOnly(const LiftedGemm &G) {
  if (!G.KFloorTile)
    return "";
  const std::string T = std::to_string(G.KFloorTile);
  return "\n///\n/// The kernel's K loop runs " + G.K.Spelled + " / " + T +
         " whole tiles, dropping a partial last one:\n/// the tiled form sums "
         "the same " +
         G.K.Spelled + " / " + T + " * " + T + " products per element.";
}

/// A comment line saying that the grid's layers sum slices of K
/// (LiftedGemm::SplitKChunk), or nothing.
std::string splitKSlices(const LiftedGemm &G) {
  if (G.SplitKChunk.empty())
    return "";
  return formatv("\n///\n/// The grid's layers sum slices of {0} elements of K "
                 "(split-K), adding\n/// each into C: the tiled form sums "
                 "their union, the first\n/// min(grid.z * {0}, {1}) "
                 "elements, once, and adds that into C.",
                 G.SplitKChunk, G.K.Spelled)
      .str();
}

/// The launcher's declarations of the kernel's launch values `Values`
/// (LaunchValues.h), computed as the kernel computes them; where a divisor
/// is zero (LaunchValue::Undefined) each is 0 and `Differ` gains the test,
/// so that the kernel runs as written.
std::string launchValues(llvm::ArrayRef<LaunchValue> Values,
                         std::string &Differ) {
  std::string Out;
  for (const LaunchValue &L : Values) {
    const std::string Type = L.Var->getType().getUnqualifiedType().getAsString(
        L.Var->getASTContext().getPrintingPolicy());
    Out +=
        "\n  // '" + L.Var->getName().str() + "', as the kernel computes it.";
    if (L.Undefined.empty()) {
      Out += "\n  const " + Type + " " + L.Name + " = " + L.Value + ";";
      continue;
    }
    Out += "\n  const " + Type + " " + L.Name + " =\n      " + L.Undefined +
           " ? 0 : " + L.Value + ";";
    if (L.Undefined != "tawa_grid.z == 0") // tested with the launch's shape
      Differ += (Differ.empty() ? "" : " || ") + L.Undefined;
  }
  return Out;
}

/// The declaration of kernel parameter `P` as a launcher parameter: its
/// text without a default argument, or for an instantiation of a template
/// its type with the template's arguments substituted.
std::string parameterText(const FunctionDecl *Kernel, const ParmVarDecl *P,
                          const SourceManager &SM, const LangOptions &LO) {
  // An instantiation's parameters, and those a macro writes (`__global__
  // void k(ARGS)`, whose text is the macro's name for each), are printed.
  if (Kernel->isTemplateInstantiation() || P->getBeginLoc().isMacroID() ||
      P->getEndLoc().isMacroID()) {
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    PrintingPolicy Policy(LO);
    Policy.SuppressTagKeyword = true;
    P->getType().print(OS, Policy, P->getName());
    return Text; // a kernel with default arguments is not lifted
  }
  SourceRange R = P->hasDefaultArg()
                      ? SourceRange(P->getBeginLoc(), P->getLocation())
                      : P->getSourceRange();
  return sourceText(R, SM, LO);
}

/// `, tawa::Matrix<const T>{Cin, ...}`: the view of C's input where the
/// kernel reads C's old value from another matrix (LiftedGemm::CIn), with
/// C's extents, leading dimension and batch; else nothing.
std::string cInView(const LiftedGemm &G) {
  if (!G.CIn)
    return "";
  return formatv(
             ", tawa::Matrix<const {0}>{{{1}, tawa_rows, tawa_cols, {2}{3}}",
             cxxElement(G.CInElem), name(G.CIn), G.Ldc.Name,
             batchArgs(G.CBatchStride))
      .str();
}

} // namespace

std::string launcherTemplate(const FunctionDecl *Kernel) {
  const FunctionTemplateDecl *T = Kernel->isTemplateInstantiation()
                                      ? Kernel->getPrimaryTemplate()
                                      : nullptr;
  if (!T || T->getTemplateParameters()->hasParameterPack() ||
      T->getMostRecentDecl()->getPreviousDecl())
    return "";
  // The template's own definition forwards its parameters by name.
  if (llvm::any_of(*T->getTemplateParameters(),
                   [](const NamedDecl *P) { return !P->getIdentifier(); }) ||
      llvm::any_of(T->getTemplatedDecl()->parameters(),
                   [](const ParmVarDecl *P) { return !P->getIdentifier(); }))
    return "";
  return T->getNameAsString() + "_migrated_launch";
}

namespace {

/// The launcher's name: `<Base>_migrated_launch`, or for an instantiation
/// `<template>_migrated_launch<args>` (launcherTemplate).
std::string launcherName(const FunctionDecl *Kernel,
                         const MigratedNames &Names) {
  const std::string T = launcherTemplate(Kernel);
  const size_t Args = Names.Callee.find('<');
  if (T.empty() || Args == std::string::npos)
    return Names.Base + "_migrated_launch";
  return T + Names.Callee.substr(Args);
}

/// `static void <Base>_migrated_launch`, or for an instantiation the
/// explicit specialization `template <> void <template><args>`.
std::string launcherHead(const FunctionDecl *Kernel,
                         const MigratedNames &Names) {
  const std::string Name = launcherName(Kernel, Names);
  return Name == Names.Base + "_migrated_launch" ? "static void " + Name
                                                 : "template <>\nvoid " + Name;
}

/// The declaration of the function template whose explicit specializations
/// launch the instantiations of `Kernel`'s template (launcherTemplate):
/// the template's parameters and the kernel's parameters as written.
std::string launcherTemplateDecl(const FunctionDecl *Kernel,
                                 const SourceManager &SM,
                                 const LangOptions &LO) {
  const FunctionTemplateDecl *T = Kernel->getPrimaryTemplate();
  const FunctionDecl *Pattern = T->getTemplatedDecl();
  std::string Params, Args, TemplateArgs;
  for (const ParmVarDecl *P : Pattern->parameters()) {
    Params += ", " + parameterText(Pattern, P, SM, LO);
    Args += (Args.empty() ? "" : ", ") + name(P);
  }
  for (const NamedDecl *P : *T->getTemplateParameters())
    TemplateArgs += (TemplateArgs.empty() ? "" : ", ") + P->getNameAsString();
  return formatv(
             R"(
/// The launchers of the instantiations of '{0}' that the file launches, one
/// explicit specialization each; a launch calls it with the template
/// arguments it was written with. Any other instantiation (an explicit
/// specialization of '{0}', a launch in a function template instantiated
/// elsewhere) runs as written.
{1}
static void {2}(dim3 tawa_grid, dim3 tawa_block, size_t tawa_shared,
                cudaStream_t tawa_stream{3}) {{
  {0}<{4}><<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>({5});
}
)",
             T->getName(),
             sourceText(T->getTemplateParameters()->getSourceRange(), SM, LO),
             launcherTemplate(Kernel), Params, TemplateArgs, Args)
      .str();
}

/// The checks that each integer parameter of another type than int that
/// the tiled form's launch converts to int (`int(K)`, named so in `Used`)
/// holds a value in [1, INT_MAX]: elsewhere the kernel runs as written.
std::string narrowedRanges(const FunctionDecl *Kernel,
                           const std::string &Used) {
  std::vector<std::string> Checks;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    const std::string N = name(P);
    if (P->getType()->isIntegerType() &&
        Used.find("int(" + N + ")") != std::string::npos)
      Checks.push_back(N + " < 1 || " + N + " > 2147483647");
  }
  return llvm::join(Checks, " || ");
}

std::string launcher(const FunctionDecl *Kernel, const LiftedGemm &G,
                     const MigratedNames &Names, const SourceManager &SM,
                     const LangOptions &LO) {
  const std::string K = Names.Base, Elem = cxxElement(G.Elem),
                    Out = cxxElement(G.Out);
  std::string Params, Args;
  for (const ParmVarDecl *P : Kernel->parameters()) {
    Params += ", " + parameterText(Kernel, P, SM, LO);
    Args += (Args.empty() ? "" : ", ") + name(P);
  }
  // A loop of K / TILE whole tiles sums the first K / TILE * TILE.
  const std::string T = std::to_string(G.KFloorTile);
  const bool SplitK = !G.SplitKChunk.empty();
  const std::string Kx = SplitK ? "tawa_split_k"
                         : G.KFloorTile
                             ? "(" + G.K.factor() + " / " + T + " * " + T + ")"
                             : G.K.Name;
  // A kernel with no bounds checks computes every tile its grid covers.
  // The rows of a convolution whose grid layers are its images are those
  // of grid.z images, which the launch covers (ConvLift.cpp checks it).
  const bool GridImages = G.Conv && G.Conv->ImagesFromGrid;
  const std::string M = G.Guarded && !GridImages ? G.M.Name : "tawa_rows",
                    N = G.Guarded ? G.N.Name : "tawa_cols";
  const std::string AView = G.Conv       ? std::string("tawa_x")
                            : G.A.KMajor ? view(G.A, Elem, M, Kx)
                                         : view(G.A, Elem, Kx, M);
  // A convolution's view, and the launches TMA cannot read it for: those
  // run the kernel as written, not the tiled form's slow fallback.
  std::string Im2colDecl =
      G.Conv ? "\n  const auto tawa_x = " + im2colView(G) + ";" : "";
  std::string ExtentsDiffer = G.ExtentsDiffer;
  if (SplitK) {
    // The layers' slices of K, each chunk elements from blockIdx.z *
    // chunk: their union is the first min(grid.z * chunk, K). Where chunk
    // is no multiple of TILE the slices' tiles cross, and where the last
    // slice's end does not fit an int the kernel's own indices wrap.
    const std::string Chunk = G.SplitKChunk.find(' ') == std::string::npos
                                  ? G.SplitKChunk
                                  : "(" + G.SplitKChunk + ")";
    Im2colDecl += launchValues(G.SplitKValues, ExtentsDiffer);
    Im2colDecl += formatv(R"(
  const long long tawa_split_end = 1LL * tawa_grid.z * {0};
  const int tawa_split_k = {0} < 1 ? 0 : tawa_split_end < {1} ? int(tawa_split_end) : {1};)",
                          Chunk, G.K.Name)
                      .str();
    ExtentsDiffer += (ExtentsDiffer.empty() ? "" : " || ") +
                     formatv("tawa_split_end > 2147483647LL || {0} % {1} != 0",
                             Chunk, G.Tile)
                         .str();
  }
  // The kernel's indices may be 32-bit: where an operand spans 2^31
  // elements or more they could wrap, which the tiled form's would not. A
  // kernel that reads C's old value and is not batched, launched with
  // several grid layers, updates each element once per layer.
  // A sum (an extent read off `m < N * P * Q + Q`) is parenthesized; a
  // product of names needs no parentheses in the product.
  auto term = [](const std::string &X) {
    return X.find_first_of("+-/%?") == std::string::npos || wrapped(X)
               ? X
               : "(" + X + ")";
  };
  auto span = [&](const std::string &Rows, const std::string &Ld,
                  const std::string &Stride) {
    return "1LL * " + term(Rows) + " * " + term(Ld) +
           (Stride.empty() ? ""
                           : " + 1LL * (tawa_grid.z - 1) * (" + Stride + ")") +
           " > 2147483647LL";
  };
  std::vector<std::string> Wrap;
  if (!G.Conv)
    Wrap.push_back(span(G.A.KMajor ? M : Kx, G.A.Ld.Name, G.A.BatchStride));
  else // the activations, N x H x W x C
    Wrap.push_back("1LL * " + factor(G.Conv->N) + " * " + factor(G.Conv->H) +
                   " * " + factor(G.Conv->W) + " * " + factor(G.Conv->C) +
                   " > 2147483647LL");
  Wrap.push_back(span(G.B.KMajor ? N : Kx, G.B.Ld.Name, G.B.BatchStride));
  Wrap.push_back(span(M, G.Ldc.Name, G.CBatchStride));
  const bool LayersUpdateC = G.CBatchStride.empty() && !SplitK &&
                             G.Terms.find('c') != std::string::npos;
  if (LayersUpdateC)
    Wrap.push_back("tawa_grid.z != 1");
  const std::string Guard =
      formatv(R"(
  // Where the kernel's 32-bit indices could wrap{0}, it runs as written.
  if ({1}) {{
    {2}<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>({3});
    return;
  })",
              LayersUpdateC ? ", or several grid layers would each update C"
                            : "",
              llvm::join(Wrap, " || "), Names.Callee, Args)
          .str();
  if (G.Conv)
    ExtentsDiffer += std::string(ExtentsDiffer.empty() ? "" : " || ") +
                     "!tawa::im2col_tma_loadable(tawa_x)";
  std::string BView =
      G.B.KMajor ? view(G.B, Elem, N, Kx) : view(G.B, Elem, Kx, N);
  std::string FilterCopy;
  if (G.Conv && G.Conv->ChannelsOuter) {
    // Weights whose K index runs channels outermost: the tiled form reads
    // a copy in the im2col matrix's order.
    FilterCopy = formatv(R"(
  // The weights' column runs the channels outermost, (c * R + r) * S + s:
  // the tiled form reads them from a copy in the order of the im2col
  // matrix's columns, (r * S + s) * C + c.
  const tawa::FilterCopy<const {0}> tawa_w(
      {1}, /*k_major=*/{2}, {3}, {4}, tawa_stream);
  if (tawa_w.error() != cudaSuccess) {{
    {5}<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>({6});
    return;
  }
)",
                         Elem, BView, G.B.KMajor ? "true" : "false", G.Conv->C,
                         factor(G.Conv->R) + " * " + factor(G.Conv->S),
                         Names.Callee, Args)
                     .str();
    FilterCopy.pop_back(); // the launch follows on the next line
    BView = "tawa_w.matrix()";
  }
  const std::string Scalars = scalarArgs(Kernel, G);
  const std::string Where = G.Extents.empty() ? "" : ", where " + G.Extents;
  // The rows of the matrix the tiled form writes: C^T's for a
  // column-major C.
  const std::string CRows = G.CColumnMajor ? "rows of C^T" : "rows of C";
  const std::string Window =
      GridImages
          ? formatv("{0} below {1} (the pixels of grid.z images) and the "
                    "columns\n/// below min({2}, {3}), which those blocks "
                    "compute{4}",
                    CRows, G.RowsCovered, N, G.ColsCovered, Where)
                .str()
      : G.Guarded
          ? formatv("{5} below min({0}, {1}) and the columns\n/// "
                    "below min({2}, {3}), which those blocks compute{4}",
                    M, G.RowsCovered, N, G.ColsCovered, Where, CRows)
                .str()
          : formatv("{3} below {0} and the columns below\n/// {1}, "
                    "which those blocks compute whole (the kernel has no\n/// "
                    "bounds checks){2}",
                    G.RowsCovered, G.ColsCovered, Where, CRows)
                .str();
  const std::string Rows = G.Guarded && !GridImages
                               ? formatv("{0} < tawa_rows_covered ? {0} : "
                                         "int(tawa_rows_covered)",
                                         M)
                                     .str()
                               // Rows may walk blockIdx.x, whose launches
                               // cover more than an int holds.
                               : "tawa_rows_covered < 2147483647LL ? "
                                 "int(tawa_rows_covered) : 0";
  const std::string Cols =
      G.Guarded ? formatv("{0} < tawa_cols_covered ? {0} : "
                          "int(tawa_cols_covered)",
                          N)
                      .str()
                : "tawa_cols_covered < 2147483647LL ? int(tawa_cols_covered) "
                  ": 0";
  const std::string Ranges = narrowedRanges(
      Kernel, AView + BView + Kx + M + N + G.Ldc.Name + Im2colDecl +
                  ExtentsDiffer + Guard + FilterCopy + cInView(G) +
                  biasView(G) + G.RowsCovered + G.ColsCovered +
                  batchArgs(G.CBatchStride));
  if (!Ranges.empty())
    ExtentsDiffer += (ExtentsDiffer.empty() ? "" : " || ") + Ranges;
  const std::string Extents =
      ExtentsDiffer.empty() ? "" : " || " + ExtentsDiffer;
  return formatv(R"(
/// Launches '{25}' as the launch `{25}<<<tawa_grid, tawa_block, tawa_shared,
/// tawa_stream>>>(...)` would: its tile-vocabulary form where the block is
/// {1} (the thread mapping tawa-rewrite proved), computing the
/// {2}; '{25}' itself for any other launch, for a launch under 2^24 flops
/// (0.7x at 128x256x64 on an H100: the launch costs more than the work), and
/// for one under 2^28 whose operands TMA cannot read in place: the rewritten
/// kernel copies those to aligned buffers on every call, which costs more
/// than the whole original there (0.3-0.4x at 129x257x73,
/// results/h100/legacy/).{24}
{27}(dim3 tawa_grid, dim3 tawa_block,
                                size_t tawa_shared, cudaStream_t tawa_stream{4}) {{
  const long long tawa_rows_covered = 1LL * {21},
                  tawa_cols_covered = 1LL * {22};
  const int tawa_rows = {16};
  const int tawa_cols = {17};{26}
  const bool tawa_in_place = {14};
  const double tawa_flops = 2.0 * tawa_rows * tawa_cols * {15};
  if ({3} ||
      tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0{18} ||
      tawa_flops < 16777216.0 ||
      (tawa_flops < 268435456.0 && !tawa_in_place)) {{
    {25}<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>({5});
    return;
  }{28}
  {0}_tiled<<<dim3(tawa::ceil_div(tawa_cols, {6}), tawa::ceil_div(tawa_rows, {7}){19}),
            128, 0, tawa_stream>>>(
      {8}, {9},
      tawa::Matrix<{10}>{{{11}, tawa_rows, tawa_cols, {12}{20}}{23}{13});
}
)",
                 K, G.Block, Window, G.BlockDiffers, Params, Args, kBN, kBM,
                 AView, BView, Out, name(G.C), G.Ldc.Name, Scalars, inPlace(G),
                 Kx, Rows, Cols, Extents,
                 G.CBatchStride.empty() ? "" : ", tawa_grid.z",
                 batchArgs(G.CBatchStride), G.RowsCovered, G.ColsCovered,
                 cInView(G) + biasView(G),
                 namedConstants(G) + wholeTilesOnly(G) + splitKSlices(G),
                 Names.Callee, Im2colDecl, launcherHead(Kernel, Names),
                 Guard + FilterCopy)
      .str();
}

} // namespace

MigratedNames migratedNames(const FunctionDecl *Kernel) {
  return {Kernel->getNameAsString(), Kernel->getNameAsString()};
}

std::string migratedKernelText(const FunctionDecl *Kernel, const LiftedGemm &G,
                               const MigratedNames &Names,
                               const SourceManager &SM, const LangOptions &LO,
                               bool FirstInstance) {
  const std::string Decl = FirstInstance && !launcherTemplate(Kernel).empty()
                               ? launcherTemplateDecl(Kernel, SM, LO)
                               : "";
  return tiledKernel(Kernel, G, Names, SM, LO) + Decl +
         launcher(Kernel, G, Names, SM, LO);
}

std::string migratedLaunchText(const CUDAKernelCallExpr *L,
                               const MigratedNames &Names,
                               const SourceManager &SM, const LangOptions &LO) {
  const CallExpr *Config = L->getConfig();
  // The launcher is declared beside the kernel: a launch that qualifies the
  // kernel (`ns::k<<<...>>>`) qualifies it the same way.
  std::string Qualifier;
  if (auto *Callee = dyn_cast<DeclRefExpr>(L->getCallee()->IgnoreImpCasts());
      Callee && Callee->getQualifierLoc())
    Qualifier =
        Lexer::getSourceText(CharSourceRange::getTokenRange(
                                 Callee->getQualifierLoc().getSourceRange()),
                             SM, LO)
            .str();
  // An instantiation's launcher is called with the launch's own template
  // arguments, where it names any (launcherTemplate).
  const std::string Template =
      L->getDirectCallee() ? launcherTemplate(L->getDirectCallee()) : "";
  std::string Text = Qualifier + Names.Base + "_migrated_launch(";
  if (!Template.empty()) {
    Text = Qualifier + Template;
    auto *Callee = dyn_cast<DeclRefExpr>(L->getCallee()->IgnoreImpCasts());
    if (Callee && Callee->hasExplicitTemplateArgs())
      Text += sourceText(
          SourceRange(Callee->getLAngleLoc(), Callee->getRAngleLoc()), SM, LO);
    Text += "(";
  }
  for (unsigned I = 0; I < 4; ++I) {
    const Expr *E = I < Config->getNumArgs() ? Config->getArg(I) : nullptr;
    Text += I ? ", " : "";
    Text += !E || isa<CXXDefaultArgExpr>(E) ? "0" : exprText(E, SM, LO);
  }
  for (const Expr *A : L->arguments())
    Text += ", " + exprText(A, SM, LO);
  return Text + ")";
}

} // namespace tawa
