// Stand-in for the CUDA toolkit's cooperative_groups.h: the thread block
// group, warp tiles and their barriers, in the header's ABI namespace.
#pragma once
#include <cuda_runtime.h>

namespace cooperative_groups {
namespace __v1 {
class thread_block {
public:
  __device__ static void sync();
  __device__ static unsigned int thread_rank();
  __device__ static unsigned int size();
};
__device__ thread_block this_thread_block();

template <unsigned int Size> class thread_block_tile {
public:
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
};
template <unsigned int Size, class Parent>
__device__ thread_block_tile<Size> tiled_partition(const Parent &parent);

template <class Group> __device__ void sync(const Group &group);
} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups
