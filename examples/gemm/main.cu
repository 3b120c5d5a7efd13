//===- examples/gemm/main.cu - checks and times gemm() against cuBLAS -----===//
//
// gemm-check --label NAME [--shapes MxNxK,...] [--time] [--json FILE]
//             [--seed N]
//
// Linked with gemm.cu (the kernel as written: the reference) or with the file
// tawa-rewrite made of it (same gemm(), warp-specialized kernel). For each
// shape:
//   - A (M x K) and B (N x K) are fresh random normal bf16, generated on the
//     device from a seed that differs per run and per shape; C is filled with
//     the bf16 NaN 0x7FC0 first, so an element gemm() leaves unwritten fails;
//   - C_ref = A * B^T from cublasGemmEx (bf16 in, CUBLAS_COMPUTE_32F, bf16
//     out); the check passes when ||C - C_ref||_F / ||C_ref||_F < 1e-2,
//     computed in double, and no element of C is NaN or infinite;
//   - with --time: 5 warm-up pairs, then 50 pairs timed with CUDA events and
//     interleaved (gemm, cuBLAS, gemm, cuBLAS...), each call on the next of
//     several input sets that together hold at least twice the L2 size, so
//     that no call finds its operands in L2. Reported: medians in ms, TFLOP/s
//     (2*M*N*K flops) and ours/cuBLAS in TFLOP/s (> 1: faster than cuBLAS).
// Prints one line per shape; --json writes every number. Exit status: 0 when
// every check passes, 1 when one fails, 2 on a usage error.
//
//===----------------------------------------------------------------------===//
#include "gemm.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr double kTolerance = 1e-2;
constexpr int kWarmupPairs = 5;
constexpr int kTimedPairs = 50;
constexpr int kMaxInputSets = 32;
constexpr std::uint16_t kPoisonBits = 0x7FC0; // a bf16 quiet NaN

//===--- Errors -----------------------------------------------------------===//

void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " +
                             cudaGetErrorString(status));
}

void check(cublasStatus_t status, const char *what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": " +
                             cublasGetStatusString(status));
}

#define CHECK(call) check((call), #call)

//===--- Device buffers ---------------------------------------------------===//

template <class T> class DeviceBuffer {
public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    CHECK(cudaMalloc(&data_, count * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  T *get() const { return data_; }
  std::size_t count() const { return count_; }

private:
  T *data_ = nullptr;
  std::size_t count_;
};

//===--- Kernels: inputs, poison, error -----------------------------------===//

__host__ __device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// p[i] = a standard normal sample (Box-Muller on a hash of (seed, i)).
__global__ void fill_normal(__nv_bfloat16 *p, std::size_t n,
                            std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    const float u1 = (static_cast<float>(h >> 40) + 1.0f) * 0x1p-24f; // (0, 1]
    const float u2 = static_cast<float>(h & 0xFFFFFFu) * 0x1p-24f;    // [0, 1)
    p[i] = __float2bfloat16_rn(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
  }
}

__global__ void fill_bits(std::uint16_t *p, std::size_t n, std::uint16_t bits) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = bits;
}

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 1024;

/// Per block: sum of (c - ref)^2 and of ref^2 over finite elements, in double,
/// and the number of non-finite elements of c and of ref.
struct Partial {
  double diff2;
  double ref2;
  unsigned long long bad;
  unsigned long long bad_ref;
};

__global__ void __launch_bounds__(kReduceThreads)
    error_partials(const __nv_bfloat16 *c, const __nv_bfloat16 *ref,
                   std::size_t n, Partial *out) {
  __shared__ Partial shared[kReduceThreads];
  Partial mine{0.0, 0.0, 0, 0};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const double x = __bfloat162float(c[i]);
    const double r = __bfloat162float(ref[i]);
    if (!isfinite(r)) {
      ++mine.bad_ref;
    } else if (!isfinite(x)) {
      ++mine.bad;
    } else {
      mine.diff2 += (x - r) * (x - r);
      mine.ref2 += r * r;
    }
  }
  shared[threadIdx.x] = mine;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) {
      Partial &a = shared[threadIdx.x];
      const Partial &b = shared[threadIdx.x + half];
      a.diff2 += b.diff2;
      a.ref2 += b.ref2;
      a.bad += b.bad;
      a.bad_ref += b.bad_ref;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = shared[0];
}

int blocks_for(std::size_t n) {
  return static_cast<int>(std::min<std::size_t>((n + 255) / 256, 4096));
}

//===--- One shape --------------------------------------------------------===//

struct Shape {
  int m, n, k;
  std::string text() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k);
  }
};

struct Result {
  Shape shape{};
  bool pass = false;
  std::string error;    // empty when every CUDA call succeeded
  double rel_err = NAN; // NaN when not computed or non-finite outputs
  unsigned long long nonfinite = 0;
  bool timed = false;
  int input_sets = 1;
  double ms = NAN, cublas_ms = NAN;
  double tflops = NAN, cublas_tflops = NAN, ratio = NAN;
};

/// A, B and C of one GEMM, row-major bf16.
struct Operands {
  DeviceBuffer<__nv_bfloat16> a, b, c;
  explicit Operands(const Shape &s)
      : a(std::size_t(s.m) * s.k), b(std::size_t(s.n) * s.k),
        c(std::size_t(s.m) * s.n) {}
};

class Runner {
public:
  Runner(cudaStream_t stream, cublasHandle_t cublas, std::size_t l2_bytes)
      : stream_(stream), cublas_(cublas), l2_bytes_(l2_bytes) {}

  Result run(const Shape &shape, std::uint64_t seed, bool time);

private:
  void fill_inputs(Operands &ops, std::uint64_t seed);
  void poison(DeviceBuffer<__nv_bfloat16> &buf);
  cudaError_t ours(const Shape &s, const Operands &ops, __nv_bfloat16 *c);
  void cublas(const Shape &s, const Operands &ops, __nv_bfloat16 *c);
  void compare(const Shape &s, const __nv_bfloat16 *c, const __nv_bfloat16 *ref,
               Result &result);
  void time(const Shape &s, const std::vector<Operands *> &sets,
            Result &result);

  cudaStream_t stream_;
  cublasHandle_t cublas_;
  std::size_t l2_bytes_;
};

void Runner::fill_inputs(Operands &ops, std::uint64_t seed) {
  fill_normal<<<blocks_for(ops.a.count()), 256, 0, stream_>>>(
      ops.a.get(), ops.a.count(), splitmix64(seed ^ 0xA));
  CHECK(cudaGetLastError());
  fill_normal<<<blocks_for(ops.b.count()), 256, 0, stream_>>>(
      ops.b.get(), ops.b.count(), splitmix64(seed ^ 0xB));
  CHECK(cudaGetLastError());
}

void Runner::poison(DeviceBuffer<__nv_bfloat16> &buf) {
  fill_bits<<<blocks_for(buf.count()), 256, 0, stream_>>>(
      reinterpret_cast<std::uint16_t *>(buf.get()), buf.count(), kPoisonBits);
  CHECK(cudaGetLastError());
}

cudaError_t Runner::ours(const Shape &s, const Operands &ops,
                         __nv_bfloat16 *c) {
  return gemm(tawa::Matrix<const __nv_bfloat16>{ops.a.get(), s.m, s.k, s.k},
              tawa::Matrix<const __nv_bfloat16>{ops.b.get(), s.n, s.k, s.k},
              tawa::Matrix<__nv_bfloat16>{c, s.m, s.n, s.n}, stream_);
}

/// Row-major C = A * B^T is column-major C^T (N x M, ld N) = B^T' * A' where
/// B' = B seen column-major (K x N, ld K, transposed by the op) and A' = A
/// seen column-major (K x M, ld K).
void Runner::cublas(const Shape &s, const Operands &ops, __nv_bfloat16 *c) {
  const float alpha = 1.0f, beta = 0.0f;
  CHECK(cublasGemmEx(cublas_, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &alpha,
                     ops.b.get(), CUDA_R_16BF, s.k, ops.a.get(), CUDA_R_16BF,
                     s.k, &beta, c, CUDA_R_16BF, s.n, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT));
}

void Runner::compare(const Shape &s, const __nv_bfloat16 *c,
                     const __nv_bfloat16 *ref, Result &result) {
  const std::size_t n = std::size_t(s.m) * s.n;
  DeviceBuffer<Partial> partials(kReduceBlocks);
  error_partials<<<kReduceBlocks, kReduceThreads, 0, stream_>>>(c, ref, n,
                                                                partials.get());
  CHECK(cudaGetLastError());
  std::vector<Partial> host(kReduceBlocks);
  CHECK(cudaMemcpyAsync(host.data(), partials.get(),
                        kReduceBlocks * sizeof(Partial), cudaMemcpyDeviceToHost,
                        stream_));
  CHECK(cudaStreamSynchronize(stream_));
  double diff2 = 0.0, ref2 = 0.0;
  unsigned long long bad = 0, bad_ref = 0;
  for (const Partial &p : host) {
    diff2 += p.diff2;
    ref2 += p.ref2;
    bad += p.bad;
    bad_ref += p.bad_ref;
  }
  if (bad_ref != 0)
    throw std::runtime_error(std::to_string(bad_ref) +
                             " non-finite elements in the cuBLAS result");
  result.nonfinite = bad;
  result.rel_err = bad == 0 ? std::sqrt(diff2) / std::sqrt(ref2) : NAN;
  result.pass = bad == 0 && result.rel_err < kTolerance;
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (double(v[h - 1]) + v[h]);
}

void Runner::time(const Shape &s, const std::vector<Operands *> &sets,
                  Result &result) {
  std::size_t call = 0;
  auto next = [&]() -> Operands & { return *sets[call++ % sets.size()]; };
  for (int i = 0; i < kWarmupPairs; ++i) {
    Operands &x = next();
    CHECK(ours(s, x, x.c.get()));
    Operands &y = next();
    cublas(s, y, y.c.get());
  }
  // Events: [2p] before and [2p + 1] after pair p's call.
  std::vector<cudaEvent_t> ev_ours(2 * kTimedPairs), ev_cublas(2 * kTimedPairs);
  for (cudaEvent_t &e : ev_ours)
    CHECK(cudaEventCreate(&e));
  for (cudaEvent_t &e : ev_cublas)
    CHECK(cudaEventCreate(&e));
  struct Destroy {
    std::vector<cudaEvent_t> &a, &b;
    ~Destroy() {
      for (cudaEvent_t e : a)
        cudaEventDestroy(e);
      for (cudaEvent_t e : b)
        cudaEventDestroy(e);
    }
  } destroy{ev_ours, ev_cublas};
  for (int p = 0; p < kTimedPairs; ++p) {
    Operands &x = next();
    CHECK(cudaEventRecord(ev_ours[2 * p], stream_));
    CHECK(ours(s, x, x.c.get()));
    CHECK(cudaEventRecord(ev_ours[2 * p + 1], stream_));
    Operands &y = next();
    CHECK(cudaEventRecord(ev_cublas[2 * p], stream_));
    cublas(s, y, y.c.get());
    CHECK(cudaEventRecord(ev_cublas[2 * p + 1], stream_));
  }
  CHECK(cudaStreamSynchronize(stream_));
  CHECK(cudaGetLastError());
  std::vector<float> t_ours(kTimedPairs), t_cublas(kTimedPairs);
  for (int p = 0; p < kTimedPairs; ++p) {
    CHECK(cudaEventElapsedTime(&t_ours[p], ev_ours[2 * p], ev_ours[2 * p + 1]));
    CHECK(cudaEventElapsedTime(&t_cublas[p], ev_cublas[2 * p],
                               ev_cublas[2 * p + 1]));
  }
  const double flops = 2.0 * s.m * s.n * s.k;
  result.timed = true;
  result.ms = median(t_ours);
  result.cublas_ms = median(t_cublas);
  result.tflops = flops / (result.ms * 1e-3) / 1e12;
  result.cublas_tflops = flops / (result.cublas_ms * 1e-3) / 1e12;
  result.ratio = result.tflops / result.cublas_tflops;
}

Result Runner::run(const Shape &shape, std::uint64_t seed, bool timing) {
  Result result;
  result.shape = shape;
  try {
    // Input sets: one for the check; for timing, enough that all of them
    // together are at least twice the L2 size (and at least two), as far as
    // memory allows.
    const std::size_t set_bytes =
        sizeof(__nv_bfloat16) *
        (std::size_t(shape.m) * shape.k + std::size_t(shape.n) * shape.k +
         std::size_t(shape.m) * shape.n);
    int sets_wanted = 1;
    if (timing) {
      std::size_t free_bytes = 0, total_bytes = 0;
      CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const std::size_t wanted = (2 * l2_bytes_ + set_bytes - 1) / set_bytes;
      const std::size_t fit = free_bytes / 2 / set_bytes; // leave headroom
      sets_wanted = static_cast<int>(std::max<std::size_t>(
          2, std::min<std::size_t>(std::min<std::size_t>(wanted, fit),
                                   kMaxInputSets)));
    }
    std::vector<std::unique_ptr<Operands>> owned;
    std::vector<Operands *> sets;
    for (int i = 0; i < sets_wanted; ++i) {
      owned.push_back(std::make_unique<Operands>(shape));
      sets.push_back(owned.back().get());
      fill_inputs(*sets.back(), splitmix64(seed + i));
    }
    result.input_sets = sets_wanted;
    DeviceBuffer<__nv_bfloat16> ref(std::size_t(shape.m) * shape.n);

    Operands &x = *sets[0];
    poison(x.c);
    poison(ref);
    CHECK(cudaStreamSynchronize(stream_));
    CHECK(ours(shape, x, x.c.get()));
    CHECK(cudaStreamSynchronize(stream_));
    CHECK(cudaGetLastError());
    cublas(shape, x, ref.get());
    CHECK(cudaStreamSynchronize(stream_));
    compare(shape, x.c.get(), ref.get(), result);
    if (timing && result.pass)
      time(shape, sets, result);
    CHECK(cudaDeviceSynchronize());
  } catch (const std::exception &e) {
    result.pass = false;
    result.error = e.what();
  }
  return result;
}

//===--- Output -----------------------------------------------------------===//

std::string json_string(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

std::string json_number(double x) {
  if (!std::isfinite(x))
    return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

void print_line(const std::string &label, const Result &r) {
  char err[16] = "-";
  if (std::isfinite(r.rel_err))
    std::snprintf(err, sizeof err, "%.2e", r.rel_err);
  std::printf("%-10s %-16s rel_err %-9s %s", label.c_str(),
              r.shape.text().c_str(), err, r.pass ? "PASS" : "FAIL");
  if (r.nonfinite)
    std::printf("  %llu non-finite", r.nonfinite);
  if (r.timed)
    std::printf("  ours %.4f ms %6.1f TFLOP/s  cuBLAS %.4f ms %6.1f TFLOP/s"
                "  ours/cuBLAS %.3f",
                r.ms, r.tflops, r.cublas_ms, r.cublas_tflops, r.ratio);
  if (!r.error.empty())
    std::printf("  error: %s", r.error.c_str());
  std::printf("\n");
  std::fflush(stdout);
}

bool write_json(const std::string &path, const std::string &label,
                const std::string &device, std::uint64_t seed,
                const std::vector<Result> &results) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f, "{\n  \"label\": %s,\n  \"device\": %s,\n",
               json_string(label).c_str(), json_string(device).c_str());
  std::fprintf(f, "  \"seed\": %llu,\n  \"tolerance\": %s,\n",
               static_cast<unsigned long long>(seed),
               json_number(kTolerance).c_str());
  std::fprintf(f, "  \"results\": [");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::fprintf(f, "%s\n    {\"shape\": %s, \"m\": %d, \"n\": %d, \"k\": %d",
                 i ? "," : "", json_string(r.shape.text()).c_str(), r.shape.m,
                 r.shape.n, r.shape.k);
    std::fprintf(f, ", \"rel_err\": %s, \"nonfinite\": %llu, \"pass\": %s",
                 json_number(r.rel_err).c_str(), r.nonfinite,
                 r.pass ? "true" : "false");
    std::fprintf(f, ", \"error\": %s",
                 r.error.empty() ? "null" : json_string(r.error).c_str());
    std::fprintf(f,
                 ", \"ms\": %s, \"tflops\": %s, \"cublas_ms\": %s, "
                 "\"cublas_tflops\": %s, \"ratio\": %s",
                 json_number(r.ms).c_str(), json_number(r.tflops).c_str(),
                 json_number(r.cublas_ms).c_str(),
                 json_number(r.cublas_tflops).c_str(),
                 json_number(r.ratio).c_str());
    if (r.timed)
      std::fprintf(f,
                   ", \"input_sets\": %d, \"warmup_pairs\": %d, "
                   "\"timed_pairs\": %d",
                   r.input_sets, kWarmupPairs, kTimedPairs);
    std::fprintf(f, "}");
  }
  std::fprintf(f, "\n  ]\n}\n");
  return std::fclose(f) == 0;
}

//===--- Command line -----------------------------------------------------===//

struct Options {
  std::string label = "gemm";
  std::vector<Shape> shapes;
  bool time = false;
  std::string json;
  bool have_seed = false;
  std::uint64_t seed = 0;
};

const char kUsage[] =
    "usage: gemm-check --label NAME [--shapes MxNxK,...] [--time] "
    "[--json FILE] [--seed N]\n"
    "  --label NAME    name of this build in the output (default: gemm)\n"
    "  --shapes LIST   comma-separated MxNxK (default: 1000x1000x1000)\n"
    "  --time          also time gemm() against cuBLAS, interleaved\n"
    "  --json FILE     write all results to FILE\n"
    "  --seed N        base seed of the random inputs (default: fresh)\n";

bool parse_shape(const std::string &text, Shape &s) {
  char tail = 0;
  return std::sscanf(text.c_str(), "%dx%dx%d%c", &s.m, &s.n, &s.k, &tail) ==
             3 &&
         s.m > 0 && s.n > 0 && s.k > 0;
}

bool parse_shapes(const std::string &list, std::vector<Shape> &out) {
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    Shape s{};
    if (!parse_shape(list.substr(begin, end - begin), s))
      return false;
    out.push_back(s);
    begin = end + 1;
  }
  return !out.empty();
}

/// Returns false on a usage error (after printing it).
bool parse_args(int argc, char **argv, Options &opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "gemm-check: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--label") {
      const char *v = value("--label");
      if (!v)
        return false;
      opt.label = v;
    } else if (arg == "--shapes") {
      const char *v = value("--shapes");
      if (!v)
        return false;
      if (!parse_shapes(v, opt.shapes)) {
        std::fprintf(stderr, "gemm-check: bad --shapes '%s' (want MxNxK,...)\n",
                     v);
        return false;
      }
    } else if (arg == "--time") {
      opt.time = true;
    } else if (arg == "--json") {
      const char *v = value("--json");
      if (!v)
        return false;
      opt.json = v;
    } else if (arg == "--seed") {
      const char *v = value("--seed");
      if (!v)
        return false;
      char *end = nullptr;
      opt.seed = std::strtoull(v, &end, 0);
      if (!*v || *end) {
        std::fprintf(stderr, "gemm-check: bad --seed '%s'\n", v);
        return false;
      }
      opt.have_seed = true;
    } else {
      std::fprintf(stderr, "gemm-check: unknown argument '%s'\n", arg.c_str());
      return false;
    }
  }
  if (opt.shapes.empty())
    opt.shapes.push_back(Shape{1000, 1000, 1000});
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  if (!parse_args(argc, argv, opt)) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  if (!opt.have_seed) {
    std::random_device entropy;
    opt.seed = (std::uint64_t(entropy()) << 32) ^ entropy() ^
               std::uint64_t(
                   std::chrono::steady_clock::now().time_since_epoch().count());
  }

  std::string device = "unknown";
  cudaStream_t stream = nullptr;
  cublasHandle_t handle = nullptr;
  std::size_t l2_bytes = 0;
  try {
    int dev = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, dev));
    device = prop.name;
    l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cublasCreate(&handle));
    CHECK(cublasSetStream(handle, stream));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gemm-check: %s\n", e.what());
    return 1;
  }
  std::printf("gemm-check %s on %s, seed %llu\n", opt.label.c_str(),
              device.c_str(), static_cast<unsigned long long>(opt.seed));

  Runner runner(stream, handle, l2_bytes);
  std::vector<Result> results;
  bool all_pass = true;
  for (std::size_t i = 0; i < opt.shapes.size(); ++i) {
    results.push_back(
        runner.run(opt.shapes[i], splitmix64(opt.seed ^ (i << 48)), opt.time));
    print_line(opt.label, results.back());
    all_pass = all_pass && results.back().pass;
  }

  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  if (!opt.json.empty() &&
      !write_json(opt.json, opt.label, device, opt.seed, results)) {
    std::fprintf(stderr, "gemm-check: cannot write %s\n", opt.json.c_str());
    return 1;
  }
  return all_pass ? 0 : 1;
}
