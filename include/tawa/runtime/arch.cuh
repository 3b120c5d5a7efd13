//===- tawa/runtime/arch.cuh - target guard for the device runtime --------===//
//
// The rewritten kernels use sm_90a instructions (wgmma, setmaxnreg, TMA with
// mbarrier completion). Device code of the runtime is compiled only in the
// device pass; a device pass for any other target is a build error rather than
// a kernel that silently does nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error                                                                         \
    "tawa runtime: warp-specialized kernels need sm_90a; build with -gencode=arch=compute_90a,code=sm_90a"
#endif

#if defined(__CUDA_ARCH__)
#define TAWA_DEVICE_PASS 1
#else
#define TAWA_DEVICE_PASS 0
#endif

namespace tawa::rt {

/// Shared-memory address (state space `.shared::cta`, 32 bit) of a generic
/// pointer into shared memory (PTX ISA, "Generic addressing").
__device__ __forceinline__ uint32_t smem_addr(const void *ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(ptr));
}

} // namespace tawa::rt
