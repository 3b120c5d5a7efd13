//===- tawa/runtime/tma.cuh - TMA bulk tensor copies and tensor maps ------===//
//
// Device side: `cp.async.bulk.tensor` loads that complete on an mbarrier
// (PTX ISA 9.7.9.25.5.1). Host side: the 2-D tensor map of a tawa::Matrix,
// encoded by the driver's cuTensorMapEncodeTiled, reached through
// cudaGetDriverEntryPointByVersion so that no -lcuda is needed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <tawa/tile.h>

namespace tawa::rt {

/// Copies the box at element coordinates (c0, c1) of `map` (c0 innermost,
/// i.e. the column, c1 the row) to shared memory `dst` and signals `bar`'s
/// transaction count. Boxes reaching outside the tensor are zero-filled and
/// still count their full size in bytes.
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map,
                                            uint64_t *bar, int c0, int c1) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1),
               "r"(smem_addr(bar))
               : "memory");
#endif
}

/// Brings the tensor map `map` (a __grid_constant__ kernel parameter) into
/// the cache that TMA copies read their tensor maps from, so that the first
/// copy does not wait for it (PTX ISA, data movement instructions:
/// prefetch.tensormap, generic address, sm_90; UTMACCTL.PF in the SASS).
__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap *map) {
#if TAWA_DEVICE_PASS
  asm volatile(
      "prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map))
      : "memory");
#endif
}

/// The 3-D form of tma_load_2d: coordinates (c0, c1, c2) = (column, row,
/// matrix of the batch).
__device__ __forceinline__ void tma_load_3d(void *dst, const CUtensorMap *map,
                                            uint64_t *bar, int c0, int c1,
                                            int c2) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(
                   smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2),
               "r"(smem_addr(bar))
               : "memory");
#endif
}

/// L2 eviction priority of a TMA load's data (PTX ISA 9.7.9.17,
/// createpolicy; the `.L2::cache_hint` operand of cp.async.bulk.tensor):
/// data many CTAs read in turn kept (EvictLast), data read once going first
/// (EvictFirst). Measured on attention's keys and values (H100, hd 128):
/// no gain at 2k keys, 5-7% slower at 4k and 16k, so the emitter does not
/// ask for it (results/h100/attention/).
enum class L2Hint { None, EvictFirst, EvictLast };

template <L2Hint Hint> __device__ __forceinline__ uint64_t l2_policy() {
  uint64_t policy = 0;
#if TAWA_DEVICE_PASS
  if constexpr (Hint == L2Hint::EvictLast)
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;"
                 : "=l"(policy));
  else if constexpr (Hint == L2Hint::EvictFirst)
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;"
                 : "=l"(policy));
#endif
  return policy;
}

/// tma_load_3d with an L2 eviction policy from l2_policy().
__device__ __forceinline__ void tma_load_3d_hint(void *dst,
                                                 const CUtensorMap *map,
                                                 uint64_t *bar, int c0, int c1,
                                                 int c2, uint64_t policy) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3, %4}], "
               "[%5], %6;\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2),
               "r"(smem_addr(bar)), "l"(policy)
               : "memory");
#endif
}

/// tma_load_2d with an L2 eviction policy from l2_policy().
__device__ __forceinline__ void tma_load_2d_hint(void *dst,
                                                 const CUtensorMap *map,
                                                 uint64_t *bar, int c0, int c1,
                                                 uint64_t policy) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes.L2::cache_hint [%0], [%1, {%2, %3}], [%4], "
               "%5;\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1),
               "r"(smem_addr(bar)), "l"(policy)
               : "memory");
#endif
}

/// Loads the Rows x (64 * Boxes) window at (col0, row0[, batch]) of `map`
/// (a map of Rows x 64-element boxes, 128-byte swizzled) as `Boxes` boxes of
/// Rows x 64, box b at dst + b * Rows * 64: the layout the multi-box wgmma
/// helpers read (wgmma_ss_kmajor, wgmma_rs_mnmajor). All complete on `bar`.
/// `Hint`: the L2 eviction priority of the data.
template <int Boxes, int Rows, bool Batched, L2Hint Hint = L2Hint::None,
          class T>
__device__ __forceinline__ void tma_load_boxes(T *dst, const CUtensorMap *map,
                                               uint64_t *bar, int col0,
                                               int row0, int batch) {
  const uint64_t policy = l2_policy<Hint>();
#pragma unroll
  for (int b = 0; b < Boxes; ++b) {
    T *box = dst + b * Rows * 64;
    if constexpr (Hint == L2Hint::None && Batched)
      tma_load_3d(box, map, bar, col0 + 64 * b, row0, batch);
    else if constexpr (Hint == L2Hint::None)
      tma_load_2d(box, map, bar, col0 + 64 * b, row0);
    else if constexpr (Batched)
      tma_load_3d_hint(box, map, bar, col0 + 64 * b, row0, batch, policy);
    else
      tma_load_2d_hint(box, map, bar, col0 + 64 * b, row0, policy);
  }
}

/// Stores the box at element coordinates (c0, c1[, c2]) of `map` from shared
/// memory `src` (PTX ISA 9.7.9.25.5.2, bulk_group completion). Elements of
/// the box outside the tensor are not written. The calling thread commits
/// and waits for its own bulk groups (tma_store_commit, tma_store_wait).
template <bool Batched>
__device__ __forceinline__ void
tma_store(const CUtensorMap *map, const void *src, int c0, int c1, int c2) {
#if TAWA_DEVICE_PASS
  if constexpr (Batched)
    asm volatile(
        "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"
        " [%0, {%1, %2, %3}], [%4];\n" ::"l"(reinterpret_cast<uint64_t>(map)),
        "r"(c0), "r"(c1), "r"(c2), "r"(smem_addr(src))
        : "memory");
  else
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
        " [%0, {%1, %2}], [%3];\n" ::"l"(reinterpret_cast<uint64_t>(map)),
        "r"(c0), "r"(c1), "r"(smem_addr(src))
        : "memory");
#endif
}

/// Closes the bulk group of the TMA stores issued since the last commit.
__device__ __forceinline__ void tma_store_commit() {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `Pending` of the calling thread's bulk groups still
/// read their shared-memory source (`.read`: the buffer may be reused).
template <int Pending> __device__ __forceinline__ void tma_store_wait_read() {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
#endif
}

/// Waits until all of the calling thread's bulk groups have completed.
__device__ __forceinline__ void tma_store_wait_all() {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
#endif
}

template <class T> struct TensorMapType;
template <> struct TensorMapType<__nv_bfloat16> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
};
template <> struct TensorMapType<__half> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
};
template <> struct TensorMapType<float> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
};
// TMA copies fp8 as bytes; its zero fill of out-of-bounds elements is +0 in
// e4m3 and e5m2 alike.
template <> struct TensorMapType<__nv_fp8_e4m3> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_UINT8;
};
template <> struct TensorMapType<__nv_fp8_e5m2> {
  static constexpr CUtensorMapDataType value = CU_TENSOR_MAP_DATA_TYPE_UINT8;
};

/// The driver's cuTensorMapEncodeTiled, or null when the driver lacks it.
inline PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void *ptr = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &ptr, 12000,
                                         cudaEnableDefault,
                                         &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess)
      ptr = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(ptr);
  }();
  return fn;
}

/// The L2 promotion of a map whose rows are `row_bytes` apart: 256 bytes
/// where rows start on 32-byte sectors, else 128. Rows at an odd multiple
/// of 16 bytes (a bf16 K of 7000, 4104 or 1000) make every other 128-byte
/// box row straddle five sectors; there 256-byte promotion fetched more than
/// the loads use and the GEMM ran 10-20% slower than with 128-byte
/// promotion (H100, results/h100/layouts/README.md). Either is as fast on
/// aligned rows.
inline CUtensorMapL2promotion l2_promotion(unsigned long long row_bytes) {
  return row_bytes % 32 == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                             : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
}

/// Encodes the tensor map of row-major `m` for TMA boxes of `box_rows` x
/// `box_cols` elements with 128-byte swizzle (the layout wgmma's shared-memory
/// descriptors expect). With `batched`, the map has a third dimension, the
/// matrix of the batch (m.batches matrices, m.batch_stride elements apart),
/// and boxes of one matrix. Requirements (CUDA driver API,
/// cuTensorMapEncodeTiled): box_rows <= 256; box_cols * sizeof(T) == 128;
/// m.data 16-byte aligned; m.ld * sizeof(T) and m.batch_stride * sizeof(T)
/// multiples of 16. An empty matrix gives a zeroed map (nothing is copied
/// with it). Returns cudaErrorInvalidValue when a requirement fails,
/// cudaErrorNotSupported when the driver lacks the entry point.
template <class T>
cudaError_t make_tensor_map(CUtensorMap *map, Matrix<T> m, int box_rows,
                            int box_cols, bool batched = false) {
  using E = std::remove_const_t<T>;
  *map = CUtensorMap{};
  if (m.rows <= 0 || m.cols <= 0 || m.batches <= 0)
    return cudaSuccess;
  const unsigned long long row_bytes =
      static_cast<unsigned long long>(m.ld) * sizeof(E);
  // A batch of one needs no stride; give the map a valid one.
  const unsigned long long batch_bytes =
      m.batches > 1
          ? static_cast<unsigned long long>(m.batch_stride) * sizeof(E)
          : row_bytes * m.rows;
  if (box_rows < 1 || box_rows > 256 || box_cols * sizeof(E) != 128 ||
      reinterpret_cast<uintptr_t>(m.data) % 16 != 0 || row_bytes % 16 != 0 ||
      m.ld < m.cols || (batched && batch_bytes % 16 != 0) ||
      (!batched && m.batches > 1))
    return cudaErrorInvalidValue;
  PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
  if (!encode)
    return cudaErrorNotSupported;
  const cuuint64_t dims[3] = {static_cast<cuuint64_t>(m.cols),
                              static_cast<cuuint64_t>(m.rows),
                              static_cast<cuuint64_t>(m.batches)};
  const cuuint64_t strides[2] = {row_bytes, batch_bytes};
  const cuuint32_t box[3] = {static_cast<cuuint32_t>(box_cols),
                             static_cast<cuuint32_t>(box_rows), 1};
  const cuuint32_t element_strides[3] = {1, 1, 1};
  CUresult r =
      encode(map, TensorMapType<E>::value, batched ? 3 : 2,
             const_cast<E *>(m.data), dims, strides, box, element_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             l2_promotion(row_bytes), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

} // namespace tawa::rt
