// Stand-in for the CUDA runtime header: just what the tests' kernels and
// include/tawa/tile.h need to parse with -nocudainc.
#pragma once
#include <cstddef>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __align__(n) __attribute__((aligned(n)))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1)
      : x(x), y(y), z(z) {}
};
struct uint3 {
  unsigned x, y, z;
};
// The device side of <cassert>'s assert, as clang's CUDA wrapper headers
// declare it (__clang_cuda_runtime_wrapper.h).
__device__ void __assert_fail(const char *, const char *, unsigned,
                              const char *);
// The int min of the CUDA headers (crt/math_functions.hpp).
__device__ int min(int, int);

typedef struct CUstream_st *cudaStream_t;
enum cudaError_t { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };

// The built-in coordinates are objects whose x, y and z are properties, as
// in clang's own CUDA headers (__clang_cuda_builtin_vars.h): `blockIdx.x` is
// then the same pseudo-object expression in the AST as in a real compile.
#define TAWA_STUB_BUILTIN(Type, Name)                                          \
  struct Type {                                                                \
    __declspec(property(get = get_x)) unsigned x;                              \
    __declspec(property(get = get_y)) unsigned y;                              \
    __declspec(property(get = get_z)) unsigned z;                              \
    static __device__ unsigned get_x();                                        \
    static __device__ unsigned get_y();                                        \
    static __device__ unsigned get_z();                                        \
  };                                                                           \
  extern const Type Name;
TAWA_STUB_BUILTIN(tawa_stub_threadIdx_t, threadIdx)
TAWA_STUB_BUILTIN(tawa_stub_blockIdx_t, blockIdx)
TAWA_STUB_BUILTIN(tawa_stub_blockDim_t, blockDim)
TAWA_STUB_BUILTIN(tawa_stub_gridDim_t, gridDim)

extern "C" cudaError_t cudaGetLastError();
extern "C" cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t);
extern "C" cudaError_t cudaFreeAsync(void *, cudaStream_t);
extern "C" cudaError_t cudaPeekAtLastError();
extern "C" const char *cudaGetErrorString(cudaError_t);
extern "C" int __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0,
                                           cudaStream_t stream = 0);
// The launch API clang assumes where it finds no toolkit at all (its CUDA
// version unknown), so that the stand-ins parse there too.
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0,
                                         cudaStream_t stream = 0);
extern "C" cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
template <class T> cudaError_t cudaFuncSetAttribute(T *, cudaFuncAttribute, int);
__device__ const int warpSize = 32;
__device__ void __syncthreads();
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __trap();
// sm_20_intrinsics.h: the shared-memory address of a generic pointer.
__device__ size_t __cvta_generic_to_shared(const void *ptr);
extern "C" __device__ int printf(const char *, ...);
// Device math of tile.h's element-wise ops and row reductions.
__device__ float fmaxf(float, float);
__device__ float atomicAdd(float *, float);
__device__ float fmaf(float, float, float);
__device__ float __expf(float);
__device__ float expf(float);
__device__ float erff(float);
__device__ float tanhf(float);
__device__ float powf(float, float);
__device__ float sqrtf(float);
__device__ float ceilf(float);
__device__ double ceil(double);
// The vector types of vector_types.h that 16- and 8-byte copies use.
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(16) int4 { int x, y, z, w; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
struct alignas(8) float2 { float x, y; };
// vector_functions.h's constructors of them.
__host__ __device__ inline float4 make_float4(float x, float y, float z, float w) {
  return float4{x, y, z, w};
}
__host__ __device__ inline float2 make_float2(float x, float y) { return float2{x, y}; }
__host__ __device__ inline int4 make_int4(int x, int y, int z, int w) {
  return int4{x, y, z, w};
}
__host__ __device__ inline uint4 make_uint4(unsigned x, unsigned y, unsigned z,
                                            unsigned w) {
  return uint4{x, y, z, w};
}
__device__ float exp2f(float);
__device__ float log2f(float);
#ifndef INFINITY
#define INFINITY __builtin_huge_valf()
#endif
