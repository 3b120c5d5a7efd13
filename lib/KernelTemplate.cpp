//===- KernelTemplate.cpp - the instantiations of a kernel template -------===//
#include "tawa/KernelTemplate.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
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
/// cannot stand in an identifier, or of underscores, becomes one '_' (no
/// reserved `__` in the names made of it), a minus sign 'm'.
std::string identifierOf(StringRef Args) {
  std::string Out;
  for (char Ch : Args) {
    if (Ch == '-')
      Ch = 'm';
    if (std::isalnum(static_cast<unsigned char>(Ch)))
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

/// The text that stands for template argument `A` in a copy of the
/// template's text, or empty where there is none.
static std::string argumentText(const TemplateArgument &A,
                                const PrintingPolicy &Policy) {
  switch (A.getKind()) {
  case TemplateArgument::Integral: {
    // The parameter's own type: `unsigned N` stays unsigned in `x < N`.
    const QualType T = A.getIntegralType();
    if (T->isBooleanType())
      return A.getAsIntegral().getBoolValue() ? "true" : "false";
    llvm::SmallString<16> V;
    A.getAsIntegral().toString(V);
    if (T->isSpecificBuiltinType(BuiltinType::Int))
      return "(" + std::string(V) + ")";
    return "static_cast<" + T.getAsString(Policy) + ">(" + std::string(V) + ")";
  }
  case TemplateArgument::Type: {
    // In place of a name, a compound type's spelling can change what binds
    // to what (`const T` for T = int * is int *const, `const int *` not).
    const QualType T = A.getAsType();
    if (T->isPointerType() || T->isReferenceType() || T->isArrayType() ||
        T->isFunctionType() || T->isMemberPointerType())
      return "";
    return T.getAsString(Policy);
  }
  default:
    return "";
  }
}

/// Whether a template parameter of `Pattern` is named inside a macro's
/// expansion (where the copy's token replacement cannot reach it, and a
/// namesake at namespace scope would take its place).
static bool namedInMacro(const FunctionDecl *Pattern) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found |= isa<NonTypeTemplateParmDecl>(E->getDecl()) &&
               E->getLocation().isMacroID();
      return !Found;
    }
    bool VisitTemplateTypeParmTypeLoc(TemplateTypeParmTypeLoc L) {
      Found |= L.getNameLoc().isMacroID();
      return !Found;
    }
  } F;
  F.TraverseDecl(const_cast<FunctionDecl *>(Pattern));
  return F.Found;
}

std::optional<std::string> instantiatedKernelText(const FunctionDecl *Pattern,
                                                  const KernelInstance &I,
                                                  ASTContext &Ctx) {
  const FunctionTemplateDecl *T = Pattern->getDescribedFunctionTemplate();
  const TemplateArgumentList *Args = I.Kernel->getTemplateSpecializationArgs();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  // `__global__` is a macro: the text starts where it is written.
  if (!T || !Args || Pattern->getLocation().isMacroID() ||
      Pattern->getEndLoc().isMacroID() || namedInMacro(Pattern) ||
      Args->size() != T->getTemplateParameters()->size())
    return std::nullopt;
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressTagKeyword = true;
  Policy.FullyQualifiedName = true;
  llvm::StringMap<std::string> Replace;
  for (unsigned N = 0; N < Args->size(); ++N) {
    const NamedDecl *Param = T->getTemplateParameters()->getParam(N);
    std::string Text = argumentText(Args->get(N), Policy);
    if (Text.empty() || Param->isParameterPack() || !Param->getIdentifier())
      return std::nullopt;
    Replace[Param->getName()] = std::move(Text);
  }
  const SourceLocation Begin = SM.getExpansionLoc(Pattern->getBeginLoc());
  const SourceLocation End =
      Lexer::getLocForEndOfToken(Pattern->getEndLoc(), 0, SM, LO);
  const FileID F = SM.getFileID(Begin);
  if (End.isInvalid() || SM.getFileID(End) != F)
    return std::nullopt;
  const StringRef Buffer = SM.getBufferData(F);
  const unsigned From = SM.getFileOffset(Begin), To = SM.getFileOffset(End);
  Lexer Raw(SM.getLocForStartOfFile(F), LO, Buffer.begin(),
            Buffer.begin() + From, Buffer.end());
  std::string Out;
  unsigned Copied = From;
  const unsigned NameAt = SM.getFileOffset(Pattern->getLocation());
  Token Tok;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    const unsigned At = SM.getFileOffset(Tok.getLocation());
    if (At >= To)
      break;
    if (!Tok.is(tok::raw_identifier))
      continue;
    const StringRef Name = Tok.getRawIdentifier();
    std::string With;
    if (At == NameAt)
      With = I.Base;
    else if (auto It = Replace.find(Name); It != Replace.end())
      With = It->second;
    else
      continue;
    Out += Buffer.slice(Copied, At).str() + With;
    Copied = At + Tok.getLength();
  }
  Out += Buffer.slice(Copied, To).str();
  return Out;
}

} // namespace tawa
