//===- tawa/runtime/im2col.cuh - TMA loads of implicit-GEMM windows -------===//
//
// A convolution's activations as the A operand of a GEMM (tawa::Im2col,
// tile.h): TMA's im2col mode (PTX ISA 9.7.9.25, cp.async.bulk.tensor with
// .im2col; CUDA driver API, cuTensorMapEncodeIm2col) gathers, for one
// filter tap, the channels of consecutive output pixels straight into the
// 128-byte swizzled rows a K-major wgmma operand needs: one row per output
// pixel, one load per tap and block of 128 bytes of channels.
//
// The map is rank 4 over the NHWC tensor ({c, w, h, n}, innermost first).
// Its pixel box, per spatial dimension, is [lower, extent - 1 + upper] of
// window origins: lower = -pad, upper = (out - 1) * stride + 1 - extent -
// pad, so that the origins out * stride - pad of the output pixels 0 ..
// out - 1 are exactly its points at the traversal stride (= the
// convolution's stride). An instruction starts at the window origin of the
// tile's first output pixel and walks `pixels` origins along w, then h,
// then the next image; the im2col offsets (tap * dilation) shift every
// origin to the tap's element, and elements outside the tensor, the padding
// and images past the last, are zero-filled. Checked on an H200 against a
// host im2col for 3 x 3 filters with stride 1 and 2 and an odd extent (57);
// CUTLASS's sm90 convolutions use the same conventions
// (cute/atom/copy_traits_sm90_im2col.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tma.cuh"

namespace tawa::rt {

/// Copies `pixels` (the map's pixels per column) rows of the map's channels
/// per pixel to shared memory `dst`: the window origin of the first pixel at
/// (w, h) of image n, channels from c, each origin shifted by (off_w, off_h)
/// (a filter tap times the dilation). Signals `bar`'s transaction count with
/// the whole box, zero-filled parts included.
__device__ __forceinline__ void
tma_load_im2col(void *dst, const CUtensorMap *map, uint64_t *bar, int c, int w,
                int h, int n, uint16_t off_w, uint16_t off_h) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier"
               "::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, "
               "%8};\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c), "r"(w), "r"(h),
               "r"(n), "r"(smem_addr(bar)), "h"(off_w), "h"(off_h)
               : "memory");
#endif
}

/// Loads the window at (row0, col0) of the Im2col matrix `x` through `map`
/// (make_im2col_map with the window's rows and a column block that divides
/// x.c): output pixels from row0, filter tap col0 / x.c, channels from
/// col0 % x.c.
template <class T>
__device__ __forceinline__ void
tma_load_im2col_window(void *dst, const CUtensorMap *map, uint64_t *bar,
                       const Im2col<T> &x, int row0, int col0) {
  const int pq = x.p * x.q;
  const int img = row0 / pq, rest = row0 - img * pq;
  const int oy = rest / x.q, ox = rest - oy * x.q;
  const int tap = col0 / x.c, ch = col0 - tap * x.c;
  const int ty = tap / x.s, tx = tap - ty * x.s;
  tma_load_im2col(dst, map, bar, ch, ox * x.stride_w - x.pad_w,
                  oy * x.stride_h - x.pad_h, img,
                  static_cast<uint16_t>(tx * x.dil_w),
                  static_cast<uint16_t>(ty * x.dil_h));
}

/// The driver's cuTensorMapEncodeIm2col, or null when the driver lacks it.
inline PFN_cuTensorMapEncodeIm2col_v12000 im2col_map_encoder() {
  static PFN_cuTensorMapEncodeIm2col_v12000 fn = [] {
    void *ptr = nullptr;
    cudaDriverEntryPointQueryResult status{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &ptr, 12000,
                                         cudaEnableDefault,
                                         &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess)
      ptr = nullptr;
    return reinterpret_cast<PFN_cuTensorMapEncodeIm2col_v12000>(ptr);
  }();
  return fn;
}

/// Encodes the im2col map of `x` for windows of `pixels` output pixels by
/// `channels` channels (128 bytes: one 128-byte swizzled row per pixel, what
/// wgmma's K-major descriptors read). Requirements: tawa::im2col_tma_loadable
/// (tile.h: the channels split into such windows, so that none straddles
/// two taps; alignment; the corners and offsets the instruction holds);
/// pixels 1 to 256. An empty matrix gives a zeroed map. Returns
/// cudaErrorInvalidValue when a requirement fails, cudaErrorNotSupported when
/// the driver lacks the entry point.
template <class T>
cudaError_t make_im2col_map(CUtensorMap *map, Im2col<T> x, int pixels,
                            int channels) {
  using E = std::remove_const_t<T>;
  *map = CUtensorMap{};
  if (x.n <= 0 || x.p <= 0 || x.q <= 0 || x.c <= 0 || x.r <= 0 || x.s <= 0)
    return cudaSuccess;
  const int lower[2] = {-x.pad_w, -x.pad_h};
  const int upper[2] = {(x.q - 1) * x.stride_w + 1 - x.w - x.pad_w,
                        (x.p - 1) * x.stride_h + 1 - x.h - x.pad_h};
  if (channels * sizeof(E) != 128 || pixels < 1 || pixels > 256 ||
      !im2col_tma_loadable(x))
    return cudaErrorInvalidValue;
  PFN_cuTensorMapEncodeIm2col_v12000 encode = im2col_map_encoder();
  if (!encode)
    return cudaErrorNotSupported;
  const unsigned long long e = sizeof(E);
  const cuuint64_t dims[4] = {
      static_cast<cuuint64_t>(x.c), static_cast<cuuint64_t>(x.w),
      static_cast<cuuint64_t>(x.h), static_cast<cuuint64_t>(x.n)};
  const cuuint64_t strides[3] = {e * x.c, e * x.c * x.w, e * x.c * x.w * x.h};
  const cuuint32_t element_strides[4] = {1, static_cast<cuuint32_t>(x.stride_w),
                                         static_cast<cuuint32_t>(x.stride_h),
                                         1};
  CUresult r =
      encode(map, TensorMapType<E>::value, 4, const_cast<E *>(x.data), dims,
             strides, lower, upper, static_cast<cuuint32_t>(channels),
             static_cast<cuuint32_t>(pixels), element_strides,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             l2_promotion(e * x.c), CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return cudaErrorInvalidValue;
  // Drivers up to 13.1 encode im2col maps of tensors under 128 KiB with bit
  // 21 of the map's second word set, which they must not (a driver bug that
  // CUTLASS 4's changelog records, clearing the bit as done here).
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver <= 13010 &&
      e * x.c * x.w * x.h * x.n < 131072)
    reinterpret_cast<uint64_t *>(map)[1] &= ~(1ull << 21);
  return cudaSuccess;
}

} // namespace tawa::rt
