//===- NamedExtents.cpp - named constants a lifted GEMM's extents may be --===//
//
// Kernels written for fixed extents name them with macros or constants
// (`#define N 4096`, `constexpr int K = 4096;`). A lifting front end takes
// those as symbols, as it takes integer parameters, so that its proof holds
// for every value; this finds which named constants of a kernel may be
// taken so: those whose value the kernel does not need (Lift.h).
//
//===----------------------------------------------------------------------===//
#include "tawa/Lift.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>

using namespace clang;

namespace tawa {
namespace {

/// Every use of a named constant in a kernel, and whether one of them is
/// where the kernel needs its value.
class NamedConstantUses {
public:
  NamedConstantUses(const ForStmt *Loop, ASTContext &Ctx)
      : Loop(Loop), Ctx(Ctx), SM(Ctx.getSourceManager()),
        LO(Ctx.getLangOpts()) {}

  /// Records the uses in `S`; `Needed` where S's value decides a type, a
  /// loop's trip count or step, a divisor or a shift.
  void scan(const Stmt *S, bool Needed) {
    if (!S)
      return;
    if (auto *E = dyn_cast<Expr>(S); E && use(E, Needed))
      return;
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      for (const Decl *X : D->decls())
        if (auto *VD = dyn_cast<VarDecl>(X)) {
          typeUses(VD);
          scan(VD->getInit(), Needed);
        }
      return;
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      scan(F->getInit(), Needed);
      scan(F->getCond(), Needed || F != Loop);
      scan(F->getInc(), true);
      scan(F->getBody(), Needed);
      return;
    }
    if (isa<WhileStmt, DoStmt>(S)) {
      for (const Stmt *C : S->children())
        scan(C, Needed || isa<Expr>(C));
      return;
    }
    if (auto *B = dyn_cast<BinaryOperator>(S)) {
      const BinaryOperatorKind Op = B->getOpcode();
      const bool Divides =
          llvm::is_contained({BO_Div, BO_Rem, BO_Shl, BO_Shr, BO_DivAssign,
                              BO_RemAssign, BO_ShlAssign, BO_ShrAssign},
                             Op);
      scan(B->getLHS(), Needed);
      scan(B->getRHS(), Needed || Divides);
      return;
    }
    for (const Stmt *C : S->children())
      scan(C, Needed);
  }

  /// The uses of the named constants never needed, with one value.
  NamedExtents extents() const {
    NamedExtents Out;
    for (const auto &[Sym, Uses] : BySymbol) {
      bool Keep = true;
      for (const Use &U : Uses)
        Keep &= !U.Needed && U.X.Value == Uses.front().X.Value;
      for (const Use &U : Uses)
        if (Keep && U.Decl)
          Out.Decls.try_emplace(U.Decl, U.X);
        else if (Keep)
          Out.Exprs.try_emplace(U.Key, U.X);
    }
    return Out;
  }

private:
  struct Use {
    Extent X;
    const Expr *Key = nullptr;       ///< a macro's expression
    const ValueDecl *Decl = nullptr; ///< or the variable or enumerator named
    bool Needed = false;
  };

  /// The uses in the type of `VD` (array extents, template arguments),
  /// all needed.
  void typeUses(const VarDecl *VD) {
    struct Types : RecursiveASTVisitor<Types> {
      NamedConstantUses *Self;
      bool VisitExpr(Expr *E) {
        Self->use(E, true);
        return true;
      }
    } T;
    T.Self = this;
    if (TypeSourceInfo *TSI = VD->getTypeSourceInfo())
      T.TraverseTypeLoc(TSI->getTypeLoc());
  }

  /// Records E where it is a named constant; whether it was.
  bool use(const Expr *E, bool Needed) {
    if (std::optional<Use> U = macro(E))
      return record(*U, Needed);
    if (std::optional<Use> U = declaration(E))
      return record(*U, Needed);
    return false;
  }

  bool record(Use U, bool Needed) {
    U.Needed = Needed;
    BySymbol[U.X.Sym].push_back(U);
    return true;
  }

  /// E's value, where E is an integer constant expression.
  std::optional<int64_t> value(const Expr *E) const {
    if (!E->getType()->isIntegerType() || E->isValueDependent())
      return std::nullopt;
    std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx);
    if (!V || V->getSignificantBits() > 64)
      return std::nullopt;
    return V->getExtValue();
  }

  /// E where it is the whole expansion of an object-like macro written in
  /// the kernel (not inside another macro's arguments).
  std::optional<Use> macro(const Expr *E) const {
    const SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
    if (!B.isMacroID() || !End.isMacroID())
      return std::nullopt;
    SourceLocation L = B;
    const SrcMgr::ExpansionInfo *Outer = nullptr;
    for (;;) {
      const SrcMgr::ExpansionInfo &Exp =
          SM.getSLocEntry(SM.getFileID(L)).getExpansion();
      L = Exp.getExpansionLocStart();
      if (L.isFileID()) {
        Outer = &Exp;
        break;
      }
    }
    SourceLocation First, Last;
    if (Outer->isMacroArgExpansion() || Outer->isFunctionMacroExpansion() ||
        !Lexer::isAtStartOfMacroExpansion(B, SM, LO, &First) ||
        !Lexer::isAtEndOfMacroExpansion(End, SM, LO, &Last) || First != L ||
        Last != Outer->getExpansionLocEnd())
      return std::nullopt;
    std::optional<int64_t> V = value(E);
    if (!V)
      return std::nullopt;
    const std::string Name =
        Lexer::getSourceText(CharSourceRange::getTokenRange(L), SM, LO).str();
    Use U;
    U.X = {&Ctx.Idents.get(Name), std::to_string(*V), Name, L, V};
    U.Key = E->IgnoreParenImpCasts();
    return U;
  }

  /// E where it names an enumerator or a `const` integer variable with a
  /// constant initializer (not a __device__ or __constant__ one, which
  /// host code does not read).
  std::optional<Use> declaration(const Expr *E) const {
    auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const ValueDecl *D = R ? R->getDecl() : nullptr;
    auto *VD = dyn_cast_or_null<VarDecl>(D);
    const bool Constant =
        isa_and_nonnull<EnumConstantDecl>(D) ||
        (VD && !isa<ParmVarDecl>(VD) && VD->getType()->isIntegerType() &&
         VD->getType().isConstQualified() && VD->hasInit() &&
         !VD->hasAttr<CUDADeviceAttr>() && !VD->hasAttr<CUDAConstantAttr>() &&
         !VD->hasAttr<CUDASharedAttr>() &&
         VD->isUsableInConstantExpressions(Ctx));
    if (!Constant || !R->getBeginLoc().isFileID())
      return std::nullopt;
    std::optional<int64_t> V = value(R);
    if (!V)
      return std::nullopt;
    const std::string Spelled =
        Lexer::getSourceText(
            CharSourceRange::getTokenRange(R->getSourceRange()), SM, LO)
            .str();
    Use U;
    U.X = {D, std::to_string(*V), Spelled, D->getLocation(), V};
    U.Decl = D;
    return U;
  }

  const ForStmt *Loop;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  std::map<const void *, std::vector<Use>> BySymbol;
};

} // namespace

NamedExtents namedExtents(const FunctionDecl *Kernel, const ForStmt *Loop,
                          ASTContext &Ctx) {
  NamedConstantUses Uses(Loop, Ctx);
  Uses.scan(Kernel->getBody(), /*Needed=*/false);
  return Uses.extents();
}

} // namespace tawa
