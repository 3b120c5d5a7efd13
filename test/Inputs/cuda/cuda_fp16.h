// Stand-in for <cuda_fp16.h> (see cuda_runtime.h).
#pragma once
#include "cuda_runtime.h"
struct __half {
  unsigned short x;
};
__host__ __device__ float __half2float(__half);
__host__ __device__ __half __float2half_rn(float);
typedef __half half;
__device__ __half __ldg(const __half *ptr);
