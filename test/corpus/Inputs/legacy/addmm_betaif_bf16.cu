// addmm in the BLAS manner: alpha * A * B plus a bias per column, with
// beta * C added to the result only where beta is not 0 (C is not read
// there). bf16 inputs, float C.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#define TS 16

__global__ void addmm_betaif(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                             const float *b, float *Y, int rows, int cols,
                             int depth, float alpha, float beta) {
  __shared__ __nv_bfloat16 xs[TS][TS];
  __shared__ __nv_bfloat16 ws[TS][TS];
  const int r = blockIdx.y * TS + threadIdx.y;
  const int c = blockIdx.x * TS + threadIdx.x;
  float dot = 0.0f;
#pragma tawa tile
  for (int d = 0; d < depth; d += TS) {
    if (r < rows && d + threadIdx.x < depth)
      xs[threadIdx.y][threadIdx.x] = X[r * depth + d + threadIdx.x];
    else
      xs[threadIdx.y][threadIdx.x] = __float2bfloat16(0.0f);
    if (d + threadIdx.y < depth && c < cols)
      ws[threadIdx.y][threadIdx.x] = W[(d + threadIdx.y) * cols + c];
    else
      ws[threadIdx.y][threadIdx.x] = __float2bfloat16(0.0f);
    __syncthreads();
    for (int i = 0; i < TS; ++i)
      dot += __bfloat162float(xs[threadIdx.y][i]) *
             __bfloat162float(ws[i][threadIdx.x]);
    __syncthreads();
  }
  if (r < rows && c < cols) {
    float out = alpha * dot + b[c];
    if (beta != 0.0f)
      out += beta * Y[r * cols + c];
    Y[r * cols + c] = out;
  }
}

void addmm_betaif_run(const __nv_bfloat16 *X, const __nv_bfloat16 *W,
                      const float *b, float *Y, int rows, int cols, int depth,
                      float alpha, float beta) {
  dim3 block(TS, TS);
  dim3 grid((cols + TS - 1) / TS, (rows + TS - 1) / TS);
  addmm_betaif<<<grid, block>>>(X, W, b, Y, rows, cols, depth, alpha, beta);
}
