//===- examples/gemm-fp8/main.cu - checks and times the fp8 GEMMs ---------===//
//
// fp8-check --label NAME [--shapes MxNxK,...] [--time] [--json FILE]
//
// Linked with examples/gemm-fp8/gemm_fp8.cu (the kernels as written: the
// reference) or with the file tawa-rewrite made of it; built with
// -DGEMM_LAYOUT=nn, with nn.cu (B stored K x N) or its rewrite, and B is
// passed as the K x N transpose of the same values (the baselines read the
// N x K B, the layout cuBLASLt's fp8 kernels require). For each GEMM of
// gemm_fp8.h and each shape:
//   - A (M x K) and B (N x K) are random normal values rounded to their fp8
//     type, generated on the device from a seed per shape; the scales are
//     scale_a = 0.75 and scale_b = 1.5; the output starts as a quiet NaN;
//   - the reference: A and B widened to fp32 (exactly), cuBLAS computes
//     scale_a * scale_b * A B^T in fp32 (CUBLAS_PEDANTIC_MATH: no TF32);
//   - the check passes when no output is NaN or infinite, the relative
//     Frobenius error is under 1e-2 and the largest element error
//     |c - ref| / (|ref| + rms(ref)) is under elem_tolerance(K): 2e-2 up to
//     K = 4096, growing as sqrt(K) beyond. The products of fp8 values are
//     exact in fp32; the error is the output's rounding (2^-8 of |ref| in
//     bf16, 2^-11 in fp16) and wgmma's fp8 accumulation, which keeps fewer
//     bits than fp32 (the baseline with fast accumulation does the same;
//     its errors are printed beside ours as base_rel and base_elem);
//   - with --time: medians of alternating runs of ours and of cuBLASLt's fp8
//     matmul (cublasLtMatmul, the same input and output types, alpha =
//     scale_a * scale_b) with CUBLASLT_MATMUL_DESC_FAST_ACCUM on, the
//     accumulation ours does; and of cuBLASLt with its default, more exact
//     accumulation (`exact`). Where cuBLASLt has no kernel for the types
//     (e5m2 x e5m2), the baseline takes B as e4m3 (the bytes reinterpreted:
//     it is timed, not checked), and `baseline` says so.
// Prints one line per GEMM and shape, and writes them as JSON.
//
//===----------------------------------------------------------------------===//
#include "../common/check.cuh"
#include "../common/report.h"
#include "gemm_fp8.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

// The layout of B that the linked GEMMs take: nt (N x K, the default) or nn
// (K x N).
#define GEMM_LAYOUT_ID_nt 1
#define GEMM_LAYOUT_ID_nn 2
#define GEMM_PASTE_(a, b) a##b
#define GEMM_PASTE(a, b) GEMM_PASTE_(a, b)
#ifndef GEMM_LAYOUT
#define GEMM_LAYOUT nt
#endif
#if GEMM_PASTE(GEMM_LAYOUT_ID_, GEMM_LAYOUT) == 1
#define GEMM_B_K_BY_N 0
#elif GEMM_PASTE(GEMM_LAYOUT_ID_, GEMM_LAYOUT) == 2
#define GEMM_B_K_BY_N 1
#else
#error "GEMM_LAYOUT must be nt (the default) or nn"
#endif

namespace {

using namespace check;

/// out (cols x rows) = the transpose of the rows x cols bytes `in`.
__global__ void transpose_bytes(const std::uint8_t *in, std::uint8_t *out,
                                int rows, int cols) {
  const std::size_t n = std::size_t(rows) * cols;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t r = i / cols, c = i % cols;
    out[c * rows + r] = in[i];
  }
}

constexpr int kWarmupPairs = 5, kTimedRounds = 5, kCallsPerRound = 10;
constexpr float kScaleA = 0.75f, kScaleB = 1.5f;

/// x[i] = fp8(normal), wide[i] = the same value in fp32.
template <class T>
__global__ void fill_fp8(T *x, float *wide, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    x[i] = T(normal(seed, i));
    wide[i] = float(x[i]);
  }
}

/// The GEMMs of gemm_fp8.h: input types, output type, cuBLAS type names.
enum class Gemm { E4m3Bf16, E4m3E5m2F32, E5m2F16 };
const char *gemm_name(Gemm g) {
  switch (g) {
  case Gemm::E4m3Bf16:
    return "e4m3_bf16";
  case Gemm::E4m3E5m2F32:
    return "e4m3_e5m2_f32";
  default:
    return "e5m2_f16";
  }
}
cudaDataType_t a_type(Gemm g) {
  return g == Gemm::E5m2F16 ? CUDA_R_8F_E5M2 : CUDA_R_8F_E4M3;
}
cudaDataType_t b_type(Gemm g) {
  return g == Gemm::E4m3Bf16 ? CUDA_R_8F_E4M3 : CUDA_R_8F_E5M2;
}
cudaDataType_t c_type(Gemm g) {
  return g == Gemm::E4m3Bf16      ? CUDA_R_16BF
         : g == Gemm::E4m3E5m2F32 ? CUDA_R_32F
                                  : CUDA_R_16F;
}

/// The largest element error the check accepts for a reduction of `k`
/// products: 2e-2 up to k = 4096, then growing as sqrt(k). Hopper's fp8 mma
/// keeps about 14 bits of its running sum, which costs up to about 2% of an
/// element at K = 4096 (DeepSeek-V3 technical report, arXiv 2412.19437,
/// section 3.3.2); the rounding errors of a sum of k terms grow as sqrt(k).
/// cuBLASLt's fast accumulation, the same as ours, reached 3.1e-2 at K =
/// 28672 (results/h200/fp8-tolerance/).
inline double elem_tolerance(int k) {
  return kElemTolerance * std::max(1.0, std::sqrt(k / 4096.0));
}

struct Result {
  Gemm gemm;
  Shape shape;
  Errors ours, base;
  bool timed = false;
  double ms = NAN, base_ms = NAN, exact_ms = NAN;
  std::string baseline = "cuBLASLt", error;
  bool pass() const {
    return error.empty() && ours.ok(elem_tolerance(shape.k));
  }
};

/// One cuBLASLt fp8 matmul, planned once: the row-major M x N C = A B^T is
/// the column-major N x M product B A^T, with B and A read transposed (the
/// "TN" form cuBLASLt's fp8 kernels require).
class LtGemm {
public:
  LtGemm(cublasLtHandle_t lt, const Shape &s, cudaDataType_t ta,
         cudaDataType_t tb, cudaDataType_t tc, bool fast_accum,
         std::size_t workspace) {
    CHECK(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
    CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                         sizeof(t)));
    CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &n,
                                         sizeof(n)));
    const int8_t fast = fast_accum ? 1 : 0;
    CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_FAST_ACCUM,
                                         &fast, sizeof(fast)));
    CHECK(cublasLtMatrixLayoutCreate(&la_, tb, s.k, s.n, s.k));
    CHECK(cublasLtMatrixLayoutCreate(&lb_, ta, s.k, s.m, s.k));
    CHECK(cublasLtMatrixLayoutCreate(&lc_, tc, s.n, s.m, s.n));
    cublasLtMatmulPreference_t pref{};
    CHECK(cublasLtMatmulPreferenceCreate(&pref));
    CHECK(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
        sizeof(workspace)));
    int found = 0;
    if (cublasLtMatmulAlgoGetHeuristic(lt, op_, la_, lb_, lc_, lc_, pref, 1,
                                       &heur_, &found) != CUBLAS_STATUS_SUCCESS)
      found = 0;
    found_ = found > 0;
    cublasLtMatmulPreferenceDestroy(pref);
  }
  ~LtGemm() {
    cublasLtMatrixLayoutDestroy(lc_);
    cublasLtMatrixLayoutDestroy(lb_);
    cublasLtMatrixLayoutDestroy(la_);
    cublasLtMatmulDescDestroy(op_);
  }
  bool found() const { return found_; }
  void run(cublasLtHandle_t lt, const void *a, const void *b, void *c,
           float alpha, void *workspace, std::size_t bytes,
           cudaStream_t stream) const {
    const float beta = 0;
    CHECK(cublasLtMatmul(lt, op_, &alpha, b, la_, a, lb_, &beta, c, lc_, c, lc_,
                         &heur_.algo, workspace, bytes, stream));
  }

private:
  cublasLtMatmulDesc_t op_{};
  cublasLtMatrixLayout_t la_{}, lb_{}, lc_{};
  cublasLtMatmulHeuristicResult_t heur_{};
  bool found_ = false;
};

class Runner {
public:
  Runner() {
    CHECK(cudaStreamCreate(&stream_));
    CHECK(cublasCreate(&blas_));
    CHECK(cublasSetStream(blas_, stream_));
    CHECK(cublasSetMathMode(blas_, CUBLAS_PEDANTIC_MATH));
    CHECK(cublasLtCreate(&lt_));
    CHECK(cudaMalloc(&workspace_, kWorkspace));
  }
  ~Runner() {
    cudaFree(workspace_);
    cublasLtDestroy(lt_);
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }
  Result run(Gemm g, const Shape &s, std::uint64_t seed, bool timing);

private:
  static constexpr std::size_t kWorkspace = 32u << 20;

  /// A and B as raw fp8 bytes (interpreted per GEMM), their fp32 copies,
  /// the outputs of each type, the reference and an output as float.
  struct Data {
    const Shape s;
    Buffer<std::uint8_t> a, b, b_k_by_n;
    Buffer<float> a32, b32, ref, out, c32;
    Buffer<__nv_bfloat16> c16;
    Buffer<__half> h16;
    explicit Data(const Shape &s)
        : s(s), a(std::size_t(s.m) * s.k), b(std::size_t(s.n) * s.k),
          b_k_by_n(GEMM_B_K_BY_N ? std::size_t(s.n) * s.k : 0),
          a32(std::size_t(s.m) * s.k), b32(std::size_t(s.n) * s.k),
          ref(std::size_t(s.m) * s.n), out(std::size_t(s.m) * s.n),
          c32(std::size_t(s.m) * s.n), c16(std::size_t(s.m) * s.n),
          h16(std::size_t(s.m) * s.n) {}
    void *c(Gemm g) {
      return g == Gemm::E4m3Bf16      ? static_cast<void *>(c16.p)
             : g == Gemm::E4m3E5m2F32 ? static_cast<void *>(c32.p)
                                      : static_cast<void *>(h16.p);
    }
  };

  cudaError_t ours(Gemm g, Data &x);
  void fill(Gemm g, Data &x, std::uint64_t seed);
  void output_as_float(Gemm g, Data &x);
  template <class F> double round_ms(F &&f) {
    return mean_call_ms(stream_, kCallsPerRound, f);
  }

  cudaStream_t stream_{};
  cublasHandle_t blas_{};
  cublasLtHandle_t lt_{};
  void *workspace_ = nullptr;
};

cudaError_t Runner::ours(Gemm g, Data &x) {
  const Shape &s = x.s;
  const auto *a4 = reinterpret_cast<const e4m3 *>(x.a.p);
  const auto *a5 = reinterpret_cast<const e5m2 *>(x.a.p);
  // B as the linked GEMMs take it: N x K, or its K x N transpose.
  const std::uint8_t *b = GEMM_B_K_BY_N ? x.b_k_by_n.p : x.b.p;
  const int rows = GEMM_B_K_BY_N ? s.k : s.n, cols = GEMM_B_K_BY_N ? s.n : s.k;
  const tawa::Matrix<const e4m3> b4{reinterpret_cast<const e4m3 *>(b), rows,
                                    cols, cols};
  const tawa::Matrix<const e5m2> b5{reinterpret_cast<const e5m2 *>(b), rows,
                                    cols, cols};
  switch (g) {
  case Gemm::E4m3Bf16:
    return gemm_e4m3_bf16({a4, s.m, s.k, s.k}, b4, {x.c16.p, s.m, s.n, s.n},
                          kScaleA, kScaleB, stream_);
  case Gemm::E4m3E5m2F32:
    return gemm_e4m3_e5m2_f32({a4, s.m, s.k, s.k}, b5, {x.c32.p, s.m, s.n, s.n},
                              kScaleA, kScaleB, stream_);
  default:
    return gemm_e5m2_f16({a5, s.m, s.k, s.k}, b5, {x.h16.p, s.m, s.n, s.n},
                         kScaleA, kScaleB, stream_);
  }
}

void Runner::fill(Gemm g, Data &x, std::uint64_t seed) {
  if (a_type(g) == CUDA_R_8F_E4M3)
    fill_fp8<<<1024, 256, 0, stream_>>>(reinterpret_cast<e4m3 *>(x.a.p),
                                        x.a32.p, x.a.n, seed + 1);
  else
    fill_fp8<<<1024, 256, 0, stream_>>>(reinterpret_cast<e5m2 *>(x.a.p),
                                        x.a32.p, x.a.n, seed + 1);
  if (b_type(g) == CUDA_R_8F_E4M3)
    fill_fp8<<<1024, 256, 0, stream_>>>(reinterpret_cast<e4m3 *>(x.b.p),
                                        x.b32.p, x.b.n, seed + 2);
  else
    fill_fp8<<<1024, 256, 0, stream_>>>(reinterpret_cast<e5m2 *>(x.b.p),
                                        x.b32.p, x.b.n, seed + 2);
  if (GEMM_B_K_BY_N)
    transpose_bytes<<<1024, 256, 0, stream_>>>(x.b.p, x.b_k_by_n.p, x.s.n,
                                               x.s.k);
  CHECK(cudaGetLastError());
}

/// The output of `g`, as float, into x.out.
void Runner::output_as_float(Gemm g, Data &x) {
  const std::size_t n = std::size_t(x.s.m) * x.s.n;
  if (g == Gemm::E4m3E5m2F32)
    CHECK(cudaMemcpyAsync(x.out.p, x.c32.p, n * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream_));
  else if (g == Gemm::E5m2F16)
    to_float_kernel<<<1024, 256, 0, stream_>>>(x.h16.p, x.out.p, n);
  else
    to_float_kernel<<<1024, 256, 0, stream_>>>(x.c16.p, x.out.p, n);
  CHECK(cudaStreamSynchronize(stream_));
}

Result Runner::run(Gemm g, const Shape &s, std::uint64_t seed, bool timing) {
  Result r;
  r.gemm = g;
  r.shape = s;
  try {
    Data x(s);
    const std::size_t mn = std::size_t(s.m) * s.n;
    fill(g, x, seed);
    // The reference: the exact fp32 values of A and B, multiplied in fp32.
    const float scale = kScaleA * kScaleB, zero = 0;
    CHECK(cublasSgemm(blas_, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &scale,
                      x.b32.p, s.k, x.a32.p, s.k, &zero, x.ref.p, s.n));
    LtGemm fast(lt_, s, a_type(g), b_type(g), c_type(g), true, kWorkspace);
    const bool exact_types = fast.found();
    // cuBLASLt has no e5m2 x e5m2: time B as e4m3 instead (same bytes).
    LtGemm fast_any(lt_, s, a_type(g), exact_types ? b_type(g) : CUDA_R_8F_E4M3,
                    c_type(g), true, kWorkspace);
    LtGemm exact(lt_, s, a_type(g), exact_types ? b_type(g) : CUDA_R_8F_E4M3,
                 c_type(g), false, kWorkspace);
    r.baseline = exact_types        ? "cuBLASLt"
                 : fast_any.found() ? "cuBLASLt, B as e4m3"
                                    : "none";
    auto baseline = [&](const LtGemm &lt) {
      lt.run(lt_, x.a.p, x.b.p, x.c(g), scale, workspace_, kWorkspace, stream_);
    };
    // Ours, then the baseline, each from a poisoned output.
    for (int side = 0; side < (exact_types ? 2 : 1); ++side) {
      fill_nan<<<1024, 256, 0, stream_>>>(x.c32.p, mn);
      fill_nan<<<1024, 256, 0, stream_>>>(x.c16.p, mn);
      fill_nan<<<1024, 256, 0, stream_>>>(x.h16.p, mn);
      if (side == 0)
        CHECK(ours(g, x));
      else
        baseline(fast);
      CHECK(cudaStreamSynchronize(stream_));
      output_as_float(g, x);
      (side == 0 ? r.ours : r.base) = compare(x.out.p, x.ref.p, mn);
    }
    if (timing && r.pass() && fast_any.found()) {
      for (int i = 0; i < kWarmupPairs; ++i) {
        CHECK(ours(g, x));
        baseline(fast_any);
      }
      // Alternating rounds of ours and the baselines; the median round of each.
      std::vector<float> t_ours, t_fast, t_exact;
      for (int p = 0; p < kTimedRounds; ++p) {
        t_ours.push_back(float(round_ms([&] { CHECK(ours(g, x)); })));
        t_fast.push_back(float(round_ms([&] { baseline(fast_any); })));
        if (exact.found())
          t_exact.push_back(float(round_ms([&] { baseline(exact); })));
      }
      r.ms = percentile(t_ours, 0.5);
      r.base_ms = percentile(t_fast, 0.5);
      if (!t_exact.empty())
        r.exact_ms = percentile(t_exact, 0.5);
      r.timed = true;
    }
    CHECK(cudaDeviceSynchronize());
  } catch (const std::exception &ex) {
    r.error = ex.what();
  }
  return r;
}

void print(const std::string &label, const Result &r) {
  std::printf("%-10s %-14s %-16s %s rel %-9s elem %-9s base_rel %-9s "
              "base_elem %-9s",
              label.c_str(), gemm_name(r.gemm), r.shape.text().c_str(),
              r.pass() ? "PASS" : "FAIL", short_number(r.ours.rel).c_str(),
              short_number(r.ours.elem).c_str(),
              short_number(r.base.rel).c_str(),
              short_number(r.base.elem).c_str());
  if (r.timed)
    std::printf(" %7.1f TFLOP/s  %s %7.1f  ratio %.3f  exact %7.1f  ratio %.3f",
                tflops(r.shape, r.ms), r.baseline.c_str(),
                tflops(r.shape, r.base_ms), r.base_ms / r.ms,
                tflops(r.shape, r.exact_ms), r.exact_ms / r.ms);
  if (!r.error.empty())
    std::printf(" error: %s", r.error.c_str());
  std::printf("\n");
}

std::string json(const std::string &label, const Result &r) {
  std::string o =
      "{\"label\": " + json_string(label) +
      ", \"gemm\": " + json_string(gemm_name(r.gemm)) +
      ", \"shape\": " + json_string(r.shape.text()) +
      ", \"pass\": " + (r.pass() ? "true" : "false") +
      ", \"rel_err\": " + json_number(r.ours.rel) +
      ", \"elem_err\": " + json_number(r.ours.elem) +
      ", \"nonfinite\": " + std::to_string(r.ours.nonfinite) +
      ", \"elem_tolerance\": " + json_number(elem_tolerance(r.shape.k)) +
      ", \"baseline_rel_err\": " + json_number(r.base.rel) +
      ", \"baseline_elem_err\": " + json_number(r.base.elem) +
      ", \"baseline\": " + json_string(r.baseline);
  if (r.timed)
    o += ", \"ms\": " + json_number(r.ms) +
         ", \"baseline_ms\": " + json_number(r.base_ms) +
         ", \"exact_ms\": " + json_number(r.exact_ms) +
         ", \"tflops\": " + json_number(tflops(r.shape, r.ms)) +
         ", \"baseline_tflops\": " + json_number(tflops(r.shape, r.base_ms)) +
         ", \"ratio\": " + json_number(r.base_ms / r.ms) +
         ", \"exact_ratio\": " + json_number(r.exact_ms / r.ms);
  if (!r.error.empty())
    o += ", \"error\": " + json_string(r.error);
  return o + "}";
}

} // namespace

int main(int argc, char **argv) {
  Args args;
  if (!parse_args(argc, argv, "fp8-check",
                  "129x257x73,1000x1016x520,2048x2048x2048", args))
    return 2;
  Runner runner;
  std::vector<std::string> lines;
  bool all = true;
  std::uint64_t seed = 0xF8;
  for (Gemm g : {Gemm::E4m3Bf16, Gemm::E4m3E5m2F32, Gemm::E5m2F16})
    for (const Shape &s : args.shapes) {
      const Result r = runner.run(g, s, seed += 101, args.timing);
      print(args.label, r);
      lines.push_back(json(args.label, r));
      all &= r.pass();
    }
  if (!args.json_path.empty() && !write_json(args.json_path, lines))
    return 1;
  return all ? 0 : 1;
}
