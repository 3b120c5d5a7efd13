//===- examples/common/check.cuh - what the check drivers share -----------===//
//
// Device buffers, random inputs, poisoned outputs and the element-wise
// comparison that the GEMM check drivers (examples/gemm-epilogue,
// examples/gemm-fp8, examples/legacy) use, and their shape lists and JSON
// output. Errors throw std::runtime_error with the call that failed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "report.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace check {

inline void check(cudaError_t s, const char *what) {
  if (s != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(s));
}
inline void check(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " +
                             std::to_string(int(s)));
}
#define CHECK(x) ::check::check((x), #x)

/// `count` elements of device memory, freed with the object.
template <class T> struct Buffer {
  T *p = nullptr;
  std::size_t n = 0;
  explicit Buffer(std::size_t count) : n(count) {
    CHECK(cudaMalloc(&p, sizeof(T) * (count ? count : 1)));
  }
  ~Buffer() { cudaFree(p); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

/// A standard normal value for element `i` of the stream `seed` (a hash
/// and the Box-Muller transform: the same on every run and device).
__device__ inline float normal(std::uint64_t seed, std::size_t i) {
  auto mix = [](std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  };
  const std::uint64_t h = mix(seed ^ mix(i));
  const float u1 = ((h >> 40) + 1) * (1.0f / 16777217.0f);
  const float u2 = ((h >> 16) & 0xFFFFFF) * (1.0f / 16777216.0f);
  return sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
}

template <class T>
__global__ void fill_normal(T *x, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    x[i] = T(normal(seed, i));
}

/// Poisons an output: every element a quiet NaN.
template <class T> __global__ void fill_nan(T *x, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    x[i] = T(NAN);
}

template <class T>
__global__ void to_float_kernel(const T *c, float *out, std::size_t n) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = float(c[i]);
}

constexpr double kRelTolerance = 1e-2, kElemTolerance = 2e-2;

/// An output against its reference: the relative Frobenius error, the
/// largest element error |c - ref| / (|ref| + rms(ref)), and the elements
/// that are NaN or infinite.
struct Errors {
  double rel = NAN, elem = NAN;
  long long nonfinite = 0;
  bool ok(double elem_tolerance = kElemTolerance) const {
    return nonfinite == 0 && rel < kRelTolerance && elem < elem_tolerance;
  }
};

/// Compares `n` device floats `c` with `ref`, on the host.
inline Errors compare(const float *c, const float *ref, std::size_t n) {
  std::vector<float> hc(n), hr(n);
  CHECK(cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), ref, n * sizeof(float), cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  Errors e;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(hc[i]))
      ++e.nonfinite;
    else
      num += (double(hc[i]) - hr[i]) * (double(hc[i]) - hr[i]);
    den += double(hr[i]) * hr[i];
  }
  const double rms = std::sqrt(den / double(n ? n : 1));
  e.rel = e.nonfinite ? NAN : std::sqrt(num / (den > 0 ? den : 1));
  e.elem = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(hc[i]))
      e.elem = std::max(e.elem, std::fabs(double(hc[i]) - hr[i]) /
                                    (std::fabs(double(hr[i])) + rms));
  return e;
}

/// M x N x K of a GEMM.
struct Shape {
  int m, n, k;
  std::string text() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
};

inline double tflops(const Shape &s, double ms) {
  return 2.0 * s.m * double(s.n) * s.k / (ms * 1e-3) / 1e12;
}

/// The time of one call of `f`, in milliseconds: `calls` calls in a row
/// on `stream`, between two events, averaged.
template <class F> double mean_call_ms(cudaStream_t stream, int calls, F &&f) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, stream));
  for (int i = 0; i < calls; ++i)
    f();
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / calls;
}

/// "MxNxK,MxNxK,..." into `out`; false where it is malformed or empty.
inline bool parse_shapes(const std::string &list, std::vector<Shape> &out) {
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    Shape s{};
    if (std::sscanf(list.substr(at, end - at).c_str(), "%dx%dx%d", &s.m, &s.n,
                    &s.k) != 3 ||
        s.m <= 0 || s.n <= 0 || s.k <= 0)
      return false;
    out.push_back(s);
    at = end + 1;
  }
  return !out.empty();
}

/// The command line every driver takes:
///   NAME --label LABEL [--shapes MxNxK,...] [--time] [--json FILE]
struct Args {
  std::string label = "ours", json_path;
  std::vector<Shape> shapes;
  bool timing = false;
};

/// Parses the command line into `out` (`shapes` unless --shapes is given);
/// false, with the usage printed, where it is malformed.
inline bool parse_args(int argc, char **argv, const char *name,
                       std::string shapes, Args &out) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--time")
      out.timing = true;
    else if ((a == "--label" || a == "--shapes" || a == "--json") &&
             i + 1 < argc)
      (a == "--label"    ? out.label
       : a == "--shapes" ? shapes
                         : out.json_path) = argv[++i];
    else {
      std::fprintf(stderr,
                   "usage: %s --label NAME [--shapes MxNxK,...] [--time] "
                   "[--json FILE]\n",
                   name);
      return false;
    }
  }
  if (!parse_shapes(shapes, out.shapes)) {
    std::fprintf(stderr, "%s: bad --shapes '%s'\n", name, shapes.c_str());
    return false;
  }
  return true;
}

/// Writes `lines` (JSON objects) as a JSON array to `path`.
inline bool write_json(const std::string &path,
                       const std::vector<std::string> &lines) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f, "[\n");
  for (std::size_t i = 0; i < lines.size(); ++i)
    std::fprintf(f, "  %s%s\n", lines[i].c_str(),
                 i + 1 < lines.size() ? "," : "");
  std::fprintf(f, "]\n");
  std::fclose(f);
  return true;
}

} // namespace check
