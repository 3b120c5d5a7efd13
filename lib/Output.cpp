//===- Output.cpp - writing results: files, directories, fix YAML ---------===//
#include "tawa/Output.h"

#include "clang/Tooling/ReplacementsYaml.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace tawa {

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  auto Fail = [&](const llvm::Twine &What, std::error_code EC) {
    return llvm::createStringError(EC, "cannot write '" + Path + "': " + What +
                                           ": " + EC.message());
  };
  llvm::SmallString<256> Dir(Path);
  path::remove_filename(Dir);
  if (!Dir.empty())
    if (std::error_code EC = fs::create_directories(Dir))
      return Fail("cannot create the directory", EC);
  // A new file gets 0666 less the umask (createUniqueFile opens it so), as
  // a compiler's output does; a replaced file keeps its permission bits.
  unsigned Mode = fs::all_read | fs::all_write;
  fs::file_status Old;
  bool Replaces = !fs::status(Path, Old) && fs::exists(Old);
  if (Replaces)
    Mode = Old.permissions();

  llvm::SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = fs::createUniqueFile(Path + ".tawa-%%%%%%%%", FD,
                                                Temp, fs::OF_None, Mode))
    return Fail("cannot create a temporary file", EC);
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      fs::remove(Temp);
      return Fail("write error", EC);
    }
  }
  // createUniqueFile applies the umask; restore the replaced file's bits.
  if (Replaces)
    fs::setPermissions(Temp, static_cast<fs::perms>(Mode));
  if (std::error_code EC = fs::rename(Temp, Path)) {
    fs::remove(Temp);
    return Fail("cannot rename the temporary file", EC);
  }
  return llvm::Error::success();
}

std::string outputPathFor(llvm::StringRef Input, llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Input), Cwd;
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::SmallString<256> Rel;
  if (!fs::current_path(Cwd)) {
    path::remove_dots(Cwd, true);
    llvm::StringRef A = Abs, C = Cwd;
    if (A.starts_with(C) && A.size() > C.size() &&
        path::is_separator(A[C.size()]))
      Rel = A.drop_front(C.size() + 1);
  }
  if (Rel.empty())
    Rel = path::relative_path(Abs);
  llvm::SmallString<256> Out(Dir);
  path::append(Out, Rel);
  return std::string(Out);
}

llvm::Error exportFixes(llvm::StringRef YamlPath,
                        llvm::StringRef MainSourceFile,
                        const std::vector<clang::tooling::Replacement> &Fixes) {
  clang::tooling::TranslationUnitReplacements TU;
  TU.MainSourceFile = MainSourceFile.str();
  TU.Replacements = Fixes;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  return writeFileAtomically(YamlPath, Text);
}

/// `Path` as a Make rule writes it: a space, '#' and '$' escaped (as clang's
/// -MD does), so that Make and Ninja read the name back.
static std::string makeEscaped(llvm::StringRef Path) {
  std::string Out;
  for (unsigned I = 0; I < Path.size(); ++I) {
    char C = Path[I];
    if (C == ' ' || C == '#') {
      // The backslashes before it are doubled, then it is escaped.
      for (unsigned J = I; J > 0 && Path[J - 1] == '\\'; --J)
        Out += '\\';
      Out += '\\';
    } else if (C == '$') {
      Out += '$';
    }
    Out += C;
  }
  return Out;
}

llvm::Error writeDepfile(llvm::StringRef Path,
                         llvm::ArrayRef<DepfileRule> Rules) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  for (const DepfileRule &R : Rules) {
    OS << makeEscaped(R.Target) << ":";
    for (const std::string &D : R.Dependencies)
      OS << " \\\n  " << makeEscaped(D);
    OS << "\n";
  }
  return writeFileAtomically(Path, Text);
}

} // namespace tawa
