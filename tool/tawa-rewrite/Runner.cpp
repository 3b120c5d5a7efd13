//===- Runner.cpp - parsing the input files, several at a time ------------===//
#include "Runner.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace clang;

namespace tawa::tool {
namespace {

/// The compilation database of one precomputed command.
class OneCommand : public tooling::CompilationDatabase {
public:
  explicit OneCommand(tooling::CompileCommand C) : C(std::move(C)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef) const override {
    return {C};
  }

private:
  tooling::CompileCommand C;
};

/// Prints one file's diagnostics into a buffer as clang does, except that a
/// diagnostic without a location names the file, and that `Quiet` keeps
/// only errors and the tool's own diagnostics (with their notes).
class FileDiagnostics : public DiagnosticConsumer {
public:
  FileDiagnostics(raw_ostream &OS, DiagnosticOptions &Opts, StringRef Name,
                  bool Quiet)
      : Located(OS, Opts), Unlocated(OS, Opts), Quiet(Quiet) {
    Unlocated.setPrefix(Name.str());
  }
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Located.BeginSourceFile(LO, PP);
    Unlocated.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override {
    Located.EndSourceFile();
    Unlocated.EndSourceFile();
  }
  void finish() override {
    Located.finish();
    Unlocated.finish();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    if (Level != DiagnosticsEngine::Note)
      Shown = !Quiet || Level >= DiagnosticsEngine::Error ||
              DiagnosticIDs::IsCustomDiag(Info.getID());
    if (!Shown)
      return;
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // the counts
    (Info.getLocation().isValid() ? Located : Unlocated)
        .HandleDiagnostic(Level, Info);
  }

private:
  TextDiagnosticPrinter Located, Unlocated;
  bool Quiet;
  bool Shown = true; ///< the last diagnostic was printed (and its notes are)
};

/// Parses `J`; returns its diagnostics' text.
std::string runOne(const Job &J, const RewriteOptions &Base, bool Quiet,
                   std::map<std::string, FileResult> &Results) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  std::vector<const char *> Argv;
  for (const std::string &A : J.Command.CommandLine)
    Argv.push_back(A.c_str());
  std::unique_ptr<DiagnosticOptions> DiagOpts = CreateAndPopulateDiagOpts(Argv);
  bool Colors =
      llvm::errs().has_colors() &&
      !llvm::is_contained(J.Command.CommandLine, "-fno-color-diagnostics");
  DiagOpts->ShowColors = Colors;
  OS.enable_colors(Colors);
  FileDiagnostics Diags(OS, *DiagOpts, J.Content ? "<stdin>" : J.Path, Quiet);

  OneCommand DB(J.Command);
  // A file system of its own: ClangTool changes its working directory to
  // the command's, which on the process's would race with other threads.
  tooling::ClangTool Tool(DB, {J.Path},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.setDiagnosticConsumer(&Diags);
  Tool.setPrintErrorMessage(false);
  if (J.Content)
    Tool.mapVirtualFile(J.Path, *J.Content);
  RewriteOptions Opts = Base;
  llvm::raw_null_ostream Null;
  Opts.Log = Quiet ? static_cast<llvm::raw_ostream *>(&Null) : &OS;
  Tool.run(makeRewriteActionFactory(Opts, Results).get());
  // An error the parse went on after (the driver's, on the compile command)
  // fails the file too.
  if (Diags.getNumErrors())
    if (auto It = Results.find(J.Path); It != Results.end())
      It->second.Failed = true;
  return Text;
}

/// Counts finished files on stderr: `[=====>    ] 12/40 path` redrawn in
/// place on a terminal (cleared before a file's diagnostics), else
/// `tawa-rewrite: [12/40] path` lines.
class ProgressLine {
public:
  ProgressLine(size_t Total, bool On)
      : Total(Total), On(On), Tty(llvm::errs().is_displayed()) {}
  /// Prints a finished file's diagnostics `Text` and counts it.
  void done(const std::string &Path, const std::string &Text) {
    if (On && Tty && Drawn)
      llvm::errs() << "\r\033[K";
    llvm::errs() << Text;
    if (!On)
      return;
    ++Done;
    if (!Tty) {
      llvm::errs() << "tawa-rewrite: [" << Done << "/" << Total << "] " << Path
                   << "\n";
      return;
    }
    const size_t Width = 30, Filled = Total ? Width * Done / Total : Width;
    llvm::errs() << "[" << std::string(Filled, '=')
                 << (Filled < Width ? ">" : "")
                 << std::string(Width - Filled - (Filled < Width), ' ') << "] "
                 << Done << "/" << Total << " "
                 << llvm::sys::path::filename(Path);
    Drawn = true;
    if (Done == Total)
      llvm::errs() << "\n";
  }

private:
  size_t Total, Done = 0;
  bool On, Tty, Drawn = false;
};

} // namespace

std::map<std::string, FileResult> runJobs(const std::vector<Job> &Jobs,
                                          const RewriteOptions &Opts,
                                          unsigned Threads, bool Quiet,
                                          bool Progress) {
  std::map<std::string, FileResult> Results;
  ProgressLine Line(Jobs.size(), Progress);
  if (Threads == 1 || Jobs.size() < 2) {
    for (const Job &J : Jobs)
      Line.done(J.Path, runOne(J, Opts, Quiet, Results));
    return Results;
  }
  std::mutex Lock;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Threads));
  for (const Job &J : Jobs)
    Pool.async([&, &J = J] {
      std::map<std::string, FileResult> Mine;
      std::string Text = runOne(J, Opts, Quiet, Mine);
      std::lock_guard<std::mutex> Guard(Lock);
      Line.done(J.Path, Text);
      for (auto &[Path, R] : Mine)
        Results[Path] = std::move(R);
    });
  Pool.wait();
  return Results;
}

} // namespace tawa::tool
