//===- fuzz/rewrite_fuzzer.cpp - libFuzzer target of whole-file rewriting -===//
//
// The input bytes choose a small tile kernel (tile shapes, element types,
// clauses, loop-body statements, launch sites) and a few raw bytes spliced
// into the pragma and the body; the whole rewriting action runs on it. The
// tool must not crash, its edits must apply, and a file without an annotated
// loop must come out unchanged.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"
#include "tawa/Rewriter.h"

#include <cstdlib>

namespace {

class Bytes {
public:
  Bytes(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  unsigned pick(unsigned N) { return Pos < Size ? Data[Pos++] % N : 0; }
  template <class T, size_t N> const T &from(const T (&A)[N]) {
    return A[pick(N)];
  }
  std::string raw(unsigned Max) {
    std::string S;
    for (unsigned N = pick(Max + 1); N && Pos < Size; --N) {
      char C = static_cast<char>(Data[Pos++]);
      if (C != '\n' && C != '\\')
        S += C;
    }
    return S;
  }

private:
  const uint8_t *Data;
  size_t Size;
  size_t Pos = 0;
};

std::string kernel(Bytes &B) {
  static const int Dims[] = {8, 32, 64, 96, 128, 192, 256, 264};
  static const char *Types[] = {"__nv_bfloat16", "__half", "float"};
  static const char *Clauses[] = {"",
                                  "stages(4)",
                                  "stages(2)",
                                  "stages(17)",
                                  "consumers(1)",
                                  "consumers(3)",
                                  "regs(40, 232)",
                                  "regs(24, 160)",
                                  "cluster(2)",
                                  "stages(4) consumers(2)",
                                  "shape(auto)",
                                  "shape(128, 256)",
                                  "tail(split)",
                                  "narrow(off)",
                                  "narrow(128)",
                                  "narrow(96)",
                                  "narrow(64, 128)",
                                  "narrow(128, 64, 128)"};
  static const char *Extras[] = {"", "++*count;", "__syncthreads();",
                                 "auto c = tawa::load<64, 64>(A, 0, k0);",
                                 "tawa::mma(acc, a, b);"};
  std::string T = B.from(Types), U = B.from(Types);
  int M = B.from(Dims), N = B.from(Dims), K = B.from(Dims);
  std::string S = "#include <tawa/tile.h>\n";
  S += "__global__ void k(tawa::Matrix<const " + T +
       "> A, tawa::Matrix<const " + U + "> B, tawa::Matrix<" + B.from(Types) +
       "> C, int *count) {\n";
  if (B.pick(2))
    S += "  const int m0 = blockIdx.y * " + std::to_string(M) + ";\n";
  else
    S += "  const int m0 = 0;\n";
  S += B.pick(2) ? "  const int n0 = blockIdx.x * " + std::to_string(N) + ";\n"
                 : std::string("  const int n0 = 0;\n");
  S += "  tawa::Accumulator<float, " + std::to_string(M) + ", " +
       std::to_string(N) + "> acc;\n";
  if (B.pick(8))
    S += std::string("#pragma tawa tile ") + B.from(Clauses) + " " + B.raw(6) +
         "\n";
  S += "  for (int k0 = 0; k0 < A.cols; k0 += " + std::to_string(K) + ") {\n";
  S += "    auto a = tawa::load<" + std::to_string(M) + ", " +
       std::to_string(K) + ">(A, m0, k0);\n";
  S += "    auto b = tawa::load<" + std::to_string(N) + ", " +
       std::to_string(K) + ">(B, n0, k0);\n";
  S += std::string("    ") + B.from(Extras) + "\n";
  S += B.pick(4) ? "    tawa::mma(acc, a, tawa::transpose(b));\n"
                 : "    tawa::mma(acc, a, b);\n";
  S += "  }\n";
  if (B.pick(6))
    S += "  tawa::store(C, m0, n0, acc);\n";
  S += "}\n";
  if (B.pick(2))
    S += "void run(tawa::Matrix<const " + T + "> A, tawa::Matrix<const " + U +
         "> B, tawa::Matrix<float> C) { k<<<1, 128>>>(A, B, C, nullptr); }\n";
  return S + B.raw(4) + "\n";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes B(Data, Size);
  std::string Code = kernel(B);
  std::map<std::string, tawa::FileResult> Results;
  tawa::RewriteOptions Opts;
  Opts.Explain = true;
  Opts.DumpArefs = tawa::ArefDumpFormat::Json;
  auto Factory = tawa::makeRewriteActionFactory(Opts, Results);
  tawa::fuzz::runOnCode(Factory->create(), Code);
  for (auto &[Path, R] : Results) {
    if (R.Failed)
      continue;
    llvm::Expected<std::string> Text = tawa::applyEdits(R);
    if (!Text)
      abort(); // the edits of a file that did not fail must apply
    if (R.TileLoops == 0 && *Text != R.Original)
      abort(); // a file without a tile loop changed
  }
  return 0;
}
