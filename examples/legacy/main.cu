//===- examples/legacy/main.cu - the legacy GEMMs, as written and migrated
//-===//
//
// legacy-check --label NAME [--shapes MxNxK,...] [--time] [--json FILE]
//
// Linked with two builds of examples/legacy/legacy.cu: the file as written,
// compiled with its functions renamed orig_* (-Dsmem_gemm=orig_smem_gemm
// ...), and a migrated one: the output of `tawa-rewrite --migrate` (the
// tile-vocabulary form, run by tile.h's reference) or that output rewritten
// by tawa-rewrite (warp-specialized). For each GEMM of legacy.h and shape
// (square_matmul takes the M x M x M square of each shape, whole_tiles_gemm,
// template_tile_gemm and flat_gemm each extent rounded down to a multiple of
// 32, at least 32,
// wmma_gemm to a multiple of 16, blocked_gemm M and N to multiples of 128
// and K of 32, wmma_smem_gemm M and N to multiples of 64 and K of 32,
// batched_gemm a batch of 3 matrices of the shape; fixed_extents_gemm runs
// once, on its FIXED_M x FIXED_N x FIXED_K; wmma_col_major_gemm, on
// column-major matrices, rounds each extent to a multiple of 16):
//   - A, B (and C's input, for smem_gemm_nt, flat_gemm and
//     wmma_col_major_gemm, and the bias of
//     bias_relu_gemm) are random normal values made
//     on the device from a seed per shape; outputs start as quiet NaN (C's
//     input where the GEMM reads it);
//   - the reference is cuBLAS's fp32-accumulated product (cublasGemmEx,
//     CUBLAS_COMPUTE_32F) with the same alpha and beta (for bias_relu_gemm,
//     then the bias and ReLU applied in fp32);
//   - both builds pass when no output is NaN or infinite, the relative
//     Frobenius error is under 1e-2 and the largest element error
//     |c - ref| / (|ref| + rms(ref)) under 2e-2;
//   - with --time: medians of alternating rounds of 10 calls of the original
//     and of the migrated function, and of cuBLAS; the speed-up is the
//     original's time over the migrated one's.
//
//===----------------------------------------------------------------------===//
#include "../common/check.cuh"
#include "../common/report.h"
#include "legacy.h"

#include <cublas_v2.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

// The file as written, renamed at compile time.
void orig_smem_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                    __nv_bfloat16 *C, int M, int N, int K, cudaStream_t stream);
void orig_smem_gemm_nt(const __half *A, const __half *B, float *C, int M, int N,
                       int K, float alpha, float beta, cudaStream_t stream);
void orig_square_matmul(const __half *M, const __half *N, float *P, int Width,
                        cudaStream_t stream);
void orig_whole_tiles_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                           float *C, int M, int N, int K, cudaStream_t stream);
void orig_template_tile_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             float *C, int M, int N, int K,
                             cudaStream_t stream);
void orig_wmma_gemm(const __half *A, const __half *B, float *C, int M, int N,
                    int K, cudaStream_t stream);
void orig_flat_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                    int M, int N, int K, float alpha, float beta,
                    cudaStream_t stream);
void orig_bias_relu_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                         const __nv_bfloat16 *bias, __nv_bfloat16 *C, int M,
                         int N, int K, cudaStream_t stream);
void orig_double_buffered_gemm(const __half *A, const __half *B, float *C,
                               int M, int N, int K, cudaStream_t stream);
void orig_blocked_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                       __nv_bfloat16 *C, int M, int N, int K,
                       cudaStream_t stream);
void orig_blocked_checked_gemm(const __half *A, const __half *B, float *C,
                               int M, int N, int K, cudaStream_t stream);
void orig_wmma_smem_gemm(const __half *A, const __half *B, float *C, int M,
                         int N, int K, cudaStream_t stream);
void orig_batched_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                       __nv_bfloat16 *C, int M, int N, int K, int batches,
                       cudaStream_t stream);
void orig_fixed_extents_gemm(const __half *A, const __half *B, float *C,
                             cudaStream_t stream);
void orig_wmma_col_major_gemm(half *A, half *B, float *C, int M, int N, int K,
                              float alpha, float beta, cudaStream_t stream);

namespace {

using namespace check;

constexpr int kRounds = 5, kCallsPerRound = 10;
constexpr float kAlpha = 0.75f, kBeta = -0.5f;

/// The GEMMs of legacy.h; square_matmul runs on the M x M x M square of
/// each shape, whole_tiles_gemm on multiples of its tile, and
/// fixed_extents_gemm on its one shape.
enum class Gemm {
  Smem,
  SmemNt,
  Square,
  WholeTiles,
  TemplateTile,
  Batched,
  Wmma,
  Flat,
  BiasRelu,
  DoubleBuffered,
  Blocked,
  BlockedChecked,
  WmmaSmem,
  Fixed,
  WmmaColMajor
};
const char *gemm_name(Gemm g) {
  return g == Gemm::Smem             ? "smem_gemm"
         : g == Gemm::SmemNt         ? "smem_gemm_nt"
         : g == Gemm::Square         ? "square_matmul"
         : g == Gemm::WholeTiles     ? "whole_tiles_gemm"
         : g == Gemm::TemplateTile   ? "template_tile_gemm"
         : g == Gemm::Batched        ? "batched_gemm"
         : g == Gemm::Flat           ? "flat_gemm"
         : g == Gemm::BiasRelu       ? "bias_relu_gemm"
         : g == Gemm::DoubleBuffered ? "double_buffered_gemm"
         : g == Gemm::Blocked        ? "blocked_gemm"
         : g == Gemm::BlockedChecked ? "blocked_checked_gemm"
         : g == Gemm::WmmaSmem       ? "wmma_smem_gemm"
         : g == Gemm::Fixed          ? "fixed_extents_gemm"
         : g == Gemm::WmmaColMajor   ? "wmma_col_major_gemm"
                                     : "wmma_gemm";
}

/// d[r][c] = max(d[r][c] + bias[c], 0): bias_relu_gemm's epilogue on the
/// fp32 reference, in fp32.
__global__ void add_bias_relu(float *d, const __nv_bfloat16 *bias, int m,
                              int n) {
  const std::size_t count = std::size_t(m) * n;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
       i < count; i += std::size_t(gridDim.x) * blockDim.x)
    d[i] = fmaxf(d[i] + __bfloat162float(bias[i % n]), 0.0f);
}

/// The matrices of each operand: batched_gemm's batch, else 1.
constexpr int kBatches = 3;
int batches_of(Gemm g) { return g == Gemm::Batched ? kBatches : 1; }

/// The shape `g` runs for the shape given.
Shape shape_for(Gemm g, const Shape &s) {
  auto whole = [](int x) { return x < 32 ? 32 : x / 32 * 32; };
  if (g == Gemm::Square)
    return Shape{s.m, s.m, s.m};
  if (g == Gemm::Fixed)
    return Shape{FIXED_M, FIXED_N, FIXED_K};
  if (g == Gemm::WholeTiles || g == Gemm::TemplateTile || g == Gemm::Flat)
    return Shape{whole(s.m), whole(s.n), whole(s.k)};
  auto tiles = [](int x, int t) { return x < t ? t : x / t * t; };
  if (g == Gemm::Blocked)
    return Shape{tiles(s.m, 128), tiles(s.n, 128), tiles(s.k, 32)};
  if (g == Gemm::WmmaSmem)
    return Shape{tiles(s.m, 64), tiles(s.n, 64), tiles(s.k, 32)};
  auto sixteens = [](int x) { return x < 16 ? 16 : x / 16 * 16; };
  if (g == Gemm::Wmma || g == Gemm::WmmaColMajor)
    return Shape{sixteens(s.m), sixteens(s.n), sixteens(s.k)};
  return s;
}

struct Result {
  Gemm gemm;
  Shape shape;
  Errors orig, migrated;
  bool timed = false;
  double orig_ms = NAN, ms = NAN, cublas_ms = NAN;
  std::string error;
  bool pass() const { return error.empty() && orig.ok() && migrated.ok(); }
};

class Runner {
public:
  Runner() {
    CHECK(cudaStreamCreate(&stream_));
    CHECK(cublasCreate(&blas_));
    CHECK(cublasSetStream(blas_, stream_));
  }
  ~Runner() {
    cublasDestroy(blas_);
    cudaStreamDestroy(stream_);
  }
  Result run(Gemm g, const Shape &s, std::uint64_t seed, bool timing);

private:
  struct Data {
    const Shape s;
    Buffer<__nv_bfloat16> a16, b16, c16, bias16;
    Buffer<__half> ah, bh;
    Buffer<float> c_in, c32, ref, out;
    const int batches;
    Data(const Shape &s, int batches)
        : s(s), a16(std::size_t(s.m) * s.k * batches),
          b16(std::size_t(s.k) * s.n * batches),
          c16(std::size_t(s.m) * s.n * batches), bias16(s.n),
          ah(std::size_t(s.m) * s.k), bh(std::size_t(s.n) * s.k),
          c_in(std::size_t(s.m) * s.n * batches),
          c32(std::size_t(s.m) * s.n * batches),
          ref(std::size_t(s.m) * s.n * batches),
          out(std::size_t(s.m) * s.n * batches), batches(batches) {}
  };
  void call(Gemm g, Data &x, bool original);
  void cublas(Gemm g, Data &x, float *d);
  void prepare(Gemm g, Data &x);
  template <class F> double round_ms(F &&f) {
    return mean_call_ms(stream_, kCallsPerRound, f);
  }

  cudaStream_t stream_{};
  cublasHandle_t blas_{};
};

void Runner::call(Gemm g, Data &x, bool original) {
  const Shape &s = x.s;
  if (g == Gemm::Smem)
    (original ? orig_smem_gemm : smem_gemm)(x.a16.p, x.b16.p, x.c16.p, s.m, s.n,
                                            s.k, stream_);
  else if (g == Gemm::SmemNt)
    (original ? orig_smem_gemm_nt : smem_gemm_nt)(
        x.ah.p, x.bh.p, x.c32.p, s.m, s.n, s.k, kAlpha, kBeta, stream_);
  else if (g == Gemm::Square)
    (original ? orig_square_matmul : square_matmul)(x.ah.p, x.bh.p, x.c32.p,
                                                    s.m, stream_);
  else if (g == Gemm::WholeTiles)
    (original ? orig_whole_tiles_gemm : whole_tiles_gemm)(
        x.a16.p, x.b16.p, x.c32.p, s.m, s.n, s.k, stream_);
  else if (g == Gemm::TemplateTile)
    (original ? orig_template_tile_gemm : template_tile_gemm)(
        x.a16.p, x.b16.p, x.c32.p, s.m, s.n, s.k, stream_);
  else if (g == Gemm::DoubleBuffered)
    (original ? orig_double_buffered_gemm : double_buffered_gemm)(
        x.ah.p, x.bh.p, x.c32.p, s.m, s.n, s.k, stream_);
  else if (g == Gemm::BiasRelu)
    (original ? orig_bias_relu_gemm : bias_relu_gemm)(
        x.a16.p, x.b16.p, x.bias16.p, x.c16.p, s.m, s.n, s.k, stream_);
  else if (g == Gemm::Flat)
    (original ? orig_flat_gemm : flat_gemm)(x.a16.p, x.b16.p, x.c32.p, s.m, s.n,
                                            s.k, kAlpha, kBeta, stream_);
  else if (g == Gemm::Blocked)
    (original ? orig_blocked_gemm : blocked_gemm)(x.a16.p, x.b16.p, x.c16.p,
                                                  s.m, s.n, s.k, stream_);
  else if (g == Gemm::BlockedChecked)
    (original ? orig_blocked_checked_gemm : blocked_checked_gemm)(
        x.ah.p, x.bh.p, x.c32.p, s.m, s.n, s.k, stream_);
  else if (g == Gemm::WmmaSmem)
    (original ? orig_wmma_smem_gemm : wmma_smem_gemm)(x.ah.p, x.bh.p, x.c32.p,
                                                      s.m, s.n, s.k, stream_);
  else if (g == Gemm::Wmma)
    (original ? orig_wmma_gemm : wmma_gemm)(x.ah.p, x.bh.p, x.c32.p, s.m, s.n,
                                            s.k, stream_);
  else if (g == Gemm::WmmaColMajor)
    (original ? orig_wmma_col_major_gemm : wmma_col_major_gemm)(
        x.ah.p, x.bh.p, x.c32.p, s.m, s.n, s.k, kAlpha, kBeta, stream_);
  else if (g == Gemm::Fixed)
    (original ? orig_fixed_extents_gemm : fixed_extents_gemm)(x.ah.p, x.bh.p,
                                                              x.c32.p, stream_);
  else
    (original ? orig_batched_gemm : batched_gemm)(
        x.a16.p, x.b16.p, x.c16.p, s.m, s.n, s.k, x.batches, stream_);
  CHECK(cudaGetLastError());
}

/// d = the GEMM in fp32 (row-major: the column-major product of the
/// transposes), with d holding C's input for smem_gemm_nt and flat_gemm.
void Runner::cublas(Gemm g, Data &x, float *d) {
  const Shape &s = x.s;
  if (g == Gemm::Batched) {
    const float one = 1, zero = 0;
    CHECK(cublasGemmStridedBatchedEx(
        blas_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, x.b16.p,
        CUDA_R_16BF, s.n, 1LL * s.k * s.n, x.a16.p, CUDA_R_16BF, s.k,
        1LL * s.m * s.k, &zero, d, CUDA_R_32F, s.n, 1LL * s.m * s.n, x.batches,
        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  } else if (g == Gemm::Smem || g == Gemm::WholeTiles ||
             g == Gemm::TemplateTile || g == Gemm::BiasRelu ||
             g == Gemm::Blocked) {
    const float one = 1, zero = 0;
    CHECK(cublasGemmEx(blas_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one,
                       x.b16.p, CUDA_R_16BF, s.n, x.a16.p, CUDA_R_16BF, s.k,
                       &zero, d, CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  } else if (g == Gemm::WmmaColMajor) {
    // Column-major, as cuBLAS takes them.
    CHECK(cublasGemmEx(blas_, CUBLAS_OP_N, CUBLAS_OP_N, s.m, s.n, s.k, &kAlpha,
                       x.ah.p, CUDA_R_16F, s.m, x.bh.p, CUDA_R_16F, s.k, &kBeta,
                       d, CUDA_R_32F, s.m, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  } else if (g == Gemm::Flat) {
    CHECK(cublasGemmEx(blas_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &kAlpha,
                       x.b16.p, CUDA_R_16BF, s.n, x.a16.p, CUDA_R_16BF, s.k,
                       &kBeta, d, CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  } else if (g == Gemm::Square || g == Gemm::Wmma ||
             g == Gemm::DoubleBuffered || g == Gemm::BlockedChecked ||
             g == Gemm::WmmaSmem || g == Gemm::Fixed) {
    const float one = 1, zero = 0; // B is K x N here
    CHECK(cublasGemmEx(blas_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one,
                       x.bh.p, CUDA_R_16F, s.n, x.ah.p, CUDA_R_16F, s.k, &zero,
                       d, CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  } else {
    CHECK(cublasGemmEx(blas_, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &kAlpha,
                       x.bh.p, CUDA_R_16F, s.k, x.ah.p, CUDA_R_16F, s.k, &kBeta,
                       d, CUDA_R_32F, s.n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  }
}

/// The output poisoned, or reset to C's input (smem_gemm_nt).
void Runner::prepare(Gemm g, Data &x) {
  const std::size_t mn = std::size_t(x.s.m) * x.s.n * x.batches;
  if (g == Gemm::Smem || g == Gemm::Batched || g == Gemm::BiasRelu ||
      g == Gemm::Blocked)
    fill_nan<<<1024, 256, 0, stream_>>>(x.c16.p, mn);
  else if (g == Gemm::Square || g == Gemm::WholeTiles ||
           g == Gemm::TemplateTile || g == Gemm::Wmma ||
           g == Gemm::DoubleBuffered || g == Gemm::BlockedChecked ||
           g == Gemm::WmmaSmem || g == Gemm::Fixed)
    fill_nan<<<1024, 256, 0, stream_>>>(x.c32.p, mn);
  else
    CHECK(cudaMemcpyAsync(x.c32.p, x.c_in.p, mn * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream_));
  CHECK(cudaGetLastError());
}

Result Runner::run(Gemm g, const Shape &given, std::uint64_t seed,
                   bool timing) {
  const Shape s = shape_for(g, given);
  Result r;
  r.gemm = g;
  r.shape = s;
  try {
    Data x(s, batches_of(g));
    const std::size_t mn = std::size_t(s.m) * s.n * x.batches;
    fill_normal<<<1024, 256, 0, stream_>>>(x.a16.p, x.a16.n, seed + 1);
    fill_normal<<<1024, 256, 0, stream_>>>(x.b16.p, x.b16.n, seed + 2);
    fill_normal<<<1024, 256, 0, stream_>>>(x.ah.p, x.ah.n, seed + 3);
    fill_normal<<<1024, 256, 0, stream_>>>(x.bh.p, x.bh.n, seed + 4);
    fill_normal<<<1024, 256, 0, stream_>>>(x.c_in.p, mn, seed + 5);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(x.ref.p, x.c_in.p, mn * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream_));
    fill_normal<<<1024, 256, 0, stream_>>>(x.bias16.p, x.bias16.n, seed + 6);
    cublas(g, x, x.ref.p); // beta is 0 but for smem_gemm_nt and flat_gemm
    if (g == Gemm::BiasRelu)
      add_bias_relu<<<1024, 256, 0, stream_>>>(x.ref.p, x.bias16.p, s.m, s.n);
    for (bool original : {true, false}) {
      prepare(g, x);
      call(g, x, original);
      CHECK(cudaStreamSynchronize(stream_));
      if (g == Gemm::Smem || g == Gemm::Batched || g == Gemm::BiasRelu ||
          g == Gemm::Blocked)
        to_float_kernel<<<1024, 256, 0, stream_>>>(x.c16.p, x.out.p, mn);
      else
        CHECK(cudaMemcpyAsync(x.out.p, x.c32.p, mn * sizeof(float),
                              cudaMemcpyDeviceToDevice, stream_));
      CHECK(cudaStreamSynchronize(stream_));
      (original ? r.orig : r.migrated) = compare(x.out.p, x.ref.p, mn);
    }
    if (timing && r.orig.ok() && r.migrated.ok()) {
      call(g, x, true);
      call(g, x, false);
      cublas(g, x, x.out.p);
      std::vector<float> t_orig, t_ours, t_blas;
      for (int p = 0; p < kRounds; ++p) {
        t_orig.push_back(float(round_ms([&] { call(g, x, true); })));
        t_ours.push_back(float(round_ms([&] { call(g, x, false); })));
        t_blas.push_back(float(round_ms([&] { cublas(g, x, x.out.p); })));
      }
      r.orig_ms = percentile(t_orig, 0.5);
      r.ms = percentile(t_ours, 0.5);
      r.cublas_ms = percentile(t_blas, 0.5);
      r.timed = true;
    }
    CHECK(cudaDeviceSynchronize());
  } catch (const std::exception &ex) {
    r.error = ex.what();
  }
  return r;
}

void print(const std::string &label, const Result &r) {
  const double b = batches_of(r.gemm); // the timed calls' matrices
  std::printf("%-10s %-13s %-16s %s orig rel %-9s migrated rel %-9s elem %-9s",
              label.c_str(), gemm_name(r.gemm), r.shape.text().c_str(),
              r.pass() ? "PASS" : "FAIL", short_number(r.orig.rel).c_str(),
              short_number(r.migrated.rel).c_str(),
              short_number(r.migrated.elem).c_str());
  if (r.timed)
    std::printf("  orig %7.1f TFLOP/s  migrated %7.1f  speed-up %6.1fx  "
                "cuBLAS %7.1f",
                tflops(r.shape, r.orig_ms / b), tflops(r.shape, r.ms / b),
                r.orig_ms / r.ms, tflops(r.shape, r.cublas_ms / b));
  if (!r.error.empty())
    std::printf(" error: %s", r.error.c_str());
  std::printf("\n");
}

std::string json(const std::string &label, const Result &r) {
  const double b = batches_of(r.gemm);
  std::string o = "{\"label\": " + json_string(label) +
                  ", \"gemm\": " + json_string(gemm_name(r.gemm)) +
                  ", \"shape\": " + json_string(r.shape.text()) +
                  ", \"batches\": " + std::to_string(batches_of(r.gemm)) +
                  ", \"pass\": " + (r.pass() ? "true" : "false") +
                  ", \"orig_rel_err\": " + json_number(r.orig.rel) +
                  ", \"rel_err\": " + json_number(r.migrated.rel) +
                  ", \"elem_err\": " + json_number(r.migrated.elem) +
                  ", \"nonfinite\": " + std::to_string(r.migrated.nonfinite);
  if (r.timed)
    o += ", \"orig_ms\": " + json_number(r.orig_ms) +
         ", \"ms\": " + json_number(r.ms) +
         ", \"cublas_ms\": " + json_number(r.cublas_ms) +
         ", \"speedup\": " + json_number(r.orig_ms / r.ms) +
         ", \"tflops\": " + json_number(tflops(r.shape, r.ms / b)) +
         ", \"vs_cublas\": " + json_number(r.cublas_ms / r.ms);
  if (!r.error.empty())
    o += ", \"error\": " + json_string(r.error);
  return o + "}";
}

} // namespace

int main(int argc, char **argv) {
  Args args;
  if (!parse_args(argc, argv, "legacy-check", "129x257x73,1000x1016x520", args))
    return 2;
  Runner runner;
  std::vector<std::string> lines;
  bool all = true;
  std::uint64_t seed = 0x1E6;
  for (Gemm g : {Gemm::Smem, Gemm::SmemNt, Gemm::Square, Gemm::WholeTiles,
                 Gemm::TemplateTile, Gemm::Batched, Gemm::Wmma, Gemm::Flat, Gemm::BiasRelu,
                 Gemm::DoubleBuffered, Gemm::Blocked, Gemm::BlockedChecked,
                 Gemm::WmmaSmem, Gemm::Fixed, Gemm::WmmaColMajor})
    for (const Shape &s : args.shapes) {
      // fixed_extents_gemm has one shape: it runs once.
      if (g == Gemm::Fixed && &s != &args.shapes.front())
        break;
      const Result r = runner.run(g, s, seed += 101, args.timing);
      print(args.label, r);
      lines.push_back(json(args.label, r));
      all &= r.pass();
    }
  if (!args.json_path.empty() && !write_json(args.json_path, lines))
    return 1;
  return all ? 0 : 1;
}
