//===- LiftSupport.cpp - what the lifting front ends share ----------------===//
#include "LiftSupport.h"
#include "CudaPipeline.h"

#include "tawa/TileProgram.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>

#include <functional>
#include <map>
#include <mutex>
#include <set>

using namespace clang;

namespace tawa {

const Expr *bare(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreParenImpCasts();
    if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    if (auto *C = dyn_cast<CXXConstructExpr>(E);
        C && C->getNumArgs() == 1 &&
        C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    if (E == Prev)
      break;
  }
  return E;
}

/// E without the value conversions that keep its value: casts, converting
/// constructors, conversion operators and the round-to-nearest conversion
/// functions of cuda_bf16.h/cuda_fp16.h, each only where its result is
/// float or `Keep` (bf16 and fp16 widen to float exactly; float narrows to
/// `Keep`, the stored type, rounding to nearest even as tawa::store does,
/// and a chain of such conversions rounds once). A conversion to any other
/// type (an int cast, the other 16-bit type) stays. With `Any`, every
/// conversion goes (for literals, whose zero survives any of them).
bool fromSystemHeader(const Decl *D) {
  // A compiler builtin (clang declares __syncthreads itself) has no header.
  if (auto *F = dyn_cast<FunctionDecl>(D); F && F->getBuiltinID())
    return true;
  const SourceManager &SM = D->getASTContext().getSourceManager();
  return llvm::any_of(D->redecls(), [&](const Decl *R) {
    return R->getLocation().isInvalid() ||
           SM.isInSystemHeader(SM.getExpansionLoc(R->getLocation()));
  });
}

static const Expr *unconvertedIn(const Expr *E, QualType Keep, bool Any,
                                 bool Helpers);

/// Whether `F`, called with `Arg`, is a conversion helper of the kernel's
/// source (`float to_float(__half v) { return __half2float(v); }`): a free
/// function, not variadic, of one
/// parameter of a 16-bit or float type that the argument has already (no
/// conversion at the call), and a body of one `return` of that parameter
/// through the conversions unconverted drops (none of them a helper's).
static bool conversionHelper(const FunctionDecl *F, const Expr *Arg,
                             QualType Keep, bool Any) {
  // Member functions are left out: a virtual call runs an overrider, and
  // the arch checks of the kernel's helpers (deviceHelper) see free
  // functions only.
  const FunctionDecl *Def = F->getDefinition();
  if (!Def || isa<CXXMethodDecl>(Def) || Def->isVariadic())
    return false;
  auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  auto *Ret = Body && Body->size() == 1
                  ? dyn_cast<ReturnStmt>(Body->body_front())
                  : nullptr;
  if (!Ret || !Ret->getRetValue() || Def->getNumParams() != 1)
    return false;
  const ParmVarDecl *P = Def->getParamDecl(0);
  const QualType PT = P->getType()
                          .getNonReferenceType()
                          .getCanonicalType()
                          .getUnqualifiedType();
  const QualType AT = Arg->IgnoreParenImpCasts()
                          ->getType()
                          .getCanonicalType()
                          .getUnqualifiedType();
  if (PT != AT || !elementOf(PT))
    return false;
  auto *R = dyn_cast_or_null<DeclRefExpr>(
      unconvertedIn(Ret->getRetValue(), Keep, Any, /*Helpers=*/false));
  return R && R->getDecl() == P;
}

const Expr *unconverted(const Expr *E, QualType Keep, bool Any) {
  return unconvertedIn(E, Keep, Any, /*Helpers=*/true);
}

static const Expr *unconvertedIn(const Expr *E, QualType Keep, bool Any,
                                 bool Helpers) {
  auto keeps = [&](QualType T) {
    T = T.getCanonicalType().getUnqualifiedType();
    return Any || T->isSpecificBuiltinType(BuiltinType::Float) ||
           (!Keep.isNull() &&
            T == Keep.getCanonicalType().getUnqualifiedType());
  };
  while (E) {
    const Expr *Prev = E = bare(E);
    if (!keeps(E->getType()))
      break;
    if (auto *C = dyn_cast<ExplicitCastExpr>(E))
      E = C->getSubExpr();
    else if (auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && fromSystemHeader(C->getConstructor()))
      E = C->getArg(0);
    else if (auto *M = dyn_cast<CXXMemberCallExpr>(E);
             M && isa_and_nonnull<CXXConversionDecl>(M->getMethodDecl()) &&
             fromSystemHeader(M->getMethodDecl()))
      E = M->getImplicitObjectArgument();
    else if (auto *C = dyn_cast<CallExpr>(E);
             C && C->getNumArgs() == 1 && C->getDirectCallee() &&
             fromSystemHeader(C->getDirectCallee())) {
      StringRef N = C->getDirectCallee()->getName();
      if (N == "__bfloat162float" || N == "__half2float" ||
          N == "__float2bfloat16" || N == "__float2bfloat16_rn" ||
          N == "__float2half" || N == "__float2half_rn")
        E = C->getArg(0);
    } else if (auto *C = dyn_cast<CallExpr>(E);
               Helpers && C && C->getNumArgs() == 1 && C->getDirectCallee() &&
               conversionHelper(C->getDirectCallee(), C->getArg(0), Keep,
                                Any)) {
      E = C->getArg(0);
    }
    if (E == Prev)
      break;
  }
  return E;
}

std::optional<Fragment> fragmentOf(QualType T) {
  auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!S || S->getName() != "fragment" ||
      !StringRef(S->getQualifiedNameAsString()).contains("wmma::") ||
      S->getTemplateArgs().size() < 5)
    return std::nullopt;
  const TemplateArgumentList &Args = S->getTemplateArgs();
  auto typeName = [&](unsigned I) {
    const CXXRecordDecl *R = Args[I].getKind() == TemplateArgument::Type
                                 ? Args[I].getAsType()->getAsCXXRecordDecl()
                                 : nullptr;
    return R ? R->getName() : StringRef();
  };
  Fragment F;
  StringRef Use = typeName(0);
  F.Use = Use == "matrix_a"   ? Fragment::A
          : Use == "matrix_b" ? Fragment::B
                              : Fragment::Acc;
  if (F.Use == Fragment::Acc && Use != "accumulator")
    return std::nullopt;
  for (unsigned I : {1u, 2u, 3u})
    if (Args[I].getKind() != TemplateArgument::Integral)
      return std::nullopt;
  F.M = int(Args[1].getAsIntegral().getExtValue());
  F.N = int(Args[2].getAsIntegral().getExtValue());
  F.K = int(Args[3].getAsIntegral().getExtValue());
  if (Args[4].getKind() != TemplateArgument::Type)
    return std::nullopt;
  F.Elem = Args[4].getAsType();
  F.RowMajor = Args.size() < 6 || typeName(5) != "col_major";
  return F;
}

const CallExpr *wmmaCall(const Stmt *S, StringRef Name) {
  auto *E = dyn_cast_or_null<Expr>(S);
  auto *C = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || F->getName() != Name ||
      !StringRef(F->getQualifiedNameAsString()).contains("wmma::"))
    return nullptr;
  return C;
}

bool isZero(const Expr *E) {
  E = unconverted(E, QualType(), /*Any=*/true);
  if (auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue().isZero();
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return F->getValue().isZero();
  // `T()` or `T{}` zero-initializes a class whose default constructor is
  // trivial; a constructor of the class's own may store anything.
  if (auto *C = dyn_cast<CXXConstructExpr>(E))
    return C->getNumArgs() == 0 && C->requiresZeroInitialization() &&
           C->getConstructor()->isTrivial();
  if (auto *L = dyn_cast<InitListExpr>(E))
    return L->getNumInits() == 0;
  // `const T zero = 0;` read by name: a const local keeps its initializer.
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    return VD && VD->isLocalVarDecl() && VD->getType().isConstQualified() &&
           !VD->getType()->isReferenceType() && VD->hasInit() &&
           isZero(VD->getInit());
  }
  return isa<CXXScalarValueInitExpr>(E);
}

/// `L = R` of a built-in or class type; false for a null `S` (single() of a
/// block of several statements, say).
bool assignment(const Stmt *S, const Expr *&L, const Expr *&R) {
  if (!S)
    return false;
  if (auto *E = dyn_cast<Expr>(S))
    S = E->IgnoreImplicit()->IgnoreParens();
  if (auto *B = dyn_cast<BinaryOperator>(S); B && B->getOpcode() == BO_Assign) {
    L = B->getLHS();
    R = B->getRHS();
    return true;
  }
  if (auto *C = dyn_cast<CXXOperatorCallExpr>(S);
      C && C->getOperator() == OO_Equal && C->getNumArgs() == 2) {
    L = C->getArg(0);
    R = C->getArg(1);
    return true;
  }
  return false;
}

/// Whether `S` holds a `break` or `continue` outside the loops nested in it:
/// one that would leave a `do` around `S`.
static bool leavesEnclosingLoop(const Stmt *S) {
  if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return false;
  if (isa<BreakStmt, ContinueStmt>(S))
    return true;
  return llvm::any_of(S->children(), leavesEnclosingLoop);
}

const Stmt *onceBody(const Stmt *S) {
  auto *Do = dyn_cast_or_null<DoStmt>(S);
  if (!Do)
    return nullptr;
  const Expr *Cond = Do->getCond()->IgnoreParenImpCasts();
  auto *I = dyn_cast<IntegerLiteral>(Cond);
  auto *B = dyn_cast<CXXBoolLiteralExpr>(Cond);
  if (!(I && I->getValue().isZero()) && !(B && !B->getValue()))
    return nullptr;
  return leavesEnclosingLoop(Do->getBody()) ? nullptr : Do->getBody();
}

const Stmt *unwrapOnce(const Stmt *S) {
  while (const Stmt *Body = onceBody(S)) {
    auto *C = dyn_cast<CompoundStmt>(Body);
    if (C && C->size() != 1)
      break;
    S = C ? C->body_front() : Body;
  }
  return S;
}

/// The only statement of a block, or the statement itself.
const Stmt *single(const Stmt *S) {
  if (auto *C = dyn_cast_or_null<CompoundStmt>(S))
    S = C->size() == 1 ? C->body_front() : nullptr;
  S = S ? unwrapOnce(S) : nullptr;
  if (auto *E = dyn_cast_or_null<Expr>(S))
    S = E->IgnoreImplicit();
  return S;
}

bool returnsNothing(const Stmt *S) {
  auto *R = dyn_cast_or_null<ReturnStmt>(single(S));
  return R && !R->getRetValue();
}

std::optional<ElementType> elementOf(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return ElementType::F32;
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    if (RD->getName() == "__nv_bfloat16")
      return ElementType::BF16;
    if (RD->getName() == "__half")
      return ElementType::F16;
  }
  return std::nullopt;
}

/// Whether `VD` is written anywhere in `S` after its declaration.
bool inCooperativeGroups(const Decl *D) {
  if (!D || !fromSystemHeader(D))
    return false;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (auto *NS = dyn_cast<NamespaceDecl>(C);
        NS && NS->getName() == "cooperative_groups")
      return NS->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}

bool isThreadBlock(const CXXRecordDecl *RD) {
  return RD && RD->getIdentifier() && RD->getName() == "thread_block" &&
         inCooperativeGroups(RD);
}

bool isModified(const VarDecl *VD, const Stmt *S, const Stmt *Except) {
  return isModifiedOutside(
      VD, S, Except ? llvm::ArrayRef(Except) : llvm::ArrayRef<const Stmt *>());
}

bool isModifiedOutside(const VarDecl *VD, const Stmt *S,
                       llvm::ArrayRef<const Stmt *> Except) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *VD;
    llvm::ArrayRef<const Stmt *> Except;
    bool Found = false;
    bool TraverseStmt(Stmt *X) {
      return llvm::is_contained(Except, X) ||
             RecursiveASTVisitor<Finder>::TraverseStmt(X);
    }
    bool refers(const Expr *E) {
      auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return R && R->getDecl() == VD;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      Found |= B->isAssignmentOp() && refers(B->getLHS());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
               refers(U->getSubExpr());
      return !Found;
    }
    // A lambda called here changes what it captures by reference here.
    std::set<const FunctionDecl *> Seen;
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      if (const FunctionDecl *L = lambdaHelper(C); L && Seen.insert(L).second)
        TraverseStmt(L->getBody());
      return !Found;
    }
  } F;
  F.VD = VD;
  F.Except = Except;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

bool readsThreadIdx(const Stmt *S, char Dim) {
  struct Finder : RecursiveASTVisitor<Finder> {
    char Dim;
    bool Found = false;
    void check(const Expr *Base, StringRef Member) {
      auto *R = dyn_cast_or_null<DeclRefExpr>(ignoreOpaque(Base));
      Found |= R && R->getDecl()->getName() == "threadIdx" &&
               Member.size() == 1 && Member[0] == Dim;
    }
    bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
      check(E->getBaseExpr(), E->getPropertyDecl()->getName());
      return !Found;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      check(E->getBase(), E->getMemberDecl()->getName());
      return !Found;
    }
  } F;
  F.Dim = Dim;
  F.TraverseStmt(const_cast<Stmt *>(S));
  for (const FunctionDecl *H : deviceHelpers(S))
    if (!F.Found)
      F.TraverseStmt(H->getBody());
  return F.Found;
}

bool mentions(const Stmt *S, const VarDecl *VD) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *VD;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      Found |= R->getDecl() == VD;
      return !Found;
    }
    // A lambda called here names what it captures here.
    std::set<const FunctionDecl *> Seen;
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      if (const FunctionDecl *L = lambdaHelper(C); L && Seen.insert(L).second)
        TraverseStmt(L->getBody());
      return !Found;
    }
  } F;
  F.VD = VD;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

bool namesSharedMemory(const Stmt *S, const SourceManager &SM,
                       SourceLocation After) {
  std::set<const FunctionDecl *> Seen;
  std::function<bool(const Stmt *, bool)> Names = [&](const Stmt *X,
                                                      bool Counted) {
    if (!X)
      return false;
    const bool Here = Counted || After.isInvalid() ||
                      SM.isBeforeInTranslationUnit(After, X->getBeginLoc());
    if (auto *R = dyn_cast<DeclRefExpr>(X); R && Here) {
      if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
          VD && (VD->hasAttr<CUDASharedAttr>() ||
                 (!isa<ParmVarDecl>(VD) && (VD->getType()->isPointerType() ||
                                            VD->getType()->isReferenceType()))))
        return true;
      if (auto *F = dyn_cast<FunctionDecl>(R->getDecl());
          F && F->hasBody() && !fromSystemHeader(F) && Seen.insert(F).second &&
          Names(F->getBody(), true))
        return true;
    }
    return llvm::any_of(X->children(),
                        [&](const Stmt *C) { return Names(C, Counted); });
  };
  return Names(S, false);
}

bool refersTo(const Expr *E, const VarDecl *VD) {
  auto *R = dyn_cast<DeclRefExpr>(bare(E));
  return R && R->getDecl() == VD;
}

/// Whether `E` reads only the arithmetic parameters of `Kernel` and
/// literals, through arithmetic, casts, conditionals and calls of functions
/// of the system headers with arithmetic arguments (isUniformScale).
static bool uniformValue(const Expr *E, const FunctionDecl *Kernel) {
  E = E->IgnoreParens();
  if (E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID() ||
      !(E->getType()->isArithmeticType()))
    return false;
  if (isa<IntegerLiteral, FloatingLiteral>(E))
    return true;
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto *P = dyn_cast<ParmVarDecl>(R->getDecl());
    return P && llvm::is_contained(Kernel->parameters(), P);
  }
  if (auto *C = dyn_cast<CastExpr>(E))
    return uniformValue(C->getSubExpr(), Kernel);
  if (auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus) &&
           uniformValue(U->getSubExpr(), Kernel);
  if (auto *B = dyn_cast<BinaryOperator>(E))
    return (B->isMultiplicativeOp() || B->isAdditiveOp() ||
            B->isComparisonOp()) &&
           uniformValue(B->getLHS(), Kernel) &&
           uniformValue(B->getRHS(), Kernel);
  if (auto *C = dyn_cast<ConditionalOperator>(E))
    return uniformValue(C->getCond(), Kernel) &&
           uniformValue(C->getTrueExpr(), Kernel) &&
           uniformValue(C->getFalseExpr(), Kernel);
  if (auto *C = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = C->getDirectCallee();
    return F && fromSystemHeader(F) &&
           llvm::all_of(C->arguments(),
                        [&](const Expr *A) { return uniformValue(A, Kernel); });
  }
  return false;
}

bool isUniformScale(const VarDecl *VD, const FunctionDecl *Kernel) {
  return VD && !isa<ParmVarDecl>(VD) &&
         VD->getType().getCanonicalType()->isSpecificBuiltinType(
             BuiltinType::Float) &&
         VD->hasInit() && !isModified(VD, Kernel->getBody()) &&
         uniformValue(VD->getInit(), Kernel);
}

LifterBase::LifterBase(const FunctionDecl *Kernel, const ForStmt *Loop,
                       ASTContext &Ctx, LiftFailure &Why,
                       const NamedExtents *Named)
    : Kernel(Kernel), Loop(Loop), Ctx(Ctx), Why(Why) {
  // A parameter of another integer type than int is named converted, as
  // tawa::Matrix's extents are int; the launcher runs the tiled form only
  // where its value fits (Migrate.cpp, narrowedRanges).
  for (const ParmVarDecl *P : Kernel->parameters())
    if (P->getType()->isIntegerType()) {
      const std::string Name = P->getName().str();
      const bool Int = Ctx.hasSameUnqualifiedType(P->getType(), Ctx.IntTy);
      Extents.push_back(
          {P, Int ? Name : "int(" + Name + ")", Name, P->getLocation(), {}, P});
    }
  if (!Named)
    return;
  const size_t Params = Extents.size();
  for (const auto &[E, X] : Named->Exprs) {
    Ev.NamedExprs.try_emplace(E, X.Sym);
    if (!extentOfSymbol(X.Sym))
      Extents.push_back(X);
  }
  for (const auto &[D, X] : Named->Decls) {
    Ev.NamedDecls.insert(D);
    Extents.push_back(X);
  }
  // In the order of their names: what is tried first does not depend on
  // where the declarations were allocated.
  std::sort(Extents.begin() + long(Params), Extents.end(),
            [](const Extent &A, const Extent &B) { return A.Name < B.Name; });
}

const Extent *LifterBase::extentOfSymbol(Symbol S) const {
  for (const Extent &X : Extents)
    if (X.Sym == S)
      return &X;
  return nullptr;
}

// The products of boundOf: one symbol per product's text, shared by every
// lifter.
static std::mutex ProductLock;
static std::set<std::string> Products;

std::optional<Extent> LifterBase::boundOf(const Expr *E) const {
  if (std::optional<Extent> X = extentOf(E))
    return X;
  std::optional<Poly> P = Ev.eval(E);
  const auto &Terms = P ? P->terms() : std::map<Poly::Monomial, int64_t>();
  if (Terms.size() != 1 || Terms.begin()->first.size() < 2 ||
      Terms.begin()->second != 1)
    return std::nullopt;
  std::vector<const Extent *> Factors;
  for (Symbol S : Terms.begin()->first) {
    const Extent *X = extentOfSymbol(S);
    if (!X || !X->Param ||
        !Ctx.hasSameUnqualifiedType(X->Param->getType(), Ctx.IntTy))
      return std::nullopt;
    Factors.push_back(X);
  }
  // In the order of the kernel's parameters, so the text is the same on
  // every run.
  llvm::sort(Factors, [](const Extent *A, const Extent *B) {
    return A->Param->getFunctionScopeIndex() <
           B->Param->getFunctionScopeIndex();
  });
  std::vector<std::string> Names;
  for (const Extent *X : Factors)
    Names.push_back(X->Name);
  // The launcher writes the product as the kernel computes it, in int;
  // its symbol is one per product, shared by every lifter.
  return namedExtent(llvm::join(Names, " * "), *P, Factors.front()->Loc);
}

Extent LifterBase::namedExtent(const std::string &Name, const Poly &P,
                               SourceLocation Loc) const {
  Extent X;
  X.Name = X.Spelled = Name;
  {
    std::lock_guard<std::mutex> Hold(ProductLock);
    X.Sym = &*Products.insert(X.Name).first;
  }
  ProductFactors[X.Sym] = P;
  X.Loc = Loc;
  return X;
}

Poly LifterBase::extentPoly(const Extent &X) const {
  auto It = ProductFactors.find(X.Sym);
  return It != ProductFactors.end() ? It->second : Poly::symbol(X.Sym);
}

std::optional<Extent> LifterBase::extentOf(const Expr *E) const {
  std::optional<Poly> P = Ev.eval(E);
  const auto &Terms = P ? P->terms() : std::map<Poly::Monomial, int64_t>();
  if (Terms.size() != 1 || Terms.begin()->first.size() != 1 ||
      Terms.begin()->second != 1)
    return std::nullopt;
  if (const Extent *X = extentOfSymbol(Terms.begin()->first.front()))
    return *X;
  return std::nullopt;
}

bool LifterBase::intExtents(const LiftedGemm &G) {
  for (const Extent *X : {&G.M, &G.N, &G.K, &G.A.Ld, &G.B.Ld, &G.Ldc}) {
    if (!*X)
      continue;
    const QualType T = X->Param ? X->Param->getType() : QualType();
    if (X->Param &&
        (T->isBooleanType() || T->isCharType() || Ctx.getIntWidth(T) < 32))
      return fail(X->Loc, "the extents and leading dimensions must be "
                          "integer parameters of 32 bits or more, converted "
                          "to tawa::Matrix's int where they fit; '" +
                              X->Spelled + "' is '" + T.getAsString() + "'");
    if (X->Value && (*X->Value < 1 || *X->Value > INT32_MAX))
      return fail(X->Loc, "the extents and leading dimensions must be "
                          "positive 'int' values, as tawa::Matrix's are; '" +
                              X->Spelled + "' is " + std::to_string(*X->Value));
  }
  return true;
}

int64_t LifterBase::lanes(const Expr *E, const ParmVarDecl *P) const {
  const QualType T = E->getType()->getPointeeType();
  const QualType M = P->getType()->getPointeeType();
  if (T.isNull() || M.isNull() || T->isIncompleteType() ||
      T->isDependentType() || M->isIncompleteType())
    return 0;
  const int64_t Bytes = Ctx.getTypeSizeInChars(T).getQuantity();
  const int64_t Elem = Ctx.getTypeSizeInChars(M).getQuantity();
  return Elem > 0 && Bytes % Elem == 0 ? Bytes / Elem : 0;
}

/// Whether `V` holds elements of type `T` only: T itself, or a vector type
/// of the CUDA headers whose members are T's (float4 of float).
static bool holdsOnly(QualType V, QualType T) {
  V = V.getCanonicalType().getUnqualifiedType();
  T = T.getCanonicalType().getUnqualifiedType();
  if (V == T)
    return true;
  const CXXRecordDecl *RD = V->getAsCXXRecordDecl();
  if (!RD || !fromSystemHeader(RD) || RD->field_empty())
    return false;
  return llvm::all_of(RD->fields(), [&](const FieldDecl *F) {
    return F->getType().getCanonicalType().getUnqualifiedType() == T;
  });
}

std::optional<std::pair<const ParmVarDecl *, Poly>>
LifterBase::pointer(const Expr *E) const {
  E = bare(E);
  // A cast to a pointer of the same elements, or of vectors of them
  // (`reinterpret_cast<const float4 *>(p)` of a float *p), points where p
  // does; indices of it count in vectors (lanes).
  if (auto *C = dyn_cast<ExplicitCastExpr>(E);
      C && C->getType()->isPointerType() &&
      C->getSubExpr()->getType()->isPointerType() &&
      holdsOnly(C->getType()->getPointeeType(),
                C->getSubExpr()->getType()->getPointeeType()))
    return pointer(C->getSubExpr());
  if (auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    if (auto It = Pointers.find(VD); It != Pointers.end())
      return It->second;
    // A parameter of a __device__ helper stands for a matrix only where
    // the call bound it (in Pointers).
    auto *P = dyn_cast_or_null<ParmVarDecl>(VD);
    if (P && P->getType()->isPointerType() &&
        llvm::is_contained(Kernel->parameters(), P))
      return std::pair(P, Poly());
    return std::nullopt;
  }
  const Expr *Base = nullptr, *Index = nullptr;
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->getOpcode() == BO_Add) {
    bool LeftIsPtr = B->getLHS()->getType()->isPointerType();
    Base = LeftIsPtr ? B->getLHS() : B->getRHS();
    Index = LeftIsPtr ? B->getRHS() : B->getLHS();
  } else if (auto *U = dyn_cast<UnaryOperator>(E);
             U && U->getOpcode() == UO_AddrOf) {
    if (auto *S = dyn_cast<ArraySubscriptExpr>(bare(U->getSubExpr()))) {
      Base = S->getBase();
      Index = S->getIdx();
    }
  }
  if (!Base)
    return std::nullopt;
  auto P = pointer(Base);
  std::optional<Poly> I = Ev.eval(Index);
  const int64_t N = P ? lanes(Base, P->first) : 0;
  if (!P || !I || !N)
    return std::nullopt;
  return std::pair(P->first, P->second + *I * Poly::constant(N));
}

std::optional<GlobalAccess> LifterBase::global(const Expr *E) const {
  E = bare(E);
  if (auto *M = dyn_cast<MemberExpr>(E))
    return vectorElement(M);
  // An element of a pointer of another width (a float4 of floats) is no
  // one element of the matrix.
  if (auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
    if (std::optional<GlobalAccess> V = viewElement(S))
      return V;
    auto P = pointer(S->getBase());
    if (!P || lanes(S->getBase(), P->first) != 1)
      return std::nullopt;
    return GlobalAccess{P->first, S->getIdx(), P->second};
  }
  // `*p` and the read-only cache load `__ldg(p)` (CUDA C++ Programming
  // Guide, "Read-Only Data Cache Load Function"), which reads what `*p`
  // reads: p[0], the index a zero at E.
  const Expr *Ptr = nullptr;
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_Deref)
    Ptr = U->getSubExpr();
  else if (auto *C = dyn_cast<CallExpr>(E);
           C && C->getNumArgs() == 1 && C->getDirectCallee() &&
           C->getDirectCallee()->getName() == "__ldg")
    Ptr = C->getArg(0);
  auto P = Ptr ? pointer(Ptr) : std::nullopt;
  if (!P || lanes(Ptr, P->first) != 1)
    return std::nullopt;
  return GlobalAccess{P->first, zeroIndex(E->getBeginLoc()), P->second};
}

const Expr *LifterBase::zeroIndex(SourceLocation At) const {
  return IntegerLiteral::Create(Ctx, llvm::APInt(32, 0), Ctx.IntTy, At);
}

bool LifterBase::advance(const Stmt *S) {
  auto *E = dyn_cast<Expr>(S);
  auto *B = E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
  auto *R = B ? dyn_cast<DeclRefExpr>(bare(B->getLHS())) : nullptr;
  auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isPointerType())
    return false;
  std::optional<std::pair<const ParmVarDecl *, Poly>> To;
  if (B->getOpcode() == BO_AddAssign) {
    auto From = pointer(B->getLHS());
    std::optional<Poly> I = Ev.eval(B->getRHS());
    const int64_t N = From ? lanes(B->getLHS(), From->first) : 0;
    if (From && I && N)
      To = std::pair(From->first, From->second + *I * Poly::constant(N));
  } else if (B->getOpcode() == BO_Assign) {
    To = pointer(B->getRHS());
  }
  if (!To)
    return false;
  Pointers[VD] = *To;
  Advanced.push_back(VD);
  return true;
}

std::optional<Poly> LifterBase::eval(const Expr *E, const char *What) {
  return evaluated(E, What, Ev.eval(E));
}

std::optional<Poly> LifterBase::offset(const Expr *E, const char *What) {
  return evaluated(E, What, Ev.offset(E));
}

std::optional<Poly> LifterBase::evaluated(const Expr *E, const char *What,
                                          std::optional<Poly> P) {
  if (!P)
    fail(E->getBeginLoc(), std::string(What) +
                               " is not a polynomial of threadIdx, "
                               "blockIdx, the loop variables and integer "
                               "parameters: it uses " +
                               Ev.Why);
  return P;
}

bool LifterBase::unchangedIndex(const VarDecl *VD, const Stmt *Scope) {
  if (!isModified(VD, Scope))
    return true;
  return fail(VD->getLocation(), "the index variable '" + VD->getName().str() +
                                     "' is changed after its declaration");
}

/// Whether the loop's start reads `VD`: its initializer names it, or a
/// local whose initializer the start reads.
static bool startReads(const ForStmt *Loop, const VarDecl *VD) {
  std::vector<const Stmt *> Work{Loop->getInit()};
  llvm::DenseSet<const VarDecl *> Seen;
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (auto *R = dyn_cast<DeclRefExpr>(S))
      if (auto *V = dyn_cast<VarDecl>(R->getDecl());
          V && V->hasLocalStorage() && Seen.insert(V).second) {
        if (V == VD)
          return true;
        Work.push_back(V->getInit());
      }
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *V = dyn_cast<VarDecl>(D))
          Work.push_back(V->getInit());
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return false;
}

bool LifterBase::bindLaunchValue(const VarDecl *VD) {
  // The same for every thread a front end follows (BlockedLift.cpp).
  auto Bind = [&] {
    Ev.Opaque.erase(VD);
    Ev.Bindings[VD] = Poly::symbol(VD);
    return true;
  };
  if (launchValueOf(VD))
    return Bind();
  if (!VD->hasInit() || !startReads(Loop, VD))
    return false;
  std::string Unused;
  std::optional<LaunchValue> L = launchValue(
      VD, Kernel, Ctx, [&](const VarDecl *V) { return launchValueOf(V); },
      Unused);
  if (!L)
    return false;
  LaunchValues.push_back(*L);
  return Bind();
}

const LaunchValue *LifterBase::launchValueOf(Symbol S) const {
  auto It = llvm::find_if(LaunchValues,
                          [&](const LaunchValue &L) { return L.Var == S; });
  return It == LaunchValues.end() ? nullptr : &*It;
}

bool LifterBase::bindIndex(const VarDecl *VD, bool Opaque) {
  std::optional<Poly> P = Ev.eval(VD->getInit());
  if (!P && bindLaunchValue(VD))
    return true;
  if (!P && !Opaque)
    P = eval(VD->getInit(), "its value");
  if (P)
    Ev.Bindings.try_emplace(VD, *P);
  else if (Opaque)
    Ev.Opaque.try_emplace(VD, Ev.Why);
  return P || Opaque;
}

bool LifterBase::pointerDeclaration(const VarDecl *VD) {
  auto P = pointer(VD->getInit());
  // `const T *A = A_array[blockIdx.z];`: a pointer read from memory.
  auto *Read = dyn_cast_or_null<ArraySubscriptExpr>(
      VD->getInit() ? VD->getInit()->IgnoreParenImpCasts() : nullptr);
  if (!P && Read && Read->getType()->isPointerType())
    return fail(VD->getLocation(),
                "'" + VD->getName().str() +
                    "' is a pointer read from an array of pointers (a "
                    "pointer-array batch, as cublasGemmBatched takes): the "
                    "rewritten kernel builds its TMA tensor maps on the host "
                    "from pointer parameters, so each matrix must be a "
                    "pointer parameter, a batch at a stride from it "
                    "('A + blockIdx.z * strideA')");
  if (!P)
    return fail(VD->getLocation(),
                "expected a pointer into a matrix parameter, 'p + i' or "
                "'&p[i]' with i a polynomial of the indices");
  Pointers[VD] = *P;
  Advanced.push_back(VD);
  return true;
}

bool LifterBase::pointersFixed(llvm::ArrayRef<Stmt *> After) {
  for (const VarDecl *VD : InLoop)
    for (const Stmt *S : After)
      if (mentions(S, VD))
        return fail(S->getBeginLoc(),
                    "the pointer '" + VD->getName().str() +
                        "' is advanced in the loop and used after it; "
                        "expected the store through a pointer the loop "
                        "leaves as it is");
  for (const VarDecl *VD : Advanced) {
    if (llvm::is_contained(InLoop, VD))
      continue;
    bool Changed = isModified(VD, Loop);
    for (const Stmt *S : After)
      Changed |= isModified(VD, S);
    if (Changed)
      return fail(VD->getLocation(),
                  "the pointer '" + VD->getName().str() +
                      "' is changed in or after the loop; expected "
                      "pointers into the matrices set before it");
  }
  return true;
}

std::optional<Poly> LifterBase::unbatched(const Poly &L, std::string &Stride,
                                          const Expr *At) {
  const char *Expected =
      "blockIdx.z may enter an index only as 'blockIdx.z * stride' (a "
      "batch of matrices), the stride a product of integer parameters";
  auto Split = L.linearIn(blockIdxSymbol('z'));
  if (!Split)
    return fail(At->getBeginLoc(), Expected);
  if (Split->second == Poly())
    return Split->first;
  // Each monomial's extents in the order of extents(), the terms sorted:
  // the text does not depend on where the declarations were allocated.
  std::vector<std::string> Terms;
  for (const auto &[M, C] : Split->second.terms()) {
    std::vector<size_t> Index;
    for (Symbol X : M) {
      const Extent *E = extentOfSymbol(X);
      if (!E)
        return fail(At->getBeginLoc(), Expected);
      Index.push_back(size_t(E - Extents.data()));
    }
    llvm::sort(Index);
    std::string Term = C != 1 || M.empty() ? std::to_string(C) : "";
    for (size_t I : Index)
      Term += (Term.empty() ? "" : " * ") + Extents[I].Name;
    Terms.push_back(Term);
  }
  llvm::sort(Terms);
  const std::string Text = llvm::join(Terms, " + ");
  Stride = Split->second.terms().size() == 1 ? "1LL * " + Text
                                             : "1LL * (" + Text + ")";
  return Split->first;
}

bool LifterBase::batchAgrees(const LiftedGemm &G, SourceLocation Store) {
  for (const LiftedOperand *O : {&G.A, &G.B})
    if (!O->BatchStride.empty() && G.CBatchStride.empty())
      return fail(Store, "'" + O->Data->getName().str() +
                             "' is indexed by blockIdx.z but C is not: every "
                             "matrix of the batch would write the same C");
  return true;
}

namespace {

/// The names the lifting front ends give a meaning to.
bool recognisedName(StringRef N) {
  return llvm::is_contained({"__syncthreads",
                             "__syncwarp",
                             "fmaf",
                             "__fmaf_rn",
                             "fmaxf",
                             "fmax",
                             "max",
                             "__ldg",
                             "__bfloat162float",
                             "__half2float",
                             "__float2bfloat16",
                             "__float2bfloat16_rn",
                             "__float2half",
                             "__float2half_rn",
                             "threadIdx",
                             "blockIdx",
                             "blockDim",
                             "gridDim",
                             "warpSize",
                             "fill_fragment",
                             "load_matrix_sync",
                             "mma_sync",
                             "store_matrix_sync",
                             "mem_row_major"},
                            N);
}

/// Whether anything in the function that declares the local `VD` may change
/// it after its declaration: an assignment, an increment, a non-const
/// reference or pointer to it (clang's ExprMutationAnalyzer).
/// The references to the local `VD`, in the function that declares it,
/// that may change it (clang's ExprMutationAnalyzer), a lambda's capture
/// of it excepted: capturing by reference changes nothing itself, and the
/// references in the lambda's body are among those looked at. Null where
/// `VD` is no local of a function with a body.
static std::optional<std::vector<const DeclRefExpr *>>
changingReferences(const VarDecl *VD) {
  auto *F = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!F || !F->getBody())
    return std::nullopt;
  struct References : RecursiveASTVisitor<References> {
    const VarDecl *VD = nullptr;
    std::vector<const DeclRefExpr *> Found;
    bool TraverseLambdaExpr(LambdaExpr *L) {
      return TraverseStmt(L->getBody());
    }
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      if (R->getDecl() == VD)
        Found.push_back(R);
      return true;
    }
  } Refs;
  Refs.VD = VD;
  Refs.TraverseStmt(F->getBody());
  ExprMutationAnalyzer Analyzer(*F->getBody(), VD->getASTContext());
  std::vector<const DeclRefExpr *> Out;
  for (const DeclRefExpr *R : Refs.Found)
    if (Analyzer.isMutated(R))
      Out.push_back(R);
  return Out;
}

static bool mutatedAfterDeclaration(const VarDecl *VD) {
  std::optional<std::vector<const DeclRefExpr *>> Refs = changingReferences(VD);
  return !Refs || !Refs->empty();
}

/// The innermost statement of `Ctx`'s parent map that encloses `S` and is
/// of type `T`, or null.
template <typename T>
static const T *enclosing(const Stmt *S, ASTContext &Ctx) {
  for (DynTypedNodeList P = Ctx.getParents(*S); !P.empty();
       P = Ctx.getParents(P[0])) {
    if (const auto *Found = P[0].get<T>())
      return Found;
  }
  return nullptr;
}

/// Whether `R` is the variable an assignment, `++` or `--` changes.
static bool assignedDirectly(const DeclRefExpr *R, ASTContext &Ctx) {
  DynTypedNodeList P = Ctx.getParents(*R);
  while (!P.empty() && P[0].get<ParenExpr>())
    P = Ctx.getParents(P[0]);
  if (P.empty())
    return false;
  if (const auto *U = P[0].get<UnaryOperator>())
    return U->isIncrementDecrementOp();
  const auto *B = P[0].get<BinaryOperator>();
  return B && B->isAssignmentOp() && B->getLHS()->IgnoreParens() == R;
}

/// Whether the copy of `VD` that the lambda `L` makes where it is created
/// equals `VD` at each of its calls: nothing changes VD in the block that
/// declares the lambda (where its calls are) or in a lambda's body, and
/// what changes it outside that block assigns it directly, so runs only
/// while no copy lives (`++t` of a loop whose body declares the lambda:
/// each iteration makes its own copy of t).
static bool copyStaysCurrent(const VarDecl *VD, const LambdaExpr *L) {
  ASTContext &Ctx = VD->getASTContext();
  std::optional<std::vector<const DeclRefExpr *>> Refs = changingReferences(VD);
  const CompoundStmt *Block = enclosing<CompoundStmt>(L, Ctx);
  if (!Refs || !Block)
    return false;
  const auto Inside = [&](const Stmt *S) {
    for (DynTypedNodeList P = Ctx.getParents(*S); !P.empty();
         P = Ctx.getParents(P[0]))
      if (P[0].get<CompoundStmt>() == Block)
        return true;
    return false;
  };
  return llvm::none_of(*Refs, [&](const DeclRefExpr *R) {
    return Inside(R) || enclosing<LambdaExpr>(R, Ctx) ||
           !assignedDirectly(R, Ctx);
  });
}

/// Whether every use of the local `VD`, in the function that declares it,
/// calls it (`VD(args)`): the lambda it holds is neither copied nor passed.
static bool onlyCalled(const VarDecl *VD) {
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl *VD;
    unsigned Refs = 0, Calls = 0;
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      Refs += R->getDecl() == VD;
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) {
      auto *R = C->getOperator() == OO_Call && C->getNumArgs()
                    ? dyn_cast<DeclRefExpr>(C->getArg(0)->IgnoreParenImpCasts())
                    : nullptr;
      Calls += R && R->getDecl() == VD;
      return true;
    }
  } U;
  U.VD = VD;
  auto *F = dyn_cast<FunctionDecl>(VD->getDeclContext());
  if (!F || !F->getBody())
    return false;
  U.TraverseStmt(F->getBody());
  return U.Refs == U.Calls;
}

class ConstructFinder : public RecursiveASTVisitor<ConstructFinder> {
public:
  explicit ConstructFinder(ASTContext &Ctx) : SM(Ctx.getSourceManager()) {}
  std::optional<LiftFailure> Found;

  bool VisitVarDecl(VarDecl *VD) {
    // `auto load = [&](int stage, int k) {...};`, only ever called: followed
    // at each call as a __device__ helper is (lambdaHelper).
    if (const LambdaExpr *L = heldLambda(VD)) {
      if (std::optional<std::string> Why = lambdaRefusal(L))
        return report(L->getBeginLoc(), *Why);
      if (!onlyCalled(VD))
        return report(VD->getLocation(),
                      "the lambda '" + VD->getName().str() +
                          "' is used other than by calling it");
      Followed.insert(L);
      return true;
    }
    if (isCudaPipeline(VD->getType()) && !VD->getType()->isReferenceType() &&
        !makesThreadPipeline(VD->getInit()))
      return report(VD->getLocation(),
                    "the cuda::pipeline '" + VD->getName().str() +
                        "' is not of thread scope: only 'auto " +
                        VD->getName().str() +
                        " = cuda::make_pipeline();' is followed (a pipeline "
                        "of block scope, made from a group and a shared "
                        "state, synchronizes the block without a barrier)");
    // A lambda is reported as one (VisitLambdaExpr).
    if (VD->hasInit() && !isa<LambdaExpr>(VD->getInit()->IgnoreImplicit()) &&
        mayWrite(VD->getInit(), VD->getASTContext()))
      return report(VD->getLocation(), "the initializer of '" +
                                           VD->getName().str() +
                                           "' has side effects");
    if ((VD->isStaticLocal() && !VD->hasAttr<CUDASharedAttr>()) ||
        VD->getTLSKind() != VarDecl::TLS_None)
      return report(VD->getLocation(),
                    "the local variable '" + VD->getName().str() +
                        "' is static: one variable shared by every thread "
                        "and launch");
    const QualType T = VD->getType();
    // A bool set to a truth value and never changed (`const bool ok = row <
    // M;` or `bool ok = ...;`, a copy's bounds check) holds no index.
    const Expr *Init = VD->getInit();
    // A bool set to false or true and only flipped (`s = !s;`, `s ^= 1;`)
    // is a double buffer's stage, a toggle the front ends follow as such.
    const bool Truth =
        T->isBooleanType() && !isa<ParmVarDecl>(VD) && Init &&
        ((Init->IgnoreParens()->getType()->isBooleanType() &&
          !isa<ImplicitCastExpr>(Init->IgnoreParens()) &&
          (T.isConstQualified() || !mutatedAfterDeclaration(VD))) ||
         (isa<CXXBoolLiteralExpr, IntegerLiteral>(
              Init->IgnoreParenImpCasts()) &&
          onlyFlipped(VD)));
    if (T->isBooleanType() && !Truth && !isa<ParmVarDecl>(VD))
      return report(VD->getLocation(),
                    "the bool variable '" + VD->getName().str() +
                        "' must be set once, to a truth value such as a "
                        "bounds check ('bool ok = row < M && k < K;'), and "
                        "not changed after");
    if (T->isIntegerType() && !Truth && VD->getASTContext().getIntWidth(T) < 32)
      return report(VD->getLocation(),
                    "the integer variable '" + VD->getName().str() +
                        "' is narrower than 32 bits; its values would wrap "
                        "where the index arithmetic followed does not");
    return true;
  }
  /// Whether every use of the local `VD` in the function that declares it
  /// reads it, but statements that flip it: `v = !v;`, `v = 1 - v;`, `v =
  /// v ^ 1;`, `v ^= 1;` (or `true` for 1).
  static bool onlyFlipped(const VarDecl *VD) {
    auto *F = dyn_cast<FunctionDecl>(VD->getDeclContext());
    if (!F || !F->getBody())
      return false;
    ASTContext &Ctx = VD->getASTContext();
    using namespace ast_matchers;
    auto Refs =
        match(findAll(declRefExpr(to(varDecl(equalsNode(VD)))).bind("ref")),
              *F->getBody(), Ctx);
    auto IsOne = [](const Expr *X) {
      X = X->IgnoreParenImpCasts();
      if (auto *B = dyn_cast<CXXBoolLiteralExpr>(X))
        return B->getValue();
      auto *I = dyn_cast<IntegerLiteral>(X);
      return I && I->getValue() == 1;
    };
    for (const BoundNodes &M : Refs) {
      const auto *R = M.getNodeAs<DeclRefExpr>("ref");
      DynTypedNodeList Parents = Ctx.getParents(*R);
      if (Parents.size() != 1)
        return false;
      if (auto *C = Parents[0].get<ImplicitCastExpr>();
          C && C->getCastKind() == CK_LValueToRValue)
        continue;
      auto *B = Parents[0].get<BinaryOperator>();
      if (!B || B->getLHS() != R)
        return false;
      const Expr *Value = B->getRHS()->IgnoreParenImpCasts();
      auto IsVar = [&](const Expr *X) {
        auto *Of = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
        return Of && Of->getDecl() == VD;
      };
      auto *Not = dyn_cast<UnaryOperator>(Value);
      auto *Op = dyn_cast<BinaryOperator>(Value);
      const bool Flipped =
          (Not && Not->getOpcode() == UO_LNot && IsVar(Not->getSubExpr())) ||
          (Op && Op->getOpcode() == BO_Sub && IsOne(Op->getLHS()) &&
           IsVar(Op->getRHS())) ||
          (Op && Op->getOpcode() == BO_Xor && IsVar(Op->getLHS()) &&
           IsOne(Op->getRHS()));
      const bool Flip = (B->getOpcode() == BO_Assign && Flipped) ||
                        (B->getOpcode() == BO_XorAssign && IsOne(B->getRHS()));
      if (!Flip)
        return false;
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    auto *VD = dyn_cast<VarDecl>(R->getDecl());
    const NamedDecl *D = R->getDecl();
    if (recognisedName(D->getName()) && !system(D))
      return report(R->getBeginLoc(),
                    "'" + D->getNameAsString() +
                        "' is the kernel's own, not the CUDA one of that "
                        "name");
    if (VD && VD->hasGlobalStorage() && !VD->hasAttr<CUDASharedAttr>() &&
        !VD->getType().isConstQualified() && !system(VD))
      return report(R->getBeginLoc(),
                    "the variable '" + VD->getName().str() +
                        "' has static storage: shared by every thread and "
                        "launch");
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    if (F && recognisedName(F->getName()) && !system(F))
      return report(C->getBeginLoc(),
                    "'" + F->getNameAsString() +
                        "' is the kernel's own function, not the CUDA one of "
                        "that name");
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    if (S->getInit() || S->getConditionVariable())
      return report(S->getBeginLoc(),
                    "an 'if' with an init-statement or a condition variable");
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    if (S->getConditionVariable())
      return report(S->getBeginLoc(), "a loop with a condition variable");
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) {
    if (S->getConditionVariable())
      return report(S->getBeginLoc(), "a loop with a condition variable");
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *S) {
    return report(S->getBeginLoc(), "a 'switch'");
  }
  bool VisitGotoStmt(GotoStmt *S) {
    return report(S->getBeginLoc(), "a 'goto'");
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    return report(S->getBeginLoc(), "a 'goto'");
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    if (Followed.count(L))
      return true;
    return report(L->getBeginLoc(),
                  "a lambda other than one held in a local variable and "
                  "called ('auto load = [&](int stage, int k) {...};')");
  }

private:
  /// The lambdas held in local variables and only called.
  std::set<const LambdaExpr *> Followed;
  /// Whether a declaration of `D` is a system header's (the kernel's file
  /// may declare a CUDA function again).
  bool system(const Decl *D) const { return fromSystemHeader(D); }
  bool report(SourceLocation L, const std::string &What) {
    Found = LiftFailure{L, What + " (no lifting front end follows it)"};
    return false;
  }
  const SourceManager &SM;
};

} // namespace

bool mayWrite(const Expr *E, ASTContext &Ctx) {
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = C->getDirectCallee();
      Found |= !F || !fromSystemHeader(F) || writesThrough(F);
      return !Found;
    }
    /// A function of the system headers that may write what its arguments
    /// point to (atomicAdd, modff, sincosf) or print (printf): a parameter
    /// that points to, or refers to, something not const, or variadic.
    static bool writesThrough(const FunctionDecl *F) {
      if (F->isVariadic())
        return true;
      for (const ParmVarDecl *P : F->parameters()) {
        const QualType T = P->getType();
        if ((T->isPointerType() && !T->getPointeeType().isConstQualified()) ||
            (T->isReferenceType() &&
             !T.getNonReferenceType().isConstQualified()))
          return true;
      }
      return false;
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      // `(f(), x)`: the left operand is evaluated for its effects only.
      Found |= B->getOpcode() == BO_Comma;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

const LambdaExpr *heldLambda(const VarDecl *VD) {
  if (!VD || !VD->isLocalVarDecl() || !VD->hasInit())
    return nullptr;
  return dyn_cast<LambdaExpr>(VD->getInit()->IgnoreImplicit());
}

/// lambdaRefusal's verdicts on the lambdas of the translation unit read
/// (its ASTContext): the front ends ask at every call they follow, thread
/// by thread, and a verdict runs the mutation analysis over the function.
struct LambdaVerdicts {
  const ASTContext *Owner = nullptr;
  llvm::DenseMap<const LambdaExpr *, std::optional<std::string>> Of;
};
static thread_local LambdaVerdicts Verdicts;

void forgetLambdaVerdicts() { Verdicts = LambdaVerdicts(); }

static std::optional<std::string> judgedLambda(const LambdaExpr *L);

std::optional<std::string> lambdaRefusal(const LambdaExpr *L) {
  const ASTContext *Ctx = &L->getCallOperator()->getASTContext();
  if (Verdicts.Owner != Ctx) {
    forgetLambdaVerdicts();
    Verdicts.Owner = Ctx;
  }
  if (auto It = Verdicts.Of.find(L); It != Verdicts.Of.end())
    return It->second;
  std::optional<std::string> Why = judgedLambda(L);
  Verdicts.Of[L] = Why;
  return Why;
}

static std::optional<std::string> judgedLambda(const LambdaExpr *L) {
  const CXXMethodDecl *M = L->getCallOperator();
  if (L->isGenericLambda())
    return std::string("a generic lambda (its parameters 'auto')");
  if (L->isMutable())
    return std::string("a 'mutable' lambda, which changes its copies");
  if (!M->getReturnType()->isVoidType())
    return std::string("a lambda that returns a value");
  ASTContext &Ctx = M->getASTContext();
  for (const LambdaCapture &C : L->captures()) {
    auto *VD =
        C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
    if (!VD || L->isInitCapture(&C))
      return std::string("a lambda capturing 'this' or with an "
                         "init-capture");
    const QualType T = VD->getType();
    const std::string Name = "'" + VD->getName().str() + "'";
    if (C.getCaptureKind() == LCK_ByCopy && !T.isConstQualified() &&
        !copyStaysCurrent(VD, L))
      return "a lambda that copies " + Name +
             ", which changes after the copy is made: capture it by "
             "reference";
    if (C.getCaptureKind() == LCK_ByRef && !T->isArrayType() &&
        !T->isRecordType() && !T->isRealFloatingType() &&
        ExprMutationAnalyzer(*M->getBody(), Ctx).isMutated(VD))
      return "a lambda that changes " + Name +
             ", a variable of its caller: pass it as a parameter";
  }
  return std::nullopt;
}

const FunctionDecl *lambdaHelper(const CallExpr *C) {
  auto *O = dyn_cast<CXXOperatorCallExpr>(C);
  if (!O || O->getOperator() != OO_Call || O->getNumArgs() < 1)
    return nullptr;
  auto *R = dyn_cast<DeclRefExpr>(O->getArg(0)->IgnoreParenImpCasts());
  const LambdaExpr *L =
      R ? heldLambda(dyn_cast<VarDecl>(R->getDecl())) : nullptr;
  if (!L || lambdaRefusal(L) || !O->getDirectCallee() ||
      O->getDirectCallee()->getCanonicalDecl() !=
          L->getCallOperator()->getCanonicalDecl())
    return nullptr;
  return L->getCallOperator();
}

llvm::ArrayRef<const Expr *> helperArguments(const CallExpr *C) {
  llvm::ArrayRef<const Expr *> Args(C->getArgs(), C->getNumArgs());
  return lambdaHelper(C) ? Args.drop_front() : Args;
}

std::string helperName(const FunctionDecl *F) {
  auto *M = dyn_cast<CXXMethodDecl>(F);
  if (M && M->getParent()->isLambda()) {
    const SourceManager &SM = F->getASTContext().getSourceManager();
    return "the lambda at line " +
           std::to_string(SM.getPresumedLineNumber(
               SM.getExpansionLoc(M->getParent()->getLocation())));
  }
  return "the __device__ function '" + F->getNameAsString() + "'";
}

const FunctionDecl *deviceHelper(const CallExpr *C) {
  if (const FunctionDecl *L = lambdaHelper(C))
    return L;
  const FunctionDecl *F = C->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!F || !F->hasBody(Def) || isa<CXXMethodDecl>(F) || F->isVariadic() ||
      !Def->hasAttr<CUDADeviceAttr>() || Def->hasAttr<CUDAGlobalAttr>() ||
      fromSystemHeader(Def))
    return nullptr;
  return Def;
}

std::vector<const FunctionDecl *> deviceHelpers(const Stmt *Body) {
  struct Calls : RecursiveASTVisitor<Calls> {
    std::vector<const FunctionDecl *> Found;
    bool VisitCallExpr(CallExpr *C) {
      const FunctionDecl *F = deviceHelper(C);
      if (F && !llvm::is_contained(Found, F)) {
        Found.push_back(F);
        TraverseStmt(F->getBody());
      }
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  return C.Found;
}

std::optional<LiftFailure> unliftableConstruct(const FunctionDecl *Kernel,
                                               ASTContext &Ctx) {
  ConstructFinder F(Ctx);
  F.TraverseStmt(Kernel->getBody());
  for (const FunctionDecl *H : deviceHelpers(Kernel->getBody()))
    if (!F.Found)
      F.TraverseStmt(H->getBody());
  return F.Found;
}

std::optional<LiftFailure> structMatrix(const ForStmt *Loop) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *Found = nullptr;
    static bool holdsPointer(QualType T) {
      const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
      // A lambda's closure holds its copies, followed as the variables
      // they copy (lambdaRefusal).
      return RD && RD->hasDefinition() && !RD->isLambda() &&
             !fromSystemHeader(RD) &&
             llvm::any_of(RD->fields(), [](const FieldDecl *F) {
               return F->getType()->isPointerType();
             });
    }
    bool VisitDeclRefExpr(DeclRefExpr *R) {
      auto *VD = dyn_cast<VarDecl>(R->getDecl());
      if (VD && !Found && holdsPointer(VD->getType()))
        Found = VD;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<ForStmt *>(Loop));
  if (!F.Found)
    return std::nullopt;
  const std::string Name = F.Found->getName().str(),
                    Type =
                        F.Found->getType().getUnqualifiedType().getAsString();
  return LiftFailure{
      F.Found->getLocation(),
      "'" + Name + "' is a struct ('" + Type +
          "') holding a pointer: the front ends read each matrix from a "
          "pointer parameter of the kernel and its extents from integer "
          "parameters or constants; pass the struct's pointer and extents "
          "as parameters (no lifting front end follows it)"};
}

std::optional<LiftFailure>
deviceDependentText(const FunctionDecl *Kernel, ASTContext &Ctx,
                    llvm::ArrayRef<SourceRange> ArchConditionals,
                    const std::map<std::string, SourceLocation> &ArchMacros) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  };
  // The conditional whose region holds L, or an invalid location.
  auto inside = [&](SourceLocation L) {
    for (const SourceRange &R : ArchConditionals)
      if (L.isValid() && !before(L, R.getBegin()) && !before(R.getEnd(), L))
        return R.getBegin();
    return SourceLocation();
  };
  auto failure = [&](SourceLocation At, const std::string &What,
                     SourceLocation Conditional) {
    return LiftFailure{
        At, What + " the conditional at line " +
                std::to_string(
                    SM.getPresumedLineNumber(SM.getExpansionLoc(Conditional))) +
                ", which reads __CUDA_ARCH__: tawa-rewrite reads the host "
                "compilation, and the device compilation that runs the "
                "kernel may see other text there. Move the kernel and what "
                "it uses out of such conditionals"};
  };
  std::vector<const FunctionDecl *> Functions{Kernel};
  for (const FunctionDecl *H : deviceHelpers(Kernel->getBody()))
    Functions.push_back(H);
  for (const FunctionDecl *F : Functions)
    for (const SourceRange &R : ArchConditionals)
      if (!before(F->getEndLoc(), R.getBegin()) &&
          !before(R.getEnd(), F->getBeginLoc()))
        return failure(F->getLocation(),
                       F == Kernel ? "the kernel's text overlaps"
                                   : "the text of the __device__ function '" +
                                         F->getNameAsString() +
                                         "' that the kernel calls overlaps",
                       R.getBegin());
  struct Uses : RecursiveASTVisitor<Uses> {
    const SourceManager &SM;
    const LangOptions &LO;
    const std::map<std::string, SourceLocation> &ArchMacros;
    std::function<SourceLocation(SourceLocation)> Inside;
    SourceLocation At, Conditional;
    std::string What;
    Uses(const SourceManager &SM, const LangOptions &LO,
         const std::map<std::string, SourceLocation> &ArchMacros)
        : SM(SM), LO(LO), ArchMacros(ArchMacros) {}
    bool found(SourceLocation L, std::string W, SourceLocation C) {
      At = L;
      What = std::move(W);
      Conditional = C;
      return true;
    }
    bool VisitStmt(Stmt *S) {
      for (SourceLocation L = S->getBeginLoc(); L.isMacroID();
           L = SM.getImmediateExpansionRange(L).getBegin()) {
        const std::string Name = Lexer::getImmediateMacroName(L, SM, LO).str();
        if (SourceLocation C = Inside(SM.getSpellingLoc(L)); C.isValid())
          return !found(
              S->getBeginLoc(),
              "the kernel uses the macro '" + Name + "', defined inside", C);
        if (auto It = ArchMacros.find(Name); It != ArchMacros.end())
          return !found(S->getBeginLoc(),
                        "the kernel uses the macro '" + Name +
                            "', which the device compilation defines "
                            "otherwise under",
                        It->second);
      }
      if (auto *R = dyn_cast<DeclRefExpr>(S))
        if (SourceLocation C = Inside(R->getDecl()->getLocation()); C.isValid())
          return !found(R->getBeginLoc(),
                        "the kernel uses '" + R->getDecl()->getNameAsString() +
                            "', declared inside",
                        C);
      return true;
    }
  } U(SM, Ctx.getLangOpts(), ArchMacros);
  U.Inside = inside;
  for (const FunctionDecl *F : Functions)
    if (U.At.isInvalid())
      U.TraverseStmt(F->getBody());
  if (U.At.isValid())
    return failure(U.At, U.What, U.Conditional);
  return std::nullopt;
}

bool LifterBase::isBarrier(const Stmt *S) {
  S = unwrapOnce(S); // `SYNC();` of `#define SYNC() do { ... } while (0)`
  // `asm volatile("bar.sync 0;" ::: "memory");`: barrier 0 of every thread
  // of the block, which __syncthreads() is (PTX ISA 9.7.13.1, bar.sync
  // without a thread count).
  if (auto *A = dyn_cast<GCCAsmStmt>(S)) {
    const std::string Text = A->getAsmString();
    llvm::StringRef T = llvm::StringRef(Text).trim();
    while (T.consume_back(";") || T.consume_back("\n"))
      T = T.rtrim();
    llvm::SmallVector<llvm::StringRef, 4> Words;
    llvm::SplitString(T, Words);
    bool OnlyMemory = true;
    for (unsigned I = 0; I < A->getNumClobbers(); ++I)
      OnlyMemory &= A->getClobber(I) == "memory";
    return !A->getNumOutputs() && !A->getNumInputs() && OnlyMemory &&
           Words.size() == 2 && Words[1] == "0" &&
           llvm::is_contained({"bar.sync", "bar.cta.sync", "barrier.sync",
                               "barrier.sync.aligned", "barrier.cta.sync",
                               "barrier.cta.sync.aligned"},
                              Words[0]);
  }
  auto *E = dyn_cast<Expr>(S);
  auto *C = E ? dyn_cast<CallExpr>(E->IgnoreImplicit()) : nullptr;
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier())
    return false;
  if (F->getName() == "__syncthreads")
    return true;
  // `block.sync()`, `cg::this_thread_block().sync()` and `cg::sync(block)`
  // of cooperative_groups' thread_block: a barrier of every thread of the
  // block, as __syncthreads() (CUDA C++ Programming Guide, "Cooperative
  // Groups", thread_block::sync()).
  if (auto *M = dyn_cast<CXXMethodDecl>(F))
    return M->getName() == "sync" && C->getNumArgs() == 0 &&
           isThreadBlock(M->getParent());
  return F->getName() == "sync" && C->getNumArgs() == 1 &&
         inCooperativeGroups(F) &&
         isThreadBlock(C->getArg(0)->getType()->getAsCXXRecordDecl());
}

/// Whether `S` writes memory after `After`: an assignment to anything but a
/// local variable by name, or a call of wmma::store_matrix_sync.
static bool writesMemoryAfter(const Stmt *S, SourceLocation After,
                              const SourceManager &SM) {
  struct Finder : RecursiveASTVisitor<Finder> {
    SourceLocation After;
    const SourceManager *SM;
    bool Found = false;
    bool later(const Stmt *E) const {
      return SM->isBeforeInTranslationUnit(After, E->getBeginLoc());
    }
    bool VisitBinaryOperator(BinaryOperator *B) {
      if (B->isAssignmentOp() && later(B) &&
          !isa<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
        Found = true;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *C) {
      auto *O = dyn_cast<CXXOperatorCallExpr>(C);
      if (later(C) &&
          (wmmaCall(C, "store_matrix_sync") ||
           (O && O->isAssignmentOp() && O->getNumArgs() == 2 &&
            !isa<DeclRefExpr>(O->getArg(0)->IgnoreParenImpCasts()))))
        Found = true;
      return !Found;
    }
  } F;
  F.After = After;
  F.SM = &SM;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

std::optional<LifterBase::AroundLoop>
LifterBase::guardedLoop(const CompoundStmt *Body, const IfStmt *If) {
  if (If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr())
    return std::nullopt;
  const auto *Then = dyn_cast<CompoundStmt>(If->getThen());
  if (!Then)
    return std::nullopt;
  const auto It = loopStatement(Then, Loop);
  if (It == Then->body_end())
    return std::nullopt;
  // Only declarations before the loop in the branch: the threads the
  // condition keeps out skip nothing but locals.
  for (const Stmt *S : llvm::make_range(Then->body_begin(), It)) {
    auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return std::nullopt;
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || (VD->getInit() && VD->getInit()->HasSideEffects(Ctx)))
        return std::nullopt;
    }
  }
  BeforeLoop.clear();
  AfterLoop.clear();
  const auto At = llvm::find(Body->body(), If);
  for (Stmt *S : llvm::make_range(Body->body_begin(), At))
    if (!staticAssertsOnly(S))
      BeforeLoop.push_back(S);
  for (Stmt *S : llvm::make_range(Then->body_begin(), It))
    BeforeLoop.push_back(S);
  for (auto Part : {llvm::make_range(It + 1, Then->body_end()),
                    llvm::make_range(At + 1, Body->body_end())})
    llvm::copy_if(Part, std::back_inserter(AfterLoop),
                  [](const Stmt *S) { return !staticAssertsOnly(S); });
  return AroundLoop{BeforeLoop, AfterLoop, If};
}

std::optional<LifterBase::AroundLoop> LifterBase::aroundLoop() {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel->getBody());
  if (!Body)
    return std::nullopt;
  const auto It = loopStatement(Body, Loop);
  if (It == Body->body_end()) {
    // Nested in a loop of the body (a convolution's channel loop inside its
    // loop over the filter taps): the pragma belongs on that outer loop.
    std::function<bool(const Stmt *)> Contains = [&](const Stmt *S) {
      return S == Loop || llvm::any_of(S->children(), [&](const Stmt *C) {
               return C && Contains(C);
             });
    };
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Stmt *S : Body->body()) {
      if (!Contains(S))
        continue;
      const std::string Line =
          std::to_string(SM.getExpansionLineNumber(S->getBeginLoc()));
      if (auto *If = dyn_cast<IfStmt>(S); If && ReadsLoopGuard)
        if (std::optional<AroundLoop> A = guardedLoop(Body, If))
          return A;
      if (isa<IfStmt>(S))
        return fail(Loop->getForLoc(),
                    "the annotated loop must be a statement of the kernel "
                    "body, and this one is inside the 'if' at line " +
                        Line +
                        ": the front ends read the loop at the top level of "
                        "the kernel body, or in the branch of an 'if' without "
                        "an else that declares only locals before it; else "
                        "check the bounds in the loads and the stores instead "
                        "(threads whose elements lie outside C then store "
                        "nothing)");
      if (!isa<ForStmt, WhileStmt, DoStmt, AttributedStmt>(S))
        break;
      // A loop that also stores results after the annotated one walks
      // output tiles (a persistent kernel), not the reduction.
      if (writesMemoryAfter(S, Loop->getEndLoc(), SM))
        return fail(Loop->getForLoc(),
                    "the annotated loop must be a statement of the kernel "
                    "body, and this one is nested in the loop at line " +
                        Line +
                        ", which stores results after it: a persistent loop "
                        "over output tiles; the front ends read one output "
                        "tile per block (the rewritten kernel walks the tiles "
                        "itself): write the body for the tile of blockIdx and "
                        "launch a block per tile");
      return fail(Loop->getForLoc(),
                  "the annotated loop must be a statement of the kernel "
                  "body, and this one is nested in the loop at line " +
                      Line +
                      ": put '#pragma tawa tile' on the outermost loop of "
                      "the reduction (a convolution's loop over the filter "
                      "taps)");
    }
    return fail(Loop->getForLoc(),
                "the annotated loop must be a statement of the kernel body");
  }
  BeforeLoop.clear();
  AfterLoop.clear();
  // A barrier that only declarations precede orders no access: no thread
  // has written or read memory before it (`__syncthreads();` at the top
  // of a kernel).
  bool Quiet = true;
  for (Stmt *S : llvm::make_range(Body->body_begin(), It)) {
    if (staticAssertsOnly(S) || (Quiet && isBarrier(S)))
      continue;
    Quiet = Quiet && declaresOnly(S);
    BeforeLoop.push_back(S);
  }
  llvm::copy_if(llvm::make_range(It + 1, Body->body_end()),
                std::back_inserter(AfterLoop),
                [](const Stmt *S) { return !staticAssertsOnly(S); });
  return AroundLoop{BeforeLoop, AfterLoop};
}

std::optional<std::pair<StringRef, StringRef>>
builtinCoordinateRead(const Stmt *E) {
  auto *PO = dyn_cast_or_null<PseudoObjectExpr>(E);
  auto *MP = PO ? dyn_cast<MSPropertyRefExpr>(
                      PO->getSyntacticForm()->IgnoreParenImpCasts())
                : nullptr;
  const Expr *Base = MP ? MP->getBaseExpr()->IgnoreParenImpCasts() : nullptr;
  if (auto *O = dyn_cast_or_null<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  auto *R = dyn_cast_or_null<DeclRefExpr>(Base);
  if (!R || !fromSystemHeader(R->getDecl()) ||
      !llvm::is_contained({"threadIdx", "blockIdx", "blockDim", "gridDim"},
                          R->getDecl()->getName()))
    return std::nullopt;
  return std::pair(R->getDecl()->getName(), MP->getPropertyDecl()->getName());
}

/// Whether `E` reads a coordinate of the CUDA headers' built-in index
/// variables, `threadIdx.x` (a property whose getter reads a register).
static bool builtinIndexRead(const Stmt *E) {
  return builtinCoordinateRead(E).has_value();
}

/// Whether evaluating `E` writes no memory: no assignment, increment or
/// decrement, and no call or constructor but the reads of the built-in
/// index variables and trivial constructors. Stricter than mayWrite, which
/// lets through calls of the system headers that only read: a barrier that
/// such a call precedes is kept, so no thread may have read memory before
/// one that is passed over.
static bool writesNoMemory(const Stmt *E) {
  if (!E || builtinIndexRead(E))
    return true;
  if (auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
    return false;
  if (auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
    return false;
  if (auto *C = dyn_cast<CXXConstructExpr>(E);
      C && !C->getConstructor()->isTrivial())
    return false;
  if (isa<CallExpr, LambdaExpr, StmtExpr, CXXNewExpr, CXXDeleteExpr,
          PseudoObjectExpr>(E))
    return false;
  return llvm::all_of(E->children(),
                      [](const Stmt *C) { return writesNoMemory(C); });
}

bool declaresOnly(const Stmt *S) {
  if (isa<NullStmt>(S))
    return true;
  auto *DS = dyn_cast<DeclStmt>(S);
  return DS && llvm::all_of(DS->decls(), [](const Decl *D) {
           if (isa<StaticAssertDecl, TypedefNameDecl>(D))
             return true;
           auto *VD = dyn_cast<VarDecl>(D);
           // A __shared__ variable has static storage, and no value.
           return VD &&
                  (!VD->isStaticLocal() || VD->hasAttr<CUDASharedAttr>()) &&
                  writesNoMemory(VD->getInit());
         });
}

bool staticAssertsOnly(const Stmt *S) {
  auto *DS = dyn_cast_or_null<DeclStmt>(S);
  return DS && llvm::all_of(DS->decls(), [](const Decl *D) {
           return isa<StaticAssertDecl>(D);
         });
}

const Expr *assertCondition(const Stmt *S, const ASTContext &Ctx, bool &Is) {
  Is = false;
  auto *E = dyn_cast<Expr>(S);
  if (!E || !E->getBeginLoc().isMacroID() ||
      Lexer::getImmediateMacroName(E->getBeginLoc(), Ctx.getSourceManager(),
                                   Ctx.getLangOpts()) != "assert")
    return nullptr;
  E = E->IgnoreParens();
  if (auto *C = dyn_cast<ConditionalOperator>(E)) {
    auto *Fail = dyn_cast<CallExpr>(C->getFalseExpr()->IgnoreParenImpCasts());
    const FunctionDecl *F = Fail ? Fail->getDirectCallee() : nullptr;
    // `void(0)`: a macro of that name whose branch does something else is
    // no assert.
    auto *Nothing =
        dyn_cast<ExplicitCastExpr>(C->getTrueExpr()->IgnoreParens());
    Is = F && F->getName() == "__assert_fail" && fromSystemHeader(F) &&
         Nothing && Nothing->getType()->isVoidType() &&
         isa<IntegerLiteral>(Nothing->getSubExpr()->IgnoreParenImpCasts()) &&
         isZero(Nothing->getSubExpr());
    return Is ? C->getCond()->IgnoreParenCasts() : nullptr;
  }
  if (auto *C = dyn_cast<CastExpr>(E))
    Is = C->getType()->isVoidType() && isZero(C->getSubExpr());
  return nullptr;
}

const ForStmt *hintedLoop(const Stmt *S) {
  if (auto *A = dyn_cast_or_null<AttributedStmt>(S)) {
    for (const Attr *X : A->getAttrs())
      if (!isa<LoopHintAttr>(X))
        return nullptr;
    return hintedLoop(A->getSubStmt());
  }
  return dyn_cast_or_null<ForStmt>(S);
}

CompoundStmt::const_body_iterator loopStatement(const CompoundStmt *Body,
                                                const ForStmt *Loop) {
  return llvm::find_if(Body->body(),
                       [&](const Stmt *S) { return hintedLoop(S) == Loop; });
}

std::optional<LiftFailure> dynamicSharedTile(const VarDecl *VD) {
  if (!VD->hasAttr<CUDASharedAttr>() || !VD->getType()->isIncompleteArrayType())
    return std::nullopt;
  return LiftFailure{
      VD->getLocation(),
      "the tiles in dynamic shared memory ('extern __shared__ T " +
          VD->getName().str() +
          "[];') must be pointers into it at constant offsets, each indexed "
          "as a tile of its own: 'T *As = " +
          VD->getName().str() + ", *Bs = As + TILE * TILE;'"};
}

bool atomicAdd(const Stmt *S, const Expr *&X, const Expr *&V) {
  const CallExpr *Add = systemCall(dyn_cast_or_null<Expr>(S), {"atomicAdd"}, 2);
  auto *At = Add ? dyn_cast<UnaryOperator>(bare(Add->getArg(0))) : nullptr;
  if (!At || At->getOpcode() != UO_AddrOf)
    return false;
  X = At->getSubExpr();
  V = Add->getArg(1);
  return true;
}

const CallExpr *systemCall(const Expr *E,
                           std::initializer_list<const char *> Names,
                           unsigned Args) {
  auto *C = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || C->getNumArgs() != Args || !F->getIdentifier() ||
      !fromSystemHeader(F))
    return nullptr;
  for (const char *N : Names)
    if (F->getName() == N)
      return C;
  return nullptr;
}

bool multiplies(const Expr *E) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool VisitBinaryOperator(BinaryOperator *B) {
      Found |= B->getOpcode() == BO_Mul;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *C) {
      // `x * y` of class types (__half, __nv_bfloat16) is an operator call.
      if (auto *Op = dyn_cast<CXXOperatorCallExpr>(C))
        Found |= Op->getOperator() == OO_Star && Op->getNumArgs() == 2;
      if (const FunctionDecl *F = C->getDirectCallee()) {
        StringRef N = F->getName();
        Found |= N == "fmaf" || N == "fma" || N.starts_with("__fmaf") ||
                 N.starts_with("__hfma") || N == "__fma_rn" ||
                 N.starts_with("__hmul");
      }
      return !Found;
    }
    bool Found = false;
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

} // namespace tawa
