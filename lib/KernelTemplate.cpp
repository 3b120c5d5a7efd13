//===- KernelTemplate.cpp - the instantiations of a kernel template -------===//
#include "tawa/KernelTemplate.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace clang;

namespace tawa {
namespace {

/// The for statement of a body that starts at `For` (an instantiation's
/// statements keep the locations of the template's).
class LoopAt : public RecursiveASTVisitor<LoopAt> {
public:
  explicit LoopAt(SourceLocation For) : For(For) {}
  bool VisitForStmt(ForStmt *S) {
    if (S->getForLoc() == For) {
      Found = S;
      return false;
    }
    return true;
  }
  const ForStmt *Found = nullptr;

private:
  SourceLocation For;
};

/// `32_float` for the arguments `<32, float>`: each run of characters that
/// cannot stand in an identifier becomes one '_', a minus sign 'm'.
std::string identifierOf(StringRef Args) {
  std::string Out;
  for (char Ch : Args) {
    if (Ch == '-')
      Ch = 'm';
    if (std::isalnum(static_cast<unsigned char>(Ch)) || Ch == '_')
      Out += Ch;
    else if (!Out.empty() && Out.back() != '_')
      Out += '_';
  }
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  return Out;
}

} // namespace

bool isKernelTemplate(const FunctionDecl *Kernel) {
  const FunctionTemplateDecl *T = Kernel->getDescribedFunctionTemplate();
  return T && !Kernel->getDeclContext()->isDependentContext();
}

std::vector<KernelInstance>
kernelInstances(const FunctionDecl *Pattern, const ForStmt *Loop,
                llvm::ArrayRef<const CUDAKernelCallExpr *> Launches,
                ASTContext &Ctx) {
  std::vector<KernelInstance> Out;
  const FunctionTemplateDecl *T = Pattern->getDescribedFunctionTemplate();
  if (!T)
    return Out;
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  for (const CUDAKernelCallExpr *L : Launches) {
    const FunctionDecl *Callee = L->getDirectCallee();
    // An explicit specialization has a body of its own, which the
    // template's pragma does not annotate.
    if (!Callee || Callee->getPrimaryTemplate() != T ||
        Callee->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
      continue;
    auto Same = llvm::find_if(Out, [&](const KernelInstance &I) {
      return I.Kernel->getCanonicalDecl() == Callee->getCanonicalDecl();
    });
    if (Same != Out.end()) {
      Same->Launches.push_back(L);
      continue;
    }
    KernelInstance I;
    I.Kernel = Callee->getDefinition() ? Callee->getDefinition() : Callee;
    if (I.Kernel->getBody()) {
      LoopAt Finder(Loop->getForLoc());
      Finder.TraverseStmt(I.Kernel->getBody());
      I.Loop = Finder.Found;
    }
    std::string Args;
    llvm::raw_string_ostream OS(Args);
    if (const TemplateArgumentList *A = Callee->getTemplateSpecializationArgs())
      printTemplateArgumentList(OS, A->asArray(), Policy);
    I.Callee = Pattern->getNameAsString() + Args;
    I.Base = Pattern->getNameAsString();
    if (std::string Id = identifierOf(Args); !Id.empty())
      I.Base += "_" + Id;
    for (int N = 2; llvm::any_of(
             Out, [&](const KernelInstance &O) { return O.Base == I.Base; });
         ++N)
      I.Base = Pattern->getNameAsString() + "_" + identifierOf(Args) + "_" +
               std::to_string(N);
    I.Launches.push_back(L);
    Out.push_back(std::move(I));
  }
  return Out;
}

} // namespace tawa
