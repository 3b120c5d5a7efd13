// Stand-in for <cuda_fp16.h> (see cuda_runtime.h).
#pragma once
#include "cuda_runtime.h"
struct __half {
  unsigned short x;
};
__host__ __device__ float __half2float(__half);
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ __half __float2half(float);
typedef __half half;
__device__ __half __ldg(const __half *ptr);
struct __half2 {
  __half x, y;
};
typedef __half2 half2;
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 make_half2(__half, __half);
__host__ __device__ float2 __half22float2(__half2);
