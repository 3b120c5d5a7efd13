// --migrate lifts double-buffered shared-memory GEMMs whose buffer index
// is a variable toggled at the end of each iteration ('int cur = 0;' before
// the loop, 'cur ^= 1;' or 'cur = 1 - cur;' as the loop body's last
// statement, or followed by barriers only): in iteration i it is i % 2 up
// to the toggle. Refused: the variable read after the loop, and a toggle
// before the product. (The outputs are checked without this file's own
// check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>

#define TILE 16

#define HEAD                                                                   \
  __shared__ __half sa[2][TILE][TILE];                                         \
  __shared__ __half sb[2][TILE][TILE];                                         \
  const int ty = threadIdx.y, tx = threadIdx.x;                                \
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;        \
  const int brow = blockIdx.x * TILE + ty;                                     \
  const int ntiles = (K + TILE - 1) / TILE;                                    \
  sa[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : __half();              \
  sb[0][ty][tx] = brow < N && tx < K ? B[brow * K + tx] : __half();            \
  __syncthreads();                                                             \
  float acc = 0.f;                                                             \
  int cur = 0;

// B stored N x K; the toggle 'cur ^= 1;'.
// CHECK-LABEL: __global__ void xor_toggle_tiled(
// CHECK: tawa::mma(acc, a, tawa::transpose(b));
// CHECK: tawa::store(C, m0, n0, alpha * acc);
__global__ void xor_toggle(const __half *A, const __half *B, float *C, int M,
                           int N, int K, float alpha) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < ntiles; ++t) {
    if (t + 1 < ntiles) {
      const int kn = (t + 1) * TILE + tx;
      sa[cur ^ 1][ty][tx] = row < M && kn < K ? A[row * K + kn] : __half();
      sb[cur ^ 1][ty][tx] = brow < N && kn < K ? B[brow * K + kn] : __half();
    }
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sa[cur][ty][k]) * __half2float(sb[cur][tx][k]);
    __syncthreads();
    cur ^= 1;
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc;
}

// The product first; the toggle 'cur = 1 - cur;'.
// CHECK-LABEL: __global__ void minus_toggle_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void minus_toggle(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < ntiles; ++t) {
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sa[cur][ty][k]) * __half2float(sb[cur][tx][k]);
    if (t + 1 < ntiles) {
      const int kn = (t + 1) * TILE + tx;
      sa[1 - cur][ty][tx] = row < M && kn < K ? A[row * K + kn] : __half();
      sb[1 - cur][ty][tx] = brow < N && kn < K ? B[brow * K + kn] : __half();
    }
    __syncthreads();
    cur = 1 - cur;
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Read after the loop.
// DIAG: toggled-buffer.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: 'cur', the buffer the loop toggles, may be read in the loop only
__global__ void read_after(const __half *A, const __half *B, float *C, int M,
                           int N, int K) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < ntiles; ++t) {
    if (t + 1 < ntiles) {
      const int kn = (t + 1) * TILE + tx;
      sa[cur ^ 1][ty][tx] = row < M && kn < K ? A[row * K + kn] : __half();
      sb[cur ^ 1][ty][tx] = brow < N && kn < K ? B[brow * K + kn] : __half();
    }
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sa[cur][ty][k]) * __half2float(sb[cur][tx][k]);
    __syncthreads();
    cur ^= 1;
  }
  if (row < M && col < N)
    C[row * N + col] = acc + cur;
}

// Toggled before the body's last barrier: nothing after the toggle reads it.
// CHECK-LABEL: __global__ void toggle_early_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void toggle_early(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < ntiles; ++t) {
    if (t + 1 < ntiles) {
      const int kn = (t + 1) * TILE + tx;
      sa[cur ^ 1][ty][tx] = row < M && kn < K ? A[row * K + kn] : __half();
      sb[cur ^ 1][ty][tx] = brow < N && kn < K ? B[brow * K + kn] : __half();
    }
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sa[cur][ty][k]) * __half2float(sb[cur][tx][k]);
    cur ^= 1;
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Toggled before the product, which then reads the buffer being staged.
// DIAG: toggled-buffer.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
__global__ void toggle_before_product(const __half *A, const __half *B,
                                      float *C, int M, int N, int K) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < ntiles; ++t) {
    if (t + 1 < ntiles) {
      const int kn = (t + 1) * TILE + tx;
      sa[cur ^ 1][ty][tx] = row < M && kn < K ? A[row * K + kn] : __half();
      sb[cur ^ 1][ty][tx] = brow < N && kn < K ? B[brow * K + kn] : __half();
    }
    cur ^= 1;
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sa[cur][ty][k]) * __half2float(sb[cur][tx][k]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void launch(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  xor_toggle<<<grid, block>>>(A, B, C, M, N, K, 2.0f);
  minus_toggle<<<grid, block>>>(A, B, C, M, N, K);
  read_after<<<grid, block>>>(A, B, C, M, N, K);
  toggle_early<<<grid, block>>>(A, B, C, M, N, K);
  toggle_before_product<<<grid, block>>>(A, B, C, M, N, K);
}
