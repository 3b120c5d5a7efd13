//===- tawa/tile.h - the tile vocabulary and its reference implementation -===//
//
// The ops a kernel annotated with `#pragma tawa tile` is written in. Every op
// is CTA-collective: all threads of the block execute it, in block-uniform
// control flow, and it behaves as if it completed before the next op starts.
// Shapes are template arguments, counted in elements; element types are
// __nv_bfloat16, __half, float and, as mma inputs, the fp8 types
// __nv_fp8_e4m3 and __nv_fp8_e5m2; accumulation is in float.
//
// This header is also the portable reference implementation: a kernel that
// includes it compiles with nvcc as written and runs correctly on any CUDA GPU
// (simple, not fast). tawa-rewrite replaces annotated kernels with
// warp-specialized sm_90a code; it never changes what they compute.
//
// How the reference works. Values are evaluated eagerly and owned by rows:
// of a block of T threads, thread t holds rows t, t + T, t + 2T, ... of every
// Accumulator, Fragment and RowVector, in its own local memory. Every op
// (mma, element-wise arithmetic, row reductions, masks, stores) works on a
// thread's own rows only, so no op needs a barrier but `store`. A value of R
// rows holds at most ceil(R / 64) rows per thread, so a block needs at least
// ceil(R / ceil(R / 64)) threads (64 for R = 128; a block of 128 threads or
// more always suffices for R <= 128); fewer is a device trap after a message
// from thread 0. Tiles are views (a Matrix and the window's origin): mma reads
// their elements from global memory when it runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
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

/// A dense NHWC activation tensor seen as the A matrix of a 2-D convolution
/// computed as a GEMM (the implicit GEMM: the im2col matrix, never built).
/// Built on the host as `Im2col<T>{data, n, h, w, c, r, s, p, q, pad_h,
/// pad_w, stride_h, stride_w, dil_h, dil_w}`:
///   data: element (img, y, x, ch) of the tensor at ((img * h + y) * w + x)
///         * c + ch; n, h, w, c: its extents;
///   r, s: the filter's height and width, in taps;
///   p, q: the output's height and width (for a convolution, (h + 2 pad_h -
///         dil_h (r - 1) - 1) / stride_h + 1 and the same along w; im2col()
///         computes them);
///   pad_*, stride_*, dil_*: padding, stride and dilation, in elements.
/// The matrix has n * p * q rows, one per output pixel (img, oy, ox) at row
/// (img * p + oy) * q + ox, and r * s * c columns, one per filter tap and
/// channel (ty, tx, ch) at column (ty * s + tx) * c + ch: weights stored
/// K x R x S x C (channels last) are its B^T. Element (row, col) is the
/// tensor's element (img, oy * stride_h - pad_h + ty * dil_h, ox * stride_w
/// - pad_w + tx * dil_w, ch), 0 where that lies outside the image (the
/// padding). `tawa::load` takes windows of it as of a Matrix.
template <class T> struct Im2col {
  T *data;
  int n, h, w, c;
  int r, s;
  int p, q;
  int pad_h, pad_w;
  int stride_h, stride_w;
  int dil_h, dil_w;

  /// The matrix's extents, elements (n * p * q < 2^31).
  __host__ __device__ int rows() const { return n * p * q; }
  __host__ __device__ int cols() const { return r * s * c; }

  /// The same view, read-only.
  template <class U,
            std::enable_if_t<
                std::is_same<U, T>::value && !std::is_const<U>::value, int> = 0>
  __host__ __device__ operator Im2col<const U>() const {
    return Im2col<const U>{data,  n,        h,        w,     c,
                           r,     s,        p,        q,     pad_h,
                           pad_w, stride_h, stride_w, dil_h, dil_w};
  }
};

/// The Im2col view of a convolution of `data` (n x h x w x c, NHWC) with an
/// r x s filter: the output extents computed as a convolution's.
template <class T>
__host__ __device__ Im2col<T> im2col(T *data, int n, int h, int w, int c, int r,
                                     int s, int pad_h = 0, int pad_w = 0,
                                     int stride_h = 1, int stride_w = 1,
                                     int dil_h = 1, int dil_w = 1) {
  return Im2col<T>{data,
                   n,
                   h,
                   w,
                   c,
                   r,
                   s,
                   (h + 2 * pad_h - dil_h * (r - 1) - 1) / stride_h + 1,
                   (w + 2 * pad_w - dil_w * (s - 1) - 1) / stride_w + 1,
                   pad_h,
                   pad_w,
                   stride_h,
                   stride_w,
                   dil_h,
                   dil_w};
}

/// Whether the rewritten kernels' TMA loads can read windows of `x` (its
/// columns in blocks of 128 bytes of channels, one box per filter tap and
/// block): the channels split into such blocks, the data is 16-byte
/// aligned, and, with two spatial dimensions, the pixel box's corners
/// (-pad, and (out - 1) stride + 1 - extent - pad) lie in [-128, 127] and
/// the taps' offsets, (r - 1) dil_h and (s - 1) dil_w, in [0, 254], strides
/// 1 to 8 (CUDA driver API, cuTensorMapEncodeIm2col; the limits CUTLASS's
/// sm90 convolutions check). tawa::rt::make_im2col_map builds the map where
/// this holds; a launcher may run other code where it does not.
template <class T>
__host__ __device__ bool im2col_tma_loadable(const Im2col<T> &x) {
  const int channels = 128 / static_cast<int>(sizeof(T));
  const int corners[4] = {-x.pad_w, -x.pad_h,
                          (x.q - 1) * x.stride_w + 1 - x.w - x.pad_w,
                          (x.p - 1) * x.stride_h + 1 - x.h - x.pad_h};
  bool ok = x.n > 0 && x.h > 0 && x.w > 0 && x.c > 0 && x.r > 0 && x.s > 0 &&
            x.p > 0 && x.q > 0 && x.c % channels == 0 &&
            reinterpret_cast<unsigned long long>(x.data) % 16 == 0 &&
            x.stride_h >= 1 && x.stride_h <= 8 && x.stride_w >= 1 &&
            x.stride_w <= 8 && x.dil_h >= 1 && x.dil_w >= 1 &&
            (x.r - 1) * x.dil_h < 255 && (x.s - 1) * x.dil_w < 255;
  for (int corner : corners)
    ok = ok && corner >= -128 && corner <= 127;
  return ok;
}

/// Permutes the K index of convolution weights from channels outermost,
/// k = (ch * rs + tap), to the Im2col matrix's order, k = (tap * c + ch),
/// tap = ty * s + tx of the rs = r * s taps: out = in with that index
/// permuted, along the columns of a `rows` x `cols` matrix where `k_major`
/// (weights K x C x R x S), else along its rows (C x R x S x K). `in` has
/// leading dimension `ld_in`, `out` `cols`; elements.
template <class T>
__global__ void filter_channels_inner(const T *in, long long ld_in, T *out,
                                      long long rows, long long cols, int c,
                                      int rs, bool k_major) {
  const long long total = rows * cols;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < total;
       i += 1LL * gridDim.x * blockDim.x) {
    const long long row = i / cols, col = i % cols;
    const long long k = k_major ? col : row;
    const long long from = (k % c) * rs + k / c;
    out[i] = k_major ? in[row * ld_in + from] : in[from * ld_in + col];
  }
}

/// Convolution weights whose K index runs channels outermost (K x C x R x S,
/// PyTorch's order, or C x R x S x K) copied on a stream to the order of
/// the Im2col matrix's columns, (ty * s + tx) * c + ch, so that they are
/// its B^T (K x R x S x C) or B (R x S x C x K). The copy lives in memory
/// of its own, allocated and freed on the stream (cudaMallocAsync,
/// cudaFreeAsync), until this object goes out of scope; its cost, one read
/// and one write of the weights per launch, is small beside a
/// convolution's. error() says whether it was made.
template <class T> class FilterCopy {
public:
  /// `w`: the weights as stored, K rows of c * rs where `k_major`, else c *
  /// rs rows of K; `c` channels, `rs` filter taps.
  FilterCopy(Matrix<const T> w, bool k_major, int c, int rs,
             cudaStream_t stream)
      : stream_(stream), view_{nullptr, w.rows, w.cols, w.cols} {
    using E = std::remove_const_t<T>;
    const long long total = 1LL * w.rows * w.cols;
    if (total <= 0 || c <= 0 || rs <= 0) {
      error_ = cudaErrorInvalidValue;
      return;
    }
    E *out = nullptr;
    error_ = cudaMallocAsync(reinterpret_cast<void **>(&out), total * sizeof(E),
                             stream);
    if (error_ != cudaSuccess)
      return;
    copy_ = out;
    view_.data = out;
    const long long blocks = (total + 255) / 256;
    const int grid = blocks < 4096 ? static_cast<int>(blocks) : 4096;
    // clang-format off
    filter_channels_inner<E><<<grid, 256, 0, stream>>>(
        w.data, w.ld, out, w.rows, w.cols, c, rs, k_major);
    // clang-format on
    error_ = cudaGetLastError();
  }
  ~FilterCopy() {
    if (copy_)
      cudaFreeAsync(copy_, stream_);
  }
  FilterCopy(const FilterCopy &) = delete;
  FilterCopy &operator=(const FilterCopy &) = delete;

  /// cudaSuccess where the copy was made and launched.
  cudaError_t error() const { return error_; }
  /// The permuted weights: the shape of `w`, leading dimension its columns.
  Matrix<const T> matrix() const { return view_; }

private:
  cudaStream_t stream_;
  Matrix<const T> view_;
  void *copy_ = nullptr;
  cudaError_t error_ = cudaSuccess;
};

/// The R x C window of an Im2col matrix at (row0, col0); what `load` of an
/// Im2col returns. Elements outside the matrix read as 0.
template <class T, int R, int C> struct Im2colTile {
  static_assert(R > 0 && C > 0, "tawa::Im2colTile: the shape must be positive");
  Im2col<T> matrix;
  int row0, col0;
};

namespace detail {

template <class T> struct Element {
  static constexpr bool supported = false;
};
template <> struct Element<float> {
  static constexpr bool supported = true;
};
template <> struct Element<__half> {
  static constexpr bool supported = true;
};
template <> struct Element<__nv_bfloat16> {
  static constexpr bool supported = true;
};
template <> struct Element<__nv_fp8_e4m3> {
  static constexpr bool supported = true;
};
template <> struct Element<__nv_fp8_e5m2> {
  static constexpr bool supported = true;
};
template <class T>
constexpr bool is_element = Element<std::remove_const_t<T>>::supported;
template <class T>
constexpr bool is_16bit =
    std::is_same<std::remove_const_t<T>, __half>::value ||
    std::is_same<std::remove_const_t<T>, __nv_bfloat16>::value;
template <class T>
constexpr bool is_fp8 =
    std::is_same<std::remove_const_t<T>, __nv_fp8_e4m3>::value ||
    std::is_same<std::remove_const_t<T>, __nv_fp8_e5m2>::value;
/// Whether tiles of T and U multiply: one 16-bit type or float for both, or
/// each an fp8 type (wgmma takes e4m3 x e5m2; PTX ISA 9.7.15.5.1).
template <class T, class U>
constexpr bool mma_operands =
    std::is_same<std::remove_const_t<T>, std::remove_const_t<U>>::value ||
    (is_fp8<T> && is_fp8<U>);

__device__ inline float to_float(float x) { return x; }
__device__ inline float to_float(__half x) { return __half2float(x); }
__device__ inline float to_float(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ inline float to_float(__nv_fp8_e4m3 x) {
  return static_cast<float>(x);
}
__device__ inline float to_float(__nv_fp8_e5m2 x) {
  return static_cast<float>(x);
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

/// Threads of the smallest block the reference runs a value of 128 rows in.
constexpr int kMinThreads = 64;

/// Rows of an R-row value one thread holds at most.
template <int R>
constexpr int kRowsPerThread = (R + kMinThreads - 1) / kMinThreads;

/// The row the calling thread holds in its k-th slot (may be >= R: unused).
__device__ inline int owned_row(int k) {
  return linear_thread_index() + k * block_threads();
}

/// Traps, after a message from thread 0, where the block is too small for a
/// value of R rows.
template <int R> __device__ void require_rows(const char *what) {
  if (block_threads() * kRowsPerThread<R> >= R)
    return;
  if (linear_thread_index() == 0)
    printf("tawa::%s (reference implementation), block (%d, %d, %d): a value "
           "of %d rows needs a block of at least %d threads, this one has "
           "%d\n",
           what, static_cast<int>(blockIdx.x), static_cast<int>(blockIdx.y),
           static_cast<int>(blockIdx.z), R,
           (R + kRowsPerThread<R> - 1) / kRowsPerThread<R>, block_threads());
  __syncthreads();
  __trap();
}

/// A strided run of elements: element k is base[k * stride] for k in
/// [begin, end), else 0 (outside the matrix).
template <class T> struct Run {
  const T *base;
  long long stride;
  int begin, end;
};

/// Row i of the window of `t`, as a function of the window column.
template <class T, int R, int C>
__device__ Run<std::remove_const_t<T>> window_row(const Tile<T, R, C> &t,
                                                  int i) {
  using E = std::remove_const_t<T>;
  const Matrix<T> &m = t.matrix;
  const int r = t.row0 + i;
  if (r < 0 || r >= m.rows)
    return Run<E>{nullptr, 0, 0, 0};
  const int begin = t.col0 < 0 ? -t.col0 : 0;
  const int end = m.cols - t.col0 < C ? m.cols - t.col0 : C;
  return Run<E>{m.data + static_cast<long long>(r) * m.ld + t.col0, 1, begin,
                end};
}

/// Column j of the window of `t`, as a function of the window row.
template <class T, int R, int C>
__device__ Run<std::remove_const_t<T>> window_column(const Tile<T, R, C> &t,
                                                     int j) {
  using E = std::remove_const_t<T>;
  const Matrix<T> &m = t.matrix;
  const int c = t.col0 + j;
  if (c < 0 || c >= m.cols)
    return Run<E>{nullptr, 0, 0, 0};
  const int begin = t.row0 < 0 ? -t.row0 : 0;
  const int end = m.rows - t.row0 < R ? m.rows - t.row0 : R;
  return Run<E>{m.data + static_cast<long long>(t.row0) * m.ld + c, m.ld, begin,
                end};
}

/// sum over k of a(k) * b(k), in float, where both runs hold elements.
template <class A, class B>
__device__ float dot(const Run<A> &a, const Run<B> &b) {
  const int begin = a.begin > b.begin ? a.begin : b.begin;
  const int end = a.end < b.end ? a.end : b.end;
  float sum = 0.0f;
  for (int k = begin; k < end; ++k)
    sum += to_float(a.base[k * a.stride]) * to_float(b.base[k * b.stride]);
  return sum;
}

/// Row i of an Im2col window, as a function of the window column: the
/// output pixel's image and window origin, decoded once.
template <class T> struct Im2colRun {
  const Im2col<T> *x;
  int col0;
  int img = -1, y0 = 0, x0 = 0; ///< img -1: the row lies past the matrix
  __device__ float at(int k) const {
    const int col = col0 + k;
    if (img < 0 || col < 0 || col >= x->cols())
      return 0.0f;
    const int ch = col % x->c, tap = col / x->c;
    const int y = y0 + tap / x->s * x->dil_h, xx = x0 + tap % x->s * x->dil_w;
    if (y < 0 || y >= x->h || xx < 0 || xx >= x->w)
      return 0.0f;
    return to_float(
        x->data[((static_cast<long long>(img) * x->h + y) * x->w + xx) * x->c +
                ch]);
  }
};

template <class T, int R, int C>
__device__ Im2colRun<T> window_row(const Im2colTile<T, R, C> &t, int i) {
  const Im2col<T> &x = t.matrix;
  Im2colRun<T> run{&x, t.col0};
  const int row = t.row0 + i;
  if (row < 0 || row >= x.rows())
    return run;
  const int pq = x.p * x.q;
  run.img = row / pq;
  const int rest = row % pq;
  run.y0 = rest / x.q * x.stride_h - x.pad_h;
  run.x0 = rest % x.q * x.stride_w - x.pad_w;
  return run;
}

/// sum over k of a(k) * b(k), in float, over b's elements.
template <class A, class B>
__device__ float dot(const Im2colRun<A> &a, const Run<B> &b) {
  float sum = 0.0f;
  for (int k = b.begin; k < b.end; ++k)
    sum += a.at(k) * to_float(b.base[k * b.stride]);
  return sum;
}

/// x - y for the subtraction of a row vector: an entry y of -inf counts as 0,
/// so that rows masked entirely stay -inf and exponentiate to 0 instead of
/// NaN (the guard of online softmax, FlashAttention-2, arXiv 2307.08691).
__device__ inline float minus_row(float x, float y) {
  return x - (y == -INFINITY ? 0.0f : y);
}

} // namespace detail

/// R floats, one per row of an R-row tile (row statistics: maxima, sums).
/// Declare it in block-uniform code; every thread of the block takes part in
/// the ops on it. Only T = float.
template <class T, int R> class RowVector {
  static_assert(std::is_same<T, float>::value,
                "tawa::RowVector: the element type must be float");
  static_assert(R > 0, "tawa::RowVector: the size must be positive");

public:
  /// Every entry `fill`.
  __device__ explicit RowVector(float fill = 0.0f) {
    detail::require_rows<R>("RowVector");
    for (int k = 0; k < kSlots; ++k)
      v_[k] = fill;
  }

  /// Reference state, not part of the tile language: the entry of slot k
  /// (row detail::owned_row(k)).
  static constexpr int kSlots = detail::kRowsPerThread<R>;
  __device__ float &slot(int k) { return v_[k]; }
  __device__ float slot(int k) const { return v_[k]; }

private:
  float v_[kSlots];
};

/// An R x C tile accumulator, zero on construction. Only T = float.
/// Declare it in block-uniform code; every thread of the block takes part in
/// the ops on it.
template <class T, int R, int C> class Accumulator {
  static_assert(std::is_same<T, float>::value,
                "tawa::Accumulator: the element type must be float");
  static_assert(R > 0 && C > 0,
                "tawa::Accumulator: the shape must be positive");

public:
  __device__ Accumulator() {
    detail::require_rows<R>("Accumulator");
    for (int k = 0; k < kSlots; ++k)
      for (int j = 0; j < C; ++j)
        d_[k][j] = 0.0f;
  }

  /// Each row i times v(i).
  __device__ Accumulator &operator*=(const RowVector<float, R> &v) {
    for (int k = 0; k < kSlots; ++k)
      for (int j = 0; j < C; ++j)
        d_[k][j] *= v.slot(k);
    return *this;
  }
  /// Every element times s.
  __device__ Accumulator &operator*=(float s) {
    for (int k = 0; k < kSlots; ++k)
      for (int j = 0; j < C; ++j)
        d_[k][j] *= s;
    return *this;
  }

  /// Reference state, not part of the tile language: row slot k (row
  /// detail::owned_row(k)).
  static constexpr int kSlots = detail::kRowsPerThread<R>;
  __device__ float *slot(int k) { return d_[k]; }
  __device__ const float *slot(int k) const { return d_[k]; }

private:
  float d_[kSlots][C];
};

/// An R x C matrix of 16-bit elements in registers: an accumulator converted
/// to an mma operand (P in O += P V). What `convert` returns.
template <class T, int R, int C> class Fragment {
  static_assert(detail::is_16bit<T> && !std::is_const<T>::value,
                "tawa::Fragment: the element type must be __nv_bfloat16 or "
                "__half");

public:
  /// Reference state, not part of the tile language.
  static constexpr int kSlots = detail::kRowsPerThread<R>;
  __device__ T *slot(int k) { return d_[k]; }
  __device__ const T *slot(int k) const { return d_[k]; }

private:
  T d_[kSlots][C];
};

/// The R x C window of `m` whose element (0, 0) is m(row0, col0); row0 and
/// col0 are in elements and may be negative or past the end. Window elements
/// outside `m` read as 0. T: __nv_bfloat16, __half, float, __nv_fp8_e4m3 or
/// __nv_fp8_e5m2, possibly const.
template <int R, int C, class T>
__device__ Tile<T, R, C> load(Matrix<T> m, int row0, int col0) {
  static_assert(detail::is_element<T>,
                "tawa::load: the element type must be __nv_bfloat16, __half, "
                "float, __nv_fp8_e4m3 or __nv_fp8_e5m2");
  return Tile<T, R, C>{m, row0, col0};
}

/// The R x C window of the Im2col matrix `x` at (row0, col0): R output
/// pixels from row0 by C filter taps and channels from col0. Elements
/// outside the matrix, and taps in the padding, read as 0.
template <int R, int C, class T>
__device__ Im2colTile<T, R, C> load(Im2col<T> x, int row0, int col0) {
  static_assert(detail::is_element<T>,
                "tawa::load: the element type must be __nv_bfloat16, __half, "
                "float, __nv_fp8_e4m3 or __nv_fp8_e5m2");
  return Im2colTile<T, R, C>{x, row0, col0};
}

/// The C x R transpose of an R x C tile, as an mma operand.
template <class T, int R, int C>
__device__ Transposed<Tile<T, R, C>> transpose(const Tile<T, R, C> &t) {
  return Transposed<Tile<T, R, C>>{t};
}

namespace detail {

/// acc(i, j) += sum over k of a(i, k) * b(k, j) for the caller's rows i;
/// `a_row(i)` and `b_column(j)` give the operands as runs over k.
template <int M, int N, class ARow, class BColumn>
__device__ void contract(Accumulator<float, M, N> &acc, ARow a_row,
                         BColumn b_column) {
  for (int k = 0; k < Accumulator<float, M, N>::kSlots; ++k) {
    const int i = owned_row(k);
    if (i >= M)
      break;
    const auto a = a_row(i, k);
    float *out = acc.slot(k);
    for (int j = 0; j < N; ++j)
      out[j] += dot(a, b_column(j));
  }
}

template <class T, int M, int K>
__device__ auto fragment_row(const Fragment<T, M, K> &f) {
  return [&f](int, int k) { return Run<T>{f.slot(k), 1, 0, K}; };
}

} // namespace detail

/// acc += a * b, with a: M x K, b: K x N, acc: M x N; products and sums in
/// float. The tiles have one element type, or each an fp8 type (e4m3 x
/// e5m2).
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Tile<T, M, K> &a,
                    const Tile<U, K, N> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_row(a, i); },
      [&](int j) { return detail::window_column(b, j); });
}

/// acc += a * b^T, with a: M x K, b: N x K (both operands K-major: the "NT"
/// GEMM), acc: M x N; products and sums in float.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Tile<T, M, K> &a,
                    const Transposed<Tile<U, N, K>> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_row(a, i); },
      [&](int j) { return detail::window_row(b.tile, j); });
}

/// acc += a * b^T with a: M x K of an Im2col matrix (a convolution's
/// activations), b: N x K (weights stored K x R x S x C), acc: M x N.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Im2colTile<T, M, K> &a,
                    const Transposed<Tile<U, N, K>> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_row(a, i); },
      [&](int j) { return detail::window_row(b.tile, j); });
}

/// acc += a * b with a: M x K of an Im2col matrix, b: K x N (weights stored
/// R x S x C x K), acc: M x N.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Im2colTile<T, M, K> &a,
                    const Tile<U, K, N> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_row(a, i); },
      [&](int j) { return detail::window_column(b, j); });
}

/// acc += a^T * b, with a: K x M (A stored column-major: the "TN" GEMM),
/// b: K x N, acc: M x N; products and sums in float.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc,
                    const Transposed<Tile<T, K, M>> &a,
                    const Tile<U, K, N> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_column(a.tile, i); },
      [&](int j) { return detail::window_column(b, j); });
}

/// acc += a^T * b^T, with a: K x M, b: N x K, acc: M x N.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc,
                    const Transposed<Tile<T, K, M>> &a,
                    const Transposed<Tile<U, N, K>> &b) {
  static_assert(detail::mma_operands<T, U>,
                "tawa::mma: both operands must have one element type, or "
                "each an fp8 type");
  detail::contract(
      acc, [&](int i, int) { return detail::window_column(a.tile, i); },
      [&](int j) { return detail::window_row(b.tile, j); });
}

/// acc += a * b with a: M x K in registers (an accumulator converted with
/// `convert`), b: K x N, acc: M x N.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Fragment<T, M, K> &a,
                    const Tile<U, K, N> &b) {
  static_assert(std::is_same<T, std::remove_const_t<U>>::value,
                "tawa::mma: both operands must have one element type");
  detail::contract(acc, detail::fragment_row(a),
                   [&](int j) { return detail::window_column(b, j); });
}

/// acc += a * b^T with a: M x K in registers, b: N x K, acc: M x N.
template <class T, class U, int M, int N, int K>
__device__ void mma(Accumulator<float, M, N> &acc, const Fragment<T, M, K> &a,
                    const Transposed<Tile<U, N, K>> &b) {
  static_assert(std::is_same<T, std::remove_const_t<U>>::value,
                "tawa::mma: both operands must have one element type");
  detail::contract(acc, detail::fragment_row(a),
                   [&](int j) { return detail::window_row(b.tile, j); });
}

/// `acc` converted to T (__nv_bfloat16 or __half, rounding to nearest even),
/// as the A operand of an mma.
template <class T, int R, int C>
__device__ Fragment<T, R, C> convert(const Accumulator<float, R, C> &acc) {
  Fragment<T, R, C> f;
  for (int k = 0; k < Fragment<T, R, C>::kSlots; ++k)
    for (int j = 0; j < C; ++j)
      detail::convert(acc.slot(k)[j], f.slot(k)[j]);
  return f;
}

namespace detail {

/// out(i, j) = f(x(i, j), i) for the caller's rows i.
template <int R, int C, class F>
__device__ Accumulator<float, R, C> map(const Accumulator<float, R, C> &x,
                                        F f) {
  Accumulator<float, R, C> out;
  for (int k = 0; k < Accumulator<float, R, C>::kSlots; ++k)
    for (int j = 0; j < C; ++j)
      out.slot(k)[j] = f(x.slot(k)[j], k);
  return out;
}

/// out(i) = f(x(i), i) for the caller's rows i.
template <int R, class F>
__device__ RowVector<float, R> map(const RowVector<float, R> &x, F f) {
  RowVector<float, R> out;
  for (int k = 0; k < RowVector<float, R>::kSlots; ++k)
    out.slot(k) = f(x.slot(k), k);
  return out;
}

/// out(i, j) = f(x(i, j), k, j) for the caller's rows i = owned_row(k).
template <int R, int C, class F>
__device__ Accumulator<float, R, C> map_ij(const Accumulator<float, R, C> &x,
                                           F f) {
  Accumulator<float, R, C> out;
  for (int k = 0; k < Accumulator<float, R, C>::kSlots; ++k)
    for (int j = 0; j < C; ++j)
      out.slot(k)[j] = f(x.slot(k)[j], k, j);
  return out;
}

/// Element (i, j) of an R x C value taken from tile `t`, whose dimensions of
/// extent 1 are broadcast, as float; 0 outside t's matrix.
template <class T, int TR, int TC>
__device__ float tile_element(const Tile<T, TR, TC> &t, int i, int j) {
  const Matrix<T> &m = t.matrix;
  const int r = t.row0 + (TR == 1 ? 0 : i), c = t.col0 + (TC == 1 ? 0 : j);
  if (r < 0 || r >= m.rows || c < 0 || c >= m.cols)
    return 0.0f;
  return to_float(m.data[static_cast<std::int64_t>(r) * m.ld + c]);
}

/// out(i, j) = op(a(i, j), t(i, j)), t an R x C, 1 x C or R x 1 tile.
template <int R, int C, class T, int TR, int TC, class Op>
__device__ Accumulator<float, R, C> combine(const Accumulator<float, R, C> &a,
                                            const Tile<T, TR, TC> &t, Op op) {
  static_assert((TR == R || TR == 1) && (TC == C || TC == 1),
                "tawa: a tile combined with an R x C accumulator is R x C, "
                "1 x C or R x 1");
  return map_ij(a, [&](float x, int k, int j) {
    return op(x, tile_element(t, owned_row(k), j));
  });
}

} // namespace detail

// Element-wise arithmetic on accumulators and row vectors. A row vector
// operand of an R x C accumulator applies to every element of its row.
// Subtracting a row vector counts its entries of -inf as 0
// (detail::minus_row): a row masked entirely stays -inf.

template <int R, int C>
__device__ Accumulator<float, R, C> operator*(const Accumulator<float, R, C> &a,
                                              float s) {
  return detail::map(a, [s](float x, int) { return x * s; });
}
template <int R, int C>
__device__ Accumulator<float, R, C>
operator*(float s, const Accumulator<float, R, C> &a) {
  return a * s;
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator+(const Accumulator<float, R, C> &a,
                                              float s) {
  return detail::map(a, [s](float x, int) { return x + s; });
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator-(const Accumulator<float, R, C> &a,
                                              float s) {
  return detail::map(a, [s](float x, int) { return x - s; });
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator-(const Accumulator<float, R, C> &a,
                                              const RowVector<float, R> &v) {
  return detail::map(
      a, [&v](float x, int k) { return detail::minus_row(x, v.slot(k)); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator+(const Accumulator<float, R, C> &a,
                                              const RowVector<float, R> &v) {
  return detail::map(a, [&v](float x, int k) { return x + v.slot(k); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator*(const Accumulator<float, R, C> &a,
                                              const RowVector<float, R> &v) {
  return detail::map(a, [&v](float x, int k) { return x * v.slot(k); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> operator/(const Accumulator<float, R, C> &a,
                                              const RowVector<float, R> &v) {
  return detail::map(a, [&v](float x, int k) { return x / v.slot(k); });
}

/// 2^x element-wise (exp2f).
template <int R, int C>
__device__ Accumulator<float, R, C> exp2(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return exp2f(x); });
}

// Accumulators of one shape combine element-wise.

template <int R, int C>
__device__ Accumulator<float, R, C>
operator+(const Accumulator<float, R, C> &a,
          const Accumulator<float, R, C> &b) {
  return detail::map_ij(
      a, [&b](float x, int k, int j) { return x + b.slot(k)[j]; });
}
template <int R, int C>
__device__ Accumulator<float, R, C>
operator-(const Accumulator<float, R, C> &a,
          const Accumulator<float, R, C> &b) {
  return detail::map_ij(
      a, [&b](float x, int k, int j) { return x - b.slot(k)[j]; });
}
template <int R, int C>
__device__ Accumulator<float, R, C>
operator*(const Accumulator<float, R, C> &a,
          const Accumulator<float, R, C> &b) {
  return detail::map_ij(
      a, [&b](float x, int k, int j) { return x * b.slot(k)[j]; });
}

// Epilogue operands: a tile read as float values (0 outside its matrix)
// combines element-wise with an R x C accumulator. The tile is R x C (C's own
// window in `alpha * acc + beta * load<R, C>(C, m0, n0)`), 1 x C (one row
// applied to every row: a bias per column) or R x 1 (one column applied to
// every column: a bias per row). `s * t` of a tile and a scalar is an
// accumulator of the tile's shape.

template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C> operator+(const Accumulator<float, R, C> &a,
                                              const Tile<T, TR, TC> &t) {
  return detail::combine(a, t, [](float x, float y) { return x + y; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C>
operator+(const Tile<T, TR, TC> &t, const Accumulator<float, R, C> &a) {
  return detail::combine(a, t, [](float x, float y) { return y + x; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C> operator-(const Accumulator<float, R, C> &a,
                                              const Tile<T, TR, TC> &t) {
  return detail::combine(a, t, [](float x, float y) { return x - y; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C>
operator-(const Tile<T, TR, TC> &t, const Accumulator<float, R, C> &a) {
  return detail::combine(a, t, [](float x, float y) { return y - x; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C> operator*(const Accumulator<float, R, C> &a,
                                              const Tile<T, TR, TC> &t) {
  return detail::combine(a, t, [](float x, float y) { return x * y; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C>
operator*(const Tile<T, TR, TC> &t, const Accumulator<float, R, C> &a) {
  return detail::combine(a, t, [](float x, float y) { return y * x; });
}
template <int R, int C, class T, int TR, int TC>
__device__ Accumulator<float, R, C> operator/(const Accumulator<float, R, C> &a,
                                              const Tile<T, TR, TC> &t) {
  return detail::combine(a, t, [](float x, float y) { return x / y; });
}
template <class T, int R, int C>
__device__ Accumulator<float, R, C> operator*(const Tile<T, R, C> &t, float s) {
  return detail::combine(Accumulator<float, R, C>(), t,
                         [s](float, float y) { return y * s; });
}
template <class T, int R, int C>
__device__ Accumulator<float, R, C> operator*(float s, const Tile<T, R, C> &t) {
  return t * s;
}

/// max(x, 0) element-wise.
__host__ __device__ inline float relu(float x) { return fmaxf(x, 0.0f); }
/// GELU, x * Phi(x) with Phi the normal distribution's CDF, in erf form
/// (Hendrycks and Gimpel, arXiv 1606.08415; PyTorch's default).
__host__ __device__ inline float gelu(float x) {
  return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f));
}
namespace detail {

/// e^x, on the device with the fast exponential __expf (ex2.approx.ftz.f32 of
/// x log2(e): a maximum error of 2 + 1.16 |x| ulp, CUDA C++ Programming
/// Guide, "Intrinsic Functions").
__host__ __device__ inline float exp_fast(float x) {
#ifdef __CUDA_ARCH__
  return __expf(x);
#else
  return expf(x);
#endif
}
/// x / (1 + e^y), with y at most 80: beyond it the quotient is below
/// 2^-115 |x|, so that the clamp changes nothing a 16-bit output or a sum
/// with other terms can show. On the device with the fast division
/// __fdividef (div.approx.f32: at most 2 ulp for divisors below 2^126, CUDA
/// C++ Programming Guide, "Intrinsic Functions"; 1 + e^80 is below 2^116):
/// GELU's epilogue ran 1.3-2.4x faster with it on an H100 than with the
/// correctly rounded reciprocal (results/h100/epilogue/divide/), and SiLU's
/// row-bias epilogue 2.0-2.4x faster at K = 128-256 on an H200
/// (results/h200/epilogue-prefetch/run2).
__host__ __device__ inline float divide_by_one_plus_exp_approx(float x,
                                                               float y) {
  const float d = 1.0f + exp_fast(fminf(y, 80.0f));
#ifdef __CUDA_ARCH__
  return __fdividef(x, d);
#else
  return x / d;
#endif
}
} // namespace detail

/// GELU's tanh approximation, 0.5 x (1 + tanh(u)) with u = sqrt(2 / pi) (x +
/// 0.044715 x^3) (arXiv 1606.08415; PyTorch's approximate='tanh'), computed
/// as x / (1 + e^(-2u)), the same function: one exponential and one fast
/// division.
__host__ __device__ inline float gelu_tanh(float x) {
  return detail::divide_by_one_plus_exp_approx(
      x, -1.5957691216057308f * (x + 0.044715f * x * x * x));
}
/// SiLU (swish), x / (1 + e^-x) (Elfwing et al., arXiv 1702.03118), with
/// one exponential and one fast division, as gelu_tanh.
__host__ __device__ inline float silu(float x) {
  return detail::divide_by_one_plus_exp_approx(x, -x);
}
/// The hyperbolic tangent. On the device, where |x| < 0.25, its Taylor
/// series to x^7 (the next term, 62 x^9 / 2835, is below 3.4e-7 |x| there);
/// elsewhere 1 - 2 / (e^2|x| + 1) with the sign of x, with __expf and the
/// fast division (e^2|x| overflows to infinity past |x| = 44, where the
/// quotient is 0 and tanh 1 in float; a NaN stays one). Within about 1e-6
/// of tanhf, in a few registers: CUDA's tanhf, inlined over a 64 x 256
/// accumulator, spilled registers in the fused epilogue.
__host__ __device__ inline float tanh(float x) {
#ifdef __CUDA_ARCH__
  const float a = fabsf(x);
  const float far = 1.0f - __fdividef(2.0f, detail::exp_fast(2.0f * a) + 1.0f);
  const float x2 = x * x;
  const float near =
      x * (1.0f +
           x2 * (-1.0f / 3.0f + x2 * (2.0f / 15.0f + x2 * (-17.0f / 315.0f))));
  return a < 0.25f ? near : copysignf(far, x);
#else
  return std::tanh(x);
#endif
}
/// The logistic sigmoid, 1 / (1 + e^-x), with one exponential and one fast
/// division, as silu.
__host__ __device__ inline float sigmoid(float x) {
  return detail::divide_by_one_plus_exp_approx(1.0f, -x);
}
/// LeakyReLU, x where x > 0 and slope * x elsewhere (a NaN x gives slope *
/// x, a NaN) (Maas et al., "Rectifier Nonlinearities Improve Neural Network
/// Acoustic Models", ICML 2013; PyTorch's negative_slope).
__host__ __device__ inline float leaky_relu(float x, float slope) {
  return x > 0.0f ? x : slope * x;
}

template <int R, int C>
__device__ Accumulator<float, R, C> relu(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return relu(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> gelu(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return gelu(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C>
gelu_tanh(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return gelu_tanh(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> silu(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return silu(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> tanh(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return tanh(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C> sigmoid(const Accumulator<float, R, C> &a) {
  return detail::map(a, [](float x, int) { return sigmoid(x); });
}
template <int R, int C>
__device__ Accumulator<float, R, C>
leaky_relu(const Accumulator<float, R, C> &a, float slope) {
  return detail::map(a, [slope](float x, int) { return leaky_relu(x, slope); });
}

template <int R>
__device__ RowVector<float, R> operator*(const RowVector<float, R> &a,
                                         float s) {
  return detail::map(a, [s](float x, int) { return x * s; });
}
template <int R>
__device__ RowVector<float, R> operator*(float s,
                                         const RowVector<float, R> &a) {
  return a * s;
}
template <int R>
__device__ RowVector<float, R> operator+(const RowVector<float, R> &a,
                                         float s) {
  return detail::map(a, [s](float x, int) { return x + s; });
}
template <int R>
__device__ RowVector<float, R> operator+(const RowVector<float, R> &a,
                                         const RowVector<float, R> &b) {
  return detail::map(a, [&b](float x, int k) { return x + b.slot(k); });
}
template <int R>
__device__ RowVector<float, R> operator-(const RowVector<float, R> &a,
                                         const RowVector<float, R> &b) {
  return detail::map(
      a, [&b](float x, int k) { return detail::minus_row(x, b.slot(k)); });
}
template <int R>
__device__ RowVector<float, R> operator*(const RowVector<float, R> &a,
                                         const RowVector<float, R> &b) {
  return detail::map(a, [&b](float x, int k) { return x * b.slot(k); });
}
template <int R>
__device__ RowVector<float, R> operator/(const RowVector<float, R> &a,
                                         const RowVector<float, R> &b) {
  return detail::map(a, [&b](float x, int k) { return x / b.slot(k); });
}

/// The larger entry of each row (fmaxf).
template <int R>
__device__ RowVector<float, R> max(const RowVector<float, R> &a,
                                   const RowVector<float, R> &b) {
  return detail::map(a, [&b](float x, int k) { return fmaxf(x, b.slot(k)); });
}
/// 2^x and log2(x) per row (exp2f, log2f).
template <int R>
__device__ RowVector<float, R> exp2(const RowVector<float, R> &a) {
  return detail::map(a, [](float x, int) { return exp2f(x); });
}
template <int R>
__device__ RowVector<float, R> log2(const RowVector<float, R> &a) {
  return detail::map(a, [](float x, int) { return log2f(x); });
}

/// The maximum of each row of `a` (-inf for a row of -inf).
template <int R, int C>
__device__ RowVector<float, R> row_max(const Accumulator<float, R, C> &a) {
  RowVector<float, R> out(-INFINITY);
  for (int k = 0; k < RowVector<float, R>::kSlots; ++k)
    for (int j = 0; j < C; ++j)
      out.slot(k) = fmaxf(out.slot(k), a.slot(k)[j]);
  return out;
}

/// The sum of each row of `a`, in column order.
template <int R, int C>
__device__ RowVector<float, R> row_sum(const Accumulator<float, R, C> &a) {
  RowVector<float, R> out(0.0f);
  for (int k = 0; k < RowVector<float, R>::kSlots; ++k)
    for (int j = 0; j < C; ++j)
      out.slot(k) += a.slot(k)[j];
  return out;
}

/// A tile element's row or column in the matrix of a window, plus an offset:
/// for element (i, j) of a tile, `row(r0)` is r0 + i and `col(c0)` is
/// c0 + j. Compared with each other or with integers, they make the
/// predicates of `mask`. (The value is row_coef * i + col_coef * j + offset.)
struct Index {
  int row_coef;
  int col_coef;
  long long offset;
};

/// The row of a tile element in the matrix whose window starts at row r0.
__host__ __device__ inline Index row(int r0) { return Index{1, 0, r0}; }
/// The column of a tile element in the matrix whose window starts at col c0.
__host__ __device__ inline Index col(int c0) { return Index{0, 1, c0}; }

__host__ __device__ inline Index operator+(Index a, int n) {
  return Index{a.row_coef, a.col_coef, a.offset + n};
}
__host__ __device__ inline Index operator-(Index a, int n) {
  return Index{a.row_coef, a.col_coef, a.offset - n};
}

/// Holds for element (i, j) where row_coef * i + col_coef * j + offset is
/// negative (`strict`) or not positive.
struct Predicate {
  Index form;
  bool strict;
  __host__ __device__ bool holds(int i, int j) const {
    const long long v = static_cast<long long>(form.row_coef) * i +
                        static_cast<long long>(form.col_coef) * j + form.offset;
    return strict ? v < 0 : v <= 0;
  }
};

namespace detail {
__host__ __device__ inline Index minus(Index a, Index b) {
  return Index{a.row_coef - b.row_coef, a.col_coef - b.col_coef,
               a.offset - b.offset};
}
__host__ __device__ inline Index constant(long long n) {
  return Index{0, 0, n};
}
} // namespace detail

__host__ __device__ inline Predicate operator<(Index a, Index b) {
  return Predicate{detail::minus(a, b), true};
}
__host__ __device__ inline Predicate operator<=(Index a, Index b) {
  return Predicate{detail::minus(a, b), false};
}
__host__ __device__ inline Predicate operator>(Index a, Index b) {
  return b < a;
}
__host__ __device__ inline Predicate operator>=(Index a, Index b) {
  return b <= a;
}
__host__ __device__ inline Predicate operator<(Index a, int n) {
  return a < detail::constant(n);
}
__host__ __device__ inline Predicate operator<=(Index a, int n) {
  return a <= detail::constant(n);
}
__host__ __device__ inline Predicate operator>(Index a, int n) {
  return a > detail::constant(n);
}
__host__ __device__ inline Predicate operator>=(Index a, int n) {
  return a >= detail::constant(n);
}

/// Sets the elements of `a` where `keep` does not hold to -inf: e.g.
/// `mask(s, col(n0) < K.rows)` masks the keys past a sequence,
/// `mask(s, col(n0) <= row(m0))` the keys after each query (causal).
template <int R, int C>
__device__ void mask(Accumulator<float, R, C> &a, Predicate keep) {
  for (int k = 0; k < Accumulator<float, R, C>::kSlots; ++k) {
    const int i = detail::owned_row(k);
    if (i >= R)
      break;
    for (int j = 0; j < C; ++j)
      if (!keep.holds(i, j))
        a.slot(k)[j] = -INFINITY;
  }
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
  static_assert(detail::is_element<U> && !detail::is_fp8<U>,
                "tawa::store: the element type must be __nv_bfloat16, __half "
                "or float");
  for (int k = 0; k < Accumulator<float, R, C>::kSlots; ++k) {
    const int r = row0 + detail::owned_row(k);
    if (detail::owned_row(k) >= R || r < 0 || r >= m.rows)
      continue;
    for (int j = 0; j < C; ++j) {
      const int c = col0 + j;
      if (c >= 0 && c < m.cols)
        detail::convert(acc.slot(k)[j],
                        m.data[static_cast<std::int64_t>(r) * m.ld + c]);
    }
  }
  __syncthreads();
}

/// Writes `v`, converted to U, as the R x 1 column of `m` at (row0, col0)
/// (e.g. the log-sum-exp of attention's rows); elements outside `m` are
/// skipped. Acts as a block-wide barrier, like the store of an accumulator.
template <class U, int R>
__device__ void store(Matrix<U> m, int row0, int col0,
                      const RowVector<float, R> &v) {
  static_assert(!std::is_const<U>::value,
                "tawa::store: the destination Matrix must not be const");
  static_assert(detail::is_element<U> && !detail::is_fp8<U>,
                "tawa::store: the element type must be __nv_bfloat16, __half "
                "or float");
  for (int k = 0; k < RowVector<float, R>::kSlots; ++k) {
    const int r = row0 + detail::owned_row(k);
    if (detail::owned_row(k) >= R || r < 0 || r >= m.rows || col0 < 0 ||
        col0 >= m.cols)
      continue;
    detail::convert(v.slot(k),
                    m.data[static_cast<std::int64_t>(r) * m.ld + col0]);
  }
  __syncthreads();
}

/// ceil(a / b) for a >= 0 and b > 0: e.g. the number of b-element tiles that
/// cover a elements.
__host__ __device__ constexpr int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

} // namespace tawa
