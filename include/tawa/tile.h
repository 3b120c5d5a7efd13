//===- tawa/tile.h - the tile vocabulary and its reference implementation -===//
//
// The ops a kernel annotated with `#pragma tawa tile` is written in. Every op
// is CTA-collective: all threads of the block execute it, in block-uniform
// control flow, and it behaves as if it completed before the next op starts.
// Shapes are template arguments, counted in elements; element types are
// __nv_bfloat16, __half and float; accumulation is in float.
//
// This header is also the portable reference implementation: a kernel that
// includes it compiles with nvcc as written and runs correctly on any CUDA GPU
// and for any block size (simple, not fast). tawa-rewrite replaces annotated
// kernels with warp-specialized sm_90a code; it never changes what they
// compute.
//
// How the reference works. A 128 x 256 float accumulator is 128 KiB: more
// than static shared memory allows (48 KiB), and for a block of any size a
// per-thread copy in local memory would be 128 KiB per thread. So the
// reference Accumulator is deferred:
//   - a Tile is a view: the Matrix and the window origin (row0, col0);
//   - mma records a segment {A view, B view, transposed flag, K extent in
//     elements}; an mma that continues the last segment (same matrices, same
//     output rows and columns, K window directly after it) extends that
//     segment instead; at most detail::kMaxSegments (8) segments are held,
//     and one more is a device trap after a message from thread 0;
//   - every thread holds the same record (ops are CTA-collective), in its own
//     local memory (under 700 bytes); no shared memory is used;
//   - store evaluates: the block's threads split the R x C elements of the
//     window (stride: threads per block, over the linear thread index); each
//     thread computes its elements' dot products in float over the recorded
//     segments, reading A and B from global memory (outside reads as 0),
//     converts and writes the elements inside the destination.
// Consequence of deferring: operands are read when the accumulator is stored,
// so a matrix loaded into an accumulator must not be written before that
// accumulator is stored, and a store must not write a matrix its own
// accumulator reads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <type_traits>

// nvcc warns about every `#pragma tawa` in device code (#20199-D,
// "unrecognized #pragma in device code"); for the reference build the pragma
// is meant to be ignored, so the warning is off from here to the end of the
// translation unit.
#if defined(__NVCC__)
#pragma nv_diag_suppress 20199
#endif

namespace tawa {

/// A 2-D row-major view of global memory, passed to kernels by value and built
/// on the host as `Matrix<T>{data, rows, cols, ld}`.
///   data: the element (0, 0); rows, cols: extent in elements;
///   ld: leading dimension, elements between the starts of consecutive rows
///       (ld >= cols).
/// Element (r, c) is data[r * ld + c]. A `Matrix<T>` converts implicitly to a
/// `Matrix<const T>` over the same memory.
///
/// A batch of equally shaped matrices is one Matrix with `batches` > 1:
/// matrix b starts `b * batch_stride` elements after `data`, and `batch(b)`
/// is its view. Built as `Matrix<T>{data, rows, cols, ld, batches,
/// batch_stride}`; the last two default to a single matrix.
template <class T> struct Matrix {
  T *data;
  int rows;
  int cols;
  int ld;
  int batches = 1;
  long long batch_stride = 0;

  /// Matrix `b` of the batch, 0 <= b < batches.
  __host__ __device__ Matrix batch(int b) const {
    return Matrix{data + b * batch_stride, rows, cols, ld, 1, 0};
  }

  /// The same view, read-only.
  template <class U,
            std::enable_if_t<
                std::is_same<U, T>::value && !std::is_const<U>::value, int> = 0>
  __host__ __device__ operator Matrix<const U>() const {
    return Matrix<const U>{data, rows, cols, ld, batches, batch_stride};
  }
};

/// The R x C window of a Matrix whose element (0, 0) is the matrix element
/// (row0, col0); what `load` returns. Window elements outside the matrix
/// (including negative coordinates) read as 0.
template <class T, int R, int C> struct Tile {
  static_assert(R > 0 && C > 0, "tawa::Tile: the shape must be positive");
  /// The matrix the window is taken from.
  Matrix<T> matrix;
  /// Matrix row of the window's first row, in elements.
  int row0;
  /// Matrix column of the window's first column, in elements.
  int col0;
};

/// The transpose of a tile, as an mma operand; what `transpose` returns.
/// `Transposed<Tile<T, R, C>>` is a C x R operand.
template <class TileT> struct Transposed {
  /// The tile, untransposed.
  TileT tile;
};

namespace detail {

/// Element types of the tile language.
enum class ElementKind : int { F32, F16, BF16 };

template <class T> struct Element { static constexpr bool supported = false; };
template <> struct Element<float> {
  static constexpr bool supported = true;
  static constexpr ElementKind kind = ElementKind::F32;
};
template <> struct Element<__half> {
  static constexpr bool supported = true;
  static constexpr ElementKind kind = ElementKind::F16;
};
template <> struct Element<__nv_bfloat16> {
  static constexpr bool supported = true;
  static constexpr ElementKind kind = ElementKind::BF16;
};
template <class T>
constexpr bool is_element = Element<std::remove_const_t<T>>::supported;

__device__ inline float to_float(float x) { return x; }
__device__ inline float to_float(__half x) { return __half2float(x); }
__device__ inline float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

/// Rounds to nearest even.
__device__ inline void convert(float x, float &out) { out = x; }
__device__ inline void convert(float x, __half &out) {
  out = __float2half_rn(x);
}
__device__ inline void convert(float x, __nv_bfloat16 &out) {
  out = __float2bfloat16_rn(x);
}

/// Index of the calling thread in its block (x fastest), and the block size.
__device__ inline int linear_thread_index() {
  return static_cast<int>(
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}
__device__ inline int block_threads() {
  return static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
}

/// A tile window with its element type erased.
struct View {
  const void *data;
  int rows, cols, ld; // of the matrix, in elements
  int row0, col0;     // of the window, in elements
};

template <class T, int R, int C>
__device__ View view_of(const Tile<T, R, C> &t) {
  return View{t.matrix.data, t.matrix.rows, t.matrix.cols,
              t.matrix.ld,   t.row0,        t.col0};
}

/// acc(i, j) += sum over k in [0, k) of A(a.row0 + i, a.col0 + k) * B(k, j),
/// where B(k, j) = b(b.row0 + k, b.col0 + j), or b(b.row0 + j, b.col0 + k)
/// when b_transposed.
struct Segment {
  View a, b;
  int k;
  bool b_transposed;
  ElementKind kind;
};

/// Segments one Accumulator holds before an mma traps.
constexpr int kMaxSegments = 8;

__device__ inline bool same_matrix(const View &x, const View &y) {
  return x.data == y.data && x.rows == y.rows && x.cols == y.cols &&
         x.ld == y.ld;
}

/// Whether `next` is `prev` continued along K.
__device__ inline bool continues(const Segment &prev, const Segment &next) {
  if (prev.kind != next.kind || prev.b_transposed != next.b_transposed ||
      !same_matrix(prev.a, next.a) || !same_matrix(prev.b, next.b))
    return false;
  if (next.a.row0 != prev.a.row0 || next.a.col0 != prev.a.col0 + prev.k)
    return false;
  if (prev.b_transposed)
    return next.b.row0 == prev.b.row0 && next.b.col0 == prev.b.col0 + prev.k;
  return next.b.row0 == prev.b.row0 + prev.k && next.b.col0 == prev.b.col0;
}

__device__ inline int max3(int x, int y, int z) {
  const int xy = x > y ? x : y;
  return xy > z ? xy : z;
}
__device__ inline int min3(int x, int y, int z) {
  const int xy = x < y ? x : y;
  return xy < z ? xy : z;
}

/// One segment's contribution to element (i, j), over the K range where both
/// operands are inside their matrices (elsewhere a product is 0).
template <class T>
__device__ float segment_dot(const Segment &s, int i, int j) {
  const int ar = s.a.row0 + i;
  if (ar < 0 || ar >= s.a.rows)
    return 0.0f;
  int bk0, bk_extent, bn;
  std::int64_t b_k_stride;
  if (s.b_transposed) { // b is N x K: row = j, column = k
    bn = s.b.row0 + j;
    if (bn < 0 || bn >= s.b.rows)
      return 0.0f;
    bk0 = s.b.col0;
    bk_extent = s.b.cols;
    b_k_stride = 1;
  } else { // b is K x N: row = k, column = j
    bn = s.b.col0 + j;
    if (bn < 0 || bn >= s.b.cols)
      return 0.0f;
    bk0 = s.b.row0;
    bk_extent = s.b.rows;
    b_k_stride = s.b.ld;
  }
  const int k_begin = max3(0, -s.a.col0, -bk0);
  const int k_end = min3(s.k, s.a.cols - s.a.col0, bk_extent - bk0);
  if (k_begin >= k_end)
    return 0.0f;
  const T *pa = static_cast<const T *>(s.a.data) +
                static_cast<std::int64_t>(ar) * s.a.ld + (s.a.col0 + k_begin);
  const T *pb = static_cast<const T *>(s.b.data);
  if (s.b_transposed)
    pb += static_cast<std::int64_t>(bn) * s.b.ld + (bk0 + k_begin);
  else
    pb += static_cast<std::int64_t>(bk0 + k_begin) * s.b.ld + bn;
  float sum = 0.0f;
  for (int k = k_begin; k < k_end; ++k, ++pa, pb += b_k_stride)
    sum += to_float(*pa) * to_float(*pb);
  return sum;
}

/// The deferred contraction an Accumulator stands for.
struct Contraction {
  Segment segments[kMaxSegments];
  int count = 0;

  /// Records `s`, merging it into the last segment when it continues it.
  __device__ void add(const Segment &s) {
    if (count > 0 && continues(segments[count - 1], s)) {
      segments[count - 1].k += s.k;
      return;
    }
    if (count == kMaxSegments) {
      // Every thread gets here (the record is block-uniform). The barrier
      // lets thread 0's message reach the printf buffer before the trap.
      if (linear_thread_index() == 0)
        printf("tawa::mma (reference implementation), block (%d, %d, %d): "
               "more than %d mma windows that do not continue one another "
               "along K went into one Accumulator\n",
               static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
               static_cast<int>(blockIdx.z), kMaxSegments);
      __syncthreads();
      __trap();
    }
    segments[count++] = s;
  }

  /// Element (i, j) of the accumulator, in float.
  __device__ float evaluate(int i, int j) const {
    float sum = 0.0f;
    for (int n = 0; n < count; ++n) {
      const Segment &s = segments[n];
      switch (s.kind) {
      case ElementKind::F32:
        sum += segment_dot<float>(s, i, j);
        break;
      case ElementKind::F16:
        sum += segment_dot<__half>(s, i, j);
        break;
      case ElementKind::BF16:
        sum += segment_dot<__nv_bfloat16>(s, i, j);
        break;
      }
    }
    return sum;
  }
};

} // namespace detail

/// An R x C tile accumulator, zero on construction. Only T = float.
/// Declare it in block-uniform code; every thread of the block takes part in
/// the ops on it.
template <class T, int R, int C> class Accumulator {
  static_assert(std::is_same<T, float>::value,
                "tawa::Accumulator: the element type must be float");
  static_assert(R > 0 && C > 0,
                "tawa::Accumulator: the shape must be positive");
  static_assert(static_cast<long long>(R) * C <= 0x7fffffff,
                "tawa::Accumulator: too many elements");

public:
  /// State of the reference implementation (the recorded contraction); not
  /// part of the tile language.
  __device__ detail::Contraction &contraction() { return contraction_; }
  __device__ const detail::Contraction &contraction() const {
    return contraction_;
  }

private:
  detail::Contraction contraction_;
};

/// The R x C window of `m` whose element (0, 0) is m(row0, col0); row0 and
/// col0 are in elements and may be negative or past the end. Window elements
/// outside `m` read as 0. T: __nv_bfloat16, __half or float, possibly const.
template <int R, int C, class T>
__device__ Tile<T, R, C> load(Matrix<T> m, int row0, int col0) {
  static_assert(detail::is_element<T>,
                "tawa::load: the element type must be __nv_bfloat16, __half "
                "or float");
  return Tile<T, R, C>{m, row0, col0};
}

/// The C x R transpose of an R x C tile, as an mma operand.
template <class T, int R, int C>
__device__ Transposed<Tile<T, R, C>> transpose(const Tile<T, R, C> &t) {
  return Transposed<Tile<T, R, C>>{t};
}

/// acc += a * b, with a: M x K, b: K x N, acc: M x N; products and sums in
/// float.
template <class T, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Tile<T, M, K> &a,
                    const Tile<T, K, N> &b) {
  acc.contraction().add(
      detail::Segment{detail::view_of(a), detail::view_of(b), K, false,
                      detail::Element<std::remove_const_t<T>>::kind});
}

/// acc += a * b^T, with a: M x K, b: N x K (both operands K-major: the "NT"
/// GEMM), acc: M x N; products and sums in float.
template <class T, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Tile<T, M, K> &a,
                    const Transposed<Tile<T, N, K>> &b) {
  acc.contraction().add(
      detail::Segment{detail::view_of(a), detail::view_of(b.tile), K, true,
                      detail::Element<std::remove_const_t<T>>::kind});
}

/// Converts `acc` to U (__nv_bfloat16, __half or float; rounding to nearest
/// even) and writes it to the R x C window of `m` at (row0, col0), in
/// elements. Window elements outside `m` are skipped. Acts as a block-wide
/// barrier: the writes are visible to the whole block when it returns.
template <class U, int R, int C>
__device__ void store(Matrix<U> m, int row0, int col0,
                      const Accumulator<float, R, C> &acc) {
  static_assert(!std::is_const<U>::value,
                "tawa::store: the destination Matrix must not be const");
  static_assert(detail::is_element<U>,
                "tawa::store: the element type must be __nv_bfloat16, __half "
                "or float");
  const detail::Contraction &record = acc.contraction();
  const int threads = detail::block_threads();
  for (int e = detail::linear_thread_index(); e < R * C; e += threads) {
    const int i = e / C, j = e % C;
    const int r = row0 + i, c = col0 + j;
    if (r < 0 || r >= m.rows || c < 0 || c >= m.cols)
      continue;
    detail::convert(record.evaluate(i, j),
                    m.data[static_cast<std::int64_t>(r) * m.ld + c]);
  }
  __syncthreads();
}

/// ceil(a / b) for a >= 0 and b > 0: e.g. the number of b-element tiles that
/// cover a elements.
__host__ __device__ constexpr int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

} // namespace tawa
