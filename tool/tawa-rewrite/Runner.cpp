//===- Runner.cpp - parsing the input files, several at a time ------------===//
#include "Runner.h"
#include "tawa/KernelTemplate.h"

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

/// Parses `J`, its content `Content` where set, under `Opts`; appends its
/// diagnostics' text to `Text`. The result, nullopt where the parse made
/// none (the driver rejected the command).
std::optional<FileResult> parseOnce(const Job &J,
                                    const std::optional<std::string> &Content,
                                    RewriteOptions Opts, bool Quiet,
                                    std::string &Text) {
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
  if (Content)
    Tool.mapVirtualFile(J.Path, *Content);
  llvm::raw_null_ostream Null;
  Opts.Log = Quiet ? static_cast<llvm::raw_ostream *>(&Null) : &OS;
  std::map<std::string, FileResult> Results;
  Tool.run(makeRewriteActionFactory(Opts, Results).get());
  if (Results.empty())
    return std::nullopt;
  FileResult R = std::move(Results.begin()->second);
  // An error the parse went on after (the driver's, on the compile command)
  // fails the file too.
  R.Failed |= Diags.getNumErrors() > 0;
  return R;
}

/// `file.cu:line` of offset `At` of `Text`, the content of `Path`.
std::string lineLabel(llvm::StringRef Path, llvm::StringRef Text, size_t At) {
  return (llvm::sys::path::filename(Path) + ":" +
          llvm::Twine(Text.take_front(At).count('\n') + 1))
      .str();
}

/// How the emitted comments name a pragma at `Offset` of the migrated text,
/// `Original` with `Migration` applied: `file.cu:line` of the original where
/// the migration kept that text, else the migration's own (the pragma of a
/// lifted loop's tile-vocabulary form).
std::string pragmaLabel(llvm::StringRef Path, llvm::StringRef Original,
                        const tooling::Replacements &Migration,
                        unsigned Offset) {
  long long Delta = 0; // migrated offset - original offset, so far
  for (const tooling::Replacement &E : Migration) {
    const long long Start = E.getOffset() + Delta;
    if (Offset < Start)
      break;
    if (Offset < Start + (long long)E.getReplacementText().size()) {
      // Text the migration added: a lifted loop's tile-vocabulary form,
      // inserted after the kernel whose pragma is the last before it.
      const size_t Pragma =
          Original.take_front(E.getOffset()).rfind("#pragma tawa tile");
      const bool Copy = llvm::StringRef(E.getReplacementText())
                            .contains(tawa::kInstantiationComment);
      return Pragma == llvm::StringRef::npos
                 ? "the tile-vocabulary form that --migrate writes"
                 : lineLabel(Path, Original, Pragma) +
                       (Copy ? ", in a copy of the kernel template for one "
                               "instantiation"
                             : ", lifted into the tile vocabulary");
    }
    Delta += (long long)E.getReplacementText().size() - E.getLength();
  }
  return lineLabel(Path, Original,
                   std::min<size_t>(Offset - Delta, Original.size()));
}

/// The original kernel that `Tiled`, a kernel the migration added, is the
/// tile-vocabulary form of (`<kernel>_tiled`, `<kernel>_<arguments>_tiled`
/// for a template's instantiation) or the copy of (`<kernel>_<arguments>`,
/// a kernel template in the tile vocabulary, not a kernel of `First`): the
/// longest of `Lifted` it extends.
std::string liftedFrom(llvm::StringRef Tiled,
                       const std::vector<std::string> &Lifted,
                       const FileResult &First) {
  // A kernel template's copies (KernelTemplate.h) are new kernels named
  // after the template and their arguments.
  const bool New = llvm::none_of(
      First.Kernels, [&](const KernelResult &K) { return K.Name == Tiled; });
  std::string Best;
  for (const std::string &Name : Lifted)
    if ((Tiled.ends_with("_tiled") || New) && Tiled.starts_with(Name + "_") &&
        Name.size() > Best.size())
      Best = Name;
  return Best;
}

/// --explain of a file rewritten through its migration: each kernel of the
/// file as the first pass explained it (its lines), a lifted one as lifted,
/// then the plan of each tiled kernel the migration added, headed by the
/// kernel it came from rather than by lines of the migrated text.
std::string chainedExplanation(const FileResult &First,
                               const FileResult &Second,
                               const std::vector<std::string> &Lifted) {
  std::string Text;
  for (const KernelResult &K : First.Kernels) {
    if (!llvm::is_contained(Lifted, K.Name)) {
      Text += K.Explanation;
      continue;
    }
    llvm::StringRef Head = llvm::StringRef(K.Explanation).split('\n').first;
    const bool Copies =
        llvm::any_of(Second.Kernels, [&](const KernelResult &S) {
          return !llvm::StringRef(S.Name).ends_with("_tiled") &&
                 liftedFrom(S.Name, Lifted, First) == K.Name;
        });
    Text += Head.str() +
            (Copies ? "\n  result: rewritten per instantiation, in copies "
                      "of the kernel template (what --migrate writes), "
                      "explained below\n"
                    : "\n  result: lifted: rewritten through its "
                      "tile-vocabulary form (what --migrate writes), "
                      "explained below\n");
  }
  for (const KernelResult &K : Second.Kernels) {
    std::string From = liftedFrom(K.Name, Lifted, First);
    if (From.empty())
      continue;
    auto [Head, Rest] = llvm::StringRef(K.Explanation).split('\n');
    (void)Head;
    Text += "kernel " + K.Name +
            (llvm::StringRef(K.Name).ends_with("_tiled")
                 ? ": the tile-vocabulary form of '" + From + "'\n"
                 : ": the copy of kernel template '" + From +
                       "' for one instantiation\n") +
            Rest.str();
  }
  return Text;
}

/// The rewrite of a file whose annotated hand-written loops lift
/// (`First.Liftable`), in one run: the file migrated (what --migrate
/// writes, Migrate.h), then that rewritten. The kernels `First` rewrote
/// are rewritten again in the second pass, as they were. Nullopt, with
/// `First` standing, where a pass fails, migrates nothing or leaves a kernel
/// unrewritten. The result's edits are those of the two passes composed,
/// laid out already.
std::optional<FileResult> throughMigration(const Job &J,
                                           const RewriteOptions &Base,
                                           bool Quiet, const FileResult &First,
                                           std::string &Text) {
  RewriteOptions M = Base;
  M.Migrate = true;
  // Under --explain, the migration's diagnostics carry the details after
  // each verdict; its explanation is not used (chainedExplanation).
  M.DumpArefs = ArefDumpFormat::None;
  std::string MigrationText, RewriteText;
  std::optional<FileResult> Migrated =
      parseOnce(J, First.Original, M, Quiet, MigrationText);
  if (!Migrated || Migrated->Failed || Migrated->Edits.empty())
    return std::nullopt;
  llvm::Expected<tooling::Replacements> Migration =
      finalReplacements(*Migrated);
  llvm::Expected<std::string> Source =
      Migration ? tooling::applyAllReplacements(First.Original, *Migration)
                : Migration.takeError();
  if (!Source) {
    llvm::consumeError(Source.takeError());
    return std::nullopt;
  }
  // The second pass suggests nothing: the migration's pass did, and the
  // kernels it migrated are still in the file, without their pragmas.
  RewriteOptions Second = Base;
  Second.Suggest = false;
  Second.PragmaLabel = [&](unsigned Offset) {
    return pragmaLabel(J.Path, First.Original, *Migration, Offset);
  };
  std::optional<FileResult> R =
      parseOnce(J, *Source, Second, Quiet, RewriteText);
  // Every kernel the first pass rewrote and every one migrated must come
  // out rewritten.
  if (!R || R->Failed || R->Edits.empty() ||
      R->Rewritten < First.Rewritten + Migrated->Rewritten)
    return std::nullopt;
  // The two passes' edits, each laid out, composed into edits of the file
  // as it was (the second pass's apply to the first's result).
  llvm::Expected<tooling::Replacements> Rewrite = finalReplacements(*R);
  if (!Rewrite) {
    llvm::consumeError(Rewrite.takeError());
    return std::nullopt;
  }
  R->Edits = Migration->merge(*Rewrite);
  R->LaidOut = true;
  R->Original = First.Original;
  R->Dependencies = First.Dependencies;
  R->Liftable = 0;
  R->Candidates = First.Candidates;
  // The kernels as the file has them: those migrated are rewritten.
  R->Records = First.Records;
  std::vector<std::string> Lifted;
  for (KernelRecord &K : R->Records)
    for (const KernelRecord &Done : Migrated->Records)
      if (Done.Name == K.Name && Done.State == KernelRecord::Status::Migrated) {
        K = Done;
        K.State = KernelRecord::Status::Rewritten;
        Lifted.push_back(K.Name);
      }
  if (Base.Explain)
    R->Explanation = chainedExplanation(First, *R, Lifted);
  // The migration's diagnostics: those of the second pass repeat its
  // verdicts on the loops left as written, at the migrated text's lines.
  Text = MigrationText;
  return R;
}

/// Parses `J` and, where its hand-written loops lift and the run does not
/// migrate, rewrites its migrated form; returns the diagnostics' text.
std::string runOne(const Job &J, const RewriteOptions &Base, bool Quiet,
                   std::map<std::string, FileResult> &Results) {
  std::string Text;
  std::optional<FileResult> R = parseOnce(J, J.Content, Base, Quiet, Text);
  // Under --werror the first pass fails on the liftable loops' verdicts;
  // the migration decides.
  if (R && R->Liftable && !Base.Migrate)
    if (std::string Chained;
        std::optional<FileResult> Through =
            throughMigration(J, Base, Quiet, *R, Chained)) {
      R = std::move(Through);
      Text = std::move(Chained);
    }
  if (R) {
    std::string Path = R->Path;
    Results[Path] = std::move(*R);
  }
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
