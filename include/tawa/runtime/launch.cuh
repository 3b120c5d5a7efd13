//===- tawa/runtime/launch.cuh - shared storage and host launch helpers ---===//
#pragma once

#include "arch.cuh"

#include <cstdio>

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

/// Reports a launcher's host-side failure on stderr (a generated launcher
/// replaces a `<<<...>>>` statement, whose caller may not look at the value)
/// and returns `e`.
inline cudaError_t launch_error(const char *kernel, const char *what,
                                cudaError_t e) {
  std::fprintf(stderr, "tawa: %s: %s: %s\n", kernel, what,
               cudaGetErrorString(e));
  return e;
}

} // namespace tawa::rt
