//===- CudaPipeline.cpp - libcu++'s cuda::pipeline in kernels -------------===//

#include "CudaPipeline.h"
#include "LiftSupport.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tawa {
namespace {

/// Whether `D` is declared in namespace `cuda` at the top level (through
/// inline namespaces such as libcu++'s ABI namespace), in a system header.
bool inCuda(const Decl *D) {
  if (!D || !fromSystemHeader(D))
    return false;
  const DeclContext *C = D->getDeclContext();
  while (C && C->isInlineNamespace())
    C = C->getParent();
  auto *NS = dyn_cast_or_null<NamespaceDecl>(C);
  if (!NS || NS->getName() != "cuda")
    return false;
  C = NS->getParent();
  while (C && C->isInlineNamespace())
    C = C->getParent();
  return C && C->isTranslationUnit();
}

/// Whether `RD` is the class template `cuda::<Name>` (a specialization).
bool cudaClass(const CXXRecordDecl *RD, llvm::StringRef Name) {
  return RD && RD->getIdentifier() && RD->getName() == Name && inCuda(RD);
}

const Expr *stripped(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<ExprWithCleanups>(E))
      E = C->getSubExpr();
    else if (auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      E = B->getSubExpr();
    else if (auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr();
    else if (auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
      E = F->getSubExpr();
    else if (auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() == 1 && C->getConstructor() &&
             (C->getConstructor()->isCopyOrMoveConstructor()))
      E = C->getArg(0);
    else
      return E;
  }
}

std::optional<PipelineCall> memberCall(const CXXMemberCallExpr *M) {
  const CXXMethodDecl *MD = M->getMethodDecl();
  if (!MD || !MD->getIdentifier() || !cudaClass(MD->getParent(), "pipeline") ||
      M->getNumArgs() != 0)
    return std::nullopt;
  const llvm::StringRef Name = MD->getName();
  PipelineCall P;
  P.Pipeline = M->getImplicitObjectArgument();
  if (Name == "producer_acquire")
    P.Op = PipelineCall::Acquire;
  else if (Name == "producer_commit")
    P.Op = PipelineCall::Commit;
  else if (Name == "consumer_wait")
    P.Op = PipelineCall::Wait;
  else if (Name == "consumer_release")
    P.Op = PipelineCall::Release;
  else
    return std::nullopt;
  return P;
}

} // namespace

bool isCudaPipeline(QualType T) {
  return cudaClass(T.getNonReferenceType()->getAsCXXRecordDecl(), "pipeline");
}

std::optional<PipelineCall> pipelineCall(const Expr *E) {
  E = stripped(E);
  if (auto *M = dyn_cast<CXXMemberCallExpr>(E))
    return memberCall(M);
  auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F || !F->getIdentifier() || !inCuda(F) || C->getNumArgs() == 0 ||
      !isCudaPipeline(C->getArg(C->getNumArgs() - 1)->getType()))
    return std::nullopt;
  PipelineCall P;
  P.Pipeline = C->getArg(C->getNumArgs() - 1);
  if (F->getName() == "memcpy_async" && C->getNumArgs() == 4) {
    P.Op = PipelineCall::Copy;
    P.Dst = C->getArg(0);
    P.Src = C->getArg(1);
    P.Size = C->getArg(2);
    return P;
  }
  const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
  if (F->getName() == "pipeline_consumer_wait_prior" && C->getNumArgs() == 1 &&
      Args && Args->size() == 1 &&
      Args->get(0).getKind() == TemplateArgument::Integral) {
    P.Op = PipelineCall::WaitPrior;
    P.Prior = Args->get(0).getAsIntegral().getExtValue();
    return P;
  }
  return std::nullopt;
}

bool isAlignedSize(QualType T) {
  return cudaClass(T->getAsCXXRecordDecl(), "aligned_size_t");
}

bool makesThreadPipeline(const Expr *Init) {
  auto *C = Init ? dyn_cast<CallExpr>(stripped(Init)) : nullptr;
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  return F && F->getIdentifier() && F->getName() == "make_pipeline" &&
         inCuda(F) && C->getNumArgs() == 0;
}

const Expr *copySize(const Expr *E) {
  const Expr *S = stripped(E);
  if (S->getType()->isIntegerType())
    return S;
  if (!cudaClass(S->getType()->getAsCXXRecordDecl(), "aligned_size_t"))
    return nullptr;
  if (auto *C = dyn_cast<CXXConstructExpr>(S);
      C && C->getNumArgs() == 1 && C->getArg(0)->getType()->isIntegerType())
    return stripped(C->getArg(0));
  auto *R = dyn_cast<DeclRefExpr>(S);
  auto *VD = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  if (VD && VD->getType().isConstQualified() && VD->hasInit() &&
      VD->getInit() != E)
    return copySize(VD->getInit());
  return nullptr;
}

} // namespace tawa
