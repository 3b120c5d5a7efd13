//===- examples/gemm-epilogue/main.cu - checks and times fused epilogues --===//
//
// epilogue-check --label NAME [--shapes MxNxK,...] [--time] [--json FILE]
//
// Linked with examples/gemm-epilogue/epilogue.cu (the kernels as written: the
// reference) or with the file tawa-rewrite made of it. For each epilogue of
// epilogue.h and each shape:
//   - A (M x K), B (N x K), the biases and C's input (alpha_beta) are random
//     normal values, generated on the device from a seed per shape; an
//     output that is not read first is filled with a quiet NaN;
//   - the reference: cuBLAS computes A B^T in fp32 (cublasGemmEx, bf16 in,
//     CUBLAS_COMPUTE_32F), a plain kernel applies the epilogue in fp32 with
//     the functions of tawa/tile.h (so both sides use one formula);
//   - the check passes when no output is NaN or infinite, the relative
//     Frobenius error is under 1e-2, and the largest element error
//     |c - ref| / (|ref| + rms(ref)) is under 2e-2 (the output's rounding is
//     2^-8 of |ref| in bf16, 2^-11 in fp16);
//   - with --time: medians of 50 alternating calls of ours and of the
//     baseline, after 5 warm-up pairs: alpha_beta against cublasGemmEx with
//     beta (C fp32, read and written); bias_relu and bias_gelu against
//     cuBLASLt's fused CUBLASLT_EPILOGUE_RELU_BIAS and _GELU_BIAS (bf16 bias
//     and output); row_bias_silu, which cuBLASLt does not fuse, against
//     cublasGemmEx to fp32 and an element-wise kernel (two passes). The
//     baseline's output is checked like ours (base_err).
// Prints one line per epilogue and shape, and writes them as JSON.
//
//===----------------------------------------------------------------------===//
#include "../common/check.cuh"
#include "../common/report.h"
#include "epilogue.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using namespace check;

constexpr int kWarmupPairs = 5, kTimedPairs = 50;

enum class Epi { AlphaBeta, BiasRelu, BiasGelu, RowBiasSilu };
const char *epi_name(Epi e) {
  switch (e) {
  case Epi::AlphaBeta:
    return "alpha_beta";
  case Epi::BiasRelu:
    return "bias_relu";
  case Epi::BiasGelu:
    return "bias_gelu";
  default:
    return "row_bias_silu";
  }
}
constexpr float kAlpha = 0.75f, kBeta = -0.5f;

/// out[r][c] = epilogue(d[r][c]) in fp32, with tawa/tile.h's functions.
__global__ void reference_epilogue(Epi e, const float *d, const float *c_in,
                                   const bf16 *col_bias, const float *row_bias,
                                   float *out, int m, int n) {
  const std::size_t total = std::size_t(m) * n;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += gridDim.x * blockDim.x) {
    const int r = int(i / n), c = int(i % n);
    const float x = d[i];
    float y = 0;
    switch (e) {
    case Epi::AlphaBeta:
      y = kAlpha * x + kBeta * c_in[i];
      break;
    case Epi::BiasRelu:
      y = tawa::relu(x + __bfloat162float(col_bias[c]));
      break;
    case Epi::BiasGelu:
      y = tawa::gelu_tanh(x + __bfloat162float(col_bias[c]));
      break;
    case Epi::RowBiasSilu:
      y = tawa::silu(kAlpha * x + row_bias[r]);
      break;
    }
    out[i] = y;
  }
}

/// The baseline's second pass of row_bias_silu.
__global__ void silu_pass(const float *d, const float *row_bias, __half *out,
                          int m, int n) {
  const std::size_t total = std::size_t(m) * n;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total;
       i += gridDim.x * blockDim.x)
    out[i] = __float2half_rn(tawa::silu(kAlpha * d[i] + row_bias[i / n]));
}

struct Result {
  Epi epi;
  Shape shape;
  Errors ours, base;
  bool timed = false;
  double ms = NAN, base_ms = NAN;
  std::string error;
  bool pass() const { return error.empty() && ours.ok(); }
};

class Runner {
public:
  Runner() {
    CHECK(cudaStreamCreate(&stream_));
    CHECK(cublasCreate(&blas_));
    CHECK(cublasSetStream(blas_, stream_));
    CHECK(cublasLtCreate(&lt_));
    CHECK(cudaMalloc(&workspace_, kWorkspace));
  }
  ~Runner() {
    cudaFree(workspace_);
    cublasLtDestroy(lt_);
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }
  Result run(Epi e, const Shape &s, std::uint64_t seed, bool timing);

private:
  static constexpr std::size_t kWorkspace = 32u << 20;

  struct Data {
    const Shape s;
    Buffer<bf16> a, b, col_bias;
    Buffer<float> row_bias, c_in, c32, d32, ref, out;
    Buffer<bf16> c16;
    Buffer<__half> h16;
    explicit Data(const Shape &s)
        : s(s), a(std::size_t(s.m) * s.k), b(std::size_t(s.n) * s.k),
          col_bias(s.n), row_bias(s.m), c_in(std::size_t(s.m) * s.n),
          c32(std::size_t(s.m) * s.n), d32(std::size_t(s.m) * s.n),
          ref(std::size_t(s.m) * s.n), out(std::size_t(s.m) * s.n),
          c16(std::size_t(s.m) * s.n), h16(std::size_t(s.m) * s.n) {}
  };

  cudaError_t ours(Epi e, Data &x);
  void baseline(Epi e, Data &x);
  void gemm_f32(Data &x, float *d, float alpha, float beta);
  void lt_fused(Epi e, Data &x);
  void output_as_float(Epi e, Data &x);
  double time(const std::function<void()> &f);

  cudaStream_t stream_{};
  cublasHandle_t blas_{};
  cublasLtHandle_t lt_{};
  void *workspace_ = nullptr;
};

cudaError_t Runner::ours(Epi e, Data &x) {
  const Shape &s = x.s;
  In A{x.a.p, s.m, s.k, s.k}, B{x.b.p, s.n, s.k, s.k};
  switch (e) {
  case Epi::AlphaBeta:
    return gemm_alpha_beta(A, B, {x.c32.p, s.m, s.n, s.n}, kAlpha, kBeta,
                           stream_);
  case Epi::BiasRelu:
    return gemm_bias_relu(A, B, {x.col_bias.p, 1, s.n, s.n},
                          {x.c16.p, s.m, s.n, s.n}, stream_);
  case Epi::BiasGelu:
    return gemm_bias_gelu(A, B, {x.col_bias.p, 1, s.n, s.n},
                          {x.c16.p, s.m, s.n, s.n}, stream_);
  default:
    return gemm_row_bias_silu(A, B, {x.row_bias.p, s.m, 1, 1}, kAlpha,
                              {x.h16.p, s.m, s.n, s.n}, stream_);
  }
}

/// d = alpha * A B^T + beta * d in fp32 (row-major M x N: the column-major
/// N x M product B A^T).
void Runner::gemm_f32(Data &x, float *d, float alpha, float beta) {
  const Shape &s = x.s;
  CHECK(cublasGemmEx(blas_, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &alpha,
                     x.b.p, CUDA_R_16BF, s.k, x.a.p, CUDA_R_16BF, s.k, &beta, d,
                     CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

/// cuBLASLt with a fused bias epilogue: the bias of the column-major N x M
/// D's rows is one per column of the row-major C.
void Runner::lt_fused(Epi e, Data &x) {
  const Shape &s = x.s;
  cublasLtMatmulDesc_t op{};
  cublasLtMatrixLayout_t la{}, lb{}, lc{};
  CHECK(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
  CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                       sizeof(t)));
  CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &n,
                                       sizeof(n)));
  const cublasLtEpilogue_t epi = e == Epi::BiasRelu
                                     ? CUBLASLT_EPILOGUE_RELU_BIAS
                                     : CUBLASLT_EPILOGUE_GELU_BIAS;
  CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi,
                                       sizeof(epi)));
  const void *bias = x.col_bias.p;
  CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                       &bias, sizeof(bias)));
  const cudaDataType_t bias_type = CUDA_R_16BF;
  CHECK(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE,
                                       &bias_type, sizeof(bias_type)));
  CHECK(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, s.k, s.n, s.k));
  CHECK(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, s.k, s.m, s.k));
  CHECK(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, s.n, s.m, s.n));
  cublasLtMatmulPreference_t pref{};
  CHECK(cublasLtMatmulPreferenceCreate(&pref));
  const std::size_t ws = kWorkspace;
  CHECK(cublasLtMatmulPreferenceSetAttribute(
      pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)));
  cublasLtMatmulHeuristicResult_t heur{};
  int found = 0;
  CHECK(cublasLtMatmulAlgoGetHeuristic(lt_, op, la, lb, lc, lc, pref, 1, &heur,
                                       &found));
  const float alpha = 1, beta = 0;
  cublasStatus_t st =
      found ? cublasLtMatmul(lt_, op, &alpha, x.b.p, la, x.a.p, lb, &beta,
                             x.c16.p, lc, x.c16.p, lc, &heur.algo, workspace_,
                             kWorkspace, stream_)
            : CUBLAS_STATUS_NOT_SUPPORTED;
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatmulDescDestroy(op);
  CHECK(st);
}

void Runner::baseline(Epi e, Data &x) {
  const Shape &s = x.s;
  switch (e) {
  case Epi::AlphaBeta:
    gemm_f32(x, x.c32.p, kAlpha, kBeta);
    return;
  case Epi::BiasRelu:
  case Epi::BiasGelu:
    lt_fused(e, x);
    return;
  default:
    gemm_f32(x, x.d32.p, 1, 0);
    silu_pass<<<1024, 256, 0, stream_>>>(x.d32.p, x.row_bias.p, x.h16.p, s.m,
                                         s.n);
    CHECK(cudaGetLastError());
  }
}

/// The epilogue's output, as float, into x.out.
void Runner::output_as_float(Epi e, Data &x) {
  const std::size_t n = std::size_t(x.s.m) * x.s.n;
  if (e == Epi::AlphaBeta)
    CHECK(cudaMemcpyAsync(x.out.p, x.c32.p, n * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream_));
  else if (e == Epi::RowBiasSilu)
    to_float_kernel<<<1024, 256, 0, stream_>>>(x.h16.p, x.out.p, n);
  else
    to_float_kernel<<<1024, 256, 0, stream_>>>(x.c16.p, x.out.p, n);
  CHECK(cudaStreamSynchronize(stream_));
}

double Runner::time(const std::function<void()> &f) {
  std::vector<cudaEvent_t> ev(2 * kTimedPairs);
  for (cudaEvent_t &e : ev)
    CHECK(cudaEventCreate(&e));
  for (int p = 0; p < kTimedPairs; ++p) {
    CHECK(cudaEventRecord(ev[2 * p], stream_));
    f();
    CHECK(cudaEventRecord(ev[2 * p + 1], stream_));
  }
  CHECK(cudaStreamSynchronize(stream_));
  std::vector<float> ms(kTimedPairs);
  for (int p = 0; p < kTimedPairs; ++p)
    CHECK(cudaEventElapsedTime(&ms[p], ev[2 * p], ev[2 * p + 1]));
  for (cudaEvent_t e : ev)
    cudaEventDestroy(e);
  return percentile(ms, 0.5);
}

Result Runner::run(Epi e, const Shape &s, std::uint64_t seed, bool timing) {
  Result r;
  r.epi = e;
  r.shape = s;
  try {
    Data x(s);
    const std::size_t mn = std::size_t(s.m) * s.n;
    fill_normal<<<1024, 256, 0, stream_>>>(x.a.p, x.a.n, seed + 1);
    fill_normal<<<1024, 256, 0, stream_>>>(x.b.p, x.b.n, seed + 2);
    fill_normal<<<1024, 256, 0, stream_>>>(x.col_bias.p, x.col_bias.n,
                                           seed + 3);
    fill_normal<<<1024, 256, 0, stream_>>>(x.row_bias.p, x.row_bias.n,
                                           seed + 4);
    fill_normal<<<1024, 256, 0, stream_>>>(x.c_in.p, mn, seed + 5);
    CHECK(cudaGetLastError());
    // The reference, from cuBLAS's fp32 product.
    gemm_f32(x, x.d32.p, 1, 0);
    reference_epilogue<<<1024, 256, 0, stream_>>>(
        e, x.d32.p, x.c_in.p, x.col_bias.p, x.row_bias.p, x.ref.p, s.m, s.n);
    CHECK(cudaGetLastError());
    // Ours, then the baseline, each from a poisoned (or fresh C) output.
    for (int side = 0; side < 2; ++side) {
      CHECK(cudaMemcpyAsync(x.c32.p, x.c_in.p, mn * sizeof(float),
                            cudaMemcpyDeviceToDevice, stream_));
      fill_nan<<<1024, 256, 0, stream_>>>(x.c16.p, mn);
      fill_nan<<<1024, 256, 0, stream_>>>(x.h16.p, mn);
      if (side == 0)
        CHECK(ours(e, x));
      else
        baseline(e, x);
      CHECK(cudaStreamSynchronize(stream_));
      output_as_float(e, x);
      (side == 0 ? r.ours : r.base) = compare(x.out.p, x.ref.p, mn);
    }
    if (timing && r.ours.ok()) {
      for (int i = 0; i < kWarmupPairs; ++i) {
        CHECK(ours(e, x));
        baseline(e, x);
      }
      // Alternating runs of ours and the baseline, medians of each.
      std::vector<float> t_ours, t_base;
      for (int p = 0; p < kTimedPairs / 10; ++p) {
        t_ours.push_back(float(time([&] { CHECK(ours(e, x)); })));
        t_base.push_back(float(time([&] { baseline(e, x); })));
      }
      r.ms = percentile(t_ours, 0.5);
      r.base_ms = percentile(t_base, 0.5);
      r.timed = true;
    }
    CHECK(cudaDeviceSynchronize());
  } catch (const std::exception &ex) {
    r.error = ex.what();
  }
  return r;
}

void print(const std::string &label, const Result &r) {
  std::printf("%-10s %-14s %-16s %s rel %-9s elem %-9s base_rel %-9s",
              label.c_str(), epi_name(r.epi), r.shape.text().c_str(),
              r.pass() ? "PASS" : "FAIL", short_number(r.ours.rel).c_str(),
              short_number(r.ours.elem).c_str(),
              short_number(r.base.rel).c_str());
  if (r.timed)
    std::printf(" %8.1f TFLOP/s  baseline %8.1f  ratio %.3f",
                tflops(r.shape, r.ms), tflops(r.shape, r.base_ms),
                r.base_ms / r.ms);
  if (!r.error.empty())
    std::printf(" error: %s", r.error.c_str());
  std::printf("\n");
}

std::string json(const std::string &label, const Result &r) {
  std::string o = "{\"label\": " + json_string(label) +
                  ", \"epilogue\": " + json_string(epi_name(r.epi)) +
                  ", \"shape\": " + json_string(r.shape.text()) +
                  ", \"pass\": " + (r.pass() ? "true" : "false") +
                  ", \"rel_err\": " + json_number(r.ours.rel) +
                  ", \"elem_err\": " + json_number(r.ours.elem) +
                  ", \"nonfinite\": " + std::to_string(r.ours.nonfinite) +
                  ", \"baseline_rel_err\": " + json_number(r.base.rel);
  if (r.timed)
    o += ", \"ms\": " + json_number(r.ms) +
         ", \"baseline_ms\": " + json_number(r.base_ms) +
         ", \"tflops\": " + json_number(tflops(r.shape, r.ms)) +
         ", \"baseline_tflops\": " + json_number(tflops(r.shape, r.base_ms)) +
         ", \"ratio\": " + json_number(r.base_ms / r.ms);
  if (!r.error.empty())
    o += ", \"error\": " + json_string(r.error);
  return o + "}";
}

} // namespace

int main(int argc, char **argv) {
  Args args;
  if (!parse_args(argc, argv, "epilogue-check",
                  "129x257x73,1000x1016x520,2048x2048x2048", args))
    return 2;
  Runner runner;
  std::vector<std::string> lines;
  bool all = true;
  std::uint64_t seed = 0x7A3A;
  for (Epi e : {Epi::AlphaBeta, Epi::BiasRelu, Epi::BiasGelu, Epi::RowBiasSilu})
    for (const Shape &s : args.shapes) {
      const Result r = runner.run(e, s, seed += 101, args.timing);
      print(args.label, r);
      lines.push_back(json(args.label, r));
      all &= r.pass();
    }
  if (!args.json_path.empty() && !write_json(args.json_path, lines))
    return 1;
  return all ? 0 : 1;
}
