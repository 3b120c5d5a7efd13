//===- fuzz/legacy_fuzzer.cpp - libFuzzer target of hand-written kernels --===//
//
// The input is a CUDA file (the seeds in fuzz/seeds/legacy are hand-written
// GEMMs under `#pragma tawa tile`, which the mutations break in every way);
// the rewriting action runs on it with --migrate and --suggest, so that the
// lifting front ends see what they were not written for. The tool must not
// crash, and the edits of a file that did not fail must apply.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "tawa/Rewriter.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 8192)
    return 0;
  const std::string Code(reinterpret_cast<const char *>(Data), Size);
  for (bool Migrate : {true, false}) {
    std::map<std::string, tawa::FileResult> Results;
    tawa::RewriteOptions Opts;
    Opts.Migrate = Migrate;
    Opts.Suggest = !Migrate;
    auto Factory = tawa::makeRewriteActionFactory(Opts, Results);
    tawa::fuzz::runOnCode(Factory->create(), Code);
    for (auto &[Path, R] : Results) {
      if (R.Failed)
        continue;
      llvm::Expected<std::string> Text = tawa::applyEdits(R);
      if (!Text)
        abort(); // the edits of a file that did not fail must apply
    }
  }
  return 0;
}
