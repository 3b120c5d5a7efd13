// Stand-in for <cuda_fp8.h> (see cuda_runtime.h).
#pragma once
#include "cuda_runtime.h"
struct __nv_fp8_e4m3 {
  unsigned char __x;
  __host__ __device__ explicit operator float() const;
};
struct __nv_fp8_e5m2 {
  unsigned char __x;
  __host__ __device__ explicit operator float() const;
};
