// A type-generic tiled GEMM (half and bf16 instantiations) with the usual
// overloaded to_float / from_float conversion helpers, launched from a host
// dispatcher template in a namespace.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace ops {

__device__ __forceinline__ float to_float(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

template <typename T, int TILE>
__global__ void __launch_bounds__(TILE *TILE)
    matmul_generic(const T *__restrict__ a, const T *__restrict__ b, T *__restrict__ c, int m,
                   int n, int k) {
  __shared__ T sa[TILE][TILE];
  __shared__ T sb[TILE][TILE];
  const int r = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int kt = 0; kt < k; kt += TILE) {
    sa[threadIdx.y][threadIdx.x] = (r < m && kt + threadIdx.x < k) ? a[r * k + kt + threadIdx.x] : T(0.0f);
    sb[threadIdx.y][threadIdx.x] = (kt + threadIdx.y < k && col < n) ? b[(kt + threadIdx.y) * n + col] : T(0.0f);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TILE; ++i) acc += to_float(sa[threadIdx.y][i]) * to_float(sb[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < m && col < n) c[r * n + col] = from_float<T>(acc);
}

template <typename T>
cudaError_t matmul(const T *a, const T *b, T *c, int m, int n, int k, cudaStream_t s) {
  constexpr int TILE = 32;
  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  matmul_generic<T, TILE><<<grid, block, 0, s>>>(a, b, c, m, n, k);
  return cudaGetLastError();
}

template cudaError_t matmul<__half>(const __half *, const __half *, __half *, int, int, int,
                                    cudaStream_t);
template cudaError_t matmul<__nv_bfloat16>(const __nv_bfloat16 *, const __nv_bfloat16 *,
                                           __nv_bfloat16 *, int, int, int, cudaStream_t);
}  // namespace ops
