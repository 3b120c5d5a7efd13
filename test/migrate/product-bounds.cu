// A bounds check against a product of int parameters: the rows of a 1x1
// convolution over NHWC (N * H * W pixels, through a local) or the tokens
// of a batch (B * T, inline). The launcher names the product as the kernel
// computes it (lib/LiftSupport.h, boundOf). (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>

// A 1x1 convolution over NHWC as a GEMM: the N * H * W pixels by the C
// channels times the K x C weights.
__global__ void conv1x1_nhwc(const __half *x, const __half *w, __half *y,
                             int N, int H, int W, int C, int K) {
  __shared__ __half Xs[32][32], Ws[32][32];
  const int P = N * H * W;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int p = blockIdx.y * 32 + ty, k = blockIdx.x * 32 + tx;
  const int kw = blockIdx.x * 32 + ty;
  float acc = 0.0f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += 32) {
    Xs[ty][tx] = p < P && c0 + tx < C ? x[p * C + c0 + tx] : __float2half_rn(0.0f);
    Ws[ty][tx] = kw < K && c0 + tx < C ? w[kw * C + c0 + tx] : __float2half_rn(0.0f);
    __syncthreads();
    for (int kk = 0; kk < 32; ++kk)
      acc += __half2float(Xs[ty][kk]) * __half2float(Ws[tx][kk]);
    __syncthreads();
  }
  if (p < P && k < K)
    y[p * K + k] = __float2half_rn(acc);
}
// Rows bounded by the product written inline, batch times sequence.
__global__ void tokens_linear(const __half *x, const __half *w, float *y,
                              int B, int T, int D, int F) {
  __shared__ __half Xs[16][16], Ws[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < D; t += 16) {
    Xs[ty][tx] = row < B * T && t + tx < D ? x[row * D + t + tx] : __float2half_rn(0.0f);
    Ws[ty][tx] = t + ty < D && col < F ? w[(t + ty) * F + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(Xs[ty][k]) * __half2float(Ws[k][tx]);
    __syncthreads();
  }
  if (row < B * T && col < F)
    y[row * F + col] = acc;
}
// CHECK-LABEL: static void conv1x1_nhwc_migrated_launch(
// CHECK: N * H * W < tawa_rows_covered ? N * H * W : int(tawa_rows_covered);
// CHECK: if (1LL * N * H * W * C > 2147483647LL || 1LL * K * C > 2147483647LL ||
// CHECK-NEXT: 1LL * N * H * W * K > 2147483647LL) {
// CHECK: tawa::Matrix<const __half>{x, N * H * W, C, C},
// CHECK-NEXT: tawa::Matrix<const __half>{w, K, C, C},
// CHECK-LABEL: static void tokens_linear_migrated_launch(
// CHECK: B * T < tawa_rows_covered ? B * T : int(tawa_rows_covered);
// CHECK: tawa::Matrix<const __half>{x, B * T, D, D},

// A bound of twice a parameter is no product of extents: refused.
__global__ void doubled_rows(const __half *x, const __half *w, float *y,
                             int M, int D, int F) {
  __shared__ __half Xs[16][16], Ws[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // DIAG: product-bounds.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}expected a bounds check 'row < M && col < K' (or 'row <= M - 1' of a signed row, or 'k + 8 <= K') of integer parameters or named constants, or products of int parameters ('row < N * H * W')
  for (int t = 0; t < D; t += 16) {
    Xs[ty][tx] = row < 2 * M && t + tx < D ? x[row * D + t + tx] : __float2half_rn(0.0f);
    Ws[ty][tx] = t + ty < D && col < F ? w[(t + ty) * F + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(Xs[ty][k]) * __half2float(Ws[k][tx]);
    __syncthreads();
  }
  if (row < 2 * M && col < F)
    y[row * F + col] = acc;
}
// DIAG: note: kernel 'doubled_rows' is left unchanged
