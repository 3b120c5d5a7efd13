//===- CompileArgs.cpp - nvcc compile commands made usable by clang -------===//
#include "tawa/CompileArgs.h"

#include "clang/Options/Options.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <deque>

using namespace clang;

namespace tawa {
namespace {

enum class Action {
  Drop,        ///< removed, with its value, and reported
  DropQuiet,   ///< removed; the tool already passes the clang equivalent
  Arch,        ///< -gencode, -arch, -code: --cuda-gpu-arch=sm_XX
  Spell,       ///< the same option in clang's spelling (Clang + value)
  Flags,       ///< fixed clang flags (Clang, split on ' ')
  Compiler,    ///< -Xcompiler: unwrap what changes the parse
  OptionsFile, ///< --options-file: splice the file's options
  Rdc,         ///< -rdc=true: -fgpu-rdc
  Stream,      ///< --default-stream: -fgpu-default-stream=
  Language,    ///< -x cu: dropped (the tool passes -x cuda); else kept
};

struct NvccOption {
  llvm::StringRef Short, Long; ///< nvcc spellings ("" when none)
  bool TakesValue;
  Action Do;
  llvm::StringRef Clang; ///< for Spell / Flags
  llvm::StringRef Why;   ///< for Drop
};

constexpr llvm::StringRef kCodegen = "affects code generation only";
constexpr llvm::StringRef kDriver = "an nvcc driver setting";

// nvcc's options (CUDA 13.0, `nvcc --help`) that clang does not spell the
// same way. Options with the same spelling in both (-I, -D, -O3, -g, -c, -o,
// -M*) are not listed and pass through.
const NvccOption kNvccOptions[] = {
    {"-ccbin", "--compiler-bindir", true, Action::Drop, "",
     "selects nvcc's host compiler; the tool parses with clang"},
    {"-Xcompiler", "--compiler-options", true, Action::Compiler, "", ""},
    {"-Xptxas", "--ptxas-options", true, Action::Drop, "", "options of ptxas"},
    {"-Xnvlink", "--nvlink-options", true, Action::Drop, "",
     "options of nvlink"},
    {"-Xlinker", "--linker-options", true, Action::Drop, "",
     "options of the host linker"},
    {"-Xarchive", "--archive-options", true, Action::Drop, "",
     "options of the archiver"},
    {"-Xcudafe", "", true, Action::Drop, "", "options of nvcc's front end"},
    {"-gencode", "--generate-code", true, Action::Arch, "", ""},
    {"-arch", "--gpu-architecture", true, Action::Arch, "", ""},
    {"-code", "--gpu-code", true, Action::Arch, "", ""},
    {"-x", "--x", true, Action::Language, "", ""},
    {"-std", "--std", true, Action::Spell, "-std=", ""},
    {"", "--include-path", true, Action::Spell, "-I", ""},
    {"", "--system-include", true, Action::Spell, "-isystem", ""},
    {"", "--define-macro", true, Action::Spell, "-D", ""},
    {"", "--undefine-macro", true, Action::Spell, "-U", ""},
    {"", "--pre-include", true, Action::Spell, "-include", ""},
    {"", "--compile", false, Action::Flags, "-c", ""},
    {"-dc", "--device-c", false, Action::Flags, "-fgpu-rdc -c", ""},
    {"-dw", "--device-w", false, Action::Flags, "-c", ""},
    {"-rdc", "--relocatable-device-code", true, Action::Rdc, "", ""},
    {"-default-stream", "--default-stream", true, Action::Stream, "", ""},
    {"-optf", "--options-file", true, Action::OptionsFile, "", ""},
    {"-m", "--machine", true, Action::Spell, "-m", ""},
    {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr", false, Action::Drop,
     "", "clang allows constexpr host functions on the device"},
    {"-expt-extended-lambda", "--expt-extended-lambda", false, Action::Drop, "",
     "clang accepts extended lambdas without a flag"},
    {"-extended-lambda", "--extended-lambda", false, Action::Drop, "",
     "clang accepts extended lambdas without a flag"},
    {"-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
     false, Action::Drop, "", kDriver},
    {"-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker",
     false, Action::Drop, "", kDriver},
    {"-allow-unsupported-compiler", "--allow-unsupported-compiler", false,
     Action::Drop, "", kDriver},
    {"-t", "--threads", true, Action::Drop, "", kDriver},
    {"-split-compile", "--split-compile", true, Action::Drop, "", kDriver},
    {"-keep", "--keep", false, Action::Drop, "", kDriver},
    {"-keep-dir", "--keep-dir", true, Action::Drop, "", kDriver},
    {"-dryrun", "--dryrun", false, Action::Drop, "", kDriver},
    {"-cudart", "--cudart", true, Action::Drop, "", "a link setting"},
    {"-cudadevrt", "--cudadevrt", true, Action::Drop, "", "a link setting"},
    {"-dlink", "--device-link", false, Action::Drop, "", "a link setting"},
    {"-G", "--device-debug", false, Action::Drop, "", kCodegen},
    {"-lineinfo", "--generate-line-info", false, Action::Drop, "", kCodegen},
    {"-use_fast_math", "--use_fast_math", false, Action::Drop, "", kCodegen},
    {"-ftz", "--ftz", true, Action::Drop, "", kCodegen},
    {"-prec-div", "--prec-div", true, Action::Drop, "", kCodegen},
    {"-prec-sqrt", "--prec-sqrt", true, Action::Drop, "", kCodegen},
    {"-fmad", "--fmad", true, Action::Drop, "", kCodegen},
    {"-maxrregcount", "--maxrregcount", true, Action::Drop, "", kCodegen},
    {"-dlto", "--dlink-time-opt", false, Action::Drop, "", kCodegen},
    {"-lto", "", false, Action::Drop, "", kCodegen},
    {"-res-usage", "--resource-usage", false, Action::Drop, "", kCodegen},
    {"-src-in-ptx", "--source-in-ptx", false, Action::Drop, "", kCodegen},
    {"-restrict", "--restrict", false, Action::Drop, "", kCodegen},
    {"-diag-suppress", "--diag-suppress", true, Action::Drop, "",
     "nvcc's diagnostic numbers mean nothing to clang"},
    {"-diag-warn", "--diag-warn", true, Action::Drop, "",
     "nvcc's diagnostic numbers mean nothing to clang"},
    {"-diag-error", "--diag-error", true, Action::Drop, "",
     "nvcc's diagnostic numbers mean nothing to clang"},
    {"-err-no", "--display-error-number", false, Action::Drop, "",
     "an nvcc diagnostic setting"},
    {"-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets", false,
     Action::Drop, "", "an nvcc diagnostic setting"},
    {"-Werror", "--Werror", true, Action::Drop, "",
     "nvcc's warning kinds (all-warnings, ...) are not clang's"},
};

/// Values of nvcc's `-Werror <kind>`; a bare clang -Werror has none.
bool isNvccWarningKind(llvm::StringRef V) {
  return llvm::StringSwitch<bool>(V)
      .Cases({"all-warnings", "cross-execution-space-call", "reorder",
              "default-stream-launch", "missing-launch-bounds",
              "ext-lambda-captures-this", "deprecated-declarations"},
             true)
      .Default(false);
}

const NvccOption *findOption(llvm::StringRef Name) {
  for (const NvccOption &O : kNvccOptions)
    if ((!O.Short.empty() && Name == O.Short) ||
        (!O.Long.empty() && Name == O.Long))
      return &O;
  return nullptr;
}

/// sm_XX for each architecture named in an -arch/-code/-gencode value:
/// the `sm_` of `code=` when there is one, else `compute_` as `sm_`.
std::vector<std::string> architectures(llvm::StringRef Value) {
  std::vector<std::string> Sm, Compute;
  llvm::SmallVector<llvm::StringRef> Tokens;
  std::string Clean = Value.str();
  for (char &C : Clean)
    if (C == ',' || C == '=' || C == '[' || C == ']' || C == '"' || C == '\'')
      C = ' ';
  llvm::StringRef(Clean).split(Tokens, ' ', -1, false);
  for (llvm::StringRef T : Tokens) {
    if (T.starts_with("sm_") && !llvm::is_contained(Sm, T.str()))
      Sm.push_back(T.str());
    else if (T.consume_front("compute_") &&
             !llvm::is_contained(Compute, "sm_" + T.str()))
      Compute.push_back("sm_" + T.str());
  }
  return Sm.empty() ? Compute : Sm;
}

/// Parts of an -Xcompiler list that change how the file parses.
bool changesParse(llvm::StringRef Flag) {
  for (llvm::StringRef P :
       {"-D", "-U", "-I", "-isystem", "-include", "-std=", "-f", "-O", "-m"})
    if (Flag.starts_with(P))
      return true;
  return false;
}

class Adjuster {
public:
  Adjuster(llvm::StringRef Directory, const DroppedArgHandler &OnDrop)
      : Directory(Directory), OnDrop(OnDrop) {}

  std::vector<std::string> run(const std::vector<std::string> &Args) {
    if (Args.empty())
      return Args;
    bool Nvcc = isNvccCommand(Args);
    Out.push_back(Nvcc ? "clang++" : Args[0]);
    Queue.assign(Args.begin() + 1, Args.end());
    while (!Queue.empty()) {
      std::string A = std::move(Queue.front());
      Queue.pop_front();
      if (!Nvcc || !nvccOption(A))
        Out.push_back(A);
    }
    return dropUnknown();
  }

private:
  void drop(const llvm::Twine &Arg, llvm::StringRef Why) {
    if (OnDrop)
      OnDrop({Arg.str(), Why.str()});
  }

  /// Handles `A` if it is an nvcc option; false to keep it as it is.
  bool nvccOption(const std::string &A) {
    llvm::StringRef Name = A, Attached;
    bool HasAttached = false;
    if (!findOption(Name) && Name.contains('=')) {
      std::tie(Name, Attached) = llvm::StringRef(A).split('=');
      HasAttached = true;
    }
    const NvccOption *O = findOption(Name);
    if (!O)
      return false;
    if (O->TakesValue && !HasAttached && O->Do == Action::Drop &&
        Name.ends_with("Werror") &&
        (Queue.empty() || !isNvccWarningKind(Queue.front())))
      return false; // clang's own -Werror
    std::string Value = Attached.str();
    if (O->TakesValue && !HasAttached) {
      if (Queue.empty()) {
        drop(A, "its value is missing");
        return true;
      }
      Value = std::move(Queue.front());
      Queue.pop_front();
    }
    std::string Written = O->TakesValue ? A + " " + Value : A;
    if (HasAttached)
      Written = A;
    switch (O->Do) {
    case Action::Drop:
      drop(Written, O->Why);
      return true;
    case Action::DropQuiet:
      return true;
    case Action::Arch: {
      std::vector<std::string> Sm = architectures(Value);
      if (Sm.empty())
        drop(Written, "names no sm_ or compute_ architecture; the tool "
                      "parses for sm_90a");
      for (const std::string &S : Sm)
        Out.push_back("--cuda-gpu-arch=" + S);
      return true;
    }
    case Action::Spell:
      if (O->Clang == "-isystem" || O->Clang == "-include") {
        Out.push_back(O->Clang.str());
        Out.push_back(Value);
      } else {
        Out.push_back(O->Clang.str() + Value);
      }
      return true;
    case Action::Flags: {
      llvm::SmallVector<llvm::StringRef> Flags;
      O->Clang.split(Flags, ' ');
      for (llvm::StringRef F : Flags)
        Out.push_back(F.str());
      return true;
    }
    case Action::Compiler: {
      llvm::SmallVector<llvm::StringRef> Items;
      llvm::StringRef(Value).split(Items, ',', -1, false);
      for (llvm::StringRef I : Items) {
        if (changesParse(I))
          Out.push_back(I.str());
        else
          drop(Name + " " + I, "a host-compiler option that does not change "
                               "how the file parses");
      }
      return true;
    }
    case Action::OptionsFile: {
      llvm::SmallString<256> Path(Value);
      if (!Directory.empty() && llvm::sys::path::is_relative(Path)) {
        Path = Directory;
        llvm::sys::path::append(Path, Value);
      }
      auto Buf = llvm::MemoryBuffer::getFile(Path);
      if (!Buf) {
        drop(Written, "cannot read " + std::string(Path) + ": " +
                          Buf.getError().message());
        return true;
      }
      llvm::SmallVector<const char *> Tokens;
      llvm::cl::TokenizeGNUCommandLine((*Buf)->getBuffer(), Saver, Tokens);
      for (auto I = Tokens.rbegin(); I != Tokens.rend(); ++I)
        Queue.push_front(*I);
      return true;
    }
    case Action::Rdc:
      if (Value == "true")
        Out.push_back("-fgpu-rdc");
      return true;
    case Action::Stream:
      Out.push_back("-fgpu-default-stream=" + std::string(Value == "per-thread"
                                                              ? "per-thread"
                                                              : "legacy"));
      return true;
    case Action::Language:
      if (Value == "cu" || Value == "cuda")
        return true; // the tool parses as CUDA already
      Out.push_back("-x");
      Out.push_back(Value);
      return true;
    }
    return false;
  }

  /// Removes the options the clang driver does not know.
  std::vector<std::string> dropUnknown() {
    std::vector<const char *> Argv;
    for (unsigned I = 1; I < Out.size(); ++I)
      Argv.push_back(Out[I].c_str());
    unsigned MissingIndex = 0, MissingCount = 0;
    llvm::opt::InputArgList Parsed = getDriverOptTable().ParseArgs(
        Argv, MissingIndex, MissingCount,
        llvm::opt::Visibility(options::ClangOption));
    std::vector<bool> Unknown(Out.size(), false);
    for (const llvm::opt::Arg *A : Parsed.filtered(options::OPT_UNKNOWN))
      Unknown[A->getIndex() + 1] = true;
    std::vector<std::string> Kept;
    for (unsigned I = 0; I < Out.size(); ++I) {
      if (Unknown[I])
        drop(Out[I], "not a clang option");
      else
        Kept.push_back(std::move(Out[I]));
    }
    return Kept;
  }

  llvm::StringRef Directory;
  const DroppedArgHandler &OnDrop;
  std::deque<std::string> Queue;
  std::vector<std::string> Out;
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver{Alloc};
};

class CudaDatabase : public tooling::CompilationDatabase {
public:
  CudaDatabase(std::unique_ptr<tooling::CompilationDatabase> Inner,
               DroppedArgHandler OnDrop)
      : Inner(std::move(Inner)), OnDrop(std::move(OnDrop)) {}

  std::vector<tooling::CompileCommand>
  getCompileCommands(llvm::StringRef File) const override {
    std::vector<tooling::CompileCommand> Cmds = Inner->getCompileCommands(File);
    if (Cmds.size() > 1)
      Cmds.resize(1);
    for (tooling::CompileCommand &C : Cmds)
      C.CommandLine = adjustCompileCommand(C.CommandLine, C.Directory, OnDrop);
    return Cmds;
  }
  std::vector<std::string> getAllFiles() const override {
    return Inner->getAllFiles();
  }

private:
  std::unique_ptr<tooling::CompilationDatabase> Inner;
  DroppedArgHandler OnDrop;
};

} // namespace

bool isNvccCommand(const std::vector<std::string> &Args) {
  if (Args.empty())
    return false;
  if (llvm::sys::path::stem(Args[0]).starts_with("nvcc"))
    return true;
  for (unsigned I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A.starts_with("-gencode") || A.starts_with("--generate-code") ||
        A.starts_with("-ccbin") || A.starts_with("--compiler-bindir") ||
        A.starts_with("-Xcompiler") || A.starts_with("--compiler-options") ||
        A.starts_with("--expt-") || A.starts_with("-expt-") ||
        A.starts_with("-Xptxas") || A == "-x=cu" ||
        (A == "-x" && I + 1 < Args.size() && Args[I + 1] == "cu"))
      return true;
  }
  return false;
}

std::vector<std::string>
adjustCompileCommand(const std::vector<std::string> &Args,
                     llvm::StringRef Directory,
                     const DroppedArgHandler &OnDrop) {
  return Adjuster(Directory, OnDrop).run(Args);
}

tooling::ArgumentsAdjuster getNvccArgumentsAdjuster(DroppedArgHandler OnDrop) {
  return [OnDrop = std::move(OnDrop)](const tooling::CommandLineArguments &Args,
                                      llvm::StringRef) {
    return adjustCompileCommand(Args, "", OnDrop);
  };
}

std::unique_ptr<tooling::CompilationDatabase>
makeCudaCompilationDatabase(std::unique_ptr<tooling::CompilationDatabase> Inner,
                            DroppedArgHandler OnDrop) {
  return std::make_unique<CudaDatabase>(std::move(Inner), std::move(OnDrop));
}

} // namespace tawa
