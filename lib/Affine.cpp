//===- Affine.cpp - index arithmetic as integer polynomials ---------------===//
#include "tawa/Affine.h"
#include "tawa/TileProgram.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <cstdint>

using namespace clang;

namespace tawa {

namespace {

/// What `E`, an expression the evaluator has no rule for, is, in words for
/// a diagnostic ("it uses <this>").
std::string unprovable(const clang::Expr *E) {
  using namespace clang;
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return "a value read from memory (an array element)";
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    return "a value read from memory (a dereferenced pointer)";
  if (auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    return F ? "a call of '" + F->getNameAsString() + "'" : "a call";
  }
  if (isa<ConditionalOperator>(E))
    return "a conditional expression";
  if (isa<FloatingLiteral>(E))
    return "a floating-point value";
  if (auto *M = dyn_cast<MemberExpr>(E))
    return "the member '" + M->getMemberDecl()->getNameAsString() + "'";
  if (isa<UnaryOperator>(E))
    return "the operator '" +
           UnaryOperator::getOpcodeStr(cast<UnaryOperator>(E)->getOpcode())
               .str() +
           "'";
  return "an expression of a kind index arithmetic does not use";
}

} // namespace

namespace {
const char ThreadIdx[3] = {}, BlockIdx[3] = {}, BlockDim[3] = {}, Warp[3] = {};
int dimIndex(char D) { return D == 'x' ? 0 : D == 'y' ? 1 : 2; }
} // namespace

Symbol threadIdxSymbol(char Dim) { return &ThreadIdx[dimIndex(Dim)]; }
Symbol blockIdxSymbol(char Dim) { return &BlockIdx[dimIndex(Dim)]; }
Symbol blockDimSymbol(char Dim) { return &BlockDim[dimIndex(Dim)]; }
Symbol warpXSymbol() { return &Warp[0]; }
Symbol laneSymbol() { return &Warp[1]; }
Symbol warpsXSymbol() { return &Warp[2]; }

std::optional<Poly> Poly::dividedExactly(int64_t D) const {
  Poly R;
  for (const auto &[M, C] : Terms) {
    if (D == 0 || C % D != 0)
      return std::nullopt;
    R.Terms[M] = C / D;
  }
  return R;
}

Poly Poly::constant(int64_t C) {
  Poly P;
  if (C)
    P.Terms[{}] = C;
  return P;
}

Poly Poly::symbol(Symbol S) {
  Poly P;
  P.Terms[{S}] = 1;
  return P;
}

Poly Poly::operator+(const Poly &O) const {
  Poly R = *this;
  for (const auto &[M, C] : O.Terms)
    if ((R.Terms[M] += C) == 0)
      R.Terms.erase(M);
  return R;
}

Poly Poly::operator-(const Poly &O) const { return *this + O * constant(-1); }

Poly Poly::operator*(const Poly &O) const {
  Poly R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      if ((R.Terms[M] += CA * CB) == 0)
        R.Terms.erase(M);
    }
  return R;
}

/// A * B where no coefficient of it (nor any partial sum) leaves int64_t;
/// nullopt where one would (the divisor a * D of merged quotients).
static std::optional<Poly> checkedProduct(const Poly &A, const Poly &B) {
  std::map<Poly::Monomial, __int128> Sums;
  for (const auto &[MA, CA] : A.terms())
    for (const auto &[MB, CB] : B.terms()) {
      Poly::Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      __int128 &S = Sums[M];
      S += __int128(CA) * CB;
      if (S > INT64_MAX || S < INT64_MIN)
        return std::nullopt;
    }
  return A * B;
}

std::optional<int64_t> Poly::constantValue() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

bool Poly::dependsOn(Symbol S) const {
  for (const auto &T : Terms)
    if (std::find(T.first.begin(), T.first.end(), S) != T.first.end())
      return true;
  return false;
}

std::optional<std::pair<Poly, Poly>> Poly::linearIn(Symbol S) const {
  Poly Rest, Coefficient;
  for (const auto &[M, C] : Terms) {
    const auto N = std::count(M.begin(), M.end(), S);
    if (N > 1)
      return std::nullopt;
    Poly &To = N ? Coefficient : Rest;
    Monomial Without;
    for (Symbol X : M)
      if (X != S)
        Without.push_back(X);
    To.Terms[Without] = C;
  }
  return std::pair(Rest, Coefficient);
}

Poly Poly::substitute(Symbol S, const Poly &By) const {
  Poly R;
  for (const auto &[M, C] : Terms) {
    Poly Term = constant(C);
    for (Symbol X : M)
      Term = Term * (X == S ? By : symbol(X));
    R = R + Term;
  }
  return R;
}

bool Poly::nonNegativeCoefficients() const {
  for (const auto &T : Terms)
    if (T.second < 0)
      return false;
  return true;
}

/// threadIdx.<d> or blockIdx.<d>, as a symbol.
static std::optional<Symbol> builtinCoordinate(const Expr *E) {
  const Expr *Base = nullptr;
  StringRef Member;
  if (auto *MP = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = MP->getBaseExpr();
    Member = MP->getPropertyDecl()->getName();
  } else if (auto *ME = dyn_cast<MemberExpr>(E)) {
    Base = ME->getBase();
    Member = ME->getMemberDecl()->getName();
  }
  auto *R = Base ? dyn_cast<DeclRefExpr>(ignoreOpaque(Base)) : nullptr;
  if (!R || Member.size() != 1 || Member[0] < 'x' || Member[0] > 'z')
    return std::nullopt;
  StringRef Name = R->getDecl()->getName();
  if (Name == "threadIdx")
    return threadIdxSymbol(Member[0]);
  if (Name == "blockIdx")
    return blockIdxSymbol(Member[0]);
  if (Name == "blockDim")
    return blockDimSymbol(Member[0]);
  return std::nullopt;
}

/// Whether `S` is a CUDA built-in coordinate or a warp coordinate.
static bool builtinSymbol(Symbol S) {
  for (char D : {'x', 'y', 'z'})
    if (S == threadIdxSymbol(D) || S == blockIdxSymbol(D) ||
        S == blockDimSymbol(D))
      return true;
  return S == warpXSymbol() || S == laneSymbol() || S == warpsXSymbol();
}

bool IndexEvaluator::neverNegative(const Poly &P) const {
  if (!P.nonNegativeCoefficients())
    return false;
  for (const auto &Term : P.terms())
    for (Symbol S : Term.first) {
      const DivModAtom *A = atom(S);
      if (!builtinSymbol(S) && !llvm::is_contained(LoopSymbols, S) &&
          (!A || A->Fixed))
        return false;
    }
  return true;
}

const DivModAtom *IndexEvaluator::atom(Symbol S) const {
  for (const DivModAtom &A : Atoms)
    if (&A == S)
      return &A;
  return nullptr;
}

bool IndexEvaluator::isDivisor(const Poly &D) const {
  if (D == Poly())
    return false;
  if (D.terms().size() == 1 && D.terms().begin()->second <= 0)
    return false;
  for (const auto &[M, C] : D.terms())
    for (Symbol S : M)
      if (atom(S) || llvm::is_contained(LoopSymbols, S) ||
          neverNegative(Poly::symbol(S)))
        return false; // a coordinate, a loop variable or an atom
  return true;
}

std::optional<Poly> IndexEvaluator::intern(const Poly &X, const Poly &D,
                                           bool Mod) const {
  for (const DivModAtom &A : Atoms)
    if (!A.Fixed && A.Mod == Mod && A.X == X && A.D == D)
      return Poly::symbol(&A);
  Atoms.push_back(DivModAtom{Mod, X, D});
  return Poly::symbol(&Atoms.back());
}

/// The quotient of the monomial term (M, C) by the divisor (DM, DC), where
/// it divides it.
static std::optional<Poly> termQuotient(const Poly::Monomial &M, int64_t C,
                                        const Poly::Monomial &DM, int64_t DC) {
  if (C % DC != 0)
    return std::nullopt;
  Poly::Monomial Rest = M;
  for (Symbol S : DM) {
    auto It = std::find(Rest.begin(), Rest.end(), S);
    if (It == Rest.end())
      return std::nullopt;
    Rest.erase(It);
  }
  Poly Q = Poly::constant(C / DC);
  for (Symbol S : Rest)
    Q = Q * Poly::symbol(S);
  return Q;
}

std::optional<Poly> IndexEvaluator::divide(const Poly &X, const Poly &D,
                                           bool Mod) const {
  if (!isDivisor(D))
    return std::nullopt;
  // A quotient of values fixed in a launch (parameters and constants only,
  // the symbols a divisor may name), C's own.
  bool Fixed = true;
  for (const auto &[M, C] : X.terms())
    for (Symbol S : M)
      Fixed = Fixed && !atom(S) && !llvm::is_contained(LoopSymbols, S) &&
              !neverNegative(Poly::symbol(S));
  if (Fixed) {
    if (std::optional<int64_t> V = X.constantValue();
        V && D.constantValue() && *D.constantValue() > 0)
      return Poly::constant(Mod ? *V % *D.constantValue()
                                : *V / *D.constantValue());
    for (const DivModAtom &A : Atoms)
      if (A.Fixed && A.Mod == Mod && A.X == X && A.D == D)
        return Poly::symbol(&A);
    Atoms.push_back(DivModAtom{Mod, X, D, /*Fixed=*/true});
    return Poly::symbol(&Atoms.back());
  }
  if (!neverNegative(X))
    return std::nullopt;
  if (D.terms().size() > 1) {
    // A divisor of several terms (`(H - 2) * (W - 2)`): (x / a) / D is
    // x / (a D); otherwise an atom of its own.
    if (!Mod && X.terms().size() == 1 && X.terms().begin()->second == 1 &&
        X.terms().begin()->first.size() == 1)
      if (const DivModAtom *A = atom(X.terms().begin()->first.front());
          A && !A->Mod)
        if (std::optional<Poly> AD = checkedProduct(A->D, D))
          return divide(A->X, *AD, false);
    return intern(X, D, Mod);
  }
  const auto &[DM, DC] = *D.terms().begin();
  if (DM.empty() && DC == 1)
    return Mod ? Poly() : X;
  if (std::optional<int64_t> V = X.constantValue(); V && DM.empty())
    return Poly::constant(Mod ? *V % DC : *V / DC);
  if (X == Poly())
    return Poly();
  // X one atom: (x / a) / D = x / (a D); (x % (D e)) / D = (x / D) % e;
  // (x % (D e)) % D = x % D.
  if (X.terms().size() == 1 && X.terms().begin()->second == 1 &&
      X.terms().begin()->first.size() == 1)
    if (const DivModAtom *A = atom(X.terms().begin()->first.front())) {
      if (!A->Mod && !Mod) {
        if (std::optional<Poly> AD = checkedProduct(A->D, D))
          return divide(A->X, *AD, false);
        return intern(X, D, Mod);
      }
      if (A->Mod && A->D.terms().size() == 1) {
        const auto &[AM, AC] = *A->D.terms().begin();
        if (std::optional<Poly> E = termQuotient(AM, AC, DM, DC)) {
          if (Mod)
            return divide(A->X, D, true);
          if (std::optional<Poly> Q = divide(A->X, D, false))
            return divide(*Q, *E, true);
        }
      }
    }
  // The terms D divides leave the quotient.
  Poly Z, Y;
  for (const auto &[M, C] : X.terms()) {
    if (std::optional<Poly> Q = termQuotient(M, C, DM, DC)) {
      Z = Z + *Q;
      continue;
    }
    Poly Term = Poly::constant(C);
    for (Symbol S : M)
      Term = Term * Poly::symbol(S);
    Y = Y + Term;
  }
  if (Z != Poly() && neverNegative(Y)) {
    if (Mod)
      return divide(Y, D, true);
    std::optional<Poly> Q = divide(Y, D, false);
    return Q ? std::optional<Poly>(Z + *Q) : std::nullopt;
  }
  return intern(X, D, Mod);
}

Poly IndexEvaluator::recombined(const Poly &P) const {
  Poly Out = P;
  for (const DivModAtom &Q : Atoms) {
    std::optional<int64_t> D = Q.D.constantValue();
    if (Q.Mod || Q.Fixed || !D || *D <= 0)
      continue;
    for (const DivModAtom &R : Atoms) {
      if (!R.Mod || R.Fixed || R.X != Q.X || R.D != Q.D)
        continue;
      // Each term c * m * R whose m * Q term has coefficient c * D.
      for (bool Changed = true; Changed;) {
        Changed = false;
        for (const auto &[M, C] : Out.terms()) {
          auto It = llvm::find(M, Symbol(&R));
          if (It == M.end())
            continue;
          Poly Rest = Poly::constant(1);
          for (auto J = M.begin(); J != M.end(); ++J)
            if (J != It)
              Rest = Rest * Poly::symbol(*J);
          const Poly QTerm = Rest * Poly::symbol(&Q);
          auto Found = Out.terms().find(QTerm.terms().begin()->first);
          if (Found == Out.terms().end() || Found->second != C * *D)
            continue;
          const Poly Term = Poly::constant(C) * Rest;
          Out = Out - Term * Poly::symbol(&R) -
                Poly::constant(*D) * Term * Poly::symbol(&Q) + Term * Q.X;
          Changed = true;
          break;
        }
      }
    }
  }
  return Out;
}

std::optional<Poly> IndexEvaluator::quotient(const Poly &L,
                                             const Poly &R) const {
  const std::optional<int64_t> D =
      Warps ? std::optional<int64_t>(32) : FlatTile;
  if (!D || R.constantValue() != D)
    return std::nullopt;
  const Symbol Low = Warps ? laneSymbol() : threadIdxSymbol('x');
  auto Split = L.linearIn(Low);
  if (!Split || (Split->second != Poly::constant(1) && Split->second != Poly()))
    return std::nullopt;
  std::optional<Poly> Q = Split->first.dividedExactly(*D);
  if (!Q || !neverNegative(*Q))
    return std::nullopt;
  return Q;
}

/// The width in bits of an integer type (LP64).
static unsigned intWidth(QualType T) {
  // An enumeration is as wide as the integer type it is stored in.
  if (const auto *E = T.getCanonicalType()->getAs<EnumType>())
    if (const EnumDecl *D = E->getDecl()->getDefinition())
      T = D->getIntegerType();
  const auto *B =
      T.isNull() ? nullptr : T.getCanonicalType()->getAs<BuiltinType>();
  if (!B)
    return 64;
  switch (B->getKind()) {
  case BuiltinType::Bool:
    return 1;
  case BuiltinType::Char_S:
  case BuiltinType::Char_U:
  case BuiltinType::SChar:
  case BuiltinType::UChar:
    return 8;
  case BuiltinType::Short:
  case BuiltinType::UShort:
    return 16;
  case BuiltinType::Int:
  case BuiltinType::UInt:
    return 32;
  default:
    return 64;
  }
}

/// Whether `V` is a value of the integer type `T` (C's arithmetic on `T`
/// gives it without wrapping around).
static bool fits(int64_t V, QualType T) {
  if (!T->isIntegerType())
    return true;
  const unsigned W = intWidth(T);
  if (W >= 64)
    return !T->isUnsignedIntegerType() || V >= 0;
  if (T->isUnsignedIntegerType())
    return V >= 0 && V < (int64_t(1) << W);
  return V >= -(int64_t(1) << (W - 1)) && V < (int64_t(1) << (W - 1));
}

/// The value of an integer literal of its type.
static int64_t literalValue(const IntegerLiteral *L) {
  return L->getType()->isUnsignedIntegerType()
             ? int64_t(L->getValue().getZExtValue())
             : L->getValue().getSExtValue();
}

/// `L op R` for the operators that are no polynomial operations, where
/// their value is known: both operands constant (as C computes them on
/// values that fit, division truncating toward zero), or a left shift by a
/// constant, a multiplication by a power of two.
static std::optional<Poly> folded(BinaryOperatorKind Op, const Poly &L,
                                  const Poly &R) {
  std::optional<int64_t> X = L.constantValue(), Y = R.constantValue();
  if (Op == BO_Shl && Y && *Y >= 0 && *Y < 31)
    return L * Poly::constant(int64_t(1) << *Y);
  if (!X || !Y)
    return std::nullopt;
  switch (Op) {
  case BO_Div:
    return *Y && !(*Y == -1 && *X == INT64_MIN)
               ? std::optional(Poly::constant(*X / *Y))
               : std::nullopt;
  case BO_Rem:
    return *Y && !(*Y == -1 && *X == INT64_MIN)
               ? std::optional(Poly::constant(*X % *Y))
               : std::nullopt;
  case BO_Shr:
    return *X >= 0 && *Y >= 0 && *Y < 63
               ? std::optional(Poly::constant(*X >> *Y))
               : std::nullopt;
  case BO_And:
    return Poly::constant(*X & *Y);
  case BO_Or:
    return Poly::constant(*X | *Y);
  case BO_Xor:
    return Poly::constant(*X ^ *Y);
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> IndexEvaluator::constant(const Expr *E,
                                                bool *Wrapped) const {
  bool Wraps = false;
  std::optional<int64_t> V = constantOf(E, Wraps);
  if (Wrapped)
    *Wrapped = Wraps;
  if (V || Wraps)
    return V;
  std::optional<Poly> P = eval(E);
  return P ? P->constantValue() : std::nullopt;
}

std::optional<int64_t> IndexEvaluator::constantOf(const Expr *E,
                                                  bool &Wraps) const {
  const Expr *X = E ? E->IgnoreParenImpCasts() : nullptr;
  if (auto *PO = dyn_cast_or_null<PseudoObjectExpr>(X))
    X = PO->getSyntacticForm()->IgnoreParenImpCasts();
  std::optional<int64_t> V;
  if (X && NamedExprs.contains(X))
    return std::nullopt; // a symbol
  if (auto *L = dyn_cast_or_null<IntegerLiteral>(X)) {
    V = literalValue(L);
  } else if (auto *R = dyn_cast_or_null<DeclRefExpr>(X)) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    auto It =
        VD && !NamedDecls.contains(VD) ? Bindings.find(VD) : Bindings.end();
    if (It != Bindings.end())
      V = It->second.constantValue();
    if (auto *EC = dyn_cast<EnumConstantDecl>(R->getDecl());
        EC && !NamedDecls.contains(EC) &&
        EC->getInitVal().getSignificantBits() <= 64)
      V = EC->getInitVal().getExtValue();
  } else if (auto *C = dyn_cast_or_null<ExplicitCastExpr>(X)) {
    if (C->getType()->isIntegerType() &&
        C->getSubExpr()->getType()->isIntegerType())
      V = constantOf(C->getSubExpr(), Wraps);
  } else if (auto *U = dyn_cast_or_null<UnaryOperator>(X)) {
    std::optional<int64_t> S = constantOf(U->getSubExpr(), Wraps);
    if (S && U->getOpcode() == UO_Minus)
      V = -*S;
    else if (S && U->getOpcode() == UO_Plus)
      V = S;
  } else if (auto *B = dyn_cast_or_null<BinaryOperator>(X)) {
    std::optional<int64_t> L = constantOf(B->getLHS(), Wraps);
    std::optional<int64_t> R =
        L ? constantOf(B->getRHS(), Wraps) : std::nullopt;
    int64_t O = 0;
    if (L && R) {
      if (B->getOpcode() == BO_Add)
        V = __builtin_add_overflow(*L, *R, &O) ? (Wraps = true, std::nullopt)
                                               : std::optional(O);
      else if (B->getOpcode() == BO_Sub)
        V = __builtin_sub_overflow(*L, *R, &O) ? (Wraps = true, std::nullopt)
                                               : std::optional(O);
      else if (B->getOpcode() == BO_Mul)
        V = __builtin_mul_overflow(*L, *R, &O) ? (Wraps = true, std::nullopt)
                                               : std::optional(O);
      else if (std::optional<Poly> F = folded(
                   B->getOpcode(), Poly::constant(*L), Poly::constant(*R)))
        V = F->constantValue();
    }
  } else if (std::optional<Symbol> S =
                 X ? builtinCoordinate(X) : std::nullopt) {
    for (char D : {'x', 'y', 'z'}) {
      if (*S == threadIdxSymbol(D) && Thread[dimIndex(D)] && !Warps &&
          !FlatTile)
        V = *Thread[dimIndex(D)];
      if (*S == blockDimSymbol(D) && BlockDim[dimIndex(D)] && !Warps)
        V = *BlockDim[dimIndex(D)];
    }
  }
  // A value its type cannot hold is one that wrapped around in C: not the
  // value of the integer arithmetic followed here.
  if (V && (!fits(*V, X->getType()) || !fits(*V, E->getType()))) {
    Why = "a value its type cannot hold (C's arithmetic wraps around)";
    Wraps = true;
    return std::nullopt;
  }
  return Wraps ? std::nullopt : V;
}

std::optional<Poly> IndexEvaluator::unsignedOf(const Expr *E,
                                               QualType T) const {
  std::optional<Poly> P = eval(E);
  if (P && mayWrap(*P, T) && !wrapsToAddress(T)) {
    Why = "a conversion to an unsigned type of a value that may be negative";
    return std::nullopt;
  }
  return P;
}

bool IndexEvaluator::wrapsToAddress(QualType T) const {
  return InOffset && NonRing == 0 && T->isUnsignedIntegerType() &&
         intWidth(T) == 64;
}

std::optional<Poly> IndexEvaluator::offset(const Expr *E) const {
  const bool Was = InOffset;
  const int Depth = NonRing;
  InOffset = true;
  NonRing = 0;
  std::optional<Poly> P = eval(E);
  InOffset = Was;
  NonRing = Depth;
  return P;
}

bool IndexEvaluator::mayWrap(const Poly &P, QualType T) const {
  if (std::optional<int64_t> V = P.constantValue())
    return !fits(*V, T);
  return T->isUnsignedIntegerType() && !P.nonNegativeCoefficients();
}

std::optional<Poly> IndexEvaluator::eval(const Expr *E) const {
  std::optional<Poly> P = evalNode(E);
  std::optional<int64_t> V = P ? P->constantValue() : std::nullopt;
  const auto Holds = [&](QualType T) {
    return fits(*V, T) || wrapsToAddress(T);
  };
  if (V &&
      (!Holds(E->getType()) || !Holds(E->IgnoreParenImpCasts()->getType()))) {
    Why = "a value its type cannot hold (C's arithmetic wraps around)";
    return std::nullopt;
  }
  // Unsigned arithmetic wraps a negative result around to a large value.
  // An unsigned result is followed only where its polynomial's terms are
  // all nonnegative multiples of coordinates and sizes (taken as never
  // negative, as the kernel's extents): `cRow * BM * K` is, `threadIdx.x -
  // 32u`, which wraps for warp 0, and `M - 64u` are not.
  const Expr *X = E->IgnoreParenImpCasts();
  if (P && !V && (isa<BinaryOperator>(X) || isa<UnaryOperator>(X)) &&
      mayWrap(*P, X->getType()) && !wrapsToAddress(X->getType())) {
    Why = "unsigned arithmetic that may go below zero and wrap around";
    return std::nullopt;
  }
  return P;
}

std::optional<Poly> IndexEvaluator::evalNode(const Expr *E) const {
  if (!E)
    return std::nullopt;
  // An implicit conversion to a narrower integer type keeps a value only
  // where it fits, which only a constant shows.
  for (const Expr *X = E->IgnoreParens();
       auto *IC = dyn_cast<ImplicitCastExpr>(X);
       X = IC->getSubExpr()->IgnoreParens()) {
    // A conversion to an unsigned type of a value that may be negative
    // wraps it around.
    if (IC->getCastKind() == CK_IntegralCast &&
        IC->getType()->isUnsignedIntegerType() &&
        IC->getSubExpr()->getType()->isSignedIntegerType() &&
        intWidth(IC->getType()) >= intWidth(IC->getSubExpr()->getType()))
      return unsignedOf(IC->getSubExpr(), IC->getType());
    if (IC->getCastKind() == CK_IntegralCast &&
        intWidth(IC->getType()) < intWidth(IC->getSubExpr()->getType())) {
      std::optional<Poly> P = eval(IC->getSubExpr());
      std::optional<int64_t> V = P ? P->constantValue() : std::nullopt;
      if (V && fits(*V, IC->getType()))
        return P;
      if (P)
        Why = "a conversion to a narrower integer type";
      return std::nullopt;
    }
  }
  E = E->IgnoreParenImpCasts();
  if (auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  if (auto It = NamedExprs.find(E); It != NamedExprs.end())
    return Poly::symbol(It->second);
  if (auto *C = dyn_cast<ExplicitCastExpr>(E)) {
    // A cast to a type of 32 bits or more keeps an index's value (indices
    // are taken as exact, as the kernel's own arithmetic must be for it to
    // be correct); a narrower one could truncate it.
    const auto *BT = C->getType()->getAs<BuiltinType>();
    const bool Wide = BT && (BT->getKind() == BuiltinType::Int ||
                             BT->getKind() == BuiltinType::UInt ||
                             BT->getKind() == BuiltinType::Long ||
                             BT->getKind() == BuiltinType::ULong ||
                             BT->getKind() == BuiltinType::LongLong ||
                             BT->getKind() == BuiltinType::ULongLong);
    if (!Wide) {
      Why = "a cast to a type that is not an integer of 32 bits or more";
      return std::nullopt;
    }
    const QualType From = C->getSubExpr()->IgnoreImpCasts()->getType();
    std::optional<Poly> Sub =
        C->getType()->isUnsignedIntegerType() && From->isSignedIntegerType()
            ? unsignedOf(C->getSubExpr(), C->getType())
            : eval(C->getSubExpr());
    // A narrowing cast keeps a value only where it fits, which only a
    // constant shows.
    if (Sub && From->isIntegerType() &&
        intWidth(From) > intWidth(C->getType()) &&
        (!Sub->constantValue() || !fits(*Sub->constantValue(), C->getType()))) {
      Why = "a cast to a narrower integer type";
      return std::nullopt;
    }
    return Sub;
  }
  if (auto *L = dyn_cast<IntegerLiteral>(E))
    return Poly::constant(literalValue(L));
  if (std::optional<Symbol> S = builtinCoordinate(E)) {
    if (Warps && *S == threadIdxSymbol('x'))
      return Poly::constant(32) * Poly::symbol(warpXSymbol()) +
             Poly::symbol(laneSymbol());
    if (FlatTile && *S == threadIdxSymbol('x'))
      return Poly::constant(*FlatTile) * Poly::symbol(threadIdxSymbol('y')) +
             Poly::symbol(*S);
    if (FlatTile && (*S == threadIdxSymbol('y') || *S == threadIdxSymbol('z')))
      return Poly();
    for (char D : {'x', 'y', 'z'})
      if (*S == threadIdxSymbol(D) && Thread[dimIndex(D)])
        return Poly::constant(*Thread[dimIndex(D)]);
    for (char D : {'x', 'y', 'z'})
      if (*S == blockDimSymbol(D) && BlockDim[dimIndex(D)])
        return Poly::constant(*BlockDim[dimIndex(D)]);
    if (Warps && *S == blockDimSymbol('x'))
      return Poly::constant(32) * Poly::symbol(warpsXSymbol());
    return Poly::symbol(*S);
  }
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    if (NamedDecls.contains(R->getDecl()))
      return Poly::symbol(R->getDecl());
    // An enumerator is its value.
    if (auto *EC = dyn_cast<EnumConstantDecl>(R->getDecl());
        EC && EC->getInitVal().getSignificantBits() <= 64)
      return Poly::constant(EC->getInitVal().getExtValue());
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    if (VD) {
      auto It = Bindings.find(VD);
      if (It != Bindings.end())
        return It->second;
      if (isa<ParmVarDecl>(VD) && VD->getType()->isIntegerType())
        return Poly::symbol(VD);
      if (auto It = Opaque.find(VD); It != Opaque.end()) {
        Why = "'" + VD->getName().str() + "', whose value uses " + It->second;
        return std::nullopt;
      }
      if (VD->getType().isConstQualified() && VD->hasInit())
        return eval(VD->getInit());
    }
    Why = "'" + R->getNameInfo().getAsString() +
          "', which is neither an integer parameter nor a variable with a "
          "known value";
    return std::nullopt;
  }
  if (auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<Poly> X = eval(U->getSubExpr());
    if (X && U->getOpcode() == UO_Plus)
      return X;
    if (X && U->getOpcode() == UO_Minus)
      return Poly::constant(0) - *X;
    if (X)
      Why = "the operator '" +
            std::string(UnaryOperator::getOpcodeStr(U->getOpcode())) + "'";
    return std::nullopt;
  }
  if (auto *B = dyn_cast<BinaryOperator>(E)) {
    // Only +, - and * keep a value that wrapped modulo 2^64 the address
    // it was (offset()).
    const BinaryOperatorKind Op0 = B->getOpcode();
    const bool Ring = Op0 == BO_Add || Op0 == BO_Sub || Op0 == BO_Mul;
    NonRing += !Ring;
    std::optional<Poly> L = eval(B->getLHS());
    std::optional<Poly> R = L ? eval(B->getRHS()) : std::nullopt;
    NonRing -= !Ring;
    if (!L || !R)
      return std::nullopt;
    if (std::optional<Poly> F = folded(B->getOpcode(), *L, *R))
      return F;
    BinaryOperatorKind Op = B->getOpcode();
    // On values that are never negative, `x >> c` is x / 2^c and
    // `x & (2^c - 1)` is x % 2^c (warp and lane indices: `threadIdx.x >> 5`).
    if (std::optional<int64_t> C = R->constantValue(); C && neverNegative(*L)) {
      if (Op == BO_Shr && *C >= 0 && *C < 31) {
        Op = BO_Div;
        R = Poly::constant(int64_t(1) << *C);
      } else if (Op == BO_And && *C > 0 && *C < INT32_MAX &&
                 ((*C + 1) & *C) == 0) {
        Op = BO_Rem;
        R = Poly::constant(*C + 1);
      }
    }
    switch (Op) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      // Index arithmetic multiplies a few terms; a product of thousands is
      // no index (and would take long to build).
      if (L->terms().size() * R->terms().size() > 4096) {
        Why = "a polynomial of more than 4096 terms";
        return std::nullopt;
      }
      return *L * *R;
    case BO_Div:
    case BO_Rem:
      // A divisor that divides every coefficient divides every value, so
      // C's truncating division is exact: (BK * N) / 4 is 2 * N for BK 8.
      if (std::optional<int64_t> D = R->constantValue(); D && *D > 0) {
        if (std::optional<Poly> Q = L->dividedExactly(*D))
          return Op == BO_Div ? *Q : Poly();
        // A constant c > 0 added to a never-negative multiple of D: the
        // truncating division is (L - c) / D + c / D and the remainder c %
        // D (`(blockIdx.x * blockDim.x + threadIdx.x) / warpSize` of a
        // thread followed with blockDim.x 64 and threadIdx.x 37 is 2 *
        // blockIdx.x + 1).
        auto C0 = L->terms().find(Poly::Monomial{});
        const int64_t C = C0 == L->terms().end() ? 0 : C0->second;
        const Poly Rest = *L - Poly::constant(C);
        if (C > 0 && neverNegative(Rest))
          if (std::optional<Poly> Q = Rest.dividedExactly(*D))
            return Op == BO_Div ? *Q + Poly::constant(C / *D)
                                : Poly::constant(C % *D);
      }
      if (std::optional<Poly> Q = quotient(*L, *R))
        return Op == BO_Div ? *Q : *L - *R * *Q;
      if (DivMod)
        if (std::optional<Poly> Q = divide(*L, *R, Op == BO_Rem))
          return Q;
      [[fallthrough]];
    default:
      Why = "the operator '" + B->getOpcodeStr().str() + "'";
      return std::nullopt;
    }
  }
  Why = unprovable(E);
  return std::nullopt;
}

} // namespace tawa
