// Guarded staging copies without an else and a product over the whole
// tile: right only where K is a multiple of the tile (elsewhere the last
// tile's stale elements are read), as in many lecture notes. Column-major
// B (K x N stored N x K), bf16.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define BLK 32

__global__ void noelse_whole_k(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                               float *out, int m, int n, int k) {
  __shared__ __nv_bfloat16 ta[BLK][BLK], tb[BLK][BLK];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * BLK + ty;
  const int j = blockIdx.x * BLK + tx;
  float s = 0.f;
#pragma tawa tile
  for (int kk = 0; kk < k; kk += BLK) {
    if (i < m && kk + tx < k)
      ta[ty][tx] = a[i * k + kk + tx];
    if (j < n && kk + ty < k)
      tb[ty][tx] = b[j * k + kk + ty];
    __syncthreads();
    for (int q = 0; q < BLK; q++)
      s += __bfloat162float(ta[ty][q]) * __bfloat162float(tb[q][tx]);
    __syncthreads();
  }
  if (i < m && j < n)
    out[i * n + j] = s;
}

void noelse_whole_k_run(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                        float *out, int m, int n, int k) {
  dim3 block(BLK, BLK);
  dim3 grid((n + BLK - 1) / BLK, (m + BLK - 1) / BLK);
  noelse_whole_k<<<grid, block>>>(a, b, out, m, n, k);
}
