// --migrate reads a call of a conversion helper of the kernel's source, one
// parameter of a 16-bit or float type returned through the conversions of
// cuda_fp16.h and cuda_bf16.h (`to_float(v)`, `from_float<T>(acc)` in
// type-generic kernels), as that conversion. Refused: a helper that also
// computes (a scale, a negation), one of several statements and a member
// function. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 16

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ __half from_float<__half>(float v) {
  return __float2half_rn(v);
}
__device__ float scaled(__half v) { return __half2float(v) * 2.0f; }
__device__ float negated(__half v) { return -__half2float(v); }
// A member: a virtual call would run an overrider, and the arch checks of
// the kernel's helpers see free functions only.
struct Cv {
  static __device__ float to_float(__half v) { return __half2float(v); }
};
__device__ float two_steps(__half v) {
  float f = __half2float(v);
  return f;
}

// CHECK-LABEL: __global__ void helpers_half_tiled(
// CHECK: tawa::store(c, m0, n0, acc);
__global__ void helpers_half(const __half *a, const __half *b, __half *c, int m, int n,
                     int k) {
  __shared__ __half sa[TILE][TILE];
  __shared__ __half sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __half();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __half();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += to_float(sa[threadIdx.y][i]) * to_float(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = from_float<__half>(acc);
}

// CHECK-LABEL: __global__ void helpers_bf16_tiled(
// CHECK: tawa::store(c, m0, n0, acc);
__global__ void helpers_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m, int n,
                     int k) {
  __shared__ __nv_bfloat16 sa[TILE][TILE];
  __shared__ __nv_bfloat16 sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __nv_bfloat16();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __nv_bfloat16();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += to_float(sa[threadIdx.y][i]) * to_float(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = acc;
}

// DIAG: conversion-helpers.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern
__global__ void helper_scales(const __half *a, const __half *b, float *c, int m, int n,
                     int k) {
  __shared__ __half sa[TILE][TILE];
  __shared__ __half sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __half();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __half();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += scaled(sa[threadIdx.y][i]) * scaled(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = acc;
}

// DIAG: conversion-helpers.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern
__global__ void helper_member(const __half *a, const __half *b, float *c, int m, int n,
                     int k) {
  __shared__ __half sa[TILE][TILE];
  __shared__ __half sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __half();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __half();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += Cv::to_float(sa[threadIdx.y][i]) * Cv::to_float(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = acc;
}

// DIAG: conversion-helpers.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern
__global__ void helper_negates(const __half *a, const __half *b, float *c, int m, int n,
                     int k) {
  __shared__ __half sa[TILE][TILE];
  __shared__ __half sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __half();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __half();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += negated(sa[threadIdx.y][i]) * negated(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = acc;
}

// DIAG: conversion-helpers.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern
__global__ void helper_two_steps(const __half *a, const __half *b, float *c, int m, int n,
                     int k) {
  __shared__ __half sa[TILE][TILE];
  __shared__ __half sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] =
        (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : __half();
    sb[threadIdx.y][threadIdx.x] =
        (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col]
                                          : __half();
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      acc += two_steps(sa[threadIdx.y][i]) * two_steps(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n)
    c[r * n + col] = acc;
}

void launch(const __half *a, const __half *b, const __nv_bfloat16 *ab,
            const __nv_bfloat16 *bb, __half *ch, float *c, int m, int n,
            int k) {
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  helpers_half<<<grid, block>>>(a, b, ch, m, n, k);
  helpers_bf16<<<grid, block>>>(ab, bb, c, m, n, k);
  helper_scales<<<grid, block>>>(a, b, c, m, n, k);
  helper_negates<<<grid, block>>>(a, b, c, m, n, k);
  helper_two_steps<<<grid, block>>>(a, b, c, m, n, k);
  helper_member<<<grid, block>>>(a, b, c, m, n, k);
}
