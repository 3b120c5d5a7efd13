//===- tawa/runtime/schedule.cuh - persistent tile walks ------------------===//
//
// A rewritten kernel walks the tiles of the original launch grid: tile
// (x, y, z) is the work the original kernel did in block (x, y, z). With a
// persistent grid each CTA takes tiles t = blockIdx.x, blockIdx.x + gridDim.x,
// ... in a grouped raster order: `group` consecutive tiles along one grid
// dimension before the next step along the other, so the CTAs running at the
// same time share their operand tiles in L2 (the order of Triton's grouped
// matmul; "raster" in CUTLASS).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "arch.cuh"

namespace tawa::rt {

struct TileSchedule {
  dim3 tiles;    ///< the original launch grid, one tile per original block
  int group = 1; ///< tiles per raster group, >= 1
  bool along_y = true; ///< group along grid y (rows of tiles), else along x
  /// CTAs of a thread-block cluster, which take `cluster` tiles adjacent in
  /// y together (one each): the walk's units are such groups of tiles. A
  /// group reaching past the grid holds tiles beyond it (their loads read
  /// zeros and their stores write nothing).
  int cluster = 1;

  /// Units (tiles, or groups of `cluster` tiles) in the walk.
  __host__ __device__ int count() const {
    return static_cast<int>(tiles.x * ((tiles.y + cluster - 1) / cluster) *
                            tiles.z);
  }

  /// The coordinates of the tile of cluster rank `rank` in the t-th unit of
  /// the walk, 0 <= t < count().
  __host__ __device__ uint3 tile(int t, int rank = 0) const {
    const uint3 u = unit(t);
    return make_uint3(u.x, u.y * cluster + rank, u.z);
  }

private:
  __host__ __device__ uint3 unit(int t) const {
    const int X = tiles.x, Y = (tiles.y + cluster - 1) / cluster;
    const int z = t / (X * Y), r = t % (X * Y);
    // Along y: groups of `group` rows; in a group, y varies fastest.
    const int rows = along_y ? Y : X, cols = along_y ? X : Y;
    const int g = r / (group * cols), first = g * group;
    const int height = rows - first < group ? rows - first : group;
    const int in = r - g * group * cols;
    const int a = first + in % height, b = in / height;
    return along_y ? make_uint3(b, a, z) : make_uint3(a, b, z);
  }
};

/// CTAs of a persistent launch for `units` units of `cluster` tiles each: one
/// per SM of the current device, in whole clusters, no more than the tiles.
/// Returns the CUDA error of the device query.
inline cudaError_t persistent_ctas(int units, int cluster, int *ctas) {
  int device = 0, sms = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  if (cudaError_t e =
          cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      e != cudaSuccess)
    return e;
  const int clusters = sms / cluster;
  *ctas = cluster * (units < clusters ? units : clusters);
  return cudaSuccess;
}

} // namespace tawa::rt
