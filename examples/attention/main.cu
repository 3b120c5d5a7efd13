//===- examples/attention/main.cu - checks and times one variant ----------===//
//
// attention-check --batch B --heads H --seqlen S[,S...] [--seqlen-k S2]
//                 [--iters N] [--warmup N] [--check-only] [--scale X]
//                 [--label NAME] [--json FILE] [--seed N]
//
// The driver of the attention example. Linked with one variant of
// tawa_attention_forward() (attention.h): examples/attention/attention.cu (the
// kernel as written: the reference) or the file tawa-rewrite made of it, built
// as a shared library or compiled in. The variant (head dimension, bf16 or
// fp16, causal or not) is read at run time from tawa_attention_variant(), so
// one build of this file serves every variant:
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude
//     -Iexamples/attention -c examples/attention/main.cu -o main.o
//   nvcc main.o /abs/path/bf16-d128-causal.so -o attention-check
// (or main.cu and attention.cu in one nvcc command, with the variant's flags).
//
// For each sequence length S (queries; keys S2, default S):
//   - Q, K, V ([B * H][S][D], contiguous: PyTorch's (B, H, S, D)) are fresh
//     random normal values, generated on the device from a seed that differs
//     per run and per shape; O and LSE are filled with a NaN whose payload
//     marks it as poison (bf16 0x7FA5, fp16 0x7E5A, float 0x7FC5A5A5), and
//     so is a guard region after each of them, of 256 rows;
//   - the reference is a naive float32 attention (naive_attention below: one
//     block per query row, two passes over the keys, the same mask) from the
//     same 16-bit inputs, with softmax_scale (default 1/sqrt(D)) and the
//     natural-log LSE;
//   - O is compared with it by ||O - ref||_F / ||ref||_F (in double; pass:
//     < 1e-2, 16-bit output) and the largest |O - ref|; LSE the same way
//     (pass: < 1e-4);
//   - written: every element of O and LSE was written (no poison left) and is
//     finite, except where the reference itself is not finite (excluded from
//     the errors; none for S2 >= 1), and the guard regions are untouched;
//   - the fp64 spot check: 8 query rows (the first and last of the first and
//     last (batch, head), and 2 random rows of each) are recomputed on the
//     host in double. The naive reference must agree to 1e-4 (relative
//     Euclidean error of the O row; |LSE error| / max(1, |LSE|)), or the run
//     stops: a wrong reference cannot agree with a wrong kernel. The kernel's
//     worst row (spot_err) must be under 1e-2 for O and 1e-4 for LSE;
//   - unless --check-only (and only when the check passed): --warmup calls
//     (default 3), then --iters calls (default 20), each timed with CUDA
//     events on the next of several input sets that together hold at least
//     twice the L2 size, so that no call finds its operands in L2. Reported:
//     the median in ms (10th / 90th percentiles in the JSON) and TFLOP/s with
//     FLOPs = 4 * S * S2 * D * B * H, halved for causal when S == S2 (for
//     causal with S != S2: 4 * D * B * H * (the number of (query, key) pairs
//     the mask keeps)).
// One line per shape; --json writes every number. Exit status: 0 when every
// check passes, 1 when one fails, 2 on a usage error. Light enough for
// compute-sanitizer (racecheck, synccheck) at small shapes.
//
//===----------------------------------------------------------------------===//

// The variant's C entry points, from -Iexamples/attention (angle brackets:
// the same spelling works for every build of this file).
#include <attention.h>
#include "../common/report.h"

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
#include <vector>

namespace {

constexpr double kOTolerance = 1e-2;       // relative Frobenius, 16-bit output
constexpr double kLseTolerance = 1e-4;     // relative Frobenius, float output
constexpr double kRefSpotTolerance = 1e-4; // the naive reference vs fp64
constexpr int kDefaultWarmup = 3;
constexpr int kDefaultIters = 20;
constexpr int kMaxInputSets = 8;
constexpr int kGuardRows = 256;
constexpr int kSpotRowsPerHead = 4;

constexpr std::uint16_t kPoisonBf16 = 0x7FA5; // NaN, payload 0x25
constexpr std::uint16_t kPoisonF16 = 0x7E5A;  // NaN, payload 0x25A
constexpr std::uint32_t kPoisonF32 = 0x7FC5A5A5u;

//===--- Errors -----------------------------------------------------------===//

void check(cudaError_t status, const char *what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " +
                             cudaGetErrorString(status));
}

#define CHECK(call) check((call), #call)

//===--- Device buffers ---------------------------------------------------===//

/// `count` elements of `bytes_each` bytes, untyped (the element type of a
/// variant is known at run time only).
class DeviceBuffer {
public:
  DeviceBuffer(std::size_t count, std::size_t bytes_each)
      : count_(count), bytes_each_(bytes_each) {
    CHECK(cudaMalloc(&data_, std::max<std::size_t>(1, count * bytes_each)));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *get() const { return data_; }
  template <class T> T *as() const { return static_cast<T *>(data_); }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * bytes_each_; }

private:
  void *data_ = nullptr;
  std::size_t count_, bytes_each_;
};

//===--- Element types ----------------------------------------------------===//

__host__ __device__ inline float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__host__ __device__ inline float to_float(__half x) { return __half2float(x); }
__device__ inline void from_float(float x, __nv_bfloat16 &out) {
  out = __float2bfloat16_rn(x);
}
__device__ inline void from_float(float x, __half &out) {
  out = __float2half_rn(x);
}

/// A host copy of a 16-bit element as float.
float host_to_float(std::uint16_t bits, bool bf16) {
  if (bf16) {
    const std::uint32_t u = std::uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  __half_raw raw;
  raw.x = bits;
  return __half2float(__half(raw));
}

//===--- Kernels: inputs, poison ------------------------------------------===//

__host__ __device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// p[i] = a standard normal sample (Box-Muller on a hash of (seed, i)).
template <class T>
__global__ void fill_normal(T *p, std::size_t n, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::uint64_t h = splitmix64(seed ^ splitmix64(i));
    const float u1 = (static_cast<float>(h >> 40) + 1.0f) * 0x1p-24f; // (0, 1]
    const float u2 = static_cast<float>(h & 0xFFFFFFu) * 0x1p-24f;    // [0, 1)
    from_float(sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2), p[i]);
  }
}

template <class U> __global__ void fill_bits(U *p, std::size_t n, U bits) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    p[i] = bits;
}

int blocks_for(std::size_t n) {
  return static_cast<int>(
      std::max<std::size_t>(1, std::min<std::size_t>((n + 255) / 256, 4096)));
}

//===--- Kernel: the naive float32 reference ------------------------------===//

constexpr int kRefThreads = 256;
constexpr int kRefWarps = kRefThreads / 32;
constexpr int kRefMaxDim = 256;
constexpr int kRefPerLane =
    kRefMaxDim / 32; // head-dimension columns a lane holds

__device__ inline float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset /= 2)
    x += __shfl_xor_sync(0xFFFFFFFFu, x, offset);
  return x;
}

/// One block per query row (blockIdx.x) of one (batch, head) (blockIdx.y),
/// in float: the scores s_j = scale * q . k_j over the keys the mask keeps
/// (j < sk, and j <= i when causal: top-left aligned), m = max s_j,
/// l = sum exp(s_j - m), o = sum exp(s_j - m) v_j / l and lse = m + log(l).
/// Warp w takes keys w, w + 8, ...; its lanes split the head dimension
/// (lane t holds columns t, t + 32, ... of q and of its share of o), so key
/// and value rows are read coalesced and only the final sum over the warps
/// goes through shared memory.
template <class T>
__global__ void __launch_bounds__(kRefThreads)
    naive_attention(const T *q, const T *k, const T *v, float *o, float *lse,
                    int sq, int sk, int d, float scale, int causal) {
  __shared__ float o_s[kRefWarps][kRefMaxDim];
  __shared__ float m_s[kRefWarps], l_s[kRefWarps];
  const int i = blockIdx.x;
  const std::size_t bh = blockIdx.y;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const T *q_row = q + (bh * sq + i) * d;
  const T *k_head = k + bh * sk * d;
  const T *v_head = v + bh * sk * d;
  float qv[kRefPerLane];
#pragma unroll
  for (int r = 0; r < kRefPerLane; ++r)
    qv[r] = lane + 32 * r < d ? to_float(q_row[lane + 32 * r]) : 0.0f;
  const int keys = causal ? min(sk, i + 1) : sk;
  auto score = [&](int j) {
    const T *k_row = k_head + static_cast<std::size_t>(j) * d;
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r < kRefPerLane; ++r)
      if (lane + 32 * r < d)
        s += qv[r] * to_float(k_row[lane + 32 * r]);
    return warp_sum(s) * scale;
  };

  // Pass 1: the row maximum.
  float m = -INFINITY;
  for (int j = warp; j < keys; j += kRefWarps)
    m = fmaxf(m, score(j));
  if (lane == 0)
    m_s[warp] = m;
  __syncthreads();
  m = m_s[0];
  for (int w = 1; w < kRefWarps; ++w)
    m = fmaxf(m, m_s[w]);

  // Pass 2: this warp's share of l and of the unnormalized o.
  float l = 0.0f, acc[kRefPerLane];
#pragma unroll
  for (int r = 0; r < kRefPerLane; ++r)
    acc[r] = 0.0f;
  for (int j = warp; j < keys; j += kRefWarps) {
    const float p = expf(score(j) - m);
    const T *v_row = v_head + static_cast<std::size_t>(j) * d;
    l += p;
#pragma unroll
    for (int r = 0; r < kRefPerLane; ++r)
      if (lane + 32 * r < d)
        acc[r] += p * to_float(v_row[lane + 32 * r]);
  }
#pragma unroll
  for (int r = 0; r < kRefPerLane; ++r)
    if (lane + 32 * r < d)
      o_s[warp][lane + 32 * r] = acc[r];
  if (lane == 0)
    l_s[warp] = l;
  __syncthreads();

  // The sums over the warps, in a fixed order.
  float l_all = 0.0f;
  for (int w = 0; w < kRefWarps; ++w)
    l_all += l_s[w];
  for (int c = threadIdx.x; c < d; c += kRefThreads) {
    float sum = 0.0f;
    for (int w = 0; w < kRefWarps; ++w)
      sum += o_s[w][c];
    o[(bh * sq + i) * d + c] = sum / l_all;
  }
  if (threadIdx.x == 0)
    lse[bh * sq + i] = m + logf(l_all);
}

//===--- Kernel: errors ---------------------------------------------------===//

constexpr int kReduceThreads = 256;
constexpr int kReduceBlocks = 512;

/// Per block, over the elements whose reference is finite: the sums of
/// (x - ref)^2 and ref^2 and the largest |x - ref| (finite x only); the
/// counts of elements still holding the poison (unwritten), of other
/// non-finite ones, and of non-finite reference elements.
struct Partial {
  double diff2;
  double ref2;
  double max_abs;
  unsigned long long unwritten;
  unsigned long long nonfinite;
  unsigned long long ref_nonfinite;
};

__device__ inline float value_of(const __nv_bfloat16 *p, std::size_t i) {
  return to_float(p[i]);
}
__device__ inline float value_of(const __half *p, std::size_t i) {
  return to_float(p[i]);
}
__device__ inline float value_of(const float *p, std::size_t i) { return p[i]; }
__device__ inline bool is_poison(const __nv_bfloat16 *p, std::size_t i) {
  return reinterpret_cast<const std::uint16_t *>(p)[i] == kPoisonBf16;
}
__device__ inline bool is_poison(const __half *p, std::size_t i) {
  return reinterpret_cast<const std::uint16_t *>(p)[i] == kPoisonF16;
}
__device__ inline bool is_poison(const float *p, std::size_t i) {
  return reinterpret_cast<const std::uint32_t *>(p)[i] == kPoisonF32;
}

template <class T>
__global__ void __launch_bounds__(kReduceThreads)
    error_partials(const T *x, const float *ref, std::size_t n, Partial *out) {
  __shared__ Partial shared[kReduceThreads];
  Partial mine{0.0, 0.0, 0.0, 0, 0, 0};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const double r = ref[i];
    const double y = value_of(x, i);
    if (!isfinite(r)) {
      ++mine.ref_nonfinite;
    } else if (is_poison(x, i)) {
      ++mine.unwritten;
    } else if (!isfinite(y)) {
      ++mine.nonfinite;
    } else {
      mine.diff2 += (y - r) * (y - r);
      mine.ref2 += r * r;
      mine.max_abs = fmax(mine.max_abs, fabs(y - r));
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
      a.max_abs = fmax(a.max_abs, b.max_abs);
      a.unwritten += b.unwritten;
      a.nonfinite += b.nonfinite;
      a.ref_nonfinite += b.ref_nonfinite;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = shared[0];
}

/// Counts the elements of p[0, n) that no longer hold the poison.
template <class U>
__global__ void count_changed(const U *p, std::size_t n, U bits,
                              unsigned long long *changed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    mine += p[i] != bits;
  if (mine)
    atomicAdd(changed, mine);
}

//===--- One shape --------------------------------------------------------===//

struct Variant {
  int head_dim = 0;
  bool bf16 = true;
  bool causal = false;
  std::string name() const {
    return std::string(bf16 ? "bf16" : "f16") + "-d" +
           std::to_string(head_dim) + (causal ? "-causal" : "-full");
  }
};

struct Shape {
  int batch, heads, sq, sk;
  int bh() const { return batch * heads; }
  std::string text() const {
    return "B=" + std::to_string(batch) + " H=" + std::to_string(heads) +
           " Sq=" + std::to_string(sq) + " Sk=" + std::to_string(sk);
  }
};

double flops(const Shape &s, const Variant &v) {
  const double per_pair = 4.0 * v.head_dim * s.bh();
  if (!v.causal)
    return per_pair * double(s.sq) * s.sk;
  if (s.sq == s.sk)
    return per_pair * double(s.sq) * s.sk / 2.0;
  // Query i keeps keys 0..min(i, sk - 1).
  const double full = std::min(s.sq, s.sk);
  const double pairs =
      full * (full + 1) / 2.0 + double(std::max(0, s.sq - s.sk)) * s.sk;
  return per_pair * pairs;
}

struct Errors {
  double rel = NAN, max_abs = NAN;
  unsigned long long unwritten = 0, nonfinite = 0, ref_nonfinite = 0;
};

struct Result {
  Shape shape{};
  bool pass = false;
  std::string error; // empty when every CUDA call succeeded
  Errors o, lse;
  unsigned long long guard_clobbered = 0;
  double spot_o = NAN, spot_lse = NAN;         // worst spot row, ours
  double ref_spot_o = NAN, ref_spot_lse = NAN; // the same, naive reference
  bool written = false;
  bool timed = false;
  int input_sets = 1, warmup = 0, iters = 0;
  double flops = NAN, ms = NAN, ms_p10 = NAN, ms_p90 = NAN, tflops = NAN;
};

/// Q, K, V, O (with its guard rows) and LSE (with its guard) of one shape.
struct Operands {
  DeviceBuffer q, k, v, o, lse;
  Operands(const Shape &s, int d)
      : q(std::size_t(s.bh()) * s.sq * d, 2),
        k(std::size_t(s.bh()) * s.sk * d, 2),
        v(std::size_t(s.bh()) * s.sk * d, 2),
        o((std::size_t(s.bh()) * s.sq + kGuardRows) * d, 2),
        lse(std::size_t(s.bh()) * s.sq + kGuardRows, 4) {}
};

class Runner {
public:
  Runner(cudaStream_t stream, const Variant &variant, std::size_t l2_bytes,
         float scale, int warmup, int iters)
      : stream_(stream), variant_(variant), l2_bytes_(l2_bytes), scale_(scale),
        warmup_(warmup), iters_(iters) {}

  Result run(const Shape &shape, std::uint64_t seed, bool time);

private:
  int d() const { return variant_.head_dim; }
  void fill_inputs(Operands &x, std::uint64_t seed);
  void poison(Operands &x);
  cudaError_t ours(const Shape &s, Operands &x);
  void reference(const Shape &s, const Operands &x, DeviceBuffer &o_ref,
                 DeviceBuffer &lse_ref);
  template <class T>
  Errors compare(const T *x, const float *ref, std::size_t n);
  unsigned long long guard_changes(const Shape &s, const Operands &x);
  void spot_check(const Shape &s, const Operands &x, const DeviceBuffer &o_ref,
                  const DeviceBuffer &lse_ref, std::uint64_t seed,
                  Result &result);
  void time(const Shape &s, const std::vector<Operands *> &sets,
            Result &result);

  cudaStream_t stream_;
  Variant variant_;
  std::size_t l2_bytes_;
  float scale_;
  int warmup_, iters_;
};

void Runner::fill_inputs(Operands &x, std::uint64_t seed) {
  DeviceBuffer *bufs[3] = {&x.q, &x.k, &x.v};
  for (int t = 0; t < 3; ++t) {
    DeviceBuffer &b = *bufs[t];
    const std::uint64_t s = splitmix64(seed ^ (0xA + t));
    if (variant_.bf16)
      fill_normal<<<blocks_for(b.count()), 256, 0, stream_>>>(
          b.as<__nv_bfloat16>(), b.count(), s);
    else
      fill_normal<<<blocks_for(b.count()), 256, 0, stream_>>>(b.as<__half>(),
                                                              b.count(), s);
    CHECK(cudaGetLastError());
  }
}

void Runner::poison(Operands &x) {
  const std::uint16_t bits16 = variant_.bf16 ? kPoisonBf16 : kPoisonF16;
  fill_bits<<<blocks_for(x.o.count()), 256, 0, stream_>>>(
      x.o.as<std::uint16_t>(), x.o.count(), bits16);
  CHECK(cudaGetLastError());
  fill_bits<<<blocks_for(x.lse.count()), 256, 0, stream_>>>(
      x.lse.as<std::uint32_t>(), x.lse.count(), kPoisonF32);
  CHECK(cudaGetLastError());
}

cudaError_t Runner::ours(const Shape &s, Operands &x) {
  return static_cast<cudaError_t>(tawa_attention_forward(
      x.q.get(), x.k.get(), x.v.get(), x.o.get(), x.lse.as<float>(), s.bh(),
      s.sq, s.sk, scale_, stream_));
}

void Runner::reference(const Shape &s, const Operands &x, DeviceBuffer &o_ref,
                       DeviceBuffer &lse_ref) {
  // At most 65535 (batch, head) pairs per launch (gridDim.y).
  for (int bh0 = 0; bh0 < s.bh(); bh0 += 65535) {
    const int count = std::min(65535, s.bh() - bh0);
    const std::size_t q_off = std::size_t(bh0) * s.sq * d();
    const std::size_t k_off = std::size_t(bh0) * s.sk * d();
    float *o = o_ref.as<float>() + q_off;
    float *lse = lse_ref.as<float>() + std::size_t(bh0) * s.sq;
    const dim3 grid(s.sq, count);
    if (variant_.bf16)
      naive_attention<<<grid, kRefThreads, 0, stream_>>>(
          x.q.as<__nv_bfloat16>() + q_off, x.k.as<__nv_bfloat16>() + k_off,
          x.v.as<__nv_bfloat16>() + k_off, o, lse, s.sq, s.sk, d(), scale_,
          variant_.causal);
    else
      naive_attention<<<grid, kRefThreads, 0, stream_>>>(
          x.q.as<__half>() + q_off, x.k.as<__half>() + k_off,
          x.v.as<__half>() + k_off, o, lse, s.sq, s.sk, d(), scale_,
          variant_.causal);
    CHECK(cudaGetLastError());
  }
}

template <class T>
Errors Runner::compare(const T *x, const float *ref, std::size_t n) {
  DeviceBuffer partials(kReduceBlocks, sizeof(Partial));
  error_partials<<<kReduceBlocks, kReduceThreads, 0, stream_>>>(
      x, ref, n, partials.as<Partial>());
  CHECK(cudaGetLastError());
  std::vector<Partial> host(kReduceBlocks);
  CHECK(cudaMemcpyAsync(host.data(), partials.get(), partials.bytes(),
                        cudaMemcpyDeviceToHost, stream_));
  CHECK(cudaStreamSynchronize(stream_));
  double diff2 = 0.0, ref2 = 0.0;
  Errors e;
  e.max_abs = 0.0;
  for (const Partial &p : host) {
    diff2 += p.diff2;
    ref2 += p.ref2;
    e.max_abs = std::max(e.max_abs, p.max_abs);
    e.unwritten += p.unwritten;
    e.nonfinite += p.nonfinite;
    e.ref_nonfinite += p.ref_nonfinite;
  }
  // A reference of all zeros would make any output pass: refuse it.
  if (!(ref2 > 0.0))
    throw std::runtime_error("the reference is zero everywhere");
  e.rel = std::sqrt(diff2) / std::sqrt(ref2);
  return e;
}

unsigned long long Runner::guard_changes(const Shape &s, const Operands &x) {
  const std::size_t o_n = std::size_t(s.bh()) * s.sq * d();
  const std::size_t lse_n = std::size_t(s.bh()) * s.sq;
  DeviceBuffer changed(1, sizeof(unsigned long long));
  CHECK(cudaMemsetAsync(changed.get(), 0, changed.bytes(), stream_));
  const std::uint16_t bits16 = variant_.bf16 ? kPoisonBf16 : kPoisonF16;
  const std::size_t o_guard = std::size_t(kGuardRows) * d();
  count_changed<<<blocks_for(o_guard), 256, 0, stream_>>>(
      x.o.as<std::uint16_t>() + o_n, o_guard, bits16,
      changed.as<unsigned long long>());
  CHECK(cudaGetLastError());
  count_changed<<<blocks_for(kGuardRows), 256, 0, stream_>>>(
      x.lse.as<std::uint32_t>() + lse_n, std::size_t(kGuardRows), kPoisonF32,
      changed.as<unsigned long long>());
  CHECK(cudaGetLastError());
  unsigned long long host = 0;
  CHECK(cudaMemcpyAsync(&host, changed.get(), sizeof host,
                        cudaMemcpyDeviceToHost, stream_));
  CHECK(cudaStreamSynchronize(stream_));
  return host;
}

/// The fp64 spot check (see the file comment): copies Q's row, the K and V of
/// its (batch, head) and the outputs of the row, and recomputes the row in
/// double.
void Runner::spot_check(const Shape &s, const Operands &x,
                        const DeviceBuffer &o_ref, const DeviceBuffer &lse_ref,
                        std::uint64_t seed, Result &result) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick_row(0, s.sq - 1);
  std::vector<int> heads = {0};
  if (s.bh() > 1)
    heads.push_back(s.bh() - 1);
  const std::size_t dd = d();
  std::vector<std::uint16_t> kh(std::size_t(s.sk) * dd), vh(kh.size());
  std::vector<std::uint16_t> q_row(dd), o_row(dd);
  std::vector<float> ref_row(dd);
  double worst_o = 0, worst_lse = 0, ref_worst_o = 0, ref_worst_lse = 0;
  auto account = [](double &worst, double err) {
    worst = std::isfinite(err) ? std::max(worst, err) : INFINITY;
  };
  for (int bh : heads) {
    CHECK(cudaMemcpyAsync(kh.data(),
                          x.k.as<std::uint16_t>() + std::size_t(bh) * s.sk * dd,
                          kh.size() * 2, cudaMemcpyDeviceToHost, stream_));
    CHECK(cudaMemcpyAsync(vh.data(),
                          x.v.as<std::uint16_t>() + std::size_t(bh) * s.sk * dd,
                          vh.size() * 2, cudaMemcpyDeviceToHost, stream_));
    std::vector<int> rows = {0, s.sq - 1};
    while (static_cast<int>(rows.size()) < kSpotRowsPerHead)
      rows.push_back(pick_row(rng));
    for (int i : rows) {
      const std::size_t row = std::size_t(bh) * s.sq + i;
      float lse_ours = 0, lse_naive = 0;
      CHECK(cudaMemcpyAsync(q_row.data(), x.q.as<std::uint16_t>() + row * dd,
                            dd * 2, cudaMemcpyDeviceToHost, stream_));
      CHECK(cudaMemcpyAsync(o_row.data(), x.o.as<std::uint16_t>() + row * dd,
                            dd * 2, cudaMemcpyDeviceToHost, stream_));
      CHECK(cudaMemcpyAsync(ref_row.data(), o_ref.as<float>() + row * dd,
                            dd * 4, cudaMemcpyDeviceToHost, stream_));
      CHECK(cudaMemcpyAsync(&lse_ours, x.lse.as<float>() + row, 4,
                            cudaMemcpyDeviceToHost, stream_));
      CHECK(cudaMemcpyAsync(&lse_naive, lse_ref.as<float>() + row, 4,
                            cudaMemcpyDeviceToHost, stream_));
      CHECK(cudaStreamSynchronize(stream_));
      // The row in double.
      const int keys = variant_.causal ? std::min(s.sk, i + 1) : s.sk;
      std::vector<double> qd(dd), sc(keys), od(dd, 0.0);
      for (std::size_t c = 0; c < dd; ++c)
        qd[c] = host_to_float(q_row[c], variant_.bf16);
      double m = -INFINITY;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (std::size_t c = 0; c < dd; ++c)
          dot += qd[c] * host_to_float(kh[j * dd + c], variant_.bf16);
        sc[j] = dot * double(scale_);
        m = std::max(m, sc[j]);
      }
      double l = 0;
      for (int j = 0; j < keys; ++j) {
        const double p = std::exp(sc[j] - m);
        l += p;
        for (std::size_t c = 0; c < dd; ++c)
          od[c] += p * host_to_float(vh[j * dd + c], variant_.bf16);
      }
      double norm2 = 0, err2_ours = 0, err2_ref = 0;
      for (std::size_t c = 0; c < dd; ++c) {
        od[c] /= l;
        norm2 += od[c] * od[c];
        const double a = host_to_float(o_row[c], variant_.bf16) - od[c];
        const double b = double(ref_row[c]) - od[c];
        err2_ours += a * a;
        err2_ref += b * b;
      }
      const double lse_exact = m + std::log(l);
      const double lse_scale = std::max(1.0, std::fabs(lse_exact));
      const double norm = std::max(std::sqrt(norm2), 1e-30);
      account(worst_o, std::sqrt(err2_ours) / norm);
      account(ref_worst_o, std::sqrt(err2_ref) / norm);
      account(worst_lse, std::fabs(double(lse_ours) - lse_exact) / lse_scale);
      account(ref_worst_lse,
              std::fabs(double(lse_naive) - lse_exact) / lse_scale);
    }
  }
  result.spot_o = worst_o;
  result.spot_lse = worst_lse;
  result.ref_spot_o = ref_worst_o;
  result.ref_spot_lse = ref_worst_lse;
  if (!(ref_worst_o < kRefSpotTolerance && ref_worst_lse < kRefSpotTolerance))
    throw std::runtime_error(
        "the naive reference fails the fp64 spot check (O " +
        std::to_string(ref_worst_o) + ", LSE " + std::to_string(ref_worst_lse) +
        "): the reference itself is wrong");
}

void Runner::time(const Shape &s, const std::vector<Operands *> &sets,
                  Result &result) {
  std::size_t call = 0;
  auto next = [&]() -> Operands & { return *sets[call++ % sets.size()]; };
  for (int i = 0; i < warmup_; ++i)
    CHECK(ours(s, next()));
  std::vector<cudaEvent_t> events(2 * iters_);
  for (cudaEvent_t &e : events)
    CHECK(cudaEventCreate(&e));
  struct Destroy {
    std::vector<cudaEvent_t> &events;
    ~Destroy() {
      for (cudaEvent_t e : events)
        cudaEventDestroy(e);
    }
  } destroy{events};
  for (int i = 0; i < iters_; ++i) {
    Operands &x = next();
    CHECK(cudaEventRecord(events[2 * i], stream_));
    CHECK(ours(s, x));
    CHECK(cudaEventRecord(events[2 * i + 1], stream_));
  }
  CHECK(cudaStreamSynchronize(stream_));
  CHECK(cudaGetLastError());
  std::vector<float> ms(iters_);
  for (int i = 0; i < iters_; ++i)
    CHECK(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]));
  result.timed = true;
  result.warmup = warmup_;
  result.iters = iters_;
  result.ms = percentile(ms, 0.5);
  result.ms_p10 = percentile(ms, 0.1);
  result.ms_p90 = percentile(ms, 0.9);
  result.tflops = result.flops / (result.ms * 1e-3) / 1e12;
}

Result Runner::run(const Shape &shape, std::uint64_t seed, bool timing) {
  Result result;
  result.shape = shape;
  result.flops = flops(shape, variant_);
  try {
    const std::size_t set_bytes =
        2 * std::size_t(shape.bh()) * d() * (2 * shape.sq + 2 * shape.sk);
    int sets_wanted = 1;
    if (timing) {
      std::size_t free_bytes = 0, total_bytes = 0;
      CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
      const std::size_t wanted = (2 * l2_bytes_ + set_bytes - 1) / set_bytes;
      const std::size_t fit = free_bytes / 2 / set_bytes; // leave headroom
      sets_wanted = static_cast<int>(std::max<std::size_t>(
          1, std::min<std::size_t>(std::min<std::size_t>(wanted, fit),
                                   kMaxInputSets)));
    }
    std::vector<std::unique_ptr<Operands>> owned;
    std::vector<Operands *> sets;
    for (int i = 0; i < sets_wanted; ++i) {
      owned.push_back(std::make_unique<Operands>(shape, d()));
      sets.push_back(owned.back().get());
      fill_inputs(*sets.back(), splitmix64(seed + i));
    }
    result.input_sets = sets_wanted;

    Operands &x = *sets[0];
    const std::size_t o_n = std::size_t(shape.bh()) * shape.sq * d();
    const std::size_t lse_n = std::size_t(shape.bh()) * shape.sq;
    DeviceBuffer o_ref(o_n, 4), lse_ref(lse_n, 4);
    poison(x);
    CHECK(cudaStreamSynchronize(stream_));
    CHECK(ours(shape, x));
    CHECK(cudaStreamSynchronize(stream_));
    CHECK(cudaGetLastError());
    reference(shape, x, o_ref, lse_ref);
    CHECK(cudaStreamSynchronize(stream_));
    if (variant_.bf16)
      result.o = compare(x.o.as<__nv_bfloat16>(), o_ref.as<float>(), o_n);
    else
      result.o = compare(x.o.as<__half>(), o_ref.as<float>(), o_n);
    result.lse = compare(x.lse.as<float>(), lse_ref.as<float>(), lse_n);
    result.guard_clobbered = guard_changes(shape, x);
    spot_check(shape, x, o_ref, lse_ref, splitmix64(seed ^ 0x5907), result);
    result.written = result.o.unwritten == 0 && result.o.nonfinite == 0 &&
                     result.lse.unwritten == 0 && result.lse.nonfinite == 0 &&
                     result.guard_clobbered == 0;
    result.pass = result.written && result.o.rel < kOTolerance &&
                  result.lse.rel < kLseTolerance &&
                  result.spot_o < kOTolerance &&
                  result.spot_lse < kLseTolerance;
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

void print_line(const std::string &label, const Variant &v, const Result &r) {
  std::printf("%s %s %s  O rel %s max %s  LSE rel %s max %s  spot %s/%s  "
              "written %s  %s",
              label.c_str(), v.name().c_str(), r.shape.text().c_str(),
              short_number(r.o.rel).c_str(), short_number(r.o.max_abs).c_str(),
              short_number(r.lse.rel).c_str(),
              short_number(r.lse.max_abs).c_str(),
              short_number(r.spot_o).c_str(), short_number(r.spot_lse).c_str(),
              r.written ? "yes" : "NO", r.pass ? "PASS" : "FAIL");
  if (r.o.unwritten || r.lse.unwritten)
    std::printf("  unwritten O %llu LSE %llu", r.o.unwritten, r.lse.unwritten);
  if (r.o.nonfinite || r.lse.nonfinite)
    std::printf("  non-finite O %llu LSE %llu", r.o.nonfinite, r.lse.nonfinite);
  if (r.guard_clobbered)
    std::printf("  %llu guard elements written past the end",
                r.guard_clobbered);
  if (r.o.ref_nonfinite || r.lse.ref_nonfinite)
    std::printf("  (reference non-finite: O %llu LSE %llu, excluded)",
                r.o.ref_nonfinite, r.lse.ref_nonfinite);
  if (r.timed)
    std::printf("  %.4f ms %.1f TFLOP/s", r.ms, r.tflops);
  if (!r.error.empty())
    std::printf("  error: %s", r.error.c_str());
  std::printf("\n");
  std::fflush(stdout);
}

void json_errors(FILE *f, const char *name, const Errors &e) {
  std::fprintf(f,
               ", \"%s\": {\"rel_err\": %s, \"max_abs_err\": %s, "
               "\"unwritten\": %llu, \"nonfinite\": %llu, "
               "\"ref_nonfinite\": %llu}",
               name, json_number(e.rel).c_str(), json_number(e.max_abs).c_str(),
               e.unwritten, e.nonfinite, e.ref_nonfinite);
}

bool write_json(const std::string &path, const std::string &label,
                const Variant &v, const std::string &device, std::uint64_t seed,
                float scale, const std::vector<Result> &results,
                bool complete) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return false;
  std::fprintf(f, "{\n  \"label\": %s,\n  \"variant\": %s,\n",
               json_string(label).c_str(), json_string(v.name()).c_str());
  std::fprintf(f,
               "  \"head_dim\": %d,\n  \"bf16\": %s,\n  \"causal\": %s,\n"
               "  \"device\": %s,\n  \"seed\": %llu,\n  \"scale\": %s,\n",
               v.head_dim, v.bf16 ? "true" : "false",
               v.causal ? "true" : "false", json_string(device).c_str(),
               static_cast<unsigned long long>(seed),
               json_number(scale).c_str());
  std::fprintf(f,
               "  \"o_tolerance\": %s,\n  \"lse_tolerance\": %s,\n"
               "  \"complete\": %s,\n  \"results\": [",
               json_number(kOTolerance).c_str(),
               json_number(kLseTolerance).c_str(), complete ? "true" : "false");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result &r = results[i];
    std::fprintf(f,
                 "%s\n    {\"batch\": %d, \"heads\": %d, \"seqlen_q\": %d, "
                 "\"seqlen_k\": %d, \"flops\": %s, \"pass\": %s, "
                 "\"written\": %s",
                 i ? "," : "", r.shape.batch, r.shape.heads, r.shape.sq,
                 r.shape.sk, json_number(r.flops).c_str(),
                 r.pass ? "true" : "false", r.written ? "true" : "false");
    json_errors(f, "o", r.o);
    json_errors(f, "lse", r.lse);
    std::fprintf(f,
                 ", \"guard_clobbered\": %llu, \"spot_o\": %s, "
                 "\"spot_lse\": %s, \"ref_spot_o\": %s, \"ref_spot_lse\": %s",
                 r.guard_clobbered, json_number(r.spot_o).c_str(),
                 json_number(r.spot_lse).c_str(),
                 json_number(r.ref_spot_o).c_str(),
                 json_number(r.ref_spot_lse).c_str());
    std::fprintf(f, ", \"error\": %s",
                 r.error.empty() ? "null" : json_string(r.error).c_str());
    std::fprintf(f,
                 ", \"ms\": %s, \"ms_p10\": %s, \"ms_p90\": %s, "
                 "\"tflops\": %s, \"input_sets\": %d, \"warmup\": %d, "
                 "\"iters\": %d}",
                 json_number(r.ms).c_str(), json_number(r.ms_p10).c_str(),
                 json_number(r.ms_p90).c_str(), json_number(r.tflops).c_str(),
                 r.input_sets, r.warmup, r.iters);
  }
  std::fprintf(f, "\n  ]\n}\n");
  return std::fclose(f) == 0;
}

//===--- Command line -----------------------------------------------------===//

struct Options {
  std::string label = "attention";
  int batch = 0, heads = 0;
  std::vector<int> seqlens;
  int seqlen_k = 0; // 0: the same as each seqlen
  int warmup = kDefaultWarmup;
  int iters = kDefaultIters;
  bool check_only = false;
  float scale = NAN; // NaN: 1 / sqrt(head_dim)
  std::string json;
  bool have_seed = false;
  std::uint64_t seed = 0;
};

const char kUsage[] =
    "usage: attention-check --batch B --heads H --seqlen S[,S...] "
    "[--seqlen-k S2]\n"
    "                       [--iters N] [--warmup N] [--check-only] "
    "[--scale X]\n"
    "                       [--label NAME] [--json FILE] [--seed N]\n"
    "  --batch B, --heads H   the (B, H) of Q, K, V and O: B * H heads\n"
    "  --seqlen LIST          query lengths, comma-separated: one check each\n"
    "  --seqlen-k S2          key length of every check (default: = seqlen)\n"
    "  --iters N              timed calls per shape (default: 20)\n"
    "  --warmup N             untimed calls before them (default: 3)\n"
    "  --check-only           check, do not time\n"
    "  --scale X              softmax scale (default: 1/sqrt(head_dim))\n"
    "  --label NAME           first word of each result line\n"
    "  --json FILE            write all results to FILE\n"
    "  --seed N               base seed of the random inputs (default: "
    "fresh)\n";

bool parse_count(const char *text, int min, int &out) {
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (!*text || *end || v < min || v > 100000000L)
    return false;
  out = static_cast<int>(v);
  return true;
}

bool parse_list(const std::string &list, std::vector<int> &out) {
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    int x = 0;
    if (!parse_count(list.substr(begin, end - begin).c_str(), 1, x))
      return false;
    out.push_back(x);
    begin = end + 1;
  }
  return !out.empty();
}

bool parse_args(int argc, char **argv, Options &opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "attention-check: %s needs a value\n", name);
        return nullptr;
      }
      return argv[++i];
    };
    auto count = [&](const char *name, int min, int &out) {
      const char *v = value(name);
      if (!v)
        return false;
      if (!parse_count(v, min, out)) {
        std::fprintf(stderr, "attention-check: bad %s '%s'\n", name, v);
        return false;
      }
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--batch") {
      if (!count("--batch", 1, opt.batch))
        return false;
    } else if (arg == "--heads") {
      if (!count("--heads", 1, opt.heads))
        return false;
    } else if (arg == "--seqlen") {
      const char *v = value("--seqlen");
      if (!v)
        return false;
      if (!parse_list(v, opt.seqlens)) {
        std::fprintf(stderr, "attention-check: bad --seqlen '%s'\n", v);
        return false;
      }
    } else if (arg == "--seqlen-k") {
      if (!count("--seqlen-k", 1, opt.seqlen_k))
        return false;
    } else if (arg == "--iters") {
      if (!count("--iters", 1, opt.iters))
        return false;
    } else if (arg == "--warmup") {
      if (!count("--warmup", 0, opt.warmup))
        return false;
    } else if (arg == "--check-only") {
      opt.check_only = true;
    } else if (arg == "--scale") {
      const char *v = value("--scale");
      if (!v)
        return false;
      char *end = nullptr;
      opt.scale = std::strtof(v, &end);
      if (!*v || *end || !std::isfinite(opt.scale) || opt.scale <= 0) {
        std::fprintf(stderr, "attention-check: bad --scale '%s'\n", v);
        return false;
      }
    } else if (arg == "--label") {
      const char *v = value("--label");
      if (!v)
        return false;
      opt.label = v;
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
        std::fprintf(stderr, "attention-check: bad --seed '%s'\n", v);
        return false;
      }
      opt.have_seed = true;
    } else {
      std::fprintf(stderr, "attention-check: unknown argument '%s'\n",
                   arg.c_str());
      return false;
    }
  }
  if (opt.batch == 0 || opt.heads == 0 || opt.seqlens.empty()) {
    std::fprintf(stderr,
                 "attention-check: --batch, --heads and --seqlen are needed\n");
    return false;
  }
  if (static_cast<long long>(opt.batch) * opt.heads > 0x7FFFFFFF) {
    std::fprintf(stderr, "attention-check: batch * heads is too large\n");
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

  Variant variant;
  {
    int head_dim = 0, bf16 = 0, causal = 0;
    tawa_attention_variant(&head_dim, &bf16, &causal);
    variant.head_dim = head_dim;
    variant.bf16 = bf16 != 0;
    variant.causal = causal != 0;
    if (head_dim != 64 && head_dim != 128 && head_dim != 256) {
      std::fprintf(stderr,
                   "attention-check: the linked variant reports head_dim %d "
                   "(want 64, 128 or 256)\n",
                   head_dim);
      return 1;
    }
  }
  const float scale = std::isnan(opt.scale)
                          ? 1.0f / std::sqrt(float(variant.head_dim))
                          : opt.scale;

  std::string device = "unknown";
  cudaStream_t stream = nullptr;
  std::size_t l2_bytes = 0;
  try {
    int dev = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, dev));
    device = prop.name;
    l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "attention-check: %s\n", e.what());
    return 1;
  }
  std::printf("attention-check %s %s on %s, seed %llu, scale %g\n",
              opt.label.c_str(), variant.name().c_str(), device.c_str(),
              static_cast<unsigned long long>(opt.seed), scale);
  std::printf("pass: O rel < %g, LSE rel < %g (Frobenius, vs naive float32); "
              "spot rows in fp64; every element written\n",
              kOTolerance, kLseTolerance);

  Runner runner(stream, variant, l2_bytes, scale, opt.warmup, opt.iters);
  std::vector<Result> results;
  bool all_pass = true, json_ok = true;
  for (std::size_t i = 0; i < opt.seqlens.size(); ++i) {
    const Shape shape{opt.batch, opt.heads, opt.seqlens[i],
                      opt.seqlen_k ? opt.seqlen_k : opt.seqlens[i]};
    results.push_back(
        runner.run(shape, splitmix64(opt.seed ^ (i << 48)), !opt.check_only));
    print_line(opt.label, variant, results.back());
    all_pass = all_pass && results.back().pass;
    if (!opt.json.empty())
      json_ok = write_json(opt.json, opt.label, variant, device, opt.seed,
                           scale, results, i + 1 == opt.seqlens.size());
  }
  cudaStreamDestroy(stream);
  if (!json_ok) {
    std::fprintf(stderr, "attention-check: cannot write %s\n",
                 opt.json.c_str());
    return 1;
  }
  return all_pass ? 0 : 1;
}
