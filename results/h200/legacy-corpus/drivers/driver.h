// The helpers every driver of drivers/ shares: error checks, deterministic
// inputs, NaN-poisoned outputs, and the output written as raw float32.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                      \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "CUDA error: %s at %s:%d: %s\n", #x, __FILE__, __LINE__, \
              cudaGetErrorString(e_));                                             \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)

static uint64_t g_lcg = 0;
static void lcg_seed(uint64_t s) { g_lcg = s * 0x9E3779B97F4A7C15ULL + 12345u; }
static float lcg_uniform() {  // deterministic, in [-1, 1]
  g_lcg = g_lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return float((g_lcg >> 40) & 0xFFFFFFu) / float(0xFFFFFF) * 2.0f - 1.0f;
}

template <class T> inline T from_f(float v);
template <> inline float from_f<float>(float v) { return v; }
template <> inline __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> inline __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
inline float to_f(float v) { return v; }
inline float to_f(__half v) { return __half2float(v); }
inline float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }

// Device array of n values, LCG-filled in [-1, 1] on the host with seed.
template <class T> static T *dev_random(size_t n, uint64_t seed) {
  if (n == 0) n = 1;
  std::vector<T> h(n);
  lcg_seed(seed);
  for (size_t i = 0; i < n; ++i) h[i] = from_f<T>(lcg_uniform());
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
// Device array of n NaNs (for outputs the kernel only writes).
template <class T> static T *dev_nan(size_t n) {
  if (n == 0) n = 1;
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemset(d, 0xFF, n * sizeof(T)));
  return d;
}
// Synchronize, check errors, copy n outputs back, write raw float32 to path.
template <class T> static int finish(const T *d, size_t n, const char *path) {
  CK(cudaDeviceSynchronize());
  CK(cudaGetLastError());
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<float> f(n);
  for (size_t i = 0; i < n; ++i) f[i] = to_f(h[i]);
  FILE *fp = fopen(path, "wb");
  if (!fp) { perror(path); return 3; }
  if (fwrite(f.data(), sizeof(float), n, fp) != n) { perror(path); fclose(fp); return 3; }
  fclose(fp);
  return 0;
}

