//===- tawa/runtime/launch.cuh - shared storage and host launch helpers ---===//
#pragma once

#include "arch.cuh"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tawa::rt {

/// Rounds the dynamic shared-memory base up to `Align` bytes (the 128-byte
/// swizzle needs 1024-byte aligned tiles; the dynamic base alone guarantees
/// only 16). Launch with shared_bytes<Storage, Align>() bytes of dynamic
/// shared memory.
template <class Storage, int Align = 1024>
__device__ __forceinline__ Storage &shared_storage(unsigned char *raw) {
  const uintptr_t p =
      (reinterpret_cast<uintptr_t>(raw) + Align - 1) & ~uintptr_t(Align - 1);
  return *reinterpret_cast<Storage *>(p);
}

/// Dynamic shared memory, in bytes, to request for `Storage`.
template <class Storage, int Align = 1024> constexpr size_t shared_bytes() {
  return sizeof(Storage) + Align;
}

/// A run-time switch of the launchers, for tests: 1 where the environment
/// variable `name` is "off", 2 where it is "force", else 0. Callers read it
/// once, into a static.
inline int env_switch(const char *name) {
  const char *e = std::getenv(name);
  return !e                             ? 0
         : std::strcmp(e, "off") == 0   ? 1
         : std::strcmp(e, "force") == 0 ? 2
                                        : 0;
}

/// A run-time switch of the launchers that names a number, for tests: the
/// environment variable `name` as a positive integer, else 0. Callers read
/// it once, into a static.
inline int env_number(const char *name) {
  const char *e = std::getenv(name);
  const int n = e ? std::atoi(e) : 0;
  return n > 0 ? n : 0;
}

/// The SMs of the current device, into `*sms`. Returns the CUDA error of the
/// query.
inline cudaError_t current_sm_count(int *sms) {
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
}

/// Says once per launcher (`noted`) on stderr that `kernel` runs as written,
/// because the tensor maps of its operands could not be built, nor aligned
/// copies of them made (`why`): TMA needs 16-byte aligned base addresses and
/// leading dimensions (CUDA driver API, cuTensorMapEncodeTiled), and the
/// copies cannot be made under stream capture (operand_copy.cuh). A launcher
/// replaces a `<<<...>>>` statement, so the caller may not look at a returned
/// value.
inline void note_fallback(const char *kernel, cudaError_t why, bool &noted) {
  if (noted)
    return;
  noted = true;
  std::fprintf(stderr,
               "tawa: %s: running the kernel as written: the operands' "
               "tensor maps cannot be built, nor aligned copies made (%s); "
               "TMA needs 16-byte aligned addresses and leading dimensions, "
               "and no copy is made under stream capture\n",
               kernel, cudaGetErrorString(why));
}

/// Says once per launcher (`noted`) on stderr that `kernel` runs as written
/// because its launch grid stops inside the stored matrix with a part of a
/// merged tile (schedule.cuh, merged_walk_exact).
inline void note_partial_grid(const char *kernel, bool &noted) {
  if (noted)
    return;
  noted = true;
  std::fprintf(stderr,
               "tawa: %s: running the kernel as written: the launch grid "
               "ends inside the stored matrix with a part of a merged tile\n",
               kernel);
}

} // namespace tawa::rt
