//===- examples/gemm/main.cu - checks and times gemm() against cuBLAS -----===//
//
// gemm-check --label NAME [--shapes SHAPE,...] [--batches N] [--time]
//            [--pairs N] [--warmup N] [--json FILE] [--seed N]
//
// One driver for the GEMM examples. Linked with an example's gemm.cu (the
// kernel as written: the reference) or with the file tawa-rewrite made of it
// (same gemm(), warp-specialized kernel). Built per example:
//   - the example's header comes from the include path: `#include <gemm.h>`
//     with -Iexamples/<example> (angle brackets: the directory of this file
//     is not searched);
//   - the element type is chosen at compile time with -DGEMM_ELEMENT=bf16
//     (the default: __nv_bfloat16, CUDA_R_16BF) or -DGEMM_ELEMENT=half
//     (__half, CUDA_R_16F; `fp16` and `f16` are accepted too) or
//     -DGEMM_ELEMENT=tf32 (float in memory, CUDA_R_32F, multiplied as tf32:
//     cuBLAS with CUBLAS_COMPUTE_32F_FAST_TF32, examples/gemm-tf32) or
//     -DGEMM_ELEMENT=f32 (float, multiplied under precision(3xtf32): cuBLAS's
//     fp32 SGEMM, CUBLAS_COMPUTE_32F, and a tolerance of 3e-4 instead of
//     1e-2, examples/gemm-3xtf32). It must match the example's gemm(): a
//     mismatch does not compile;
//   - the operand layout with -DGEMM_LAYOUT=nt (the default: A is M x K, B
//     is N x K), nn (B is K x N), tn (A is K x M, B is K x N) or tt (A is
//     K x M): C = op(A) * op(B), op N the matrix as stored, T its transpose
//     (examples/gemm-layouts). It must match the linked gemm(), which
//     checks the shapes it is given.
// gemm() is called as C[z] = op(A[z]) * op(B[z]) for z < batches, every
// matrix row-major and dense, matrix z at z * rows * cols elements of its
// buffer
// (Matrix{data, rows, cols, ld, batches, batch_stride}; a single matrix has
// batches 1, batch_stride 0). An example without batch support computes only
// matrix 0, and the check then fails on the poisoned rest.
//
// For each shape (MxNxK, or BxMxNxK for B matrices; MxNxK takes --batches):
//   - A (B x M x K or B x K x M) and B (B x N x K or B x K x N) are fresh
//     random normal values,
//     generated on the device from a seed that differs per run and per shape;
//     C is filled with a quiet NaN of the element type first (bf16 0x7FC0,
//     fp16 0x7E00, fp32 0x7FC00000), so an element gemm() leaves unwritten
//     fails;
//   - C_ref = op(A) * op(B) from cuBLAS (cublasGemmEx, or
//   cublasGemmStridedBatchedEx
//     for B > 1; element type in and out, CUBLAS_COMPUTE_32F, or
//     CUBLAS_COMPUTE_32F_FAST_TF32 for tf32); the check
//     passes when ||C - C_ref||_F / ||C_ref||_F < 1e-2 (computed in double,
//     over all matrices), no element of C is NaN or infinite, and
//   - the fp64 spot check passes: 256 output elements (the corners of the
//     first and last matrix, the rest uniformly random) are recomputed on the
//     host in double from copies of the A and B rows (or columns) they need.
//     With t_k = a_ik * b_kj, ref = sum_k t_k and mag = sqrt(sum_k t_k^2) (the
//     size of a sum of K random terms), an element's error is
//     |c - ref| / (|ref| + mag); the largest must be under 1e-2. Rounding the
//     output costs at most 2^-8 (bf16) of |ref|, fp32 accumulation about
//     sqrt(K) * 2^-24 of mag (a host simulation of random bf16 rows gave at
//     most 2.3e-3 in all); one K block of 64 missing from K = 16384 gave over
//     0.1 at the worst of 256 samples, a wrong B row about 2. tf32 inputs
//     keep 10 of fp32's 23 mantissa bits, so each product is within about
//     2^-9 of its value and their errors, of random sign, add to about 2^-9
//     of mag (results/h100/tf32/ has the measured errors). The same check
//     runs on C_ref, so a cuBLAS call that computes the wrong product is
//     caught instead of agreeing with ours;
//   - the graph check: C is poisoned again, gemm() is captured into a CUDA
//     graph on the stream and the graph launched on a second stream; its C
//     must pass the same relative-error test (reported as graph_rel_err), so
//     a launcher that cannot run under stream capture, or whose captured
//     launch reads state of the first stream, fails;
//   - with --time: warm-up pairs (default 5), then timed pairs (default 50)
//     with CUDA events, interleaved (gemm, cuBLAS, gemm, cuBLAS...), each call
//     on the next of several input sets that together hold at least twice the
//     L2 size, so that no call finds its operands in L2. Reported: medians in
//     ms (and the 10th / 90th percentiles), TFLOP/s (2*B*M*N*K flops) and
//     ours/cuBLAS in TFLOP/s (> 1: faster than cuBLAS).
// Prints one line per shape; --json writes every number (rewritten after
// every shape, so a run cut short leaves what it measured). Exit status: 0
// when every check passes, 1 when one fails, 2 on a usage error.
//
//===----------------------------------------------------------------------===//

// The element type: GEMM_ELEMENT names one of the spellings below.
#define GEMM_ELEMENT_ID_bf16 1
#define GEMM_ELEMENT_ID_bfloat16 1
#define GEMM_ELEMENT_ID_half 2
#define GEMM_ELEMENT_ID_fp16 2
#define GEMM_ELEMENT_ID_f16 2
#define GEMM_ELEMENT_ID_tf32 3
#define GEMM_ELEMENT_ID_f32 4
#define GEMM_ELEMENT_ID_3xtf32 4
#define GEMM_PASTE_(a, b) a##b
#define GEMM_PASTE(a, b) GEMM_PASTE_(a, b)
#ifndef GEMM_ELEMENT
#define GEMM_ELEMENT bf16
#endif
#if GEMM_PASTE(GEMM_ELEMENT_ID_, GEMM_ELEMENT) == 1
#define GEMM_ELEMENT_IS_BF16 1
#elif GEMM_PASTE(GEMM_ELEMENT_ID_, GEMM_ELEMENT) == 2
#define GEMM_ELEMENT_IS_BF16 0
#elif GEMM_PASTE(GEMM_ELEMENT_ID_, GEMM_ELEMENT) == 3
#define GEMM_ELEMENT_IS_BF16 0
#define GEMM_ELEMENT_IS_TF32 1
#elif GEMM_PASTE(GEMM_ELEMENT_ID_, GEMM_ELEMENT) == 4
#define GEMM_ELEMENT_IS_BF16 0
#define GEMM_ELEMENT_IS_F32 1
#else
#error "GEMM_ELEMENT must be bf16 (the default), half, tf32 or f32"
#endif
#ifndef GEMM_ELEMENT_IS_TF32
#define GEMM_ELEMENT_IS_TF32 0
#endif
#ifndef GEMM_ELEMENT_IS_F32
#define GEMM_ELEMENT_IS_F32 0
#endif

// The operand layout: GEMM_LAYOUT names one of nt, nn, tn, tt.
#define GEMM_LAYOUT_ID_nt 1
#define GEMM_LAYOUT_ID_nn 2
#define GEMM_LAYOUT_ID_tn 3
#define GEMM_LAYOUT_ID_tt 4
#ifndef GEMM_LAYOUT
#define GEMM_LAYOUT nt
#endif
#define GEMM_LAYOUT_ID GEMM_PASTE(GEMM_LAYOUT_ID_, GEMM_LAYOUT)
#if GEMM_LAYOUT_ID < 1 || GEMM_LAYOUT_ID > 4
#error "GEMM_LAYOUT must be nt (the default), nn, tn or tt"
#endif

// The example's header, found through -Iexamples/<example>: angle brackets,
// because "gemm.h" would find examples/gemm/gemm.h beside this file first.
#include "../common/report.h"
#include <gemm.h>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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
#include <type_traits>
#include <vector>

namespace {

#if GEMM_ELEMENT_IS_F32
// fp32 at fp32's accuracy (precision(3xtf32), examples/gemm-3xtf32): against
// cuBLAS's fp32 SGEMM, with a tolerance that 1xTF32 fails.
using Element = float;
using PoisonBits = std::uint32_t;
constexpr cudaDataType_t kCudaType = CUDA_R_32F;
constexpr cublasComputeType_t kComputeType = CUBLAS_COMPUTE_32F;
constexpr const char *kElementName = "f32";
constexpr PoisonBits kPoisonBits = 0x7FC00000u; // an fp32 quiet NaN
__host__ __device__ inline float to_float(Element x) { return x; }
__device__ inline Element from_float(float x) { return x; }
#elif GEMM_ELEMENT_IS_TF32
using Element = float;
using PoisonBits = std::uint32_t;
constexpr cudaDataType_t kCudaType = CUDA_R_32F;
constexpr cublasComputeType_t kComputeType = CUBLAS_COMPUTE_32F_FAST_TF32;
constexpr const char *kElementName = "tf32";
constexpr PoisonBits kPoisonBits = 0x7FC00000u; // an fp32 quiet NaN
__host__ __device__ inline float to_float(Element x) { return x; }
__device__ inline Element from_float(float x) { return x; }
#elif GEMM_ELEMENT_IS_BF16
using Element = __nv_bfloat16;
using PoisonBits = std::uint16_t;
constexpr cudaDataType_t kCudaType = CUDA_R_16BF;
constexpr cublasComputeType_t kComputeType = CUBLAS_COMPUTE_32F;
constexpr const char *kElementName = "bf16";
constexpr PoisonBits kPoisonBits = 0x7FC0; // a bf16 quiet NaN
__host__ __device__ inline float to_float(Element x) {
  return __bfloat162float(x);
}
__device__ inline Element from_float(float x) { return __float2bfloat16_rn(x); }
#else
using Element = __half;
using PoisonBits = std::uint16_t;
constexpr cudaDataType_t kCudaType = CUDA_R_16F;
constexpr cublasComputeType_t kComputeType = CUBLAS_COMPUTE_32F;
constexpr const char *kElementName = "fp16";
constexpr PoisonBits kPoisonBits = 0x7E00; // an fp16 quiet NaN
__host__ __device__ inline float to_float(Element x) { return __half2float(x); }
__device__ inline Element from_float(float x) { return __float2half_rn(x); }
#endif
static_assert(sizeof(Element) == sizeof(PoisonBits),
              "the poison fill writes whole elements");
static_assert(
    std::is_same<decltype(gemm),
                 cudaError_t(tawa::Matrix<const Element>,
                             tawa::Matrix<const Element>, tawa::Matrix<Element>,
                             cudaStream_t)>::value,
    "GEMM_ELEMENT does not match the gemm() of the example's header "
    "(examples/gemm-f16 wants -DGEMM_ELEMENT=half, examples/gemm-tf32 "
    "-DGEMM_ELEMENT=tf32)");

/// A is stored K x M (else M x K); B is stored N x K (else K x N).
constexpr bool kATransposed = GEMM_LAYOUT_ID == 3 || GEMM_LAYOUT_ID == 4;
constexpr bool kBTransposed = GEMM_LAYOUT_ID == 1 || GEMM_LAYOUT_ID == 4;
constexpr const char *kLayoutName = GEMM_LAYOUT_ID == 1   ? "nt"
                                    : GEMM_LAYOUT_ID == 2 ? "nn"
                                    : GEMM_LAYOUT_ID == 3 ? "tn"
                                                          : "tt";

// f32 (3xtf32): each product within about 2^-19 of its value; the
// spot-check error is dominated by wgmma's fp32 accumulation, which drifts
// with K (about 7e-9 K on an H200: 3e-5 at K = 4096, results/h100/3xtf32/);
// 1xTF32's is about 9e-4 at any K and fails.
constexpr double kTolerance = GEMM_ELEMENT_IS_F32 ? 3e-4 : 1e-2;
constexpr int kDefaultWarmupPairs = 5;
constexpr int kDefaultTimedPairs = 50;
constexpr int kMaxInputSets = 32;
constexpr int kSpotSamples = 256;

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
__global__ void fill_normal(Element *p, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    const float u1 = (static_cast<float>(h >> 40) + 1.0f) * 0x1p-24f; // (0, 1]
    const float u2 = static_cast<float>(h & 0xFFFFFFu) * 0x1p-24f;    // [0, 1)
    p[i] = from_float(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
  }
}

__global__ void fill_bits(PoisonBits *p, std::size_t n, PoisonBits bits) {
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
    error_partials(const Element *c, const Element *ref, std::size_t n,
                   Partial *out) {
  __shared__ Partial shared[kReduceThreads];
  Partial mine{0.0, 0.0, 0, 0};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const double x = to_float(c[i]);
    const double r = to_float(ref[i]);
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
  int batches, m, n, k;
  std::string text() const {
    std::string s =
        std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    return batches == 1 ? s : std::to_string(batches) + "x" + s;
  }
  std::size_t a_count() const { return std::size_t(batches) * m * k; }
  std::size_t b_count() const { return std::size_t(batches) * n * k; }
  std::size_t c_count() const { return std::size_t(batches) * m * n; }
  double flops() const { return 2.0 * batches * double(m) * n * k; }
};

struct Result {
  Shape shape{};
  bool pass = false;
  std::string error;    // empty when every CUDA call succeeded
  double rel_err = NAN; // NaN when not computed or non-finite outputs
  unsigned long long nonfinite = 0;
  double spot_err = NAN;        // largest fp64 spot-check error of ours
  double cublas_spot_err = NAN; // the same for cuBLAS
  double graph_rel_err = NAN;   // rel_err of the launch captured in a graph
  bool timed = false;
  int input_sets = 1;
  int warmup_pairs = 0, timed_pairs = 0;
  double ms = NAN, cublas_ms = NAN;
  double ms_p10 = NAN, ms_p90 = NAN, cublas_ms_p10 = NAN, cublas_ms_p90 = NAN;
  double tflops = NAN, cublas_tflops = NAN, ratio = NAN;
};

/// A, B and C of one (batched) GEMM, row-major, matrices packed densely.
struct Operands {
  DeviceBuffer<Element> a, b, c;
  explicit Operands(const Shape &s)
      : a(s.a_count()), b(s.b_count()), c(s.c_count()) {}
};

/// One output element of the spot check: matrix z, row i, column j.
struct Sample {
  int z, i, j;
};

class Runner {
public:
  Runner(cudaStream_t stream, cublasHandle_t cublas, std::size_t l2_bytes,
         int warmup_pairs, int timed_pairs)
      : stream_(stream), cublas_(cublas), l2_bytes_(l2_bytes),
        warmup_pairs_(warmup_pairs), timed_pairs_(timed_pairs) {}

  Result run(const Shape &shape, std::uint64_t seed, bool time);

private:
  void fill_inputs(Operands &ops, std::uint64_t seed);
  void poison(DeviceBuffer<Element> &buf);
  cudaError_t ours(const Shape &s, const Operands &ops, Element *c);
  void cublas(const Shape &s, const Operands &ops, Element *c);
  void copy_operand_line(Element *dst, const Element *x, int z, int rows, int k,
                         int i, bool transposed);
  void compare(const Shape &s, const Element *c, const Element *ref,
               Result &result);
  void graph_check(const Shape &s, Operands &ops, const Element *ref,
                   Result &result);
  void spot_check(const Shape &s, const Operands &ops, const Element *ref,
                  std::uint64_t seed, Result &result);
  void time(const Shape &s, const std::vector<Operands *> &sets,
            Result &result);

  cudaStream_t stream_;
  cublasHandle_t cublas_;
  std::size_t l2_bytes_;
  int warmup_pairs_, timed_pairs_;
};

void Runner::fill_inputs(Operands &ops, std::uint64_t seed) {
  fill_normal<<<blocks_for(ops.a.count()), 256, 0, stream_>>>(
      ops.a.get(), ops.a.count(), splitmix64(seed ^ 0xA));
  CHECK(cudaGetLastError());
  fill_normal<<<blocks_for(ops.b.count()), 256, 0, stream_>>>(
      ops.b.get(), ops.b.count(), splitmix64(seed ^ 0xB));
  CHECK(cudaGetLastError());
}

void Runner::poison(DeviceBuffer<Element> &buf) {
  fill_bits<<<blocks_for(buf.count()), 256, 0, stream_>>>(
      reinterpret_cast<PoisonBits *>(buf.get()), buf.count(), kPoisonBits);
  CHECK(cudaGetLastError());
}

cudaError_t Runner::ours(const Shape &s, const Operands &ops, Element *c) {
  const bool batched = s.batches > 1;
  const long long a_stride = batched ? (long long)s.m * s.k : 0;
  const long long b_stride = batched ? (long long)s.n * s.k : 0;
  const long long c_stride = batched ? (long long)s.m * s.n : 0;
  const int a_rows = kATransposed ? s.k : s.m,
            a_cols = kATransposed ? s.m : s.k;
  const int b_rows = kBTransposed ? s.n : s.k,
            b_cols = kBTransposed ? s.k : s.n;
  return gemm(tawa::Matrix<const Element>{ops.a.get(), a_rows, a_cols, a_cols,
                                          s.batches, a_stride},
              tawa::Matrix<const Element>{ops.b.get(), b_rows, b_cols, b_cols,
                                          s.batches, b_stride},
              tawa::Matrix<Element>{c, s.m, s.n, s.n, s.batches, c_stride},
              stream_);
}

/// Row-major C = op(A) * op(B) is column-major C^T (N x M, ld N) =
/// op(B)^T * op(A)^T. A row-major R x C matrix is a column-major C x R one,
/// so B stored N x K (column-major K x N, ld K) is transposed by the op and
/// B stored K x N (column-major N x K, ld N) is not; A stored M x K
/// (column-major K x M, ld K) is not, A stored K x M (column-major M x K,
/// ld M) is. Batched: the same per matrix, matrix z at z * (rows * cols)
/// elements.
void Runner::cublas(const Shape &s, const Operands &ops, Element *c) {
  const float alpha = 1.0f, beta = 0.0f;
  const cublasOperation_t op_b = kBTransposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_a = kATransposed ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int ldb = kBTransposed ? s.k : s.n, lda = kATransposed ? s.m : s.k;
  if (s.batches == 1) {
    CHECK(cublasGemmEx(cublas_, op_b, op_a, s.n, s.m, s.k, &alpha, ops.b.get(),
                       kCudaType, ldb, ops.a.get(), kCudaType, lda, &beta, c,
                       kCudaType, s.n, kComputeType, CUBLAS_GEMM_DEFAULT));
  } else {
    CHECK(cublasGemmStridedBatchedEx(
        cublas_, op_b, op_a, s.n, s.m, s.k, &alpha, ops.b.get(), kCudaType, ldb,
        (long long)s.n * s.k, ops.a.get(), kCudaType, lda, (long long)s.m * s.k,
        &beta, c, kCudaType, s.n, (long long)s.m * s.n, s.batches, kComputeType,
        CUBLAS_GEMM_DEFAULT));
  }
}

/// Copies the K elements op(X)(i, 0..K) of matrix z of `x` (M x K, stored
/// row-major M x K, or K x M when `transposed`) to `dst`.
void Runner::copy_operand_line(Element *dst, const Element *x, int z, int rows,
                               int k, int i, bool transposed) {
  const Element *base = x + std::size_t(z) * rows * k;
  if (!transposed) {
    CHECK(cudaMemcpyAsync(dst, base + std::size_t(i) * k, k * sizeof(Element),
                          cudaMemcpyDeviceToHost, stream_));
    return;
  }
  CHECK(cudaMemcpy2DAsync(dst, sizeof(Element), base + i,
                          std::size_t(rows) * sizeof(Element), sizeof(Element),
                          k, cudaMemcpyDeviceToHost, stream_));
}

void Runner::compare(const Shape &s, const Element *c, const Element *ref,
                     Result &result) {
  const std::size_t n = s.c_count();
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
}

/// The fp64 spot check of `ops.c` (ours) and `ref` (cuBLAS); see the file
/// comment. Copies only the rows of A and B that the samples read.
void Runner::spot_check(const Shape &s, const Operands &ops, const Element *ref,
                        std::uint64_t seed, Result &result) {
  std::vector<Sample> samples = {{0, 0, 0},
                                 {0, 0, s.n - 1},
                                 {0, s.m - 1, 0},
                                 {0, s.m - 1, s.n - 1},
                                 {s.batches - 1, 0, 0},
                                 {s.batches - 1, s.m - 1, s.n - 1}};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick_z(0, s.batches - 1);
  std::uniform_int_distribution<int> pick_i(0, s.m - 1);
  std::uniform_int_distribution<int> pick_j(0, s.n - 1);
  while (static_cast<int>(samples.size()) < kSpotSamples) {
    const int z = pick_z(rng), i = pick_i(rng), j = pick_j(rng);
    samples.push_back(Sample{z, i, j});
  }
  const std::size_t count = samples.size(), k = std::size_t(s.k);
  std::vector<Element> a_rows(count * k), b_rows(count * k);
  std::vector<Element> c_ours(count), c_ref(count);
  for (std::size_t t = 0; t < count; ++t) {
    const Sample &x = samples[t];
    const std::size_t c_at = (std::size_t(x.z) * s.m + x.i) * s.n + x.j;
    // Row i of op(A) and column j of op(B), each K elements.
    copy_operand_line(&a_rows[t * k], ops.a.get(), x.z, s.m, s.k, x.i,
                      kATransposed);
    copy_operand_line(&b_rows[t * k], ops.b.get(), x.z, s.n, s.k, x.j,
                      !kBTransposed);
    CHECK(cudaMemcpyAsync(&c_ours[t], ops.c.get() + c_at, sizeof(Element),
                          cudaMemcpyDeviceToHost, stream_));
    CHECK(cudaMemcpyAsync(&c_ref[t], ref + c_at, sizeof(Element),
                          cudaMemcpyDeviceToHost, stream_));
  }
  CHECK(cudaStreamSynchronize(stream_));
  // Largest error; a non-finite output or error makes it infinite.
  double worst_ours = 0.0, worst_ref = 0.0;
  auto account = [](double &worst, double c, double exact, double scale) {
    const double err = std::fabs(c - exact) / scale;
    worst = std::isfinite(err) ? std::max(worst, err) : INFINITY;
  };
  for (std::size_t t = 0; t < count; ++t) {
    const Element *a = &a_rows[t * k], *b = &b_rows[t * k];
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t q = 0; q < k; ++q) {
      const double term = double(to_float(a[q])) * double(to_float(b[q]));
      sum += term;
      sum2 += term * term;
    }
    const double scale =
        std::max(std::fabs(sum) + std::sqrt(sum2), 1e-300); // never 0 / 0
    account(worst_ours, to_float(c_ours[t]), sum, scale);
    account(worst_ref, to_float(c_ref[t]), sum, scale);
  }
  result.spot_err = worst_ours;
  result.cublas_spot_err = worst_ref;
  if (!(worst_ref < kTolerance))
    throw std::runtime_error(
        "the cuBLAS result fails the fp64 spot check (error " +
        std::to_string(worst_ref) + "): the reference itself is wrong");
}

/// Captures ours() into a graph on stream_, launches it on a second stream
/// and compares its C (poisoned first) with `ref`.
void Runner::graph_check(const Shape &s, Operands &ops, const Element *ref,
                         Result &result) {
  poison(ops.c);
  CHECK(cudaStreamSynchronize(stream_));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaStream_t other = nullptr;
  struct Release {
    cudaGraph_t &graph;
    cudaGraphExec_t &exec;
    cudaStream_t &other;
    ~Release() {
      if (exec)
        cudaGraphExecDestroy(exec);
      if (graph)
        cudaGraphDestroy(graph);
      if (other)
        cudaStreamDestroy(other);
    }
  } release{graph, exec, other};
  CHECK(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
  const cudaError_t launched = ours(s, ops, ops.c.get());
  const cudaError_t ended = cudaStreamEndCapture(stream_, &graph);
  CHECK(launched);
  CHECK(ended);
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, other));
  CHECK(cudaStreamSynchronize(other));
  Result replay;
  compare(s, ops.c.get(), ref, replay);
  result.graph_rel_err = replay.rel_err;
}

void Runner::time(const Shape &s, const std::vector<Operands *> &sets,
                  Result &result) {
  std::size_t call = 0;
  auto next = [&]() -> Operands & { return *sets[call++ % sets.size()]; };
  for (int i = 0; i < warmup_pairs_; ++i) {
    Operands &x = next();
    CHECK(ours(s, x, x.c.get()));
    Operands &y = next();
    cublas(s, y, y.c.get());
  }
  // Events: [2p] before and [2p + 1] after pair p's call.
  const int pairs = timed_pairs_;
  std::vector<cudaEvent_t> ev_ours(2 * pairs), ev_cublas(2 * pairs);
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
  for (int p = 0; p < pairs; ++p) {
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
  std::vector<float> t_ours(pairs), t_cublas(pairs);
  for (int p = 0; p < pairs; ++p) {
    CHECK(cudaEventElapsedTime(&t_ours[p], ev_ours[2 * p], ev_ours[2 * p + 1]));
    CHECK(cudaEventElapsedTime(&t_cublas[p], ev_cublas[2 * p],
                               ev_cublas[2 * p + 1]));
  }
  const double flops = s.flops();
  result.timed = true;
  result.warmup_pairs = warmup_pairs_;
  result.timed_pairs = pairs;
  result.ms = percentile(t_ours, 0.5);
  result.cublas_ms = percentile(t_cublas, 0.5);
  result.ms_p10 = percentile(t_ours, 0.1);
  result.ms_p90 = percentile(t_ours, 0.9);
  result.cublas_ms_p10 = percentile(t_cublas, 0.1);
  result.cublas_ms_p90 = percentile(t_cublas, 0.9);
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
        sizeof(Element) * (shape.a_count() + shape.b_count() + shape.c_count());
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
    DeviceBuffer<Element> ref(shape.c_count());

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
    spot_check(shape, x, ref.get(), splitmix64(seed ^ 0x5907), result);
    graph_check(shape, x, ref.get(), result);
    result.pass = result.nonfinite == 0 && result.rel_err < kTolerance &&
                  result.spot_err < kTolerance &&
                  result.graph_rel_err < kTolerance;
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

void print_line(const std::string &label, const Result &r) {
  std::printf("%-12s %-18s rel_err %-9s spot %-9s %s", label.c_str(),
              r.shape.text().c_str(), short_number(r.rel_err).c_str(),
              short_number(r.spot_err).c_str(), r.pass ? "PASS" : "FAIL");
  if (r.nonfinite)
    std::printf("  %llu non-finite", r.nonfinite);
  if (r.error.empty() && !(r.graph_rel_err < kTolerance))
    std::printf("  graph replay rel_err %s",
                short_number(r.graph_rel_err).c_str());
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
                const std::vector<Result> &results, bool complete) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f, "{\n  \"label\": %s,\n  \"device\": %s,\n",
               json_string(label).c_str(), json_string(device).c_str());
  std::fprintf(f, "  \"element\": %s,\n", json_string(kElementName).c_str());
  std::fprintf(f, "  \"layout\": %s,\n", json_string(kLayoutName).c_str());
  std::fprintf(f, "  \"seed\": %llu,\n  \"tolerance\": %s,\n",
               static_cast<unsigned long long>(seed),
               json_number(kTolerance).c_str());
  std::fprintf(f, "  \"spot_samples\": %d,\n  \"complete\": %s,\n",
               kSpotSamples, complete ? "true" : "false");
  std::fprintf(f, "  \"results\": [");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::fprintf(f,
                 "%s\n    {\"shape\": %s, \"batches\": %d, \"m\": %d, "
                 "\"n\": %d, \"k\": %d, \"flops\": %s",
                 i ? "," : "", json_string(r.shape.text()).c_str(),
                 r.shape.batches, r.shape.m, r.shape.n, r.shape.k,
                 json_number(r.shape.flops()).c_str());
    std::fprintf(
        f,
        ", \"rel_err\": %s, \"nonfinite\": %llu, \"spot_err\": %s, "
        "\"cublas_spot_err\": %s, \"graph_rel_err\": %s, \"pass\": %s",
        json_number(r.rel_err).c_str(), r.nonfinite,
        json_number(r.spot_err).c_str(), json_number(r.cublas_spot_err).c_str(),
        json_number(r.graph_rel_err).c_str(), r.pass ? "true" : "false");
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
                   ", \"ms_p10\": %s, \"ms_p90\": %s, \"cublas_ms_p10\": %s, "
                   "\"cublas_ms_p90\": %s, \"input_sets\": %d, "
                   "\"warmup_pairs\": %d, \"timed_pairs\": %d",
                   json_number(r.ms_p10).c_str(), json_number(r.ms_p90).c_str(),
                   json_number(r.cublas_ms_p10).c_str(),
                   json_number(r.cublas_ms_p90).c_str(), r.input_sets,
                   r.warmup_pairs, r.timed_pairs);
    std::fprintf(f, "}");
  }
  std::fprintf(f, "\n  ]\n}\n");
  return std::fclose(f) == 0;
}

//===--- Command line -----------------------------------------------------===//

struct Options {
  std::string label = "gemm";
  std::string shapes_text;
  std::vector<Shape> shapes;
  int batches = 1;
  bool time = false;
  int warmup_pairs = kDefaultWarmupPairs;
  int timed_pairs = kDefaultTimedPairs;
  std::string json;
  bool have_seed = false;
  std::uint64_t seed = 0;
};

const char kUsage[] =
    "usage: gemm-check --label NAME [--shapes SHAPE,...] [--batches N] "
    "[--time]\n"
    "                  [--pairs N] [--warmup N] [--json FILE] [--seed N]\n"
    "  --label NAME    name of this build in the output (default: gemm)\n"
    "  --shapes LIST   comma-separated MxNxK or BxMxNxK (B matrices)\n"
    "                  (default: 1000x1000x1000)\n"
    "  --batches N     B of the shapes written MxNxK (default: 1)\n"
    "  --time          also time gemm() against cuBLAS, interleaved\n"
    "  --pairs N       timed pairs per shape (default: 50)\n"
    "  --warmup N      warm-up pairs per shape (default: 5)\n"
    "  --json FILE     write all results to FILE\n"
    "  --seed N        base seed of the random inputs (default: fresh)\n";

/// MxNxK (batches from --batches) or BxMxNxK, every number positive.
bool parse_shape(const std::string &text, int batches, Shape &s) {
  std::vector<long> v;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(text.find('x', begin), text.size());
    const std::string part = text.substr(begin, end - begin);
    char *stop = nullptr;
    const long x = std::strtol(part.c_str(), &stop, 10);
    if (part.empty() || part.find_first_not_of("0123456789") != part.npos ||
        *stop || x <= 0 || x > 1000000000L)
      return false;
    v.push_back(x);
    if (end == text.size())
      break;
    begin = end + 1;
  }
  if (v.size() == 4)
    s = Shape{int(v[0]), int(v[1]), int(v[2]), int(v[3])};
  else if (v.size() == 3)
    s = Shape{batches, int(v[0]), int(v[1]), int(v[2])};
  else
    return false;
  return true;
}

bool parse_shapes(const std::string &list, int batches,
                  std::vector<Shape> &out) {
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    Shape s{};
    if (!parse_shape(list.substr(begin, end - begin), batches, s))
      return false;
    out.push_back(s);
    begin = end + 1;
  }
  return !out.empty();
}

bool parse_count(const char *text, int min, int &out) {
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < min || v > 1000000)
    return false;
  out = static_cast<int>(v);
  return true;
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
    auto count = [&](const char *name, int min, int &out) {
      const char *v = value(name);
      if (!v)
        return false;
      if (!parse_count(v, min, out)) {
        std::fprintf(stderr, "gemm-check: bad %s '%s'\n", name, v);
        return false;
      }
      return true;
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
      opt.shapes_text += opt.shapes_text.empty() ? v : std::string(",") + v;
    } else if (arg == "--batches") {
      if (!count("--batches", 1, opt.batches))
        return false;
    } else if (arg == "--time") {
      opt.time = true;
    } else if (arg == "--pairs") {
      if (!count("--pairs", 1, opt.timed_pairs))
        return false;
    } else if (arg == "--warmup") {
      if (!count("--warmup", 0, opt.warmup_pairs))
        return false;
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
  // Shapes last, so that --batches applies wherever it was given.
  if (opt.shapes_text.empty()) {
    opt.shapes.push_back(Shape{opt.batches, 1000, 1000, 1000});
  } else if (!parse_shapes(opt.shapes_text, opt.batches, opt.shapes)) {
    std::fprintf(stderr,
                 "gemm-check: bad --shapes '%s' (want MxNxK or BxMxNxK,...)\n",
                 opt.shapes_text.c_str());
    return false;
  }
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
  std::printf(
      "element %s, layout %s; spot check: %d elements in fp64; tolerance %g\n",
      kElementName, kLayoutName, kSpotSamples, kTolerance);

  Runner runner(stream, handle, l2_bytes, opt.warmup_pairs, opt.timed_pairs);
  std::vector<Result> results;
  bool all_pass = true, json_ok = true;
  for (std::size_t i = 0; i < opt.shapes.size(); ++i) {
    results.push_back(
        runner.run(opt.shapes[i], splitmix64(opt.seed ^ (i << 48)), opt.time));
    print_line(opt.label, results.back());
    all_pass = all_pass && results.back().pass;
    if (!opt.json.empty())
      json_ok = write_json(opt.json, opt.label, device, opt.seed, results,
                           i + 1 == opt.shapes.size());
  }

  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  if (!json_ok) {
    std::fprintf(stderr, "gemm-check: cannot write %s\n", opt.json.c_str());
    return 1;
  }
  return all_pass ? 0 : 1;
}
