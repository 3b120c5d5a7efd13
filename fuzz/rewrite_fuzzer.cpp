//===- fuzz/rewrite_fuzzer.cpp - libFuzzer target of whole-file rewriting -===//
//
// The input bytes choose a small tile kernel, a GEMM or attention (tile
// shapes, element types, clauses, loop-body statements and softmax ops,
// masks, launch sites) and a few raw bytes spliced into the pragma and the
// body; the whole rewriting action runs on it. The
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

/// An attention kernel (two mma): shapes, clauses, masks and softmax ops
/// chosen by the bytes, in and out of the accepted form.
std::string attention(Bytes &B) {
  static const int Rows[] = {64, 128, 192, 256};
  static const int Keys[] = {16, 64, 80, 128, 200, 256};
  static const int Heads[] = {64, 96, 128, 256};
  static const char *Types[] = {"__nv_bfloat16", "__half"};
  static const char *Clauses[] = {"",
                                  "overlap(off)",
                                  "overlap(on) schedule(cooperative)",
                                  "schedule(pingpong)",
                                  "persistent(on)",
                                  "persistent(off)",
                                  "stages(3)",
                                  "stages(5)",
                                  "consumers(2)",
                                  "regs(24, 240)",
                                  "cluster(2)",
                                  "narrow(off)"};
  static const char *Masks[] = {"",
                                "tawa::mask(s, tawa::col(n0) < K.rows);",
                                "tawa::mask(s, tawa::col(n0) <= tawa::row(m0));",
                                "tawa::mask(s, tawa::row(m0) + 1 > tawa::col(n0));",
                                "tawa::mask(s, tawa::col(n0) >= 7);",
                                "tawa::mask(o, tawa::col(n0) < K.rows);"};
  static const char *Softmax[] = {
      "auto m_new = tawa::max(m, tawa::row_max(s) * c);\n"
      "auto p = tawa::exp2(s * c - m_new);\n"
      "auto alpha = tawa::exp2(m - m_new);\n"
      "l = l * alpha + tawa::row_sum(p);\n"
      "o *= alpha;\n",
      "auto m_new = tawa::max(m, tawa::row_max(s));\n"
      "auto p = tawa::exp2(s - m_new);\n"
      "l = l + tawa::row_sum(p);\n",
      "auto m_new = tawa::max(m, tawa::row_max(o) * c);\n"
      "auto p = tawa::exp2(s * c - m_new);\n",
      "auto m_new = m;\n"
      "auto p = tawa::exp2(s);\n"
      "auto alpha = tawa::exp2(m - m_new);\n"
      "o *= alpha;\n"
      "alpha = m_new * 2.0f;\n"};
  const std::string T = B.from(Types), BM = std::to_string(B.from(Rows)),
                    BN = std::to_string(B.from(Keys)),
                    D = std::to_string(B.from(Heads));
  std::string S = "#include <tawa/tile.h>\n";
  S += "__global__ void attn(tawa::Matrix<const " + T +
       "> Q, tawa::Matrix<const " + T + "> K, tawa::Matrix<const " + T +
       "> V, tawa::Matrix<" + T + "> O, tawa::Matrix<float> L, float c) {\n";
  S += "  const int bh = blockIdx.y, m0 = blockIdx.x * " + BM + ";\n";
  S += "  auto q = tawa::load<" + BM + ", " + D + ">(Q.batch(bh), m0, 0);\n";
  S += "  tawa::Accumulator<float, " + BM + ", " + D + "> o;\n";
  S += "  tawa::RowVector<float, " + BM + "> m(" +
       (B.pick(4) ? "-INFINITY" : "INFINITY") + "), l;\n";
  S += std::string("#pragma tawa tile ") + B.from(Clauses) + " " + B.raw(4) +
       "\n";
  S += "  for (int n0 = 0; n0 < K.rows; n0 += " + BN + ") {\n";
  S += "    auto k = tawa::load<" + BN + ", " + D + ">(K.batch(bh), n0, 0);\n";
  S += "    auto v = tawa::load<" + BN + ", " + D + ">(V.batch(bh), n0, 0);\n";
  S += "    tawa::Accumulator<float, " + BM + ", " + BN + "> s;\n";
  S += B.pick(6) ? "    tawa::mma(s, q, tawa::transpose(k));\n"
                 : "    tawa::mma(o, q, tawa::transpose(k));\n";
  S += std::string("    ") + B.from(Masks) + "\n";
  S += B.from(Softmax);
  S += B.pick(6) ? "    tawa::mma(o, tawa::convert<" + T + ">(p), v);\n"
                 : "    tawa::mma(o, tawa::convert<" + T + ">(s), v);\n";
  if (B.pick(4))
    S += "    m = m_new;\n";
  S += "  }\n";
  if (B.pick(6))
    S += "  tawa::store(O.batch(bh), m0, 0, o / l);\n";
  if (B.pick(2))
    S += "  tawa::store(L.batch(bh), m0, 0, m + tawa::log2(l));\n";
  S += "}\n";
  if (B.pick(2))
    S += "void run(tawa::Matrix<const " + T + "> Q, tawa::Matrix<" + T +
         "> O, tawa::Matrix<float> L) { attn<<<dim3(2, 2), 128>>>(Q, Q, Q, "
         "O, L, 0.1f); }\n";
  return S + B.raw(4) + "\n";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes B(Data, Size);
  std::string Code = B.pick(3) ? kernel(B) : attention(B);
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
