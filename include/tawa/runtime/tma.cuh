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

/// Encodes the tensor map of row-major `m` for TMA boxes of `box_rows` x
/// `box_cols` elements with 128-byte swizzle (the layout wgmma's shared-memory
/// descriptors expect). Requirements (CUDA driver API, cuTensorMapEncodeTiled):
/// box_rows <= 256; box_cols * sizeof(T) == 128; m.data 16-byte aligned;
/// m.ld * sizeof(T) a multiple of 16. An empty matrix gives a zeroed map
/// (nothing is loaded from it). Returns cudaErrorInvalidValue when a
/// requirement fails, cudaErrorNotSupported when the driver lacks the entry
/// point.
template <class T>
cudaError_t make_tensor_map(CUtensorMap *map, Matrix<T> m, int box_rows,
                            int box_cols) {
  using E = std::remove_const_t<T>;
  *map = CUtensorMap{};
  if (m.rows <= 0 || m.cols <= 0)
    return cudaSuccess;
  if (box_rows < 1 || box_rows > 256 || box_cols * sizeof(E) != 128 ||
      reinterpret_cast<uintptr_t>(m.data) % 16 != 0 ||
      (m.ld * sizeof(E)) % 16 != 0 || m.ld < m.cols)
    return cudaErrorInvalidValue;
  PFN_cuTensorMapEncodeTiled_v12000 encode = tensor_map_encoder();
  if (!encode)
    return cudaErrorNotSupported;
  const cuuint64_t dims[2] = {static_cast<cuuint64_t>(m.cols),
                              static_cast<cuuint64_t>(m.rows)};
  const cuuint64_t strides[1] = {static_cast<cuuint64_t>(m.ld) * sizeof(E)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(box_cols),
                             static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  CUresult r =
      encode(map, TensorMapType<E>::value, 2, const_cast<E *>(m.data), dims,
             strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

} // namespace tawa::rt
