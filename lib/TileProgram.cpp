//===- TileProgram.cpp - extracting the tile program from the AST ---------===//
#include "tawa/TileProgram.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {

StringRef elementName(ElementType T) {
  switch (T) {
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  case ElementType::F32:
    return "f32";
  case ElementType::E4M3:
    return "e4m3";
  case ElementType::E5M2:
    return "e5m2";
  }
  return "?";
}

bool isFp8(ElementType T) {
  return T == ElementType::E4M3 || T == ElementType::E5M2;
}

unsigned elementBytes(ElementType T) {
  return T == ElementType::F32 ? 4 : isFp8(T) ? 1 : 2;
}

StringRef regionName(Region R) {
  switch (R) {
  case Region::Prologue:
    return "prologue";
  case Region::Loop:
    return "loop";
  case Region::Epilogue:
    return "epilogue";
  }
  return "?";
}

bool ElemExpr::reads(unsigned V) const {
  if (K == Kind::Value)
    return Value == V;
  return llvm::any_of(Args, [V](const ElemExpr &A) { return A.reads(V); });
}

bool ElemExpr::holds(Kind Of) const {
  return K == Of ||
         llvm::any_of(Args, [Of](const ElemExpr &A) { return A.holds(Of); });
}

bool TileOp::reads(unsigned V) const {
  switch (K) {
  case Kind::Load:
  case Kind::Declare:
    return false;
  case Kind::Assign:
    return Value.reads(V);
  case Kind::Scale:
    return Target == V || Value.reads(V);
  case Kind::Mma:
    return Target == V || A == V || B == V;
  case Kind::Mask:
    return Target == V;
  case Kind::Store:
    return Value.reads(V);
  }
  return false;
}

bool TileOp::writes(unsigned V) const {
  return K != Kind::Store && Target == V;
}

StringRef TileOp::name() const {
  switch (K) {
  case Kind::Load:
    return "load";
  case Kind::Declare:
    return "declare";
  case Kind::Assign:
    return "assign";
  case Kind::Scale:
    return "scale";
  case Kind::Mma:
    return "mma";
  case Kind::Mask:
    return "mask";
  case Kind::Store:
    return "store";
  }
  return "?";
}

std::optional<unsigned> findValue(const TileProgram &P, StringRef Name) {
  for (unsigned V = 0; V < P.Values.size(); ++V)
    if (P.Values[V].Name == Name)
      return V;
  return std::nullopt;
}

namespace {

/// Strips the implicit nodes around a value: casts, temporaries, copies.
const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Prev = E;
    E = E->IgnoreImplicit()->IgnoreParens();
    if (auto *C = dyn_cast<CXXConstructExpr>(E);
        C && C->getNumArgs() == 1 &&
        (C->getConstructor()->isCopyOrMoveConstructor() ||
         C->getConstructor()->isConvertingConstructor(false)))
      E = C->getArg(0);
    if (auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    if (E == Prev)
      break;
  }
  return E;
}

/// The fully qualified name of the function a call names directly ("" if none).
std::string calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr)
    return FD->getQualifiedNameAsString();
  return "";
}

const CallExpr *asCallTo(const Expr *E, StringRef Name) {
  auto *Call = dyn_cast_or_null<CallExpr>(strip(E));
  return Call && calleeName(Call) == Name ? Call : nullptr;
}

/// The specialization of class template `Name` that `T` is, or null.
const ClassTemplateSpecializationDecl *specializationOf(QualType T,
                                                        StringRef Name) {
  auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec ||
      Spec->getSpecializedTemplate()->getQualifiedNameAsString() != Name)
    return nullptr;
  return Spec;
}

std::optional<ElementType> classify(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return ElementType::F32;
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    StringRef N = RD->getName();
    if (N == "__nv_bfloat16")
      return ElementType::BF16;
    if (N == "__half")
      return ElementType::F16;
    if (N == "__nv_fp8_e4m3")
      return ElementType::E4M3;
    if (N == "__nv_fp8_e5m2")
      return ElementType::E5M2;
  }
  return std::nullopt;
}

const VarDecl *referencedVar(const Expr *E) {
  if (auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E)))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<int> integralArg(const TemplateArgumentList *Args, unsigned I) {
  if (!Args || I >= Args->size() ||
      Args->get(I).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return static_cast<int>(Args->get(I).getAsIntegral().getExtValue());
}

/// Finds where code the rewritten kernel copies reads the CUDA built-in
/// coordinates in a way the copy cannot rename: through a macro, or inside a
/// function it calls.
class HiddenBuiltinFinder : public RecursiveASTVisitor<HiddenBuiltinFinder> {
public:
  explicit HiddenBuiltinFinder(const SourceManager &SM) : SM(SM) {}
  SourceLocation Loc;
  std::string Why;

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Loc.isValid() || !isBuiltin(E->getDecl()))
      return true;
    if (E->getLocation().isMacroID()) {
      Loc = SM.getExpansionLoc(E->getLocation());
      Why = "'" + E->getDecl()->getName().str() +
            "' is used inside a macro, where the rewritten kernel cannot "
            "replace it with the coordinates of its tile walk; write it out";
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *FD = E->getDirectCallee();
    if (Loc.isValid() || !FD || !FD->hasBody() ||
        StringRef(FD->getQualifiedNameAsString()).starts_with("tawa::"))
      return true;
    if (const DeclRefExpr *Use = builtinIn(FD, 0)) {
      Loc = SM.getExpansionLoc(E->getBeginLoc());
      Why = "'" + FD->getNameAsString() + "' reads '" +
            Use->getDecl()->getName().str() +
            "', which the rewritten kernel takes from its tile walk, not from "
            "the hardware; compute it in the kernel and pass it in";
    }
    return true;
  }

private:
  static bool isBuiltin(const ValueDecl *D) {
    StringRef N = D->getName();
    return N == "blockIdx" || N == "gridDim" || N == "threadIdx" ||
           N == "blockDim";
  }
  /// A use of a built-in in `FD`'s body or the functions it calls.
  const DeclRefExpr *builtinIn(const FunctionDecl *FD, int Depth) {
    struct Uses : RecursiveASTVisitor<Uses> {
      const DeclRefExpr *Found = nullptr;
      std::vector<const FunctionDecl *> Callees;
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (!Found && isBuiltin(E->getDecl()))
          Found = E;
        return true;
      }
      bool VisitCallExpr(CallExpr *E) {
        if (const FunctionDecl *C = E->getDirectCallee(); C && C->hasBody())
          Callees.push_back(C);
        return true;
      }
    } U;
    if (Depth > 4 || !Seen.insert(FD).second)
      return nullptr;
    U.TraverseStmt(FD->getBody());
    if (U.Found)
      return U.Found;
    for (const FunctionDecl *C : U.Callees)
      if (const DeclRefExpr *Use = builtinIn(C, Depth + 1))
        return Use;
    return nullptr;
  }
  const SourceManager &SM;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
};

/// Finds uses of names whose meaning changes in the rewritten kernel.
class RoleHazardFinder : public RecursiveASTVisitor<RoleHazardFinder> {
public:
  const Expr *Found = nullptr;
  const Stmt *Return = nullptr;
  std::string What;
  bool VisitReturnStmt(ReturnStmt *S) {
    if (!Return)
      Return = S;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (Found)
      return true;
    StringRef N = E->getDecl()->getName();
    if (N == "threadIdx" || N == "blockDim") {
      Found = E;
      What = N.str();
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (!Found && calleeName(E) == "__syncthreads") {
      Found = E;
      What = "__syncthreads()";
    }
    return true;
  }
};

/// Finds a write to a parameter of `Kernel` itself or to a member of it (not
/// a write through a pointer it holds): an assignment, a compound
/// assignment, or an increment or decrement.
class ParamWriteFinder : public RecursiveASTVisitor<ParamWriteFinder> {
public:
  explicit ParamWriteFinder(const FunctionDecl *Kernel) : Kernel(Kernel) {}
  const Expr *Found = nullptr;
  const ParmVarDecl *Param = nullptr;

  bool VisitBinaryOperator(BinaryOperator *E) {
    if (E->isAssignmentOp())
      check(E, E->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *E) {
    if (E->isIncrementDecrementOp())
      check(E, E->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->isAssignmentOp() && E->getNumArgs() > 0)
      check(E, E->getArg(0));
    return true;
  }

private:
  void check(const Expr *Write, const Expr *Target) {
    const Expr *X = Target->IgnoreParenImpCasts();
    while (auto *M = dyn_cast<MemberExpr>(X)) {
      if (M->isArrow())
        return; // through a pointer: memory, not the parameter
      X = M->getBase()->IgnoreParenImpCasts();
    }
    auto *DRE = dyn_cast<DeclRefExpr>(X);
    auto *PV = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!Found && PV && PV->getDeclContext() == Kernel) {
      Found = Write;
      Param = PV;
    }
  }
  const FunctionDecl *Kernel;
};

/// The kind and shape of a variable of a tile type, if it has one.
struct TileType {
  ValueKind Kind;
  int Rows = 0, Cols = 1;
  ElementType Elem = ElementType::F32;
};

std::optional<TileType> tileTypeOf(QualType T) {
  auto Arg = [](const ClassTemplateSpecializationDecl *S, unsigned I) {
    return integralArg(&S->getTemplateArgs(), I);
  };
  const ClassTemplateSpecializationDecl *S = specializationOf(T, "tawa::Tile");
  if (!S)
    S = specializationOf(T, "tawa::Im2colTile");
  if (S) {
    auto E = classify(S->getTemplateArgs()[0].getAsType());
    if (!E || !Arg(S, 1) || !Arg(S, 2))
      return std::nullopt;
    return TileType{ValueKind::Tile, *Arg(S, 1), *Arg(S, 2), *E};
  }
  if (auto *S = specializationOf(T, "tawa::Accumulator"))
    if (Arg(S, 1) && Arg(S, 2))
      return TileType{ValueKind::Accumulator, *Arg(S, 1), *Arg(S, 2)};
  if (auto *S = specializationOf(T, "tawa::RowVector"))
    if (Arg(S, 1))
      return TileType{ValueKind::RowVector, *Arg(S, 1), 1};
  return std::nullopt;
}

/// Whether `T` is one of the tile language's value types (tiles, accumulators,
/// row vectors, fragments, transposed tiles).
bool isTileLanguageType(QualType T) {
  for (const char *N :
       {"tawa::Tile", "tawa::Im2colTile", "tawa::Accumulator",
        "tawa::RowVector", "tawa::Fragment", "tawa::Transposed"})
    if (specializationOf(T, N))
      return true;
  return false;
}

/// Finds a use of a variable of a tile type.
class TileUseFinder : public RecursiveASTVisitor<TileUseFinder> {
public:
  const DeclRefExpr *Found = nullptr;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (!Found && isa<VarDecl>(E->getDecl()) &&
        isTileLanguageType(E->getDecl()->getType()))
      Found = E;
    return true;
  }
};

const DeclRefExpr *findTileUse(const Stmt *S) {
  TileUseFinder F;
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

/// The callee's name without its namespace when it is in namespace tawa
/// ("exp2" for tawa::exp2, "operator*" for tawa::operator*), else "".
std::string tawaCallee(const Expr *E) {
  auto *Call = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD)
    return "";
  std::string Q = FD->getQualifiedNameAsString();
  return StringRef(Q).starts_with("tawa::") &&
                 !StringRef(Q).starts_with("tawa::detail::")
             ? Q.substr(6)
             : "";
}

class Extractor {
public:
  Extractor(ASTContext &Ctx, DiagReporter &Diags, TileProgram &P)
      : Ctx(Ctx), Diags(Diags), P(P) {}

  bool run() {
    const FunctionDecl *K = P.Kernel;
    if (!K->hasAttr<CUDAGlobalAttr>()) {
      unsupported(P.Pragma.Loc,
                  "'#pragma tawa tile' must be inside a __global__ function");
      return false;
    }
    if (K->isTemplated() || K->isTemplateInstantiation()) {
      unsupported(K->getLocation(),
                  "kernel template '" + K->getNameAsString() +
                      "' in the tile vocabulary is not rewritten: "
                      "tawa-rewrite rewrites a copy of it for each "
                      "instantiation that a launch of this file makes with "
                      "constant template arguments ('" +
                      K->getNameAsString() +
                      "<...><<<...>>>(...)'); where there is one, "
                      "'tawa-rewrite --migrate' writes the copies, whose "
                      "rewrite says why one is refused");
      return false;
    }
    auto *Body = dyn_cast_or_null<CompoundStmt>(K->getBody());
    auto It = Body ? loopStatement(Body, P.Loop) : nullptr;
    if (!Body || It == Body->body_end()) {
      unsupported(P.Loop->getForLoc(), "the annotated loop must be a statement "
                                       "of the kernel body itself, not "
                                       "nested in another statement");
      return false;
    }
    bool Ok = true;
    for (auto I = Body->body_begin(); I != It; ++I)
      Ok &= prologueStmt(*I);
    Ok &= loopBody();
    for (auto I = It + 1; I != Body->body_end(); ++I)
      Ok &= epilogueStmt(*I);
    markLoopCarried();
    if (Ok)
      Ok &= builtinsAreVisible(Body);
    if (Ok)
      Ok &= classifyFamily();
    return Ok && Diags.errorCount() == ErrorsAtStart;
  }

  unsigned ErrorsAtStart = 0;

private:
  /// Parsing the value of a store (where epilogue operands may appear).
  bool InStore = false;

  /// The copied code must use blockIdx/gridDim where the rewrite can rename
  /// them.
  bool builtinsAreVisible(const CompoundStmt *Body) {
    HiddenBuiltinFinder F(Ctx.getSourceManager());
    F.TraverseStmt(const_cast<CompoundStmt *>(Body));
    if (F.Loc.isInvalid())
      return true;
    unsupported(F.Loc, F.Why);
    return false;
  }

  void unsupported(SourceLocation Loc, const Twine &Msg, SourceRange R = {}) {
    Diags.error(Loc, DiagCategory::Unsupported, Msg, R);
  }

  std::optional<unsigned> valueOf(const Expr *E) const {
    const VarDecl *VD = referencedVar(E);
    for (unsigned V = 0; V < P.Values.size(); ++V)
      if (VD && P.Values[V].Decl == VD)
        return V;
    return std::nullopt;
  }

  unsigned addValue(const VarDecl *VD, const TileType &T, Region Where) {
    TileValue V;
    V.Name = VD->getNameAsString();
    V.Kind = T.Kind;
    V.Decl = VD;
    V.Where = Where;
    V.Rows = T.Rows;
    V.Cols = T.Cols;
    V.Elem = T.Elem;
    P.Values.push_back(V);
    return P.Values.size() - 1;
  }

  TileOp &addOp(TileOp::Kind K, Region Where, const Stmt *S) {
    TileOp Op;
    Op.K = K;
    Op.Where = Where;
    Op.S = S;
    P.Ops.push_back(std::move(Op));
    return P.Ops.back();
  }

  bool prologueStmt(const Stmt *S) {
    if (auto *DS = dyn_cast<DeclStmt>(S); DS && declaresTileValues(DS))
      return tileDecl(DS, Region::Prologue);
    if (const DeclRefExpr *Use = findTileUse(S)) {
      unsupported(Use->getBeginLoc(),
                  "the code before the tile loop may declare tiles, "
                  "accumulators and row vectors, but not use them otherwise; "
                  "tile ops belong in the loop or after it",
                  S->getSourceRange());
      return false;
    }
    RoleHazardFinder F;
    F.TraverseStmt(const_cast<Stmt *>(S));
    if (F.Return && !P.PrologueReturn)
      P.PrologueReturn = F.Return;
    if (F.Found) {
      unsupported(F.Found->getBeginLoc(),
                  "the code before the tile loop uses '" + F.What +
                      "'; the rewritten kernel gives threads other roles and a "
                      "different block "
                      "size, so only blockIdx, gridDim and the parameters may "
                      "be used there");
      return false;
    }
    // The launcher builds the tensor maps from the parameters the launch
    // passes, and the tile walk runs this code once per tile.
    ParamWriteFinder W(P.Kernel);
    W.TraverseStmt(const_cast<Stmt *>(S));
    if (W.Found) {
      unsupported(W.Found->getBeginLoc(),
                  "the code before the tile loop changes the parameter '" +
                      W.Param->getName() +
                      "'; the launcher builds the tensor maps from the "
                      "values the launch passes, and the rewritten kernel "
                      "runs this code once per tile: compute the new value "
                      "into a variable of its own",
                  W.Found->getSourceRange());
      return false;
    }
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->hasAttr<CUDASharedAttr>()) {
          unsupported(VD->getLocation(),
                      "__shared__ variables are not supported in tile kernels");
          return false;
        }
    P.PlainPrologue.push_back(S);
    return true;
  }

  /// Whether `DS` declares a variable of a tile type (then all of its
  /// variables must be).
  bool declaresTileValues(const DeclStmt *DS) const {
    for (const Decl *D : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(D); VD && tileTypeOf(VD->getType()))
        return true;
    return false;
  }

  /// Declarations of tiles (loads), accumulators and row vectors.
  bool tileDecl(const DeclStmt *DS, Region Where) {
    bool Ok = true;
    for (const Decl *D : DS->decls()) {
      auto *VD = dyn_cast<VarDecl>(D);
      std::optional<TileType> T = VD ? tileTypeOf(VD->getType()) : std::nullopt;
      if (!T) {
        unsupported(D->getLocation(),
                    "declare tiles, accumulators and row vectors in "
                    "declarations of their own");
        return false;
      }
      Ok &= tileVar(DS, VD, *T, Where);
    }
    return Ok;
  }

  bool tileVar(const DeclStmt *DS, const VarDecl *VD, const TileType &T,
               Region Where) {
    const Expr *Init = VD->getInit();
    if (T.Kind == ValueKind::Tile) {
      const CallExpr *Call = asCallTo(Init, "tawa::load");
      if (!Call) {
        unsupported(VD->getLocation(),
                    "a tile is declared as 'auto t = tawa::load<R, C>(matrix, "
                    "row0, col0)'");
        return false;
      }
      return load(DS, VD, Call, Where);
    }
    if (Where == Region::Epilogue) {
      unsupported(VD->getLocation(),
                  "only 'tawa::store' may follow the tile loop");
      return false;
    }
    // Zero (or the fill) on construction, or the value of an expression.
    auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
    const bool Constructed =
        Construct && (Construct->getNumArgs() == 0 ||
                      !tileTypeOf(Construct->getArg(0)->getType()));
    const unsigned V = addValue(VD, T, Where);
    if (Constructed) {
      if (T.Kind == ValueKind::RowVector && Construct->getNumArgs() == 1 &&
          !isa<CXXDefaultArgExpr>(Construct->getArg(0)))
        P.Values[V].Fill = Construct->getArg(0)->IgnoreImpCasts();
      TileOp &Op = addOp(TileOp::Kind::Declare, Where, DS);
      Op.Target = V;
      return true;
    }
    if (Where != Region::Loop) {
      unsupported(VD->getLocation(),
                  "before the tile loop, accumulators and row vectors are "
                  "declared with their initial value (zero, or a row "
                  "vector's fill); compute them in the loop");
      return false;
    }
    std::optional<ElemExpr> E = elem(Init);
    if (!E)
      return false;
    TileOp &Op = addOp(TileOp::Kind::Assign, Where, DS);
    Op.Target = V;
    Op.Value = std::move(*E);
    return true;
  }

  /// The kernel parameter `E` names, directly or as `param.batch(b)` (then
  /// `Batch` is b). `Im2col`, where given, accepts a `tawa::Im2col`
  /// parameter too (a load's) and says whether it is one.
  const ParmVarDecl *matrixParam(const Expr *E, ElementType &Elem, StringRef Op,
                                 const Expr *&Batch, bool *Im2col = nullptr) {
    const Expr *Base = E;
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(strip(E));
        MC && MC->getMethodDecl() &&
        MC->getMethodDecl()->getName() == "batch" && MC->getNumArgs() == 1) {
      Base = MC->getImplicitObjectArgument();
      Batch = MC->getArg(0);
    }
    auto *PV = dyn_cast_or_null<ParmVarDecl>(referencedVar(Base));
    if (!PV || PV->getDeclContext() != P.Kernel) {
      unsupported(E->getBeginLoc(),
                  "the matrix of '" + Op +
                      "' must be a 'tawa::Matrix' parameter of the kernel (or "
                      "'param.batch(b)'), so that the launcher can build its "
                      "tensor map",
                  E->getSourceRange());
      return nullptr;
    }
    auto *Spec = specializationOf(PV->getType(), "tawa::Matrix");
    if (!Spec && Im2col && !Batch)
      if ((Spec = specializationOf(PV->getType(), "tawa::Im2col")))
        *Im2col = true;
    std::optional<ElementType> T =
        Spec ? classify(Spec->getTemplateArgs()[0].getAsType()) : std::nullopt;
    if (!T) {
      unsupported(
          E->getBeginLoc(),
          "element type of '" + PV->getName() +
              "' is not supported; expected __nv_bfloat16, __half, float, "
              "__nv_fp8_e4m3 or __nv_fp8_e5m2",
          E->getSourceRange());
      return nullptr;
    }
    Elem = *T;
    return PV;
  }

  /// The window of `tawa::load<R, C>(matrix, row0, col0)` (Matrix null
  /// where the matrix was reported); nullopt where the call is malformed
  /// (reported).
  std::optional<TileLoad> loadCall(const CallExpr *Call, Region Where) {
    const FunctionDecl *FD = Call->getDirectCallee();
    auto R = integralArg(FD->getTemplateSpecializationArgs(), 0);
    auto C = integralArg(FD->getTemplateSpecializationArgs(), 1);
    if (!R || !C || Call->getNumArgs() != 3) {
      unsupported(Call->getBeginLoc(),
                  "expected 'tawa::load<ROWS, COLS>(matrix, row0, col0)'");
      return std::nullopt;
    }
    TileLoad L;
    L.Where = Where;
    L.Rows = *R;
    L.Cols = *C;
    L.MatrixArg = Call->getArg(0);
    L.Matrix =
        matrixParam(Call->getArg(0), L.Elem, "tawa::load", L.Batch, &L.Im2col);
    L.Row0 = Call->getArg(1);
    L.Col0 = Call->getArg(2);
    return L;
  }

  bool load(const DeclStmt *DS, const VarDecl *VD, const CallExpr *Call,
            Region Where) {
    if (Where == Region::Epilogue) {
      unsupported(VD->getLocation(),
                  "only 'tawa::store' may follow the tile loop");
      return false;
    }
    std::optional<TileLoad> L = loadCall(Call, Where);
    if (!L)
      return false;
    L->Var = VD->getNameAsString();
    L->Decl = VD;
    // The value exists even when its load was reported, so that its uses
    // are not reported again.
    L->Value = addValue(
        VD, TileType{ValueKind::Tile, L->Rows, L->Cols, L->Elem}, Where);
    if (!L->Matrix)
      return false;
    P.Loads.push_back(*L);
    TileOp &Op = addOp(TileOp::Kind::Load, Where, DS);
    Op.Target = L->Value;
    Op.Load = P.Loads.size() - 1;
    return true;
  }

  bool loopBody() {
    auto *Body = dyn_cast<CompoundStmt>(P.Loop->getBody());
    if (!Body) {
      unsupported(P.Loop->getBody()->getBeginLoc(),
                  "the tile loop body must be a block { ... }");
      return false;
    }
    bool Ok = true;
    for (const Stmt *S : Body->body()) {
      if (isa<NullStmt>(S))
        continue;
      if (auto *DS = dyn_cast<DeclStmt>(S); DS && declaresTileValues(DS)) {
        Ok &= tileDecl(DS, Region::Loop);
        continue;
      }
      if (auto *E = dyn_cast<Expr>(S)) {
        const Parsed R = tileStatement(E, Region::Loop);
        if (R != Parsed::NotAnOp) {
          Ok &= R == Parsed::Ok;
          continue;
        }
      }
      unsupported(
          S->getBeginLoc(),
          "statement not supported in a tile loop; the loop body may hold "
          "'auto t = tawa::load<R, C>(...)' declarations, 'tawa::mma(...)' "
          "and 'tawa::mask(...)' calls, and declarations, assignments and "
          "'*=' of accumulators and row vectors",
          S->getSourceRange());
      Ok = false;
    }
    return Ok;
  }

  bool epilogueStmt(const Stmt *S) {
    if (isa<NullStmt>(S))
      return true;
    if (auto *E = dyn_cast<Expr>(S))
      if (const CallExpr *Call = asCallTo(E, "tawa::store"))
        return store(Call);
    unsupported(S->getBeginLoc(),
                "statement not supported after the tile loop; expected "
                "'tawa::store(C, row0, col0, value)' calls",
                S->getSourceRange());
    return false;
  }

  /// What a statement of the loop turned out to be.
  enum class Parsed { NotAnOp, Ok, Error };

  /// A call of a tile op, or an assignment of a tile value, as a statement
  /// (Error: one, malformed, reported).
  Parsed tileStatement(const Expr *E, Region Where) {
    auto Result = [](bool Ok) { return Ok ? Parsed::Ok : Parsed::Error; };
    const Expr *X = strip(E);
    if (const CallExpr *Call = asCallTo(X, "tawa::mma"))
      return Result(mma(Call, Where));
    if (const CallExpr *Call = asCallTo(X, "tawa::mask"))
      return Result(mask(Call, Where));
    if (const CallExpr *Call = asCallTo(X, "tawa::store")) {
      unsupported(Call->getBeginLoc(),
                  "'tawa::store' belongs after the tile loop");
      return Parsed::Error;
    }
    auto *Op = dyn_cast<CXXOperatorCallExpr>(X);
    if (!Op || Op->getNumArgs() != 2 ||
        (Op->getOperator() != OO_Equal && Op->getOperator() != OO_StarEqual))
      return Parsed::NotAnOp;
    std::optional<unsigned> Target = valueOf(Op->getArg(0));
    if (!Target)
      return Parsed::NotAnOp;
    std::optional<ElemExpr> V = elem(Op->getArg(1));
    if (!V)
      return Parsed::Error;
    const bool Scale = Op->getOperator() == OO_StarEqual;
    const TileValue &T = P.Values[*Target];
    if (T.Kind == ValueKind::Tile ||
        (Scale && (T.Kind != ValueKind::Accumulator ||
                   V->S == ElemExpr::Shape::Matrix)) ||
        (!Scale && T.Kind == ValueKind::RowVector &&
         V->S == ElemExpr::Shape::Matrix)) {
      unsupported(Op->getOperatorLoc(),
                  Scale ? "'*=' scales an accumulator by a row vector or a "
                          "scalar"
                        : "'=' assigns an accumulator or a row vector a value "
                          "of its shape");
      return Parsed::Error;
    }
    TileOp &New =
        addOp(Scale ? TileOp::Kind::Scale : TileOp::Kind::Assign, Where, E);
    New.Target = *Target;
    New.Value = std::move(*V);
    return Parsed::Ok;
  }

  /// An operand of an mma: a tile, `tawa::transpose(tile)`, or
  /// `tawa::convert<T>(accumulator)` (A only).
  bool mmaOperand(const Expr *E, bool IsA, TileOp &Op) {
    const Expr *X = strip(E);
    if (const CallExpr *T = asCallTo(X, "tawa::transpose")) {
      (IsA ? Op.TransposeA : Op.TransposeB) = true;
      X = strip(T->getArg(0));
    }
    if (IsA)
      if (const CallExpr *C = asCallTo(X, "tawa::convert")) {
        const TemplateArgumentList *Args =
            C->getDirectCallee()->getTemplateSpecializationArgs();
        std::optional<ElementType> T = Args && Args->size() > 0
                                           ? classify(Args->get(0).getAsType())
                                           : std::nullopt;
        std::optional<unsigned> V = valueOf(C->getArg(0));
        if (!T || *T == ElementType::F32 || isFp8(*T) || !V ||
            P.Values[*V].Kind != ValueKind::Accumulator) {
          unsupported(C->getBeginLoc(),
                      "expected 'tawa::convert<T>(acc)' of an accumulator, T "
                      "__nv_bfloat16 or __half",
                      C->getSourceRange());
          return false;
        }
        Op.AConvert = T;
        Op.A = *V;
        return true;
      }
    std::optional<unsigned> V = valueOf(X);
    if (!V || P.Values[*V].Kind != ValueKind::Tile) {
      unsupported(E->getBeginLoc(),
                  IsA ? "the A operand of an mma is a tile loaded with "
                        "'tawa::load', 'tawa::transpose(tile)', or "
                        "'tawa::convert<T>(acc)'"
                      : "the B operand of an mma is a tile loaded with "
                        "'tawa::load', or 'tawa::transpose(tile)'",
                  E->getSourceRange());
      return false;
    }
    (IsA ? Op.A : Op.B) = *V;
    return true;
  }

  bool mma(const CallExpr *Call, Region Where) {
    std::optional<unsigned> Acc =
        Call->getNumArgs() == 3 ? valueOf(Call->getArg(0)) : std::nullopt;
    if (!Acc || P.Values[*Acc].Kind != ValueKind::Accumulator) {
      unsupported(Call->getBeginLoc(), "expected 'tawa::mma(acc, a, b)' "
                                       "accumulating into a "
                                       "'tawa::Accumulator'");
      return false;
    }
    TileOp Op;
    Op.K = TileOp::Kind::Mma;
    Op.Where = Where;
    Op.S = Call;
    Op.Target = *Acc;
    if (!mmaOperand(Call->getArg(1), true, Op) ||
        !mmaOperand(Call->getArg(2), false, Op))
      return false;
    P.Ops.push_back(std::move(Op));
    return true;
  }

  /// `tawa::row(E)`, `tawa::col(E)`, `I + n`, `I - n`, or an integer.
  std::optional<IndexForm> index(const Expr *E) {
    const Expr *X = strip(E);
    const std::string Callee = tawaCallee(X);
    auto *Call = dyn_cast<CallExpr>(X);
    if ((Callee == "row" || Callee == "col") && Call->getNumArgs() == 1) {
      IndexForm F;
      (Callee == "row" ? F.RowCoef : F.ColCoef) = 1;
      F.Terms.push_back({1, Call->getArg(0)});
      return F;
    }
    if ((Callee == "operator+" || Callee == "operator-") &&
        Call->getNumArgs() == 2) {
      std::optional<IndexForm> F = index(Call->getArg(0));
      if (!F)
        return std::nullopt;
      F->Terms.push_back({Callee == "operator+" ? 1 : -1, Call->getArg(1)});
      return F;
    }
    if (X->getType()->isIntegerType() && !findTileUse(X)) {
      IndexForm F;
      F.Terms.push_back({1, E});
      return F;
    }
    unsupported(E->getBeginLoc(),
                "expected 'tawa::row(r0)', 'tawa::col(c0)' (plus or minus an "
                "integer) or an integer",
                E->getSourceRange());
    return std::nullopt;
  }

  bool mask(const CallExpr *Call, Region Where) {
    std::optional<unsigned> Acc =
        Call->getNumArgs() == 2 ? valueOf(Call->getArg(0)) : std::nullopt;
    if (!Acc || P.Values[*Acc].Kind != ValueKind::Accumulator) {
      unsupported(Call->getBeginLoc(),
                  "expected 'tawa::mask(acc, predicate)' on a "
                  "'tawa::Accumulator'");
      return false;
    }
    const Expr *Pred = strip(Call->getArg(1));
    const std::string Callee = tawaCallee(Pred);
    auto *C = dyn_cast<CallExpr>(Pred);
    const bool Less = Callee == "operator<" || Callee == "operator<=";
    const bool Greater = Callee == "operator>" || Callee == "operator>=";
    if ((!Less && !Greater) || C->getNumArgs() != 2) {
      unsupported(Pred->getBeginLoc(),
                  "the predicate of 'tawa::mask' compares 'tawa::row(r0)' or "
                  "'tawa::col(c0)' with an index or an integer (<, <=, >, >=)",
                  Pred->getSourceRange());
      return false;
    }
    std::optional<IndexForm> L = index(C->getArg(0)), R = index(C->getArg(1));
    if (!L || !R)
      return false;
    // a < b  <=>  a - b < 0;  a > b  <=>  b - a < 0.
    const IndexForm &Hi = Less ? *L : *R, &Lo = Less ? *R : *L;
    MaskPredicate M;
    M.Strict = Callee == "operator<" || Callee == "operator>";
    M.Form.RowCoef = Hi.RowCoef - Lo.RowCoef;
    M.Form.ColCoef = Hi.ColCoef - Lo.ColCoef;
    M.Form.Terms = Hi.Terms;
    for (auto [Sign, Term] : Lo.Terms)
      M.Form.Terms.push_back({-Sign, Term});
    if (M.Form.RowCoef < -1 || M.Form.RowCoef > 1 || M.Form.ColCoef < -1 ||
        M.Form.ColCoef > 1) {
      unsupported(Pred->getBeginLoc(),
                  "the predicate of 'tawa::mask' may compare a row with a "
                  "column, not a row with a row",
                  Pred->getSourceRange());
      return false;
    }
    TileOp &Op = addOp(TileOp::Kind::Mask, Where, Call);
    Op.Target = *Acc;
    Op.Predicate = std::move(M);
    return true;
  }

  bool store(const CallExpr *Call) {
    if (Call->getNumArgs() != 4) {
      unsupported(Call->getBeginLoc(),
                  "expected 'tawa::store(C, row0, col0, value)'");
      return false;
    }
    InStore = true;
    std::optional<ElemExpr> V = elem(Call->getArg(3));
    InStore = false;
    if (!V)
      return false;
    if (V->S == ElemExpr::Shape::Scalar) {
      unsupported(Call->getArg(3)->getBeginLoc(),
                  "the value of 'tawa::store' is an accumulator or a row "
                  "vector");
      return false;
    }
    TileStore St;
    St.Call = Call;
    St.Matrix = matrixParam(Call->getArg(0), St.Elem, "tawa::store", St.Batch);
    St.MatrixArg = Call->getArg(0);
    St.Row0 = Call->getArg(1);
    St.Col0 = Call->getArg(2);
    if (!St.Matrix)
      return false;
    TileOp &Op = addOp(TileOp::Kind::Store, Region::Epilogue, Call);
    Op.Value = std::move(*V);
    Op.Store = St;
    return true;
  }

  /// `tawa::load<R, C>(matrix, row0, col0)` in the value of a store: an
  /// epilogue operand.
  std::optional<ElemExpr> epilogueLoad(const CallExpr *Call) {
    if (!InStore) {
      unsupported(Call->getBeginLoc(),
                  "'tawa::load' inside an expression is an epilogue operand, "
                  "allowed in the value of 'tawa::store' only; in the loop, "
                  "declare tiles as 'auto t = tawa::load<R, C>(...)'",
                  Call->getSourceRange());
      return std::nullopt;
    }
    std::optional<TileLoad> L = loadCall(Call, Region::Epilogue);
    if (!L || !L->Matrix)
      return std::nullopt;
    P.EpilogueLoads.push_back(*L);
    ElemExpr Out;
    Out.E = Call;
    Out.K = ElemExpr::Kind::Tile;
    Out.S = ElemExpr::Shape::Matrix;
    Out.Load = P.EpilogueLoads.size() - 1;
    return Out;
  }

  /// An element-wise expression over accumulators, row vectors, scalars and
  /// (in the value of a store) epilogue operands.
  std::optional<ElemExpr> elem(const Expr *E) {
    const Expr *X = strip(E);
    if (const CallExpr *Load = asCallTo(X, "tawa::load"))
      return epilogueLoad(Load);
    ElemExpr Out;
    Out.E = X;
    if (std::optional<unsigned> V = valueOf(X)) {
      const TileValue &T = P.Values[*V];
      if (T.Kind == ValueKind::Tile) {
        unsupported(X->getBeginLoc(),
                    "a tile is an operand of 'tawa::mma' only; load it into "
                    "an accumulator with an mma to compute with it",
                    X->getSourceRange());
        return std::nullopt;
      }
      Out.K = ElemExpr::Kind::Value;
      Out.Value = *V;
      Out.S = T.Kind == ValueKind::Accumulator ? ElemExpr::Shape::Matrix
                                               : ElemExpr::Shape::Row;
      return Out;
    }
    if (auto *Cond = dyn_cast<ConditionalOperator>(X); Cond && findTileUse(X))
      return select(Cond);
    const std::string Callee = tawaCallee(X);
    auto *Call = dyn_cast<CallExpr>(X);
    static const std::pair<const char *, ElemExpr::Kind> Ops[] = {
        {"operator+", ElemExpr::Kind::Add},
        {"operator-", ElemExpr::Kind::Sub},
        {"operator*", ElemExpr::Kind::Mul},
        {"operator/", ElemExpr::Kind::Div},
        {"max", ElemExpr::Kind::Max},
        {"exp2", ElemExpr::Kind::Exp2},
        {"log2", ElemExpr::Kind::Log2},
        {"row_max", ElemExpr::Kind::RowMax},
        {"row_sum", ElemExpr::Kind::RowSum},
        {"relu", ElemExpr::Kind::Relu},
        {"gelu", ElemExpr::Kind::Gelu},
        {"gelu_tanh", ElemExpr::Kind::GeluTanh},
        {"silu", ElemExpr::Kind::Silu},
        {"leaky_relu", ElemExpr::Kind::LeakyRelu},
        {"tanh", ElemExpr::Kind::Tanh},
        {"sigmoid", ElemExpr::Kind::Sigmoid}};
    for (auto [Name, K] : Ops) {
      if (Callee != Name)
        continue;
      Out.K = K;
      for (const Expr *A : Call->arguments()) {
        std::optional<ElemExpr> Arg = elem(A);
        if (!Arg)
          return std::nullopt;
        Out.Args.push_back(std::move(*Arg));
      }
      Out.S = ElemExpr::Shape::Scalar;
      for (const ElemExpr &A : Out.Args)
        if (A.S == ElemExpr::Shape::Matrix ||
            (A.S == ElemExpr::Shape::Row && Out.S == ElemExpr::Shape::Scalar))
          Out.S = A.S;
      if (K == ElemExpr::Kind::RowMax || K == ElemExpr::Kind::RowSum)
        Out.S = ElemExpr::Shape::Row;
      return Out;
    }
    if (X->getType()->isArithmeticType() && !findTileUse(X)) {
      Out.K = ElemExpr::Kind::Scalar;
      Out.S = ElemExpr::Shape::Scalar;
      return Out;
    }
    unsupported(
        X->getBeginLoc(),
        "expression not supported in a tile op; expected accumulators, "
        "row vectors and scalars combined with + - * /, 'tawa::exp2', "
        "'tawa::log2', 'tawa::max', 'tawa::row_max', "
        "'tawa::row_sum', 'tawa::relu', 'tawa::gelu', "
        "'tawa::gelu_tanh', 'tawa::silu', 'tawa::leaky_relu', 'tawa::tanh' "
        "and 'tawa::sigmoid' (and, in "
        "the value of "
        "'tawa::store', tiles 'tawa::load<R, C>(...)')",
        X->getSourceRange());
    return std::nullopt;
  }

  /// `cond ? x : y` in the value of a store, the condition a scalar: only
  /// the value chosen is evaluated, in the tiled form as in the reference
  /// (`beta == 0.0f ? alpha * acc : alpha * acc + beta * tawa::load<BM,
  /// BN>(C, m0, n0)` reads no element of C where beta is 0).
  std::optional<ElemExpr> select(const ConditionalOperator *Cond) {
    if (!InStore || findTileUse(Cond->getCond())) {
      unsupported(Cond->getBeginLoc(),
                  "a conditional 'cond ? x : y' of tiles is allowed in the "
                  "value of 'tawa::store' only, its condition a scalar of "
                  "the kernel ('beta == 0.0f')",
                  Cond->getSourceRange());
      return std::nullopt;
    }
    ElemExpr Out;
    Out.E = Cond;
    Out.K = ElemExpr::Kind::Select;
    Out.S = ElemExpr::Shape::Scalar;
    ElemExpr Test;
    Test.E = Cond->getCond();
    Out.Args.push_back(std::move(Test));
    for (const Expr *Branch : {Cond->getTrueExpr(), Cond->getFalseExpr()}) {
      std::optional<ElemExpr> Arg = elem(Branch);
      if (!Arg)
        return std::nullopt;
      if (Arg->S == ElemExpr::Shape::Matrix ||
          (Arg->S == ElemExpr::Shape::Row && Out.S == ElemExpr::Shape::Scalar))
        Out.S = Arg->S;
      Out.Args.push_back(std::move(*Arg));
    }
    return Out;
  }

  void markLoopCarried() {
    for (const TileOp &Op : P.Ops)
      if (Op.Where == Region::Loop)
        for (unsigned V = 0; V < P.Values.size(); ++V)
          if (P.Values[V].Where == Region::Prologue && Op.writes(V))
            P.Values[V].LoopCarried = true;
  }

  /// One mma in the loop: a GEMM; two: attention.
  bool classifyFamily() {
    std::vector<const TileOp *> Mmas;
    for (const TileOp &Op : P.Ops)
      if (Op.K == TileOp::Kind::Mma)
        Mmas.push_back(&Op);
    if (Mmas.empty()) {
      unsupported(P.Loop->getForLoc(), "the tile loop has no 'tawa::mma'");
      return false;
    }
    if (Mmas.size() > 2) {
      unsupported(Mmas[2]->S->getBeginLoc(),
                  "a tile loop holds one 'tawa::mma' (a GEMM) or two "
                  "(attention: S = Q K^T and O += P V)");
      return false;
    }
    if (Mmas.size() == 2) {
      P.Family = KernelFamily::Attention;
      return true;
    }
    P.Family = KernelFamily::Gemm;
    return gemmView(P, Diags);
  }

  ASTContext &Ctx;
  DiagReporter &Diags;
  TileProgram &P;
};

} // namespace

const Expr *ignoreOpaque(const Expr *E) {
  while (E) {
    E = E->IgnoreImpCasts();
    auto *O = dyn_cast<OpaqueValueExpr>(E);
    if (!O || !O->getSourceExpr())
      break;
    E = O->getSourceExpr();
  }
  return E;
}

namespace {
class BuiltinReader : public RecursiveASTVisitor<BuiltinReader> {
public:
  BuiltinReader(StringRef Builtin, StringRef Member)
      : Builtin(Builtin), Member(Member) {}
  const Expr *Found = nullptr;
  bool VisitMemberExpr(MemberExpr *E) {
    check(E, E->getBase(), E->getMemberDecl()->getName(),
          isa<CXXConversionDecl>(E->getMemberDecl()));
    return true;
  }
  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) {
    check(E, E->getBaseExpr(), E->getPropertyDecl()->getName(), false);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    // The builtin read whole (`uint3 b = blockIdx;`) reads every member.
    if (!Found && E->getDecl()->getName() == Builtin && !Bases.count(E))
      Found = E;
    auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (VD && !isa<ParmVarDecl>(VD) && VD->hasInit() && Seen.insert(VD).second)
      TraverseStmt(const_cast<Expr *>(VD->getInit()));
    return true;
  }

private:
  // Visited before the base's DeclRefExpr (pre-order). `Whole`: the member
  // reads them all (the conversion of CUDA's builtin type to uint3).
  void check(const Expr *E, const Expr *Base, StringRef Name, bool Whole) {
    auto *DRE = dyn_cast<DeclRefExpr>(ignoreOpaque(Base));
    if (!DRE || DRE->getDecl()->getName() != Builtin)
      return;
    Bases.insert(DRE);
    if (!Found && (Member.empty() || Name == Member || Whole))
      Found = E;
  }
  StringRef Builtin, Member;
  llvm::SmallPtrSet<const VarDecl *, 8> Seen;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Bases;
};
} // namespace

const Expr *findBuiltinRead(const Stmt *S, StringRef Builtin,
                            StringRef Member) {
  if (!S)
    return nullptr;
  BuiltinReader V(Builtin, Member);
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Found;
}

bool readsBuiltin(const Stmt *S, StringRef Builtin, StringRef Member) {
  return findBuiltinRead(S, Builtin, Member) != nullptr;
}

std::optional<TileProgram> extractTileProgram(ASTContext &Ctx,
                                              const FunctionDecl *Kernel,
                                              const ForStmt *Loop,
                                              const TilePragma &Pragma,
                                              DiagReporter &Diags) {
  TileProgram P;
  P.Kernel = Kernel;
  P.Loop = Loop;
  P.Pragma = Pragma;
  PresumedLoc PL = Ctx.getSourceManager().getPresumedLoc(
      Ctx.getSourceManager().getExpansionLoc(Pragma.Loc));
  P.Where = (llvm::sys::path::filename(PL.getFilename()) + ":" +
             llvm::Twine(PL.getLine()))
                .str();
  Extractor X(Ctx, Diags, P);
  X.ErrorsAtStart = Diags.errorCount();
  if (!X.run())
    return std::nullopt;
  return P;
}

} // namespace tawa
