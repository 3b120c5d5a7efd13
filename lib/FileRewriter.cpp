//===- FileRewriter.cpp - the rewrite of one main file, for any driver ----===//
#include "tawa/FileRewriter.h"
#include "tawa/DeviceOnlyPragmas.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tawa {
namespace {

/// Records the #include directives of the main file.
class IncludeFinder : public PPCallbacks {
public:
  IncludeFinder(const SourceManager &SM, MainFileRecord &Out)
      : SM(SM), Out(Out) {}
  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool,
                          CharSourceRange FilenameRange, OptionalFileEntryRef,
                          StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!SM.isInMainFile(HashLoc))
      return;
    Out.Ends.push_back(FilenameRange.getEnd());
    if (FileName == "tawa/tile.h" && Out.Tile.isInvalid())
      Out.Tile = FilenameRange.getEnd();
  }

private:
  const SourceManager &SM;
  MainFileRecord &Out;
};

class Consumer : public ASTConsumer {
public:
  explicit Consumer(FileRewriter &Rewriter) : Rewriter(Rewriter) {}
  void HandleTranslationUnit(ASTContext &Ctx) override { Rewriter.run(Ctx); }

private:
  FileRewriter &Rewriter;
};

/// `Path` made absolute by `FM` (relative to the command's directory),
/// without `.` or `..`.
std::string absolutePath(FileManager &FM, StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// Every file the preprocessor enters, system headers included.
class Dependencies : public DependencyCollector {
  bool needSystemDependencies() override { return true; }
};

class RewriteAction : public ASTFrontendAction {
public:
  RewriteAction(const RewriteOptions &Opts,
                std::map<std::string, FileResult> &Results)
      : Opts(Opts), Results(Results) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    Rewriter =
        std::make_unique<FileRewriter>(CI.getDiagnostics(), Opts, nullptr);
    Rewriter->registerPPCallbacks(CI.getPreprocessor());
    if (Opts.Log)
      CI.setVerboseOutputStream(*Opts.Log);
    Deps = std::make_shared<Dependencies>();
    Deps->attachToPreprocessor(CI.getPreprocessor());
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    // Keyed by absolute path, whatever directory the command ran in.
    Path = absolutePath(CI.getFileManager(), File);
    Rewriter->result().Path = Path;
    return Rewriter->createASTConsumer();
  }

  void EndSourceFileAction() override {
    if (!Rewriter || Path.empty())
      return;
    FileResult &R = Results[Path];
    R = std::move(Rewriter->result()); // a file parsed twice keeps its last
    R.Path = Path;
    FileManager &FM = getCompilerInstance().getFileManager();
    for (const std::string &D : Deps->getDependencies())
      R.Dependencies.push_back(absolutePath(FM, D));
  }

private:
  const RewriteOptions &Opts;
  std::map<std::string, FileResult> &Results;
  std::unique_ptr<FileRewriter> Rewriter;
  std::shared_ptr<Dependencies> Deps;
  std::string Path;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const RewriteOptions &Opts,
          std::map<std::string, FileResult> &Results)
      : Opts(Opts), Results(Results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Opts, Results);
  }

private:
  RewriteOptions Opts;
  std::map<std::string, FileResult> &Results;
};

} // namespace

FileRewriter::FileRewriter(DiagnosticsEngine &Engine,
                           const RewriteOptions &Opts, DiagSink *Sink)
    : Opts(Opts), Diags(Engine, Opts.WarningsAsErrors, Sink) {
  // A file the pipeline never reaches (a fatal error first) is not written.
  Result.Failed = true;
}

FileRewriter::~FileRewriter() = default;

void FileRewriter::registerPPCallbacks(Preprocessor &PP) {
  // The preprocessor owns the handler.
  PP.AddPragmaHandler(new TawaPragmaHandler(Pragmas, Diags));
  PP.addPPCallbacks(
      std::make_unique<IncludeFinder>(PP.getSourceManager(), Includes));
  PP.addPPCallbacks(std::make_unique<DeviceOnlyPragmaFinder>(
      PP.getSourceManager(), PP.getLangOpts(), Diags, Includes.ArchConditionals,
      Includes.ArchMacros));
}

void FileRewriter::run(ASTContext &Ctx) {
  if (Ran)
    return;
  Ran = true;
  Result.Failed = false;
  if (Result.Path.empty()) {
    SourceManager &SM = Ctx.getSourceManager();
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Result.Path = absolutePath(SM.getFileManager(), Main->getName());
  }
  runRewritePipeline(Ctx, Opts, Result, Pragmas, Includes, Diags);
}

std::unique_ptr<ASTConsumer> FileRewriter::createASTConsumer() {
  return std::make_unique<Consumer>(*this);
}

std::unique_ptr<tooling::FrontendActionFactory>
makeRewriteActionFactory(const RewriteOptions &Opts,
                         std::map<std::string, FileResult> &Results) {
  return std::make_unique<Factory>(Opts, Results);
}

} // namespace tawa
