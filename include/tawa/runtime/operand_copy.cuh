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
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

#include <tawa/tile.h>

namespace tawa::rt {

/// Whether TMA can address `m` in place: data 16-byte aligned, ld and (for
/// several matrices) batch_stride multiples of 16 bytes.
template <class T> bool tma_addressable(Matrix<T> m) {
  constexpr size_t kBytes = sizeof(T);
  return reinterpret_cast<uintptr_t>(m.data) % 16 == 0 &&
         static_cast<size_t>(m.ld) * kBytes % 16 == 0 &&
         (m.batches <= 1 ||
          static_cast<size_t>(m.batch_stride) * kBytes % 16 == 0);
}

/// Host: the aligned copies of one launch. Each is allocated and filled on
/// `stream` (cudaMallocAsync, cudaMemcpy2DAsync) and freed on it when the
/// object goes out of scope (cudaFreeAsync), so after the kernel launched
/// before that.
class OperandCopies {
public:
  explicit OperandCopies(cudaStream_t stream) : stream_(stream) {}
  OperandCopies(const OperandCopies &) = delete;
  OperandCopies &operator=(const OperandCopies &) = delete;
  ~OperandCopies() {
    for (int i = 0; i < count_; ++i)
      cudaFreeAsync(owned_[i], stream_);
  }

  /// Sets `*out` to `m` where TMA can address it in place, else to a copy of
  /// `m` with ld rounded up to 16 bytes and its matrices packed (rows x ld
  /// elements apart). Returns the error of the allocation or the copy, or
  /// cudaErrorNotSupported where a copy is needed while `stream` is being
  /// captured into a graph (the graph would own the allocation).
  template <class T> cudaError_t aligned(Matrix<T> m, Matrix<T> *out) {
    using E = std::remove_const_t<T>;
    *out = m;
    if (tma_addressable(m) || m.rows <= 0 || m.cols <= 0 || m.batches <= 0)
      return cudaSuccess;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaError_t e = cudaStreamIsCapturing(stream_, &capture);
        e != cudaSuccess)
      return e;
    if (capture != cudaStreamCaptureStatusNone || count_ == kMaxCopies)
      return cudaErrorNotSupported;
    constexpr long long kAlign = 16 / sizeof(E);
    const long long ld = (m.cols + kAlign - 1) / kAlign * kAlign;
    const long long stride = ld * m.rows;
    void *buffer = nullptr;
    if (cudaError_t e = cudaMallocAsync(
            &buffer, static_cast<size_t>(stride * m.batches) * sizeof(E),
            stream_);
        e != cudaSuccess)
      return e;
    owned_[count_++] = buffer;
    E *copy = static_cast<E *>(buffer);
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

private:
  static constexpr int kMaxCopies = 8;
  cudaStream_t stream_;
  void *owned_[kMaxCopies] = {};
  int count_ = 0;
};

} // namespace tawa::rt
