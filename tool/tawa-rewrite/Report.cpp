//===- Report.cpp - the batch report of a run over many files -------------===//
#include "Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace tawa::tool {
namespace {

using Status = KernelRecord::Status;

constexpr Status kStatuses[] = {Status::Rewritten, Status::Migrated,
                                Status::Refused, Status::Candidate,
                                Status::NotAnnotated};

/// The section of docs/diagnostics.md that lists a category's messages.
std::string docsLink(const std::string &Category) {
  return Category.empty() ? "" : "docs/diagnostics.md#" + Category;
}

std::string location(const std::string &Path, unsigned Line, unsigned Column) {
  return Line ? llvm::formatv("{0}:{1}:{2}", Path, Line, Column).str() : Path;
}

/// A CSV field: quoted, with quotes doubled.
std::string csv(const std::string &S) {
  std::string Out = "\"";
  for (char C : S)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

/// A Markdown table cell: no line breaks, pipes escaped.
std::string cell(const std::string &S) {
  std::string Out;
  for (char C : S)
    Out += C == '|'    ? std::string("\\|")
           : C == '\n' ? std::string(" ")
                       : std::string(1, C);
  return Out;
}

struct Totals {
  std::map<Status, unsigned> Kernels;
  unsigned Files = 0, FilesFailed = 0;
  unsigned of(Status S) const {
    auto It = Kernels.find(S);
    return It == Kernels.end() ? 0 : It->second;
  }
};

Totals count(const std::vector<FileReport> &Files) {
  Totals T;
  for (const FileReport &F : Files) {
    ++T.Files;
    T.FilesFailed += F.Failed || !F.Result;
    if (F.Result)
      for (const KernelRecord &K : F.Result->Records)
        ++T.Kernels[K.State];
  }
  return T;
}

void writeMarkdown(llvm::raw_ostream &OS, const std::vector<FileReport> &Files,
                   const Totals &T, double Seconds) {
  OS << "# tawa-rewrite report\n\n";
  OS << llvm::formatv("{0} files ({1} with errors, not written), {2:f1} s.\n\n",
                      T.Files, T.FilesFailed, Seconds);
  OS << "| kernels | count |\n|---|---|\n";
  for (Status S : kStatuses)
    OS << "| " << statusName(S) << " | " << T.of(S) << " |\n";
  OS << "\n| file | kernel | status | reason | docs |\n|---|---|---|---|---|\n";
  for (const FileReport &F : Files) {
    if (F.Failed)
      OS << "| " << cell(F.Path) << " | | "
         << (F.Result ? "errors: file not written" : "not parsed")
         << " | see the diagnostics | |\n";
    if (!F.Result)
      continue;
    for (const KernelRecord &K : F.Result->Records) {
      OS << "| " << cell(location(F.Path, K.Line, K.Column)) << " | "
         << cell(K.Name) << " | " << statusName(K.State) << " | ";
      if (K.State == Status::Refused)
        OS << cell(location(F.Path, K.ReasonLine, K.ReasonColumn) + ": " +
                   K.Reason +
                   (K.Category.empty() ? "" : " [" + K.Category + "]"));
      OS << " | ";
      if (!K.Category.empty())
        OS << "[" << K.Category << "](" << docsLink(K.Category) << ")";
      OS << " |\n";
    }
  }
}

llvm::json::Value toJson(const std::vector<FileReport> &Files, const Totals &T,
                         double Seconds) {
  llvm::json::Array Kernels, Failed;
  for (const FileReport &F : Files) {
    if (!F.Result || F.Failed)
      Failed.push_back(F.Path);
    if (!F.Result)
      continue;
    for (const KernelRecord &K : F.Result->Records) {
      llvm::json::Object O{{"file", F.Path},
                           {"kernel", K.Name},
                           {"line", K.Line},
                           {"column", K.Column},
                           {"status", statusName(K.State)}};
      if (K.State == Status::Refused) {
        O["reason"] = K.Reason;
        O["category"] = K.Category;
        O["reason_line"] = K.ReasonLine;
        O["reason_column"] = K.ReasonColumn;
        O["docs"] = docsLink(K.Category);
      }
      Kernels.push_back(std::move(O));
    }
  }
  llvm::json::Object Totals;
  for (Status S : kStatuses)
    Totals[statusName(S)] = T.of(S);
  return llvm::json::Object{{"files", T.Files},
                            {"files_with_errors", std::move(Failed)},
                            {"seconds", Seconds},
                            {"totals", std::move(Totals)},
                            {"kernels", std::move(Kernels)}};
}

void writeCsv(llvm::raw_ostream &OS, const std::vector<FileReport> &Files) {
  OS << "file,line,column,kernel,status,category,reason,reason_line,"
        "reason_column,docs\n";
  for (const FileReport &F : Files) {
    if (F.Failed)
      OS << csv(F.Path) << ",,,,"
         << csv(F.Result ? "errors: file not written" : "not parsed")
         << ",,,,,\n";
    if (!F.Result)
      continue;
    for (const KernelRecord &K : F.Result->Records)
      OS << csv(F.Path) << "," << K.Line << "," << K.Column << ","
         << csv(K.Name) << "," << csv(statusName(K.State).str()) << ","
         << csv(K.Category) << "," << csv(K.Reason) << "," << K.ReasonLine
         << "," << K.ReasonColumn << "," << csv(docsLink(K.Category)) << "\n";
  }
}

llvm::Error writeFile(const std::string &Path,
                      llvm::function_ref<void(llvm::raw_ostream &)> Write) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  Write(OS);
  return llvm::Error::success();
}

} // namespace

llvm::Error writeReports(const std::string &Prefix,
                         const std::vector<FileReport> &Files, double Seconds) {
  const Totals T = count(Files);
  if (llvm::Error E = writeFile(Prefix + ".md", [&](llvm::raw_ostream &OS) {
        writeMarkdown(OS, Files, T, Seconds);
      }))
    return E;
  if (llvm::Error E = writeFile(Prefix + ".json", [&](llvm::raw_ostream &OS) {
        OS << llvm::formatv("{0:2}", toJson(Files, T, Seconds)) << "\n";
      }))
    return E;
  return writeFile(Prefix + ".csv",
                   [&](llvm::raw_ostream &OS) { writeCsv(OS, Files); });
}

} // namespace tawa::tool
