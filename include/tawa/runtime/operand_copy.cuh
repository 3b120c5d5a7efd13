//===- tawa/runtime/operand_copy.cuh - aligned copies of TMA operands -----===//
//
// TMA reads a matrix in place only where its base address is 16-byte aligned
// and its row and batch strides are multiples of 16 bytes (CUDA driver API,
// cuTensorMapEncodeTiled). A bf16 operand with an odd K breaks that. Rather
// than run the kernel as written, the launcher copies such an operand, on
// its stream, to a buffer whose rows are padded to 16 bytes, and builds the
// tensor map on the copy. The copy costs one read and one write of the
// operand; the padding columns are never read (the map's width is the
// matrix's).
//
// TMA also reads rows that are an odd number of 16-byte units apart (a bf16
// K of 3000: 6000 bytes) in place, but slowly: on an H100, the bf16 GEMM of
// 3000 x 3000 x 3000 ran at 0.59 of cuBLAS, and at 0.79 with K = 3008
// (rows 128 bytes apart) or 3024 (32 bytes); 5000^3 at 0.69 against 0.91
// for K = 5056; C's pitch made no difference (results/h100/alignment/).
// Where the launch is large enough for it to pay, a launcher asks for such
// operands to be copied too (OperandCopies::pad_odd_pitch); a GEMM's
// launcher runs its cluster twin instead where it has one, which was faster
// still (tawa/runtime/schedule.cuh, choose_cluster).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"
#include "launch.cuh"

#include <tawa/tile.h>

#include <mutex>
#include <type_traits>
#include <utility>

namespace tawa::rt {

/// The memory pool the operand copies of launches on `device` come from,
/// into `*pool`: created on first use, on the device, with a release
/// threshold of UINT64_MAX, so that memory freed at the end of a launch
/// stays reserved for the next one instead of going back to the driver at
/// the next synchronization (the device's default pool has a threshold of
/// 0). On an H100, a 512^3 SGEMM migrated under precision(tf32), whose B is
/// copied transposed per call, ran at 0.4-0.5 of the kernel as written with
/// the default pool and at 1.5x with one that keeps its memory
/// (results/h100/tf32/sgemm/). The pool holds at most the largest set of
/// copies live at once; `trim_operand_pool` returns it to the driver.
/// Returns the CUDA error of the creation; devices past the 64th use the
/// device's default pool.
inline cudaError_t operand_pool(int device, cudaMemPool_t *pool) {
  constexpr int kDevices = 64;
  static cudaMemPool_t pools[kDevices] = {};
  static std::mutex guard;
  if (device < 0 || device >= kDevices)
    return cudaDeviceGetDefaultMemPool(pool, device);
  std::lock_guard<std::mutex> lock(guard);
  if (!pools[device]) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t created = nullptr;
    if (cudaError_t e = cudaMemPoolCreate(&created, &props); e != cudaSuccess)
      return e;
    unsigned long long keep = ~0ull;
    if (cudaError_t e = cudaMemPoolSetAttribute(
            created, cudaMemPoolAttrReleaseThreshold, &keep);
        e != cudaSuccess) {
      cudaMemPoolDestroy(created);
      return e;
    }
    pools[device] = created;
  }
  *pool = pools[device];
  return cudaSuccess;
}

/// Returns the memory the operand copies of `device` keep reserved to the
/// driver, except `keep_bytes` (cudaMemPoolTrimTo). Copies in flight on a
/// stream are not affected. Returns the CUDA error of the call.
inline cudaError_t trim_operand_pool(int device, size_t keep_bytes = 0) {
  cudaMemPool_t pool = nullptr;
  if (cudaError_t e = operand_pool(device, &pool); e != cudaSuccess)
    return e;
  return cudaMemPoolTrimTo(pool, keep_bytes);
}

/// Whether TMA can address `m` in place: data 16-byte aligned, ld and (for
/// several matrices) batch_stride multiples of 16 bytes.
template <class T> bool tma_addressable(Matrix<T> m) {
  constexpr size_t kBytes = sizeof(T);
  return reinterpret_cast<uintptr_t>(m.data) % 16 == 0 &&
         static_cast<size_t>(m.ld) * kBytes % 16 == 0 &&
         (m.batches <= 1 ||
          static_cast<size_t>(m.batch_stride) * kBytes % 16 == 0);
}

/// Whether the rows of `m` are an odd number of 16-byte units apart (the
/// slow pitch above).
template <class T> bool odd_pitch(Matrix<T> m) {
  return m.rows > 1 && static_cast<size_t>(m.ld) * sizeof(T) % 32 == 16;
}

/// The bytes of the elements of `m`, all its matrices (not its padding).
template <class T> long long matrix_bytes(Matrix<T> m) {
  return static_cast<long long>(m.rows) * m.cols *
         (m.batches > 1 ? m.batches : 1) * static_cast<long long>(sizeof(T));
}

/// Whether copying the operands of a GEMM whose output is m x n to rows 128
/// bytes apart pays: the copy reads and writes (m + n) K elements, the GEMM
/// does 2 m n K flops, so the ratio is m n / (m + n) whatever K. At the
/// speeds measured (the in-place GEMM about 400 TFLOP/s and 30% faster on
/// aligned rows, a copy at about 2.5 TB/s), the copy of 16-bit operands
/// breaks even at m n / (m + n) near 1070; it is made from 1600 on (squares
/// from 3200), where it saves at least half again what it costs.
/// `TAWA_PITCH_COPY=off` or `=force` in the environment never or always
/// makes it (for measurements).
inline bool odd_pitch_copy_pays(long long m, long long n) {
  static const int mode = env_switch("TAWA_PITCH_COPY");
  if (mode != 0)
    return mode == 2;
  return m > 0 && n > 0 &&
         static_cast<double>(m) * static_cast<double>(n) >=
             1600.0 * static_cast<double>(m + n);
}

/// out(c, r) = in(r, c) of each matrix z < batches of a rows x cols `in`
/// (leading dimension ld_in, matrices stride_in apart) into `out` (ld_out,
/// stride_out): 32 x 32 tiles through shared memory, so that both the reads
/// and the writes of a warp are along rows. Block: 32 x 8 threads; grid:
/// ceil(cols / 32) x ceil(rows / 32) x batches.
template <class T>
__global__ void transpose_matrix(const T *in, long long ld_in,
                                 long long stride_in, T *out, long long ld_out,
                                 long long stride_out, int rows, int cols) {
  __shared__ T tile[32][33];
  const int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
  in += blockIdx.z * stride_in;
  out += blockIdx.z * stride_out;
  for (int i = threadIdx.y; i < 32; i += 8) {
    const int r = r0 + i, c = c0 + threadIdx.x;
    if (r < rows && c < cols)
      tile[i][threadIdx.x] = in[r * ld_in + c];
  }
  __syncthreads();
  for (int i = threadIdx.y; i < 32; i += 8) {
    const int c = c0 + i, r = r0 + threadIdx.x;
    if (r < rows && c < cols)
      out[c * ld_out + r] = tile[threadIdx.x][i];
  }
}

/// transpose_matrix for 1-byte elements (fp8), which moves 4 bytes per
/// thread access: 128 x 128 tiles through shared memory, each row of a tile
/// read by a warp as 32 4-byte words and each row of its transpose written
/// so. Scalar accesses of bytes left an fp8 GEMM of 4096^3 with B stored
/// K x N at 0.73 of the same GEMM on N x K data (results/h100/fp8-nn/).
/// `in` and `ld_in` (and `stride_in`) must be multiples of 4 bytes, as must
/// `out`, `ld_out` and `stride_out`. Block: 32 x 8 threads; grid:
/// ceil(cols / 128) x ceil(rows / 128) x batches.
template <class T>
__global__ void transpose_bytes(const T *in_elements, long long ld_in,
                                long long stride_in, T *out_elements,
                                long long ld_out, long long stride_out,
                                int rows, int cols) {
  // The tile's rows are 132 bytes apart; a warp gathering the bytes of a
  // column reads 4 words per bank (rows 4 lanes apart are 16 words apart
  // whatever the padding), which the global accesses outweigh.
  static_assert(sizeof(T) == 1, "transpose_bytes moves 1-byte elements");
  __shared__ unsigned tile[128][33];
  const auto *in = reinterpret_cast<const unsigned char *>(in_elements);
  auto *out = reinterpret_cast<unsigned char *>(out_elements);
  const int c0 = blockIdx.x * 128, r0 = blockIdx.y * 128;
  const int lane = threadIdx.x;
  in += blockIdx.z * stride_in;
  out += blockIdx.z * stride_out;
  for (int i = threadIdx.y; i < 128; i += 8) {
    const int r = r0 + i, c = c0 + 4 * lane;
    unsigned v = 0;
    if (r < rows && c + 3 < cols)
      v = *reinterpret_cast<const unsigned *>(in + r * ld_in + c);
    else if (r < rows)
      for (int j = 0; j < 4 && c + j < cols; ++j)
        v |= unsigned(in[r * ld_in + c + j]) << (8 * j);
    tile[i][lane] = v;
  }
  __syncthreads();
  const unsigned char *bytes = reinterpret_cast<const unsigned char *>(tile);
  for (int i = threadIdx.y; i < 128 && c0 + i < cols; i += 8) {
    const int c = c0 + i, r = r0 + 4 * lane;
    unsigned v = 0;
    for (int j = 0; j < 4; ++j)
      v |= unsigned(bytes[(4 * lane + j) * 132 + i]) << (8 * j);
    if (r + 3 < rows)
      *reinterpret_cast<unsigned *>(out + c * ld_out + r) = v;
    else
      for (int j = 0; j < 4 && r + j < rows; ++j)
        out[c * ld_out + r + j] = static_cast<unsigned char>(v >> (8 * j));
  }
}

/// transpose_matrix for 4-byte elements (fp32 under precision(tf32)), which
/// moves 16 bytes per thread access: 64 x 64 tiles through shared memory,
/// each row of a tile read by half a warp as 16 16-byte vectors and each row
/// of its transpose written so. `in`, `out` must be 16-byte aligned and
/// `ld_in`, `stride_in`, `ld_out`, `stride_out` multiples of 4 elements.
/// Block: 32 x 8 threads; grid: ceil(cols / 64) x ceil(rows / 64) x
/// batches.
template <class T>
__global__ void transpose_words(const T *in_elements, long long ld_in,
                                long long stride_in, T *out_elements,
                                long long ld_out, long long stride_out,
                                int rows, int cols) {
  static_assert(sizeof(T) == 4, "transpose_words moves 4-byte elements");
  // Rows 65 words apart: the gathers of a column below meet 2 words per
  // bank.
  __shared__ unsigned tile[64][65];
  const auto *in = reinterpret_cast<const unsigned *>(in_elements);
  auto *out = reinterpret_cast<unsigned *>(out_elements);
  const int c0 = blockIdx.x * 64, r0 = blockIdx.y * 64;
  const int thread = threadIdx.y * 32 + threadIdx.x;
  const int q = thread % 16, row = thread / 16; // vector q of row `row`
  in += blockIdx.z * stride_in;
  out += blockIdx.z * stride_out;
  for (int i = row; i < 64; i += 16) {
    const int r = r0 + i, c = c0 + 4 * q;
    uint4 v = {0, 0, 0, 0};
    if (r < rows && c + 3 < cols) {
      v = *reinterpret_cast<const uint4 *>(in + r * ld_in + c);
    } else if (r < rows) {
      unsigned w[4] = {0, 0, 0, 0};
      for (int j = 0; j < 4 && c + j < cols; ++j)
        w[j] = in[r * ld_in + c + j];
      v = {w[0], w[1], w[2], w[3]};
    }
    tile[i][4 * q] = v.x;
    tile[i][4 * q + 1] = v.y;
    tile[i][4 * q + 2] = v.z;
    tile[i][4 * q + 3] = v.w;
  }
  __syncthreads();
  for (int i = row; i < 64 && c0 + i < cols; i += 16) {
    const int c = c0 + i, r = r0 + 4 * q;
    const uint4 v = {tile[4 * q][i], tile[4 * q + 1][i], tile[4 * q + 2][i],
                     tile[4 * q + 3][i]};
    if (r + 3 < rows) {
      *reinterpret_cast<uint4 *>(out + c * ld_out + r) = v;
    } else {
      const unsigned w[4] = {v.x, v.y, v.z, v.w};
      for (int j = 0; j < 4 && r + j < rows; ++j)
        out[c * ld_out + r + j] = w[j];
    }
  }
}

/// Host: the aligned copies of one launch. Each is allocated from the
/// device's operand_pool and filled on `stream` (cudaMallocFromPoolAsync,
/// cudaMemcpy2DAsync) and freed on it when the object goes out of scope
/// (cudaFreeAsync), so after the kernel launched before that.
class OperandCopies {
public:
  explicit OperandCopies(cudaStream_t stream) : stream_(stream) {}
  OperandCopies(const OperandCopies &) = delete;
  OperandCopies &operator=(const OperandCopies &) = delete;
  ~OperandCopies() {
    for (int i = 0; i < count_; ++i)
      cudaFreeAsync(owned_[i], stream_);
  }

  /// Copy also the operands TMA can read in place whose rows are an odd
  /// number of 16-byte units apart (set where odd_pitch_copy_pays).
  bool pad_odd_pitch = false;

  /// Sets `*out` to `m` where TMA can address it in place (and its pitch is
  /// not odd, with pad_odd_pitch), else to a copy of `m` with ld rounded up
  /// to 128 bytes and its matrices packed (rows x ld elements apart).
  /// Returns the error of the allocation or the copy, or
  /// cudaErrorNotSupported where a copy TMA needs is due while `stream` is
  /// being captured into a graph (the graph would own the allocation); a
  /// copy for the pitch alone is then not made.
  template <class T> cudaError_t aligned(Matrix<T> m, Matrix<T> *out) {
    using E = std::remove_const_t<T>;
    *out = m;
    if (m.rows <= 0 || m.cols <= 0 || m.batches <= 0)
      return cudaSuccess;
    const bool needed = !tma_addressable(m);
    if (!needed && !(pad_odd_pitch && odd_pitch(m)))
      return cudaSuccess;
    bool allowed = false;
    if (cudaError_t e = copy_allowed(&allowed); e != cudaSuccess)
      return e;
    if (!allowed)
      return needed ? cudaErrorNotSupported : cudaSuccess;
    constexpr long long kAlign = 128 / sizeof(E);
    const long long ld = (m.cols + kAlign - 1) / kAlign * kAlign;
    const long long stride = ld * m.rows;
    E *copy = nullptr;
    if (cudaError_t e = allocate(stride * m.batches, &copy); e != cudaSuccess)
      return e;
    // Packed matrices copy as one (rows * batches)-row block.
    const bool packed = m.batches == 1 ||
                        m.batch_stride == static_cast<long long>(m.ld) * m.rows;
    const int blocks = packed ? 1 : m.batches;
    const long long rows =
        packed ? static_cast<long long>(m.rows) * m.batches : m.rows;
    for (int b = 0; b < blocks; ++b)
      if (cudaError_t e = cudaMemcpy2DAsync(
              copy + b * stride, ld * sizeof(E), m.data + b * m.batch_stride,
              m.ld * sizeof(E), m.cols * sizeof(E), rows,
              cudaMemcpyDeviceToDevice, stream_);
          e != cudaSuccess)
        return e;
    out->data = copy;
    out->ld = static_cast<int>(ld);
    out->batch_stride = stride;
    return cudaSuccess;
  }

  /// Sets `*out` to the transpose of each matrix of `m` (cols x rows, ld
  /// rounded up to 128 bytes, the matrices packed): wgmma reads tf32 (and
  /// fp8) operands K-major only, so a K x MN tf32 operand is read from such
  /// a copy. Costs one read and one write of `m`. Returns the error of the
  /// allocation or the copy, or cudaErrorNotSupported while `stream` is
  /// being captured into a graph (the graph would own the allocation).
  template <class T> cudaError_t transposed(Matrix<T> m, Matrix<T> *out) {
    using E = std::remove_const_t<T>;
    *out = m;
    std::swap(out->rows, out->cols);
    if (m.rows <= 0 || m.cols <= 0 || m.batches <= 0)
      return cudaSuccess;
    bool allowed = false;
    if (cudaError_t e = copy_allowed(&allowed); e != cudaSuccess)
      return e;
    if (!allowed)
      return cudaErrorNotSupported;
    constexpr long long kAlign = 128 / sizeof(E);
    const long long ld = (m.rows + kAlign - 1) / kAlign * kAlign;
    const long long stride = ld * m.cols;
    E *copy = nullptr;
    if (cudaError_t e = allocate(stride * m.batches, &copy); e != cudaSuccess)
      return e;
    const long long stride_in = m.batches > 1 ? m.batch_stride : 0;
    if (cudaError_t e = transpose(m, stride_in, copy, ld, stride);
        e != cudaSuccess)
      return e;
    out->data = copy;
    out->ld = static_cast<int>(ld);
    out->batch_stride = m.batches > 1 ? stride : 0;
    return cudaSuccess;
  }

private:
  /// Launches the transpose of each matrix of `m` (matrices `stride_in`
  /// apart) into `copy` (ld `ld`, matrices `stride` apart) on `stream_`:
  /// 16 bytes per access for 4-byte elements and 4 for 1-byte ones where
  /// the rows allow it, else one element. Returns the launch's error.
  template <class T, class E>
  cudaError_t transpose(Matrix<T> m, long long stride_in, E *copy, long long ld,
                        long long stride) {
    if constexpr (sizeof(E) == 4) {
      if (reinterpret_cast<uintptr_t>(m.data) % 16 == 0 && m.ld % 4 == 0 &&
          stride_in % 4 == 0) {
        const dim3 grid((m.cols + 63) / 64, (m.rows + 63) / 64, m.batches);
        transpose_words<E><<<grid, dim3(32, 8), 0, stream_>>>(
            m.data, m.ld, stride_in, copy, ld, stride, m.rows, m.cols);
        return cudaGetLastError();
      }
    }
    if constexpr (sizeof(E) == 1) {
      if (reinterpret_cast<uintptr_t>(m.data) % 4 == 0 && m.ld % 4 == 0 &&
          stride_in % 4 == 0) {
        const dim3 grid((m.cols + 127) / 128, (m.rows + 127) / 128, m.batches);
        transpose_bytes<E><<<grid, dim3(32, 8), 0, stream_>>>(
            m.data, m.ld, stride_in, copy, ld, stride, m.rows, m.cols);
        return cudaGetLastError();
      }
    }
    const dim3 grid((m.cols + 31) / 32, (m.rows + 31) / 32, m.batches);
    transpose_matrix<E><<<grid, dim3(32, 8), 0, stream_>>>(
        m.data, m.ld, stride_in, copy, ld, stride, m.rows, m.cols);
    return cudaGetLastError();
  }

  /// Whether another copy may be made: not while `stream_` is being
  /// captured into a graph (the graph would own the allocation), and at
  /// most kMaxCopies per launch.
  cudaError_t copy_allowed(bool *allowed) const {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaError_t e = cudaStreamIsCapturing(stream_, &capture);
        e != cudaSuccess)
      return e;
    *allowed = capture == cudaStreamCaptureStatusNone && count_ < kMaxCopies;
    return cudaSuccess;
  }

  /// `elements` elements of E allocated on `stream_` from the current
  /// device's operand_pool, freed with this object.
  template <class E> cudaError_t allocate(long long elements, E **out) {
    int device = 0;
    if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
      return e;
    cudaMemPool_t pool = nullptr;
    if (cudaError_t e = operand_pool(device, &pool); e != cudaSuccess)
      return e;
    void *buffer = nullptr;
    if (cudaError_t e = cudaMallocFromPoolAsync(
            &buffer, static_cast<size_t>(elements) * sizeof(E), pool, stream_);
        e != cudaSuccess)
      return e;
    owned_[count_++] = buffer;
    *out = static_cast<E *>(buffer);
    return cudaSuccess;
  }

  static constexpr int kMaxCopies = 8;
  cudaStream_t stream_;
  void *owned_[kMaxCopies] = {};
  int count_ = 0;
};

} // namespace tawa::rt
