//===- bench/launch/overhead.cu - host cost of a rewritten GEMM's launch --===//
//
// launch-overhead --json FILE [--calls N] [--shapes MxNxK,...]
//
// What a small GEMM pays before its kernel runs: for each shape, gemm() (the
// rewritten launcher, linked in from a rewrite of examples/gemm/gemm.cu) and
// cublasGemmEx are each called N times back to back on one stream (default
// 200, fewer than the launch queue holds), and reported are
//   - host_us: host time per call, the calls' enqueue alone (the stream is
//     idle before the first and not waited on in between);
//   - stream_us: stream time per call, from an event before the first call to
//     one after the last (the larger of the kernels' time and the host's);
// and the output of both is compared (largest |ours - cuBLAS| / largest
// |cuBLAS|, 1e-2 at most, else FAIL). Then the runtime calls a launcher makes
// are timed alone, 2000 times each, in us per call: cudaGetDevice with
// cudaDeviceGetAttribute (the SM count), cudaStreamIsCapturing,
// cudaFuncSetAttribute (the dynamic shared-memory limit), one tensor map's
// encoding (tawa::rt::make_tensor_map), and launches of an empty kernel with
// 16 bytes and with 1024 bytes of parameters.
//
//===----------------------------------------------------------------------===//
#include "gemm.h"

#include <tawa/runtime/tma.cuh>

#include <cublas_v2.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!check_status((x), #x, __LINE__))                                      \
      std::exit(1);                                                            \
  } while (0)

bool check_status(cudaError_t e, const char *what, int line) {
  if (e == cudaSuccess)
    return true;
  std::fprintf(stderr, "line %d: %s: %s\n", line, what, cudaGetErrorString(e));
  return false;
}

bool check_status(cublasStatus_t s, const char *what, int line) {
  if (s == CUBLAS_STATUS_SUCCESS)
    return true;
  std::fprintf(stderr, "line %d: %s: cuBLAS status %d\n", line, what, (int)s);
  return false;
}

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

__global__ void fill(__nv_bfloat16 *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x) {
    unsigned h = (unsigned)i * 2654435761u ^ seed;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    p[i] = __float2bfloat16(((h >> 8) & 0xffff) / 32768.0f - 1.0f);
  }
}

struct Params1k {
  char bytes[1024];
};
__global__ void empty16(long long, long long) {}
__global__ void empty1k(const __grid_constant__ Params1k) {}
__global__ void shared_kernel() {
  extern __shared__ char smem[];
  if (threadIdx.x == 1000)
    smem[0] = 0;
}

struct Shape {
  int m, n, k;
};

struct Row {
  Shape s;
  double host_ours, host_cublas, stream_ours, stream_cublas, err;
};

/// Times `n` back-to-back calls of `call`: host us per call, stream us per
/// call.
template <class F>
void time_calls(cudaStream_t stream, int n, F call, double *host,
                double *stream_time) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaEventRecord(start, stream));
  const double t0 = now_us();
  for (int i = 0; i < n; ++i)
    call();
  const double t1 = now_us();
  CHECK(cudaEventRecord(stop, stream));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  *host = (t1 - t0) / n;
  *stream_time = ms * 1e3 / n;
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
}

double max_rel_err(const __nv_bfloat16 *ours, const __nv_bfloat16 *ref,
                   size_t n) {
  std::vector<__nv_bfloat16> a(n), b(n);
  CHECK(cudaMemcpy(a.data(), ours, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(b.data(), ref, n * 2, cudaMemcpyDeviceToHost));
  double diff = 0, mag = 0;
  for (size_t i = 0; i < n; ++i) {
    const double x = __bfloat162float(a[i]), y = __bfloat162float(b[i]);
    diff = std::max(diff, std::fabs(x - y));
    mag = std::max(mag, std::fabs(y));
  }
  return mag > 0 ? diff / mag : diff;
}

Row measure(const Shape &s, int calls, cudaStream_t stream,
            cublasHandle_t cublas) {
  __nv_bfloat16 *a, *b, *c, *c_ref;
  CHECK(cudaMalloc(&a, (size_t)s.m * s.k * 2));
  CHECK(cudaMalloc(&b, (size_t)s.n * s.k * 2));
  CHECK(cudaMalloc(&c, (size_t)s.m * s.n * 2));
  CHECK(cudaMalloc(&c_ref, (size_t)s.m * s.n * 2));
  fill<<<256, 256, 0, stream>>>(a, (size_t)s.m * s.k, 1);
  fill<<<256, 256, 0, stream>>>(b, (size_t)s.n * s.k, 2);
  const tawa::Matrix<const __nv_bfloat16> A{a, s.m, s.k, s.k}, B{b, s.n, s.k,
                                                                 s.k};
  const tawa::Matrix<__nv_bfloat16> C{c, s.m, s.n, s.n};
  const float alpha = 1, beta = 0;
  auto ours = [&] { CHECK(gemm(A, B, C, stream)); };
  auto theirs = [&] {
    CHECK(cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, s.n, s.m, s.k, &alpha,
                       b, CUDA_R_16BF, s.k, a, CUDA_R_16BF, s.k, &beta, c_ref,
                       CUDA_R_16BF, s.n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
  };
  Row r{s, 0, 0, 0, 0, 0};
  for (int warm = 0; warm < 2; ++warm) { // the first pass warms both up
    time_calls(stream, calls, ours, &r.host_ours, &r.stream_ours);
    time_calls(stream, calls, theirs, &r.host_cublas, &r.stream_cublas);
  }
  r.err = max_rel_err(c, c_ref, (size_t)s.m * s.n);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(c_ref));
  return r;
}

/// us per call of `call`, 2000 calls after 100 unmeasured.
template <class F> double per_call(F call) {
  for (int i = 0; i < 100; ++i)
    call();
  const double t0 = now_us();
  for (int i = 0; i < 2000; ++i)
    call();
  return (now_us() - t0) / 2000;
}

std::vector<std::pair<std::string, double>> runtime_calls(cudaStream_t s) {
  std::vector<std::pair<std::string, double>> out;
  out.push_back({"cudaGetDevice + SM count", per_call([] {
                   int d = 0, sms = 0;
                   CHECK(cudaGetDevice(&d));
                   CHECK(cudaDeviceGetAttribute(
                       &sms, cudaDevAttrMultiProcessorCount, d));
                 })});
  out.push_back({"cudaStreamIsCapturing", per_call([s] {
                   cudaStreamCaptureStatus c;
                   CHECK(cudaStreamIsCapturing(s, &c));
                 })});
  out.push_back({"cudaFuncSetAttribute", per_call([] {
                   CHECK(cudaFuncSetAttribute(
                       shared_kernel,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 200000));
                 })});
  __nv_bfloat16 *p;
  CHECK(cudaMalloc(&p, 4096 * 4096 * 2));
  const tawa::Matrix<const __nv_bfloat16> m{p, 4096, 4096, 4096};
  out.push_back({"make_tensor_map", per_call([&] {
                   CUtensorMap map;
                   CHECK(tawa::rt::make_tensor_map(&map, m, 128, 64));
                 })});
  out.push_back({"launch, 16 B of parameters", per_call([s] {
                   empty16<<<1, 32, 0, s>>>(1, 2);
                 })});
  CHECK(cudaStreamSynchronize(s));
  Params1k big{};
  out.push_back({"launch, 1024 B of parameters", per_call([s, &big] {
                   empty1k<<<1, 32, 0, s>>>(big);
                 })});
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaFree(p));
  return out;
}

} // namespace

int main(int argc, char **argv) {
  std::string json, shapes = "16x16x64,64x256x256,64x1024x1024,16x4096x1024,"
                             "64x2048x2048,256x256x256,1024x1024x1024";
  int calls = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--json"))
      json = argv[i + 1];
    else if (!std::strcmp(argv[i], "--calls"))
      calls = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--shapes"))
      shapes = argv[i + 1];
  }
  std::vector<Shape> list;
  for (const char *p = shapes.c_str(); *p;) {
    Shape s{};
    if (std::sscanf(p, "%dx%dx%d", &s.m, &s.n, &s.k) != 3)
      break;
    list.push_back(s);
    p = std::strchr(p, ',');
    if (!p)
      break;
    ++p;
  }
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t cublas;
  CHECK(cublasCreate(&cublas));
  CHECK(cublasSetStream(cublas, stream));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("launch overhead on %s, %d calls per measurement\n", prop.name,
              calls);
  std::printf("%-16s %10s %10s %10s %10s %9s\n", "shape", "host ours",
              "host cuBLAS", "strm ours", "strm cuBLAS", "check");
  std::vector<Row> rows;
  bool ok = true;
  for (const Shape &s : list) {
    const Row r = measure(s, calls, stream, cublas);
    const bool pass = r.err <= 1e-2;
    ok &= pass;
    std::printf("%5dx%5dx%5d %10.2f %10.2f %10.2f %10.2f %9s\n", s.m, s.n,
                s.k, r.host_ours, r.host_cublas, r.stream_ours,
                r.stream_cublas, pass ? "PASS" : "FAIL");
    rows.push_back(r);
  }
  const auto calls_alone = runtime_calls(stream);
  std::printf("runtime calls alone, us per call\n");
  for (const auto &[name, us] : calls_alone)
    std::printf("  %-30s %8.3f\n", name.c_str(), us);
  if (!json.empty()) {
    FILE *f = std::fopen(json.c_str(), "w");
    if (!f)
      return 1;
    std::fprintf(f, "{\"device\": \"%s\", \"calls\": %d, \"shapes\": [",
                 prop.name, calls);
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row &r = rows[i];
      std::fprintf(f,
                   "%s{\"shape\": \"%dx%dx%d\", \"host_us_ours\": %.3f, "
                   "\"host_us_cublas\": %.3f, \"stream_us_ours\": %.3f, "
                   "\"stream_us_cublas\": %.3f, \"rel_err\": %.3g}",
                   i ? ", " : "", r.s.m, r.s.n, r.s.k, r.host_ours,
                   r.host_cublas, r.stream_ours, r.stream_cublas, r.err);
    }
    std::fprintf(f, "], \"runtime_calls_us\": {");
    for (size_t i = 0; i < calls_alone.size(); ++i)
      std::fprintf(f, "%s\"%s\": %.4f", i ? ", " : "",
                   calls_alone[i].first.c_str(), calls_alone[i].second);
    std::fprintf(f, "}}\n");
    std::fclose(f);
  }
  return ok ? 0 : 1;
}
