//===- ActivationForm.cpp - activations of hand-written epilogues ---------===//
#include "ActivationForm.h"
#include "LiftSupport.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/FoldingSet.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace clang;

namespace tawa {
namespace {

/// Reads one expression as an activation of some x: the matchers below find
/// x at one place of a formula and check every other occurrence against it.
class FormReader {
public:
  explicit FormReader(ASTContext &Ctx) : Ctx(Ctx) {}
  /// `Locals`: the float locals of a helper (returnedBy), read as their
  /// initializers.
  FormReader(ASTContext &Ctx,
             llvm::DenseMap<const VarDecl *, const Expr *> Locals)
      : Ctx(Ctx), Locals(std::move(Locals)) {}

  std::optional<ActivationMatch> read(const Expr *E) {
    E = unconverted(E, QualType());
    if (const Expr *X = relu(E))
      return ActivationMatch{Activation::Relu, X};
    if (const Expr *X = silu(E))
      return ActivationMatch{Activation::Silu, X};
    if (const Expr *X = sigmoid(E))
      return ActivationMatch{Activation::Sigmoid, X};
    if (const Expr *X = argOf(E, {"tanhf", "tanh"}); X && isFloat(plain(X)))
      return ActivationMatch{Activation::Tanh, X};
    const Expr *Slope = nullptr;
    if (const Expr *X = leaky(E, Slope))
      return ActivationMatch{Activation::LeakyRelu, X, Slope};
    bool Tanh = false;
    if (const Expr *X = gelu(E, Tanh))
      return ActivationMatch{Tanh ? Activation::GeluTanh : Activation::Gelu, X};
    return std::nullopt;
  }

private:
  /// E without conversions, a helper's local read as its initializer.
  const Expr *plain(const Expr *E) const {
    for (E = unconverted(E, QualType());;) {
      auto *R = dyn_cast<DeclRefExpr>(E);
      auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      auto It = VD ? Locals.find(VD) : Locals.end();
      if (It == Locals.end())
        return E;
      E = unconverted(It->second, QualType());
    }
  }

  /// Whether A and B are the same expression, without side effects (each
  /// occurrence is evaluated where the kernel evaluates it).
  bool same(const Expr *A, const Expr *B) const {
    A = plain(A);
    B = plain(B);
    if (mayWrite(A, Ctx) || mayWrite(B, Ctx))
      return false;
    llvm::FoldingSetNodeID IA, IB;
    A->Profile(IA, Ctx, /*Canonical=*/true);
    B->Profile(IB, Ctx, /*Canonical=*/true);
    return IA == IB;
  }

  /// The value of a constant arithmetic of literals and sqrt, or none.
  std::optional<double> constant(const Expr *E) const {
    E = unconverted(plain(E), QualType(), /*Any=*/true);
    if (auto *F = dyn_cast<FloatingLiteral>(E))
      return F->getValueAsApproximateDouble();
    if (auto *I = dyn_cast<IntegerLiteral>(E))
      return double(I->getValue().getSExtValue());
    // Integer arithmetic as C does it: `1 / 2` is 0.
    if (E->getType()->isIntegerType()) {
      Expr::EvalResult R;
      if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx))
        return double(R.Val.getInt().getSExtValue());
      return std::nullopt;
    }
    if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Minus)
      if (std::optional<double> V = constant(U->getSubExpr()))
        return -*V;
    if (const Expr *A = argOf(E, {"sqrtf", "sqrt"}))
      if (std::optional<double> V = constant(A); V && *V >= 0)
        return std::sqrt(*V);
    auto *B = dyn_cast<BinaryOperator>(E);
    std::optional<double> L = B ? constant(B->getLHS()) : std::nullopt;
    std::optional<double> R = L ? constant(B->getRHS()) : std::nullopt;
    if (!R)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    case BO_Div:
      return *R != 0 ? std::optional<double>(*L / *R) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  /// Whether E is the constant V, to within about two float ulps.
  bool is(const Expr *E, double V) const {
    std::optional<double> C = constant(E);
    return C && std::fabs(*C - V) <= 2.5e-7 * std::fabs(V);
  }

  /// The argument of `f(arg)`, f one of Names (systemCall), or null.
  const Expr *argOf(const Expr *E,
                    std::initializer_list<const char *> Names) const {
    const CallExpr *C = systemCall(plain(E), Names);
    return C ? C->getArg(0) : nullptr;
  }
  const BinaryOperator *op(const Expr *E, BinaryOperatorKind K) const {
    auto *B = dyn_cast<BinaryOperator>(plain(E));
    return B && B->getOpcode() == K ? B : nullptr;
  }

  /// `fmaxf(x, 0)` (fmax, max, either order) or `x > 0 ? x : 0`. The
  /// function is CUDA's, declared at global scope in a system header, which
  /// returns the other argument for a NaN as fmaxf does; `std::max(a, b)`
  /// is `a < b ? b : a`, which keeps a NaN `a`, and is not matched.
  const Expr *relu(const Expr *E) const {
    if (auto *C = dyn_cast<CallExpr>(E);
        C && C->getNumArgs() == 2 && C->getDirectCallee() &&
        C->getDirectCallee()->getIdentifier() &&
        fromSystemHeader(C->getDirectCallee()) &&
        C->getDirectCallee()
            ->getDeclContext()
            ->getRedeclContext()
            ->isTranslationUnit())
      if (llvm::is_contained({"fmaxf", "fmax", "max"},
                             C->getDirectCallee()->getName()))
        for (int I : {0, 1})
          if (isZero(unconverted(C->getArg(1 - I), QualType(), true)))
            return C->getArg(I);
    auto *Q = dyn_cast<ConditionalOperator>(E);
    const BinaryOperator *Gt = Q ? op(Q->getCond(), BO_GT) : nullptr;
    if (Gt && isZero(unconverted(Gt->getRHS(), QualType(), true)) &&
        isZero(unconverted(Q->getFalseExpr(), QualType(), true)) &&
        same(Gt->getLHS(), Q->getTrueExpr()))
      return Q->getTrueExpr();
    return nullptr;
  }

  static bool isFloat(const Expr *E) {
    return E->getType().getCanonicalType()->isSpecificBuiltinType(
        BuiltinType::Float);
  }

  /// The slope s of `s * x` or `x * s`, a product in float; null otherwise.
  const Expr *slopeOf(const Expr *Product, const Expr *X) const {
    const BinaryOperator *M = op(Product, BO_Mul);
    if (!M || !isFloat(M))
      return nullptr;
    if (same(M->getRHS(), X))
      return M->getLHS();
    return same(M->getLHS(), X) ? M->getRHS() : nullptr;
  }

  /// LeakyReLU (ActivationForm.h's forms): x, its slope into `Slope`.
  /// tile.h computes `x > 0 ? x : s * x`; `x <= 0 ? s * x : x` is the same
  /// choice. `x >= 0 ? x : s * x` and `x < 0 ? s * x : x` differ from it at
  /// x = +0 where s < 0 (+0 against s * +0 = -0); fmaxf(x, s * x) picks s *
  /// x for every x < 0 only where s <= 1, and x for x > 0 only where s >=
  /// 0.
  const Expr *leaky(const Expr *E, const Expr *&Slope) const {
    if (!isFloat(E))
      return nullptr;
    if (auto *C = dyn_cast<CallExpr>(E);
        C && C->getNumArgs() == 2 && systemCall(E, {"fmaxf", "fmax"}, 2))
      for (int I : {0, 1}) {
        const Expr *X = C->getArg(I), *S = slopeOf(C->getArg(1 - I), X);
        std::optional<double> V = S ? constant(S) : std::nullopt;
        if (V && *V >= 0 && *V <= 1 && isFloat(plain(X)))
          return Slope = S, X;
      }
    auto *Q = dyn_cast<ConditionalOperator>(E);
    auto *Cmp = Q ? dyn_cast<BinaryOperator>(plain(Q->getCond())) : nullptr;
    if (!Cmp || !Cmp->isComparisonOp())
      return nullptr;
    // `x op 0`, or `0 op x` read as `x op' 0`.
    const Expr *X = Cmp->getLHS();
    BinaryOperatorKind K = Cmp->getOpcode();
    if (isZero(unconverted(Cmp->getLHS(), QualType(), true))) {
      X = Cmp->getRHS();
      K = BinaryOperator::reverseComparisonOp(K);
    } else if (!isZero(unconverted(Cmp->getRHS(), QualType(), true))) {
      return nullptr;
    }
    if (!isFloat(plain(X)))
      return nullptr;
    // Where the test holds, x (for > and >=) or s * x (for < and <=).
    const bool KeepsWhereTrue = K == BO_GT || K == BO_GE;
    if (!KeepsWhereTrue && K != BO_LT && K != BO_LE)
      return nullptr;
    const Expr *Kept = KeepsWhereTrue ? Q->getTrueExpr() : Q->getFalseExpr();
    const Expr *Scaled = KeepsWhereTrue ? Q->getFalseExpr() : Q->getTrueExpr();
    const Expr *S = same(Kept, X) ? slopeOf(Scaled, X) : nullptr;
    if (!S)
      return nullptr;
    if (K == BO_GE || K == BO_LT) {
      std::optional<double> V = constant(S);
      if (!V || *V < 0)
        return nullptr;
    }
    return Slope = S, X;
  }

  /// `1 + e^(-x)` (either order): x, or null.
  const Expr *onePlusExpOfMinus(const Expr *E) const {
    const BinaryOperator *Add = op(E, BO_Add);
    if (!Add)
      return nullptr;
    for (auto [One, Exp] : {std::pair(Add->getLHS(), Add->getRHS()),
                            std::pair(Add->getRHS(), Add->getLHS())}) {
      const Expr *Arg =
          is(One, 1.0) ? argOf(Exp, {"expf", "__expf", "exp"}) : nullptr;
      auto *Neg = Arg ? dyn_cast<UnaryOperator>(plain(Arg)) : nullptr;
      if (Neg && Neg->getOpcode() == UO_Minus)
        return Neg->getSubExpr();
    }
    return nullptr;
  }

  /// `x / (1 + e^-x)` or `x * (1 / (1 + e^-x))` (either order).
  const Expr *silu(const Expr *E) const {
    if (const BinaryOperator *Div = op(E, BO_Div)) {
      const Expr *X = onePlusExpOfMinus(Div->getRHS());
      return X && same(X, Div->getLHS()) ? Div->getLHS() : nullptr;
    }
    const BinaryOperator *Mul = op(E, BO_Mul);
    if (!Mul)
      return nullptr;
    for (auto [X, S] : {std::pair(Mul->getLHS(), Mul->getRHS()),
                        std::pair(Mul->getRHS(), Mul->getLHS())}) {
      const BinaryOperator *Div = op(S, BO_Div);
      const Expr *Y = Div && is(Div->getLHS(), 1.0)
                          ? onePlusExpOfMinus(Div->getRHS())
                          : nullptr;
      if (Y && same(X, Y))
        return X;
    }
    return nullptr;
  }

  /// `1 / (1 + e^-x)`.
  const Expr *sigmoid(const Expr *E) const {
    const BinaryOperator *Div = op(E, BO_Div);
    return Div && is(Div->getLHS(), 1.0) ? onePlusExpOfMinus(Div->getRHS())
                                         : nullptr;
  }

  /// The factors of a product, left to right; a parenthesized product
  /// (`0.5f * (a * b) * ...`) is one factor.
  void factors(const Expr *E, std::vector<const Expr *> &Out) const {
    const BinaryOperator *M =
        isa<ParenExpr>(E->IgnoreImpCasts()) ? nullptr : op(E, BO_Mul);
    if (M) {
      factors(M->getLHS(), Out);
      factors(M->getRHS(), Out);
      return;
    }
    Out.push_back(plain(E));
  }

  /// `0.5 * x * (1 + erf(x / sqrt(2)))` or `0.5 * x * (1 + tanh(sqrt(2 /
  /// pi) * (x + 0.044715 * x^3)))`, the three factors in any order.
  const Expr *gelu(const Expr *E, bool &Tanh) const {
    std::vector<const Expr *> F;
    factors(E, F);
    if (F.size() != 3)
      return nullptr;
    for (int H = 0; H < 3; ++H)
      for (int P = 0; P < 3; ++P) {
        const int X = 3 - H - P;
        if (H == P || !is(F[H], 0.5))
          continue;
        const BinaryOperator *Add = op(F[P], BO_Add);
        if (!Add)
          continue;
        for (auto [One, Fn] : {std::pair(Add->getLHS(), Add->getRHS()),
                               std::pair(Add->getRHS(), Add->getLHS())}) {
          if (!is(One, 1.0))
            continue;
          if (const Expr *A = argOf(Fn, {"erff", "erf"}); A && erfArg(A, F[X]))
            return Tanh = false, F[X];
          if (const Expr *A = argOf(Fn, {"tanhf", "tanh"});
              A && tanhArg(A, F[X]))
            return Tanh = true, F[X];
        }
      }
    return nullptr;
  }

  /// `x * (1 / sqrt(2))` (either order) or `x / sqrt(2)`.
  bool erfArg(const Expr *A, const Expr *X) const {
    if (const BinaryOperator *D = op(A, BO_Div))
      return is(D->getRHS(), std::sqrt(2.0)) && same(D->getLHS(), X);
    const BinaryOperator *M = op(A, BO_Mul);
    return M && ((is(M->getRHS(), std::sqrt(0.5)) && same(M->getLHS(), X)) ||
                 (is(M->getLHS(), std::sqrt(0.5)) && same(M->getRHS(), X)));
  }

  /// `sqrt(2 / pi) * (x + 0.044715 * x^3)` (either order; the sum either
  /// order; the cube `x * x * x` with the constant among its factors, or
  /// `powf(x, 3)`).
  bool tanhArg(const Expr *A, const Expr *X) const {
    const double Pi = 3.14159265358979323846;
    const BinaryOperator *M = op(A, BO_Mul);
    if (!M)
      return false;
    for (auto [C, S] : {std::pair(M->getLHS(), M->getRHS()),
                        std::pair(M->getRHS(), M->getLHS())}) {
      const BinaryOperator *Add =
          is(C, std::sqrt(2.0 / Pi)) ? op(S, BO_Add) : nullptr;
      if (!Add)
        continue;
      for (auto [Y, Cube] : {std::pair(Add->getLHS(), Add->getRHS()),
                             std::pair(Add->getRHS(), Add->getLHS())})
        if (same(Y, X) && cube(Cube, X))
          return true;
    }
    return false;
  }
  /// `0.044715 * x * x * x` in any order, or `0.044715 * powf(x, 3)`.
  bool cube(const Expr *E, const Expr *X) const {
    std::vector<const Expr *> F;
    factors(E, F);
    int Consts = 0, Xs = 0;
    for (const Expr *Y : F) {
      const CallExpr *Pow = systemCall(Y, {"powf", "pow"}, 2);
      if (is(Y, 0.044715))
        ++Consts;
      else if (same(Y, X))
        ++Xs;
      else if (Pow && same(Pow->getArg(0), X) && is(Pow->getArg(1), 3.0))
        Xs += 3;
      else
        return false;
    }
    return Consts == 1 && Xs == 3;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const VarDecl *, const Expr *> Locals;
};

/// The expression returned by a __device__ function of the kernel's own
/// with one float parameter and a body of float locals and one `return`,
/// or null; the locals and their initializers into `Locals`. A local must
/// be a float with an initializer without side effects, never changed
/// (llm.c's `float cube = 0.044715f * x * x * x;`).
const Expr *returnedBy(const FunctionDecl *F, ASTContext &Ctx,
                       llvm::DenseMap<const VarDecl *, const Expr *> &Locals) {
  if (!F || fromSystemHeader(F) || F->getNumParams() != 1 || !F->hasBody() ||
      !F->getParamDecl(0)->getType()->isSpecificBuiltinType(BuiltinType::Float))
    return nullptr;
  auto *Body = dyn_cast<CompoundStmt>(F->getBody());
  if (!Body || Body->body_empty() || isModified(F->getParamDecl(0), Body))
    return nullptr;
  for (const Stmt *S : llvm::drop_end(Body->body())) {
    auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return nullptr;
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->hasInit() || VD->isStaticLocal() ||
          !VD->getType()
               .getCanonicalType()
               .getUnqualifiedType()
               ->isSpecificBuiltinType(BuiltinType::Float) ||
          mayWrite(VD->getInit(), Ctx) || isModified(VD, Body))
        return nullptr;
      Locals[VD] = VD->getInit();
    }
  }
  auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  return Ret ? Ret->getRetValue() : nullptr;
}

} // namespace

std::optional<ActivationMatch> activationOf(const Expr *E, ASTContext &Ctx) {
  FormReader Reader(Ctx);
  // `act(v)`, act a function of the kernel's own whose return is one of
  // the forms over its parameter.
  auto *C = dyn_cast<CallExpr>(unconverted(E, QualType()));
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  llvm::DenseMap<const VarDecl *, const Expr *> Locals;
  if (const Expr *R = returnedBy(F, Ctx, Locals); R && C->getNumArgs() == 1) {
    std::optional<ActivationMatch> M = FormReader(Ctx, Locals).read(R);
    auto *P =
        M ? dyn_cast<DeclRefExpr>(unconverted(M->Arg, QualType())) : nullptr;
    if (!P || P->getDecl() != F->getParamDecl(0))
      return std::nullopt;
    // A slope in a helper is read in the kernel's scope: a constant only.
    if (M->Slope && !floatConstant(M->Slope, Ctx))
      return std::nullopt;
    return ActivationMatch{M->Kind, C->getArg(0), M->Slope};
  }
  return Reader.read(E);
}

const char *activationFunction(Activation A) {
  switch (A) {
  case Activation::None:
    return "";
  case Activation::Relu:
    return "tawa::relu";
  case Activation::Gelu:
    return "tawa::gelu";
  case Activation::GeluTanh:
    return "tawa::gelu_tanh";
  case Activation::Silu:
    return "tawa::silu";
  case Activation::LeakyRelu:
    return "tawa::leaky_relu";
  case Activation::Tanh:
    return "tawa::tanh";
  case Activation::Sigmoid:
    return "tawa::sigmoid";
  }
  return "";
}

std::optional<float> floatConstant(const Expr *E, const ASTContext &Ctx) {
  llvm::APFloat V(0.0f);
  if (!E || E->isValueDependent() || E->HasSideEffects(Ctx) ||
      !E->getType()->isRealFloatingType() || !E->EvaluateAsFloat(V, Ctx))
    return std::nullopt;
  bool Lost = false;
  V.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &Lost);
  if (!V.isFinite())
    return std::nullopt;
  return V.convertToFloat();
}

std::string floatLiteral(float F) {
  char Buf[48];
  for (int Digits = 1; Digits <= 9; ++Digits) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, double(F));
    if (std::strtof(Buf, nullptr) == F)
      break;
  }
  std::string Out = Buf;
  if (Out.find_first_of(".en") == std::string::npos)
    Out += ".0";
  return Out + "f";
}

} // namespace tawa
