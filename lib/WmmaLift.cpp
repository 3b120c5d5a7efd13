//===- WmmaLift.cpp - lifting a hand-written nvcuda::wmma GEMM loop -------===//
#include "tawa/WmmaLift.h"
#include "ActivationForm.h"
#include "LiftSupport.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace tawa {
namespace {

const VarDecl *varOf(const Expr *E) {
  auto *R = dyn_cast<DeclRefExpr>(bare(E));
  return R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
}

class WmmaLifter : LifterBase {
public:
  using LifterBase::LifterBase;

  std::optional<LiftedGemm> run() {
    Ev.Warps = true;
    // The warp's row and column in a block of warps: `warp / 2`, `warp % 2`.
    Ev.DivMod = true;
    const std::optional<AroundLoop> Around = aroundLoop();
    if (!Around)
      return std::nullopt;
    const llvm::ArrayRef<Stmt *> After = Around->After;
    if (!prologue(Around->Before) || !loopHeader() || !loopBody() ||
        !epilogue(After) || !pointersFixed(After) || !operands() || !tiles() ||
        !types())
      return std::nullopt;
    launches();
    if (StoreColMajor)
      transposeC();
    return G;
  }

private:
  bool prologue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected before the loop: the wmma fragments, index variables "
        "computed from threadIdx, blockIdx, blockDim and the parameters, "
        "pointers into the matrices and 'wmma::fill_fragment(acc, 0.0f);'";
    for (const Stmt *S : Stmts) {
      if (const CallExpr *Fill = wmmaCall(S, "fill_fragment")) {
        const VarDecl *V = varOf(Fill->getArg(0));
        if (!V || !Frags.count(V) || !isZero(Fill->getArg(1)))
          return fail(S->getBeginLoc(), "the accumulator must start at 0 "
                                        "('wmma::fill_fragment(acc, 0.0f)')");
        Zeroed = V;
        continue;
      }
      if (auto *If = dyn_cast<IfStmt>(S); If && returnsNothing(If->getThen())) {
        if (If->getElse() || If->getInit() || If->getConditionVariable() ||
            !exits(If->getCond(), ExitBounds))
          return fail(If->getBeginLoc(),
                      "expected an early return of the warps whose tile lies "
                      "outside C, 'if (row >= M || col >= N) return;'");
        continue;
      }
      auto *DS = dyn_cast<DeclStmt>(S);
      if (!DS && advance(S))
        continue;
      if (!DS)
        return fail(S->getBeginLoc(), Expected);
      for (const Decl *D : DS->decls()) {
        // `using namespace nvcuda;` and aliases declare no value.
        if (isa<UsingDirectiveDecl, UsingDecl, TypedefNameDecl,
                StaticAssertDecl>(D))
          continue;
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !declaration(VD))
          return Why.Message.empty() ? fail(D->getLocation(), Expected) : false;
      }
    }
    return true;
  }

  /// `X >= P || Y >= Q ...` of an early return: the warp goes on where
  /// X < P && Y < Q, the bounds check of its loads and its store.
  bool exits(const Expr *E, std::vector<std::pair<Poly, Extent>> &Out) {
    E = bare(E);
    auto *B = dyn_cast<BinaryOperator>(E);
    if (B && B->getOpcode() == BO_LOr)
      return exits(B->getLHS(), Out) && exits(B->getRHS(), Out);
    std::optional<Extent> P =
        B && B->getOpcode() == BO_GE ? boundOf(B->getRHS()) : std::nullopt;
    std::optional<Poly> X = P ? Ev.eval(B->getLHS()) : std::nullopt;
    if (!X)
      return false;
    Out.push_back({*X, *P});
    return true;
  }

  bool declaration(const VarDecl *VD) {
    if (std::optional<Fragment> F = fragmentOf(VD->getType())) {
      Frags[VD] = *F;
      return true;
    }
    if (VD->getType()->isPointerType() && VD->hasInit())
      return pointerDeclaration(VD);
    if (VD->getType()->isIntegerType() && VD->hasInit())
      return unchangedIndex(VD, Kernel->getBody()) &&
             bindIndex(VD, /*Opaque=*/false);
    // A scale the store applies, computed from the kernel's parameters
    // alone (`const float scale = 1.0f / sqrtf((float)K);`).
    if (!mentions(Loop, VD) && isUniformScale(VD, Kernel)) {
      Scales.push_back(VD);
      return true;
    }
    return false;
  }

  /// `for (int k = 0; k < K; k += FK)`, or a count of tiles, `for (int t
  /// = 0; t < K / FK; ++t)` (whole tiles: LiftedGemm::KFloorTile) or up to
  /// `(K + FK - 1) / FK`, a local set to either allowed.
  bool loopHeader() {
    const char *Expected =
        "expected 'for (int k = 0; k < K; k += 16)' or 'for (int t = 0; t < "
        "K / 16; ++t)', K an integer parameter or a named constant and 16 "
        "the fragments' K";
    auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
    auto *T = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond());
    if (!T || !T->hasInit() || !isZero(T->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), T) ||
        isModified(T, Loop->getBody()))
      return fail(Loop->getForLoc(), Expected);
    std::optional<int64_t> Step = loopStep(T);
    if (!Step || *Step <= 0)
      return fail(Loop->getInc() ? Loop->getInc()->getBeginLoc()
                                 : Loop->getForLoc(),
                  Expected);
    if (*Step > 1) {
      KStep = int(*Step);
      G.K = extentOf(Cond->getRHS()).value_or(Extent());
    } else if (!tileCount(Cond->getRHS())) {
      return fail(Cond->getRHS()->getBeginLoc(), Expected);
    }
    if (!G.K)
      return fail(Loop->getForLoc(), Expected);
    Ev.addSymbol(T);
    KSym = T;
    KK = Poly::constant(*Step > 1 ? 1 : KStep) * Poly::symbol(T);
    return true;
  }

  /// The loop's step: `k += S` (S a constant), or 1 for `++t`, `t++`.
  std::optional<int64_t> loopStep(const VarDecl *T) const {
    const Expr *Inc = Loop->getInc() ? bare(Loop->getInc()) : nullptr;
    if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
        U && U->isIncrementOp() && refersTo(U->getSubExpr(), T))
      return 1;
    auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc);
    if (!C || C->getOpcode() != BO_AddAssign || !refersTo(C->getLHS(), T))
      return std::nullopt;
    std::optional<Poly> S = Ev.eval(C->getRHS());
    return S ? S->constantValue() : std::nullopt;
  }

  /// A tile count `K / S` or `(K + S - 1) / S` (or a local set to one,
  /// never changed), S > 1 a constant: sets KStep and G.K, and for the
  /// floor G.KFloorTile.
  bool tileCount(const Expr *E) {
    if (auto *R = dyn_cast<DeclRefExpr>(bare(E)))
      if (auto *VD = dyn_cast<VarDecl>(R->getDecl());
          VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          VD->hasInit() && !isModified(VD, Kernel->getBody()))
        E = VD->getInit();
    auto *Div = dyn_cast<BinaryOperator>(bare(E));
    if (!Div || Div->getOpcode() != BO_Div)
      return false;
    std::optional<Poly> Den = Ev.eval(Div->getRHS());
    std::optional<Poly> Num = Ev.eval(Div->getLHS());
    std::optional<int64_t> S = Den ? Den->constantValue() : std::nullopt;
    if (!S || *S <= 1 || *S > 4096 || !Num)
      return false;
    for (const Extent &X : extents()) {
      const Poly K = Poly::symbol(X.Sym);
      if (*Num == K || *Num == K + Poly::constant(*S - 1)) {
        G.K = X;
        G.KFloorTile = *Num == K ? int(*S) : 0;
        KStep = int(*S);
        return true;
      }
    }
    return false;
  }

  /// The three calls, optionally under one bounds check.
  bool loopBody() {
    const char *Expected =
        "expected the loop body: 'wmma::load_matrix_sync' of the A and of the "
        "B fragment and 'wmma::mma_sync(acc, a, b, acc)', optionally under "
        "one bounds check";
    // Index variables may come first.
    const Stmt *S = Loop->getBody();
    if (auto *Block = dyn_cast<CompoundStmt>(S)) {
      llvm::ArrayRef<Stmt *> Rest(Block->body_begin(), Block->body_end());
      for (; !Rest.empty() && isa<DeclStmt>(Rest.front());
           Rest = Rest.drop_front())
        for (const Decl *D : cast<DeclStmt>(Rest.front())->decls()) {
          auto *VD = dyn_cast<VarDecl>(D);
          if (!VD || !VD->getType()->isIntegerType() || !declaration(VD))
            return Why.Message.empty() ? fail(D->getLocation(), Expected)
                                       : false;
        }
      if (Rest.size() == 1)
        S = Rest.front();
      else if (Rest.size() != Block->size())
        return fail(Block->getBeginLoc(), Expected);
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getElse() || If->getInit() || If->getConditionVariable() ||
          !bounds(If->getCond(), LoopBounds))
        return fail(If->getBeginLoc(), Expected);
      LoopGuarded = true;
      S = If->getThen();
    }
    auto *Calls = dyn_cast<CompoundStmt>(S);
    if (!Calls || Calls->size() != 3)
      return fail(S->getBeginLoc(), Expected);
    for (const Stmt *X : Calls->body())
      if (const Stmt *C = unwrapOnce(X); !load(C) && !mma(C))
        return Why.Message.empty() ? fail(C->getBeginLoc(), Expected) : false;
    if (!LoadA.Frag || !LoadB.Frag || !Mma)
      return fail(Calls->getBeginLoc(), Expected);
    if (!ExitBounds.empty()) {
      LoopGuarded = true;
      LoopBounds.insert(LoopBounds.end(), ExitBounds.begin(), ExitBounds.end());
    }
    return true;
  }

  struct Load {
    const VarDecl *Frag = nullptr;
    const ParmVarDecl *Ptr = nullptr;
    Extent Ld;
    Poly Offset;
    std::string BatchStride;
  };

  bool load(const Stmt *S) {
    const CallExpr *C = wmmaCall(S, "load_matrix_sync");
    if (!C || C->getNumArgs() != 3)
      return false;
    const VarDecl *V = varOf(C->getArg(0));
    auto F = V ? Frags.find(V) : Frags.end();
    if (F == Frags.end() || F->second.Use == Fragment::Acc)
      return false;
    Load &L = F->second.Use == Fragment::A ? LoadA : LoadB;
    auto P = pointer(C->getArg(1));
    L.Ld = extentOf(C->getArg(2)).value_or(Extent());
    if (L.Frag || !P || !L.Ld)
      return fail(C->getBeginLoc(),
                  "expected one 'wmma::load_matrix_sync(fragment, pointer, "
                  "ld)' per operand, the pointer a matrix parameter plus a "
                  "polynomial of the indices and ld an integer parameter or a "
                  "named constant");
    L.Frag = V;
    L.Ptr = P->first;
    std::optional<Poly> O = unbatched(P->second, L.BatchStride, C->getArg(1));
    if (!O)
      return false;
    L.Offset = *O;
    return true;
  }

  bool mma(const Stmt *S) {
    const CallExpr *C = wmmaCall(S, "mma_sync");
    if (!C || C->getNumArgs() != 4 || Mma)
      return false;
    const VarDecl *D = varOf(C->getArg(0)), *X = varOf(C->getArg(1)),
                  *Y = varOf(C->getArg(2)), *Src = varOf(C->getArg(3));
    if (!D || D != Src || D != Zeroed || !X || X != LoadA.Frag || !Y ||
        Y != LoadB.Frag)
      return fail(C->getBeginLoc(),
                  "expected 'wmma::mma_sync(acc, a, b, acc)' after the loads, "
                  "acc the fragment set to 0 before the loop");
    Mma = C;
    return true;
  }

  /// `X < P && Y < Q ...` of integer parameters P, Q.
  bool bounds(const Expr *E, std::vector<std::pair<Poly, Extent>> &Out) {
    E = bare(E);
    auto *B = dyn_cast<BinaryOperator>(E);
    if (B && B->getOpcode() == BO_LAnd)
      return bounds(B->getLHS(), Out) && bounds(B->getRHS(), Out);
    std::optional<Extent> P =
        B && B->getOpcode() == BO_LT ? boundOf(B->getRHS()) : std::nullopt;
    std::optional<Poly> X = P ? Ev.eval(B->getLHS()) : std::nullopt;
    if (!X)
      return false;
    Out.push_back({*X, *P});
    return true;
  }

  /// `[if (bounds)] wmma::store_matrix_sync(p, acc, ldc, layout);`, or
  /// under the check a C-fragment epilogue: `{ wmma::load_matrix_sync(c, p,
  /// ldc, layout); for (int i = 0; i < c.num_elements; i++) c.x[i] = alpha
  /// * acc.x[i] + beta * c.x[i]; wmma::store_matrix_sync(p, c, ldc,
  /// layout); }` (the loop's terms in any order, each scale optional).
  bool epilogue(llvm::ArrayRef<Stmt *> Stmts) {
    const char *Expected =
        "expected one store after the loop: '[if (row < M && col < N)] "
        "wmma::store_matrix_sync(C + row * ldc + col, acc, ldc, "
        "wmma::mem_row_major);' (or mem_col_major, C + row + col * ldc) of "
        "the accumulator to a float C, optionally after a C fragment loaded "
        "from the same place and 'c.x[i] = alpha * acc.x[i] + beta * "
        "c.x[i]' over its elements";
    // Index variables may come first.
    for (; !Stmts.empty() && isa<DeclStmt>(Stmts.front());
         Stmts = Stmts.drop_front())
      for (const Decl *D : cast<DeclStmt>(Stmts.front())->decls()) {
        auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !VD->getType()->isIntegerType() || !declaration(VD))
          return Why.Message.empty() ? fail(D->getLocation(), Expected) : false;
      }
    StoreAt = Stmts.empty() ? Loop->getEndLoc() : Stmts[0]->getBeginLoc();
    // `if (row >= M || col >= N) return;` before the store: the store runs
    // where the warp's tile starts inside C, as under `if (row < M && col <
    // N)`.
    bool Returns = false;
    if (auto *R = Stmts.size() > 1 ? dyn_cast<IfStmt>(Stmts[0]) : nullptr;
        R && returnsNothing(R->getThen())) {
      if (R->getElse() || R->getInit() || R->getConditionVariable() ||
          !exits(R->getCond(), StoreBounds))
        return fail(R->getBeginLoc(),
                    "expected a return of the warps whose tile lies outside "
                    "C before the store, 'if (row >= M || col >= N) return;'");
      Returns = true;
      Stmts = Stmts.drop_front();
    }
    auto *If =
        Stmts.size() == 1 && !Returns ? dyn_cast<IfStmt>(Stmts[0]) : nullptr;
    Stmt *Then = If ? If->getThen() : nullptr;
    if (If) {
      if (If->getElse() || !bounds(If->getCond(), StoreBounds))
        return fail(StoreAt, Expected);
      G.Guarded = true;
      if (auto *Block = dyn_cast<CompoundStmt>(Then))
        Stmts = llvm::ArrayRef<Stmt *>(Block->body_begin(), Block->body_end());
      else
        Stmts = llvm::ArrayRef<Stmt *>(Then);
    } else if (Returns) {
      G.Guarded = true;
    } else {
      G.Guarded = !ExitBounds.empty();
      StoreBounds = ExitBounds;
    }
    if ((If || Returns) && !ExitBounds.empty())
      return fail(StoreAt, "the warps whose tile lies outside C return early, "
                           "so the store needs no bounds check of its own");
    const VarDecl *Stored = Zeroed;
    if (Stmts.size() > 1 && !fragmentEpilogue(Stmts.drop_back(), Stored))
      return Why.Message.empty() ? fail(Stmts[0]->getBeginLoc(), Expected)
                                 : false;
    const Stmt *S = Stmts.empty() ? nullptr : single(Stmts.back());
    const CallExpr *C = wmmaCall(S, "store_matrix_sync");
    std::optional<bool> ColMajor =
        C && C->getNumArgs() == 4 ? layoutOf(C->getArg(3)) : std::nullopt;
    if (!C || !ColMajor || varOf(C->getArg(1)) != Stored ||
        !(G.Ldc = extentOf(C->getArg(2)).value_or(Extent())))
      return fail(S ? S->getBeginLoc() : StoreAt, Expected);
    StoreColMajor = *ColMajor;
    auto P = pointer(C->getArg(0));
    if (!P)
      return fail(C->getArg(0)->getBeginLoc(), Expected);
    G.C = P->first;
    std::optional<Poly> O = unbatched(P->second, G.CBatchStride, C->getArg(0));
    if (!O)
      return false;
    StoreOffset = *O;
    if (CLoad && (CLoad->Offset != StoreOffset ||
                  CLoad->BatchStride != G.CBatchStride || CLoad->Ld != G.Ldc ||
                  CLoad->ColMajor != StoreColMajor || !cInput(CLoad->Ptr)))
      return fail(C->getBeginLoc(),
                  "the C fragment must be loaded from where it is stored, or "
                  "from a float C input at the same place (D = alpha * A * B "
                  "+ beta * C, the CUDA samples' simple_wmma_gemm), with the "
                  "same leading dimension and layout");
    if (LoopGuarded && !G.Guarded)
      return fail(StoreAt, "the loads are bounds-checked, so the store must "
                           "be too: " +
                               std::string(Expected));
    return true;
  }

  /// Whether the C fragment may be loaded from `P`: C itself, or a float
  /// matrix other than A and B read at C's index (G.CIn; a C input of
  /// cuBLAS's D = alpha A B + beta C).
  bool cInput(const ParmVarDecl *P) {
    if (P == G.C)
      return true;
    if (!P || P == G.A.Data || P == G.B.Data ||
        elementOf(P->getType()->getPointeeType()) != ElementType::F32)
      return false;
    G.CIn = P;
    G.CInElem = ElementType::F32;
    return true;
  }

  /// `wmma::mem_row_major` (false) or `wmma::mem_col_major` (true).
  static std::optional<bool> layoutOf(const Expr *E) {
    auto *R = dyn_cast<DeclRefExpr>(bare(E));
    if (R && R->getDecl()->getName() == "mem_row_major")
      return false;
    if (R && R->getDecl()->getName() == "mem_col_major")
      return true;
    return std::nullopt;
  }

  /// The statements of a C-fragment epilogue before its store: an optional
  /// load of a C fragment, then a loop over the fragment's elements that
  /// sets `Stored` (the accumulator or the C fragment) to the stored value.
  bool fragmentEpilogue(llvm::ArrayRef<Stmt *> Body, const VarDecl *&Stored) {
    if (Body.size() > 2 || (Body.size() == 2 && !cLoad(Body.front())))
      return false;
    return elementLoop(Body.back(), Stored);
  }

  /// `wmma::load_matrix_sync(c, p, ldc, layout);` of an accumulator
  /// fragment of the accumulator's type.
  bool cLoad(const Stmt *S) {
    const CallExpr *C = wmmaCall(S, "load_matrix_sync");
    const VarDecl *V =
        C && C->getNumArgs() == 4 ? varOf(C->getArg(0)) : nullptr;
    if (!V || V == Zeroed || !Frags.count(V) ||
        !Ctx.hasSameType(V->getType(), Zeroed->getType()))
      return fail(S->getBeginLoc(),
                  "expected 'wmma::load_matrix_sync(c, C + ..., ldc, layout)' "
                  "of a C fragment of the accumulator's type");
    auto P = pointer(C->getArg(1));
    std::optional<bool> Layout = layoutOf(C->getArg(3));
    std::optional<Extent> Ld = extentOf(C->getArg(2));
    if (!P || !Layout || !Ld)
      return fail(S->getBeginLoc(), "expected the C fragment's pointer into "
                                    "C, its leading dimension and layout");
    CLoad = CFragment{V, P->first, {}, *Ld, *Layout, {}};
    std::optional<Poly> O = unbatched(P->second, CLoad->BatchStride, C);
    if (!O)
      return false;
    CLoad->Offset = *O;
    return true;
  }

  /// `for (int i = 0; i < f.num_elements; i++) D.x[i] = <terms>;`, f and D
  /// fragments of the accumulator's type (elements of one index then hold
  /// one element of the tile: CUDA C++ Programming Guide, "Warp Matrix
  /// Functions", element-wise operations on fragments of one type). The
  /// terms: `acc.x[i]`, optionally times a float parameter alpha, and
  /// `c.x[i]` of the loaded C fragment times a float parameter beta, in
  /// either order, the sum optionally under an activation.
  bool elementLoop(const Stmt *S, const VarDecl *&Stored) {
    const char *Expected =
        "expected 'for (int i = 0; i < c.num_elements; i++) c.x[i] = alpha * "
        "acc.x[i] + beta * c.x[i];' over the fragments' elements, the sum "
        "optionally under ReLU, GELU, SiLU, LeakyReLU, sigmoid or tanh in a "
        "form of docs/migration.md";
    if (auto *Hinted = dyn_cast<AttributedStmt>(S)) // #pragma unroll
      S = Hinted->getSubStmt();
    auto *For = dyn_cast<ForStmt>(S);
    auto *Init = For ? dyn_cast_or_null<DeclStmt>(For->getInit()) : nullptr;
    auto *I = Init && Init->isSingleDecl()
                  ? dyn_cast<VarDecl>(Init->getSingleDecl())
                  : nullptr;
    auto *Cond =
        For ? dyn_cast_or_null<BinaryOperator>(For->getCond()) : nullptr;
    auto *Inc = For && For->getInc()
                    ? dyn_cast<UnaryOperator>(bare(For->getInc()))
                    : nullptr;
    auto *Count = Cond ? dyn_cast<MemberExpr>(bare(Cond->getRHS())) : nullptr;
    const Stmt *Assign = For ? single(For->getBody()) : nullptr;
    const Expr *L = nullptr, *R = nullptr;
    if (!I || !I->hasInit() || !isZero(I->getInit()) || !Cond ||
        Cond->getOpcode() != BO_LT || !refersTo(Cond->getLHS(), I) || !Inc ||
        !Inc->isIncrementOp() || !refersTo(Inc->getSubExpr(), I) || !Count ||
        Count->getMemberDecl()->getName() != "num_elements" ||
        !accumulatorTyped(varOf(Count->getBase())) ||
        isModified(I, For->getBody()) || !Assign || !isa<Expr>(Assign))
      return fail(S->getBeginLoc(), Expected);
    if (auto *Scaled =
            dyn_cast<CompoundAssignOperator>(bare(cast<Expr>(Assign))))
      return scaledInPlace(Scaled, I, Stored) ||
             fail(S->getBeginLoc(), Expected);
    if (!assignment(Assign, L, R))
      return fail(S->getBeginLoc(), Expected);
    Stored = fragmentElement(L, I);
    if (!accumulatorTyped(Stored) ||
        (Stored != Zeroed && (!CLoad || Stored != CLoad->Frag)))
      return fail(L->getBeginLoc(), Expected);
    // An activation of the sum (ActivationForm.h).
    if (std::optional<ActivationMatch> A = activationOf(R, Ctx)) {
      G.Act = A->Kind;
      R = A->Arg;
      if (A->Kind == Activation::LeakyRelu && !leakySlope(A->Slope))
        return fail(A->Slope->getBeginLoc(), LeakySlopeExpected);
    }
    std::vector<const Expr *> Terms;
    for (const Expr *E = bare(R);;) {
      auto *Add = dyn_cast<BinaryOperator>(E);
      if (!Add || Add->getOpcode() != BO_Add) {
        Terms.insert(Terms.begin(), E);
        break;
      }
      Terms.insert(Terms.begin(), bare(Add->getRHS()));
      E = bare(Add->getLHS());
    }
    for (const Expr *T : Terms) {
      const VarDecl *Scale = nullptr;
      const VarDecl *F = scaledElement(T, I, Scale);
      const char Kind = F == Zeroed ? 'a' : CLoad && F == CLoad->Frag ? 'c' : 0;
      if (!Kind || G.Terms.find(Kind) != std::string::npos ||
          (Kind == 'c' && !Scale))
        return fail(T->getBeginLoc(), Expected);
      (Kind == 'a' ? G.Alpha : G.Beta) = Scale;
      G.Terms += Kind;
    }
    if (G.Terms.find('a') == std::string::npos)
      return fail(R->getBeginLoc(), Expected);
    return true;
  }

  /// `acc.x[i] *= alpha;`, the accumulator scaled in place (alpha a float
  /// parameter or a uniform scale): the stored value `alpha * acc`.
  bool scaledInPlace(const CompoundAssignOperator *Op, const VarDecl *I,
                     const VarDecl *&Stored) {
    Stored = fragmentElement(Op->getLHS(), I);
    auto *R = dyn_cast<DeclRefExpr>(bare(Op->getRHS()));
    auto *P = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (Op->getOpcode() != BO_MulAssign || !Stored || Stored != Zeroed || !P ||
        !P->getType()->isSpecificBuiltinType(BuiltinType::Float) ||
        (!isa<ParmVarDecl>(P) && !llvm::is_contained(Scales, P)))
      return false;
    G.Alpha = P;
    G.Terms = "a";
    return true;
  }

  /// Records in G.Slope LeakyReLU's slope `S`: a float constant, or a float
  /// parameter or uniform scale as alpha may be; false otherwise.
  bool leakySlope(const Expr *S) {
    if (std::optional<float> C = floatConstant(bare(S), Ctx)) {
      G.Slope = LeakySlope{nullptr, C};
      return true;
    }
    auto *R = dyn_cast<DeclRefExpr>(bare(S));
    auto *P = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
    if (!P || !P->getType()->isSpecificBuiltinType(BuiltinType::Float) ||
        (!isa<ParmVarDecl>(P) && !llvm::is_contained(Scales, P)))
      return false;
    G.Slope = LeakySlope{P, std::nullopt};
    return true;
  }

  /// Whether V is a fragment of the accumulator's type.
  bool accumulatorTyped(const VarDecl *V) const {
    return V && Frags.count(V) &&
           Ctx.hasSameType(V->getType(), Zeroed->getType());
  }

  /// The fragment F of `F.x[I]`, or null.
  static const VarDecl *fragmentElement(const Expr *E, const VarDecl *I) {
    auto *A = dyn_cast<ArraySubscriptExpr>(bare(E));
    auto *X = A ? dyn_cast<MemberExpr>(bare(A->getBase())) : nullptr;
    if (!X || X->getMemberDecl()->getName() != "x" || !refersTo(A->getIdx(), I))
      return nullptr;
    return varOf(X->getBase());
  }

  /// The fragment F of `F.x[I]`, `s * F.x[I]` or `F.x[I] * s`, s a float
  /// parameter or a uniform scale declared before the loop (set in Scale),
  /// or null.
  const VarDecl *scaledElement(const Expr *E, const VarDecl *I,
                               const VarDecl *&Scale) const {
    E = bare(E);
    if (const VarDecl *F = fragmentElement(E, I))
      return F;
    auto *M = dyn_cast<BinaryOperator>(E);
    if (!M || M->getOpcode() != BO_Mul)
      return nullptr;
    for (auto [S, Y] : {std::pair(M->getLHS(), M->getRHS()),
                        std::pair(M->getRHS(), M->getLHS())}) {
      auto *R = dyn_cast<DeclRefExpr>(bare(S));
      auto *P = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      const VarDecl *F = fragmentElement(Y, I);
      if (P && !isa<ParmVarDecl>(P) && !llvm::is_contained(Scales, P))
        P = nullptr;
      if (P && F && P->getType()->isSpecificBuiltinType(BuiltinType::Float)) {
        Scale = P;
        return F;
      }
    }
    return nullptr;
  }

  /// The rows and columns of the warp's tile, from the loads, and the store
  /// at the same place.
  bool operands() {
    const Fragment &FA = Frags[LoadA.Frag], &FB = Frags[LoadB.Frag];
    auto SA = LoadA.Offset.linearIn(LoadA.Ld.Sym);
    auto SB = LoadB.Offset.linearIn(LoadB.Ld.Sym);
    // A stored M x K (row-major fragment): row0 * lda + k; K x M: k * lda +
    // row0. B stored K x N (row-major): k * ldb + col0; N x K: col0 * ldb + k.
    if (SA && FA.RowMajor && SA->first == KK)
      Row0 = SA->second;
    else if (SA && !FA.RowMajor && SA->second == KK)
      Row0 = SA->first;
    else
      return fail(Mma->getBeginLoc(),
                  "the A fragment's pointer is not A + row * lda + k (a "
                  "row-major fragment) or A + k * lda + row (column-major), "
                  "row the same for the whole loop");
    if (SB && FB.RowMajor && SB->second == KK)
      Col0 = SB->first;
    else if (SB && !FB.RowMajor && SB->first == KK)
      Col0 = SB->second;
    else
      return fail(Mma->getBeginLoc(),
                  "the B fragment's pointer is not B + k * ldb + col (a "
                  "row-major fragment) or B + col * ldb + k (column-major), "
                  "col the same for the whole loop");
    for (const Poly *P : {&Row0, &Col0})
      if (P->dependsOn(KSym) || P->dependsOn(laneSymbol()))
        return fail(Mma->getBeginLoc(),
                    "the tile's row and column must be the same for every "
                    "k and every thread of the warp");
    const Poly Ldc = Poly::symbol(G.Ldc.Sym);
    if (StoreOffset != (StoreColMajor ? Row0 + Col0 * Ldc : Row0 * Ldc + Col0))
      return fail(StoreAt, "the store must write C + row * ldc + col "
                           "(mem_row_major) or C + row + col * ldc "
                           "(mem_col_major), at the row of the A fragments "
                           "and the column of the B fragments");
    G.A = {LoadA.Ptr, LoadA.Ld, FA.RowMajor, LoadA.BatchStride};
    G.B = {LoadB.Ptr, LoadB.Ld, !FB.RowMajor, LoadB.BatchStride};
    return batchAgrees(G, StoreAt) && bounded();
  }

  /// The bounds checks: the store's are exactly row < M and col < N; the
  /// loads' any of those and k < K.
  bool bounded() {
    if (!G.Guarded)
      return true;
    // Each check names M (of the row) or N (of the column), one parameter
    // each; the loads may also check k < K.
    auto named = [&](const std::pair<Poly, Extent> &B, bool Store) {
      Extent &X = B.first == Row0 ? G.M : B.first == Col0 ? G.N : Unused;
      if (&X != &Unused && (!X || X == B.second)) {
        X = B.second;
        return true;
      }
      return !Store && B.first == KK && B.second == G.K;
    };
    for (const auto &B : StoreBounds)
      if (!named(B, true))
        return fail(StoreAt, "the store's bounds check must be 'row < M && "
                             "col < N' of the tile's row and column");
    if (StoreBounds.size() != 2 || !G.M || !G.N)
      return fail(StoreAt, "the store's bounds check must be 'row < M && "
                           "col < N' of the tile's row and column");
    for (const auto &B : LoopBounds)
      if (!named(B, false))
        return fail(Loop->getBody()->getBeginLoc(),
                    "the loads' bounds check may test only 'row < M', 'col "
                    "< N' and 'k < K'");
    return true;
  }

  /// One grid coordinate: which axis it walks and the count, as C++.
  /// A grid axis the warps' tiles walk: its dimension, the tiles it counts
  /// (C++ over the launch), and whether the block's threads walk it too
  /// (the warps across for x, threadIdx.y for y), else each block has one
  /// tile along it.
  struct Axis {
    char Dim = 0;
    std::string Count;
    bool Threads = false;
    /// A block of warps W x D walked by warp / D and warp % D
    /// (splitAxis): which of the two, D, and the blocks' step W (or D).
    int Split = 0; ///< 0: none; 1: warp / D; 2: warp % D
    int64_t D = 0, Step = 0;
  };
  std::optional<Axis> axis(const Poly &P) {
    const Poly BX = Poly::symbol(blockIdxSymbol('x')),
               BY = Poly::symbol(blockIdxSymbol('y'));
    if (P == BX)
      return Axis{'x', "tawa_grid.x"};
    if (P == BY)
      return Axis{'y', "tawa_grid.y"};
    if (P == BX * Poly::symbol(warpsXSymbol()) + Poly::symbol(warpXSymbol()))
      return Axis{'x', "tawa_grid.x * (tawa_block.x / 32)", true};
    if (P == BY * Poly::symbol(blockDimSymbol('y')) +
                 Poly::symbol(threadIdxSymbol('y')))
      return Axis{'y', "tawa_grid.y * tawa_block.y", true};
    return splitAxis(P);
  }

  /// `blockIdx * S + warp / D` or `blockIdx * S + warp % D`, warp =
  /// threadIdx.x / 32: the warps of a block arranged in rows and columns.
  std::optional<Axis> splitAxis(const Poly &P) {
    for (char Dim : {'x', 'y'}) {
      auto Split = P.linearIn(blockIdxSymbol(Dim));
      if (!Split)
        continue;
      std::optional<int64_t> Step = Split->second.constantValue();
      const auto &Terms = Split->first.terms();
      if (!Step || *Step <= 0 || Terms.size() != 1 ||
          Terms.begin()->second != 1 || Terms.begin()->first.size() != 1)
        continue;
      const DivModAtom *A = Ev.atom(Terms.begin()->first.front());
      std::optional<int64_t> D = A ? A->D.constantValue() : std::nullopt;
      if (!A || A->Fixed || A->X != Poly::symbol(warpXSymbol()) || !D ||
          *D <= 0)
        continue;
      return Axis{
          Dim,
          "tawa_grid." + std::string(1, Dim) + " * " + std::to_string(*Step),
          true,
          A->Mod ? 2 : 1,
          *D,
          *Step};
    }
    return std::nullopt;
  }

  /// The two split axes of a block of warps: one walked by warp / D in
  /// steps of W, the other by warp % D in steps of D, over a block of
  /// exactly W * D warps (so that each warp has its own tile).
  std::optional<int64_t> splitWarps() const {
    if (!RowAxis->Split && !ColAxis->Split)
      return 0;
    const Axis &Div = RowAxis->Split == 1 ? *RowAxis : *ColAxis,
               &Mod = RowAxis->Split == 2 ? *RowAxis : *ColAxis;
    if (Div.Split != 1 || Mod.Split != 2 || Div.D != Mod.D || Mod.Step != Mod.D)
      return std::nullopt;
    return Div.Step * Div.D;
  }

  /// The fragments agree on their shape; the warp tiles tile the window.
  bool tiles() {
    const Fragment &FA = Frags[LoadA.Frag], &FB = Frags[LoadB.Frag],
                   &FC = Frags[Zeroed];
    if (FA.M != FC.M || FA.N != FC.N || FA.K != FC.K || FB.M != FC.M ||
        FB.N != FC.N || FB.K != FC.K || KStep != FC.K)
      return fail(Loop->getForLoc(),
                  "the fragments must have one shape, and the loop must step "
                  "k by its K");
    FM = FC.M;
    FN = FC.N;
    std::optional<Poly> R = Row0.dividedExactly(FM),
                        C = Col0.dividedExactly(FN);
    RowAxis = R ? axis(*R) : std::nullopt;
    ColAxis = C ? axis(*C) : std::nullopt;
    if (!RowAxis || !ColAxis || RowAxis->Dim == ColAxis->Dim || !splitWarps())
      return fail(Mma->getBeginLoc(),
                  "the warp's tile must be at row " + std::to_string(FM) +
                      " * r and column " + std::to_string(FN) +
                      " * c, r and c each walking one axis of the grid: "
                      "blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, "
                      "blockIdx.y * blockDim.y + threadIdx.y, or a blockIdx "
                      "alone; or, for a block of W x D warps, "
                      "blockIdx.y * W + warp / D and blockIdx.x * D + "
                      "warp % D (warp = threadIdx.x / 32)");
    return true;
  }

  bool types() {
    std::optional<ElementType> EA =
        elementOf(G.A.Data->getType()->getPointeeType());
    std::optional<ElementType> EB =
        elementOf(G.B.Data->getType()->getPointeeType());
    if (!EA || EA != EB || *EA == ElementType::F32 ||
        elementOf(Frags[LoadA.Frag].Elem) != EA)
      return fail(G.A.Data->getLocation(),
                  "A, B and their fragments must have one element type, "
                  "half or __nv_bfloat16");
    QualType TC = G.C->getType()->getPointeeType();
    if (elementOf(TC) != ElementType::F32 || TC.isConstQualified() ||
        elementOf(Frags[Zeroed].Elem) != ElementType::F32)
      return fail(G.C->getLocation(), "the accumulator and C must be float");
    G.Elem = *EA;
    G.Out = ElementType::F32;
    return intExtents(G);
  }

  /// A C stored column-major is C^T stored row-major, and C^T = B^T A^T:
  /// B^T is the first operand (N x K, B's storage read transposed), A^T
  /// the second, and the rows of C^T are C's columns.
  void transposeC() {
    std::swap(G.A, G.B);
    std::swap(G.M, G.N);
    std::swap(G.RowsCovered, G.ColsCovered);
    G.CColumnMajor = true;
  }

  /// Blocks of whole warps across; the extents multiples of the fragment.
  void launches() {
    const std::string SM = std::to_string(FM), SN = std::to_string(FN),
                      SK = std::to_string(KStep), K = G.K.Name;
    G.Tile = FM;
    G.Block = "a multiple of 32 threads across (whole warps)";
    G.BlockDiffers = "tawa_block.x % 32 != 0 || tawa_block.z != 1";
    // An epilogue that reads C: the warps that share a tile (a tile axis
    // that is a blockIdx alone) would each read what another stored, so
    // the tiled form runs only where one warp computes each tile.
    if (G.Beta) {
      auto walked = [&](char Dim) {
        return (RowAxis->Dim == Dim && RowAxis->Threads) ||
               (ColAxis->Dim == Dim && ColAxis->Threads);
      };
      if (!walked('x')) {
        G.Block = "32 threads across (one warp)";
        G.BlockDiffers = "tawa_block.x != 32 || tawa_block.z != 1";
      }
      if (!walked('y')) {
        G.Block += ", one deep";
        G.BlockDiffers += " || tawa_block.y != 1";
      }
    }
    if (const int64_t Warps = *splitWarps()) {
      // Exactly the warps the kernel arranges, one tile each.
      G.Block = std::to_string(32 * Warps) + " threads (" +
                std::to_string(Warps) + " warps), one deep";
      G.BlockDiffers = "tawa_block.x != " + std::to_string(32 * Warps) +
                       " || tawa_block.y != 1 || tawa_block.z != 1";
    }
    G.RowsCovered = RowAxis->Count + " * " + SM;
    G.ColsCovered = ColAxis->Count + " * " + SN;
    // A loop of K / FK whole tiles reads no element past its last one.
    if (G.Guarded && G.KFloorTile) {
      const std::string M = G.M.Name, N = G.N.Name;
      G.ExtentsDiffer = M + " % " + SM + " != 0 || " + N + " % " + SN + " != 0";
      G.Extents = G.M.words() + " and " + G.N.words() + " are multiples of " +
                  SM + " and " + SN;
    } else if (G.Guarded) {
      const std::string M = G.M.Name, N = G.N.Name;
      G.ExtentsDiffer = M + " % " + SM + " != 0 || " + N + " % " + SN +
                        " != 0 || " + K + " % " + SK + " != 0";
      G.Extents = G.M.words() + ", " + G.N.words() + " and " + G.K.words() +
                  " are multiples of " + SM + ", " + SN + " and " + SK;
    } else if (!G.KFloorTile) {
      G.ExtentsDiffer = K + " % " + SK + " != 0";
      G.Extents = G.K.words() + " is a multiple of " + SK;
    }
  }

  LiftedGemm G;
  llvm::DenseMap<const VarDecl *, Fragment> Frags;
  std::vector<const VarDecl *> Scales; ///< uniform scales (isUniformScale)
  const VarDecl *Zeroed = nullptr;
  Load LoadA, LoadB;
  const CallExpr *Mma = nullptr;
  std::vector<std::pair<Poly, Extent>> LoopBounds, StoreBounds, ExitBounds;
  bool LoopGuarded = false;
  bool StoreColMajor = false; ///< C stored column-major
  /// The C fragment of an epilogue, loaded from C + Offset.
  struct CFragment {
    const VarDecl *Frag = nullptr;
    const ParmVarDecl *Ptr = nullptr;
    Poly Offset;
    Extent Ld;
    bool ColMajor = false;
    std::string BatchStride;
  };
  std::optional<CFragment> CLoad;
  int KStep = 0, FM = 0, FN = 0;
  Poly KK, Row0, Col0, StoreOffset;
  Symbol KSym = nullptr;
  Extent Unused;
  std::optional<Axis> RowAxis, ColAxis;
  SourceLocation StoreAt;
};

} // namespace

std::optional<LiftedGemm> liftWmmaGemm(const FunctionDecl *Kernel,
                                       const ForStmt *Loop, ASTContext &Ctx,
                                       LiftFailure &Why,
                                       const NamedExtents *Named) {
  return WmmaLifter(Kernel, Loop, Ctx, Why, Named).run();
}

bool wmmaBeyondOneFragment(const FunctionDecl *Kernel) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitVarDecl(VarDecl *VD) {
      Found |=
          VD->hasAttr<CUDASharedAttr>() ||
          (VD->getType()->isArrayType() &&
           fragmentOf(VD->getASTContext().getBaseElementType(VD->getType())));
      return !Found;
    }
  } F;
  F.TraverseStmt(Kernel->getBody());
  return F.Found;
}

} // namespace tawa
