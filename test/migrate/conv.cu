// Convolutions over NHWC activations. A 1x1 convolution written as a GEMM
// over pixels (M = N*H*W pixels, N = K filters, K = C channels) is a
// shared-memory tiled GEMM and lifts. A 3x3 one written as an implicit GEMM
// gathers its activations through '/' and '%' of the loop's index (the
// im2col of filter taps and channels): it lifts too (lib/ConvLift.cpp),
// into a tiled kernel over a tawa::Im2col view of the activations, which
// its launcher builds from the kernel's parameters; the kernel as written
// stays, but for its pragma. A GEMM that divides its loop index only into a tile
// number keeps the GEMM's verdict. Without --migrate, one run migrates and
// rewrites: the activations arrive through TMA's im2col mode.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: sed -n '/^__global__ void conv3x3(/,/^}/p' %s | grep -v '#pragma tawa tile' > %t.orig
// RUN: sed -n '/^__global__ void conv3x3(/,/^}/p' %t.cu | diff %t.orig -
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_bf16.h>

#define TILE 32
using bf16 = __nv_bfloat16;

// OUT-LABEL: __global__ void conv1x1_tiled(tawa::Matrix<const __nv_bfloat16> in,
// OUT: auto a = tawa::load<128, 64>(in, m0, k0);
// OUT-NEXT: auto b = tawa::load<256, 64>(w, n0, k0);
// OUT-NEXT: tawa::mma(acc, a, tawa::transpose(b));
__global__ void conv1x1(const bf16 *in, const bf16 *w, bf16 *out, int P, int C,
                        int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int p = blockIdx.y * TILE + ty;
  int k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  float acc = 0.f;
#pragma tawa tile
  for (int c0 = 0; c0 < C; c0 += TILE) {
    As[ty][tx] = p < P && c0 + tx < C ? in[p * C + c0 + tx] : bf16();
    Ws[ty][tx] = kload < K && c0 + tx < C ? w[kload * C + c0 + tx] : bf16();
    __syncthreads();
    for (int c = 0; c < TILE; ++c)
      acc += __bfloat162float(As[ty][c]) * __bfloat162float(Ws[tx][c]);
    __syncthreads();
  }
  if (p < P && k < K)
    out[p * K + k] = __float2bfloat16_rn(acc);
}

// 3x3, stride 1, padding 1; weights K x 3 x 3 x C.
// OUT-LABEL: __global__ void conv3x3_tiled(tawa::Im2col<const __nv_bfloat16> in,
// OUT-NEXT: tawa::Matrix<const __nv_bfloat16> w,
// OUT: for (int k0 = 0; k0 < w.cols; k0 += 64) {
// OUT-NEXT: auto a = tawa::load<128, 64>(in, m0, k0);
// OUT-NEXT: auto b = tawa::load<256, 64>(w, n0, k0);
// OUT-NEXT: tawa::mma(acc, a, tawa::transpose(b));
// OUT-LABEL: static void conv3x3_migrated_launch(
// OUT: const auto tawa_x = tawa::Im2col<const __nv_bfloat16>{in, N, H, W, C, 3, 3, H,
// OUT-NEXT: W, 1, 1, 1, 1, 1, 1};
// OUT: W <= 0 || C <= 0 || !tawa::im2col_tma_loadable(tawa_x) ||
// OUT: conv3x3<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(in, w, out, N,
// OUT: tawa_x, tawa::Matrix<const __nv_bfloat16>{w, K, 9 * C, 9 * C},
// WS: tawa::rt::tma_load_im2col_window(slot.a, &in_tensor_map,
// WS: maps = tawa::rt::make_im2col_map(&in_tensor_map, in, 128, 64);
__global__ void conv3x3(const bf16 *in, const bf16 *w, bf16 *out, int N, int H,
                        int W, int C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Ws[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int m = blockIdx.y * TILE + ty;
  int k = blockIdx.x * TILE + tx;
  int kload = blockIdx.x * TILE + ty;
  int n = m / (H * W), oh = (m / W) % H, ow = m % W;
  float acc = 0.f;
#pragma tawa tile
  for (int t = 0; t < 9 * C; t += TILE) {
    int kk = t + tx;
    int c = kk % C, rs = kk / C, r = rs / 3, s = rs % 3;
    int ih = oh + r - 1, iw = ow + s - 1;
    As[ty][tx] = m < N * H * W && kk < 9 * C && ih >= 0 && ih < H && iw >= 0 &&
                         iw < W
                     ? in[((n * H + ih) * W + iw) * C + c]
                     : bf16();
    Ws[ty][tx] = kload < K && kk < 9 * C ? w[kload * 9 * C + kk] : bf16();
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += __bfloat162float(As[ty][j]) * __bfloat162float(Ws[tx][j]);
    __syncthreads();
  }
  if (m < N * H * W && k < K)
    out[m * K + k] = __float2bfloat16_rn(acc);
}

// A tile number 't / TILE' alone splits nothing: the verdict is the GEMM's.
__global__ void tile_number(const bf16 *A, const bf16 *B, bf16 *C, int M,
                            int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.f;
  // CHECK: conv.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[#@LINE+3]] breaks it:
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    int tile = t / TILE;
    As[ty][tx] = row < M && t + tx < K ? A[row * K + tile * TILE + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'tile_number' is left unchanged
