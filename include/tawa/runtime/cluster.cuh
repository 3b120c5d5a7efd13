//===- tawa/runtime/cluster.cuh - thread-block clusters and multicast -----===//
//
// Two CTAs of a cluster that compute vertically adjacent output tiles share
// their B tile: each loads half of it with a multicast TMA copy that lands in
// both CTAs' shared memory (PTX ISA 9.7.9.25.5.1, .multicast::cluster). A
// slot may be refilled only when the consumers of both CTAs have released
// it, so each consumer warpgroup arrives on its own and its peer's `empty`
// barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

#include <cuda.h>
#include <utility>

namespace tawa::rt {

/// Rank of the calling CTA in its cluster.
__device__ __forceinline__ int cluster_ctarank() {
  uint32_t rank = 0;
#if TAWA_DEVICE_PASS
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
  return static_cast<int>(rank);
}

/// Waits until every thread of every CTA of the cluster has arrived; orders
/// memory (release/acquire at cluster scope). Threads of a warp may arrive
/// apart (not .aligned).
__device__ __forceinline__ void cluster_sync() {
#if TAWA_DEVICE_PASS
  asm volatile("barrier.cluster.arrive.release;\n"
               "barrier.cluster.wait.acquire;\n" ::
                   : "memory");
#endif
}

/// Arrives on the mbarrier at the same shared-memory offset as `bar` in the
/// cluster's CTA `rank`.
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t *bar,
                                                        int rank) {
#if TAWA_DEVICE_PASS
  asm volatile("{\n .reg .b32 remote;\n"
               " mapa.shared::cluster.u32 remote, %0, %1;\n"
               " mbarrier.arrive.shared::cluster.b64 _, "
               "[remote];\n}\n" ::"r"(smem_addr(bar)),
               "r"(rank)
               : "memory");
#endif
}

/// tma_load_2d into every CTA of `cta_mask` (bit i: cluster rank i), at the
/// same offsets as `dst` and `bar`; each destination's `bar` counts the bytes.
__device__ __forceinline__ void
tma_load_2d_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int c0,
                      int c1, uint16_t cta_mask) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes.multicast::cluster"
               " [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1),
               "r"(smem_addr(bar)), "h"(cta_mask)
               : "memory");
#endif
}

/// The 3-D form of tma_load_2d_multicast (c2: matrix of the batch).
__device__ __forceinline__ void
tma_load_3d_multicast(void *dst, const CUtensorMap *map, uint64_t *bar, int c0,
                      int c1, int c2, uint16_t cta_mask) {
#if TAWA_DEVICE_PASS
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes.multicast::cluster"
               " [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(smem_addr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(c2),
               "r"(smem_addr(bar)), "h"(cta_mask)
               : "memory");
#endif
}

/// The part of an MN-major tile of `Boxes` boxes (64 columns x `Rows` rows
/// each, tma_load_boxes from `col0`) that cluster rank `rank` of `Cluster`
/// loads into every CTA of `cta_mask`: boxes [rank Boxes / Cluster,
/// (rank + 1) Boxes / Cluster), so 3 boxes split 1 + 2. `dst`: the whole
/// tile.
template <int Boxes, int Cluster, int Rows, bool Batched, class T>
__device__ __forceinline__ void
tma_load_boxes_multicast(T *dst, const CUtensorMap *map, uint64_t *bar,
                         int col0, int row0, int batch, int rank,
                         uint16_t cta_mask) {
  static_assert(Boxes >= Cluster, "every rank loads at least one box");
  for (int b = rank * Boxes / Cluster; b < (rank + 1) * Boxes / Cluster;
       ++b) {
    T *box = dst + b * Rows * 64;
    if constexpr (Batched)
      tma_load_3d_multicast(box, map, bar, col0 + 64 * b, row0, batch,
                            cta_mask);
    else
      tma_load_2d_multicast(box, map, bar, col0 + 64 * b, row0, cta_mask);
  }
}

/// Launches `kernel` on `ctas` CTAs (a multiple of `cluster`) grouped in
/// clusters of `cluster` along x, with `shared` bytes of dynamic shared memory.
template <class... Params, class... Args>
cudaError_t launch_clustered(void (*kernel)(Params...), int ctas, int threads,
                             size_t shared, cudaStream_t stream, int cluster,
                             Args &&...args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

} // namespace tawa::rt
