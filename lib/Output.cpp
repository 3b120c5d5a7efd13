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
  unsigned Mode = fs::all_read | fs::all_write;
  fs::file_status Old;
  if (!fs::status(Path, Old) && fs::exists(Old))
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

} // namespace tawa
