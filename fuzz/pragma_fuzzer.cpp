//===- fuzz/pragma_fuzzer.cpp - libFuzzer target of the pragma parser -----===//
//
// The input is the text after `#pragma tawa `; the handler must report or
// accept it without crashing, and an accepted pragma must carry clause values
// in the documented ranges.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "tawa/Pragma.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"

#include <cstdlib>

namespace {

class PragmaOnlyAction : public clang::PreprocessOnlyAction {
public:
  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    Diags = std::make_unique<tawa::DiagReporter>(CI.getDiagnostics());
    CI.getPreprocessor().AddPragmaHandler(
        new tawa::TawaPragmaHandler(Pragmas, *Diags));
    return true;
  }
  void EndSourceFileAction() override {
    for (const tawa::TilePragma &P : Pragmas) {
      if (!P.Valid)
        continue;
      if ((P.Stages && (*P.Stages < 2 || *P.Stages > 16)) ||
          (P.Consumers && (*P.Consumers < 1 || *P.Consumers > 3)) ||
          (P.Regs && ((*P.Regs).Producer > (*P.Regs).Consumer ||
                      (*P.Regs).Producer % 8 || (*P.Regs).Consumer % 8)))
        abort(); // a value outside its range was accepted
    }
  }

private:
  std::vector<tawa::TilePragma> Pragmas;
  std::unique_ptr<tawa::DiagReporter> Diags;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Code = "#pragma tawa ";
  Code.append(reinterpret_cast<const char *>(Data), Size);
  Code += "\nint x;\n";
  tawa::fuzz::runOnCode(std::make_unique<PragmaOnlyAction>(), Code);
  return 0;
}
