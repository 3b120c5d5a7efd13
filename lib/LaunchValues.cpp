//===- LaunchValues.cpp - a kernel's locals the launcher can compute ------===//
#include "tawa/LaunchValues.h"
#include "LiftSupport.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

using namespace clang;

namespace tawa {
namespace {

/// Prints an initializer as launcher C++ (LaunchValue::Value), collecting
/// the tests of its divisors.
class LaunchPrinter {
public:
  LaunchPrinter(
      const FunctionDecl *Kernel, ASTContext &Ctx,
      llvm::function_ref<const LaunchValue *(const VarDecl *)> Earlier,
      std::string &Why)
      : Kernel(Kernel), Ctx(Ctx), Earlier(Earlier), Why(Why) {}

  std::optional<std::string> print(const Expr *E);
  std::vector<std::string> Divisors;

private:
  std::optional<std::string> constant(const Expr *E);
  std::optional<std::string> launchDim(const Expr *E);
  std::optional<std::string> binary(const BinaryOperator *B);
  std::optional<std::string> call(const CallExpr *C);
  std::optional<std::string> fail(const Expr *E, const char *What) {
    Why = What;
    return std::nullopt;
  }
  std::string typeName(QualType T) const {
    return T.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  }

  const FunctionDecl *Kernel;
  ASTContext &Ctx;
  llvm::function_ref<const LaunchValue *(const VarDecl *)> Earlier;
  std::string &Why;
};

/// A constant integer as a literal of its type.
std::optional<std::string> LaunchPrinter::constant(const Expr *E) {
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->getType()->isIntegerType() ||
      !E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  const QualType T = E->getType().getCanonicalType();
  const std::string Digits = llvm::toString(V, 10);
  if (T == Ctx.IntTy)
    return V.isNegative() ? "(" + Digits + ")" : Digits;
  if (T == Ctx.UnsignedIntTy)
    return Digits + "u";
  if (T == Ctx.LongLongTy && !V.isNegative())
    return Digits + "LL";
  if (T == Ctx.UnsignedLongLongTy)
    return Digits + "ULL";
  return "static_cast<" + typeName(T) + ">(" + Digits + ")";
}

/// gridDim.<d> or blockDim.<d> (a property of the CUDA headers' built-in
/// variables) as the launcher's tawa_grid.<d> or tawa_block.<d>.
std::optional<std::string> LaunchPrinter::launchDim(const Expr *E) {
  auto Read = builtinCoordinateRead(E);
  if (!Read || !llvm::is_contained({"x", "y", "z"}, Read->second))
    return std::nullopt;
  if (Read->first == "gridDim")
    return ("tawa_grid." + Read->second).str();
  if (Read->first == "blockDim")
    return ("tawa_block." + Read->second).str();
  return fail(E, "threadIdx and blockIdx differ between threads");
}

std::optional<std::string> LaunchPrinter::print(const Expr *E) {
  E = E->IgnoreParens();
  if (std::optional<std::string> C = constant(E))
    return C;
  if (!E->getType()->isIntegerType() && !E->getType()->isBooleanType())
    return fail(E, "a value that is not an integer");
  if (auto *C = dyn_cast<ImplicitCastExpr>(E))
    return print(C->getSubExpr()); // the launcher converts alike
  if (auto *C = dyn_cast<ExplicitCastExpr>(E)) {
    std::optional<std::string> S = print(C->getSubExpr());
    return S ? std::optional("static_cast<" + typeName(E->getType()) + ">(" +
                             *S + ")")
             : std::nullopt;
  }
  if (isa<PseudoObjectExpr>(E)) {
    std::optional<std::string> D = launchDim(E);
    return D || !Why.empty() ? D : fail(E, "a property of no built-in");
  }
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto *P = dyn_cast<ParmVarDecl>(R->getDecl());
    if (P && llvm::is_contained(Kernel->parameters(), P))
      return P->getName().str();
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    if (const LaunchValue *L = VD ? Earlier(VD) : nullptr)
      return L->Name;
    return fail(E, "a variable that is no parameter or launch value");
  }
  if (auto *B = dyn_cast<BinaryOperator>(E))
    return binary(B);
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    std::optional<std::string> X = print(C->getCond());
    std::optional<std::string> Y = X ? print(C->getTrueExpr()) : std::nullopt;
    std::optional<std::string> Z = Y ? print(C->getFalseExpr()) : std::nullopt;
    return Z ? std::optional("(" + *X + " ? " + *Y + " : " + *Z + ")")
             : std::nullopt;
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    return call(C);
  return fail(E, "an expression of a kind a launch value does not use");
}

std::optional<std::string> LaunchPrinter::binary(const BinaryOperator *B) {
  const BinaryOperatorKind Op = B->getOpcode();
  if (!B->isAdditiveOp() && !B->isMultiplicativeOp() && !B->isComparisonOp() &&
      !B->isLogicalOp())
    return fail(B, "an operator a launch value does not use");
  std::optional<std::string> L = print(B->getLHS());
  std::optional<std::string> R = L ? print(B->getRHS()) : std::nullopt;
  if (!R)
    return std::nullopt;
  if (Op == BO_Div || Op == BO_Rem) {
    // A divisor the launcher tests before it divides, innermost first.
    const bool Signed = B->getRHS()->getType()->isSignedIntegerType();
    if (!constant(B->getRHS()))
      Divisors.push_back(*R + (Signed ? " < 1" : " == 0"));
    else if (Expr::EvalResult V;
             B->getRHS()->EvaluateAsInt(V, Ctx) && V.Val.getInt().isZero())
      return fail(B, "a division by zero");
  }
  return "(" + *L + " " + B->getOpcodeStr().str() + " " + *R + ")";
}

std::optional<std::string> LaunchPrinter::call(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || !F->getIdentifier() || !fromSystemHeader(F) ||
      !llvm::is_contained({"min", "max"}, F->getName()) || C->getNumArgs() != 2)
    return fail(C, "a call other than min or max");
  std::optional<std::string> X = print(C->getArg(0));
  std::optional<std::string> Y = X ? print(C->getArg(1)) : std::nullopt;
  return Y ? std::optional(F->getQualifiedNameAsString() + "(" + *X + ", " +
                           *Y + ")")
           : std::nullopt;
}

} // namespace

std::optional<LaunchValue>
launchValue(const VarDecl *VD, const FunctionDecl *Kernel, ASTContext &Ctx,
            llvm::function_ref<const LaunchValue *(const VarDecl *)> Earlier,
            std::string &Why) {
  if (!VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || !VD->hasInit() ||
      !VD->getType()->isIntegerType() || VD->getType().isVolatileQualified() ||
      !Kernel->getBody() || isModified(VD, Kernel->getBody())) {
    Why = "a local integer set once";
    return std::nullopt;
  }
  LaunchPrinter P(Kernel, Ctx, Earlier, Why);
  std::optional<std::string> Value = P.print(VD->getInit());
  if (!Value)
    return std::nullopt;
  // `((a + b) / c)` is the cast's operand without its outer parentheses.
  if (Value->front() == '(') {
    int Depth = 0;
    size_t Close = 0;
    for (size_t I = 0; I < Value->size() && !Close; ++I)
      if ((*Value)[I] == '(')
        ++Depth;
      else if ((*Value)[I] == ')' && --Depth == 0)
        Close = I;
    if (Close + 1 == Value->size())
      *Value = Value->substr(1, Value->size() - 2);
  }
  LaunchValue L;
  L.Var = VD;
  L.Name = "tawa_" + VD->getName().str();
  L.Value =
      "static_cast<" +
      VD->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) +
      ">(" + *Value + ")";
  L.Undefined = llvm::join(P.Divisors, " || ");
  return L;
}

} // namespace tawa
