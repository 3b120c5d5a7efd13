// --migrate lifts staging copies guarded by an `if` without an `else`,
// which leave the elements outside the matrix as an earlier copy left them.
// Those past M or N reach only results the store leaves out; those past
// K's end are read unless the product stops there. Where it stops ('k <
// min(TILE, K - t)', through a local, or 'k < TILE && t + k < K'), the
// tiled form runs for every K; where it does not, only where K is a
// multiple of TILE, and the kernel as written runs for the others. (The
// outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>

#define TILE_WIDTH 16

// The product stops at K's end through a local set to min().
// CHECK-LABEL: static void matmul_kmax_migrated_launch(
// CHECK-NOT: K % 16 != 0
// CHECK: matmul_kmax<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(
// CHECK: matmul_kmax_tiled<<<
__global__ void matmul_kmax(const __half *A, const __half *B, float *C, int M,
                            int N, int K) {
  __shared__ __half tileA[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half tileB[TILE_WIDTH][TILE_WIDTH];
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  int numTiles = (K + TILE_WIDTH - 1) / TILE_WIDTH;
  float sum = 0.0f;
#pragma tawa tile
  for (int t = 0; t < numTiles; ++t) {
    int aCol = t * TILE_WIDTH + threadIdx.x;
    int bRow = t * TILE_WIDTH + threadIdx.y;
    if (row < M && aCol < K)
      tileA[threadIdx.y][threadIdx.x] = A[row * K + aCol];
    if (bRow < K && col < N)
      tileB[threadIdx.y][threadIdx.x] = B[bRow * N + col];
    __syncthreads();
    int kmax = min(TILE_WIDTH, K - t * TILE_WIDTH);
    for (int k = 0; k < kmax; ++k)
      sum += __half2float(tileA[threadIdx.y][k]) *
             __half2float(tileB[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

// The product stops at K's end in its own condition, an element counter.
// CHECK-LABEL: static void matmul_and_migrated_launch(
// CHECK-NOT: K % 16 != 0
// CHECK: matmul_and_tiled<<<
__global__ void matmul_and(const __half *A, const __half *B, float *C, int M,
                           int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH && k0 + k < K; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// The product runs over the whole tile: the elements past K's end are
// stale where K is no multiple of 16, so the launcher runs the kernel as
// written there.
// DIAG-NOT: warning:
// CHECK: /// tawa_grid.x * 16), which those blocks compute, where K is a multiple of 16;
// CHECK-LABEL: static void matmul_stale_migrated_launch(
// CHECK: K % 16 != 0
// CHECK-NEXT: tawa_flops
// CHECK-NEXT: matmul_stale<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(
__global__ void matmul_stale(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col]
                                        : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A conditional that is min() written out, the operands the other way.
// CHECK-LABEL: static void matmul_cond_migrated_launch(
// CHECK-NOT: K % 16 != 0
// CHECK: matmul_cond_tiled<<<
__global__ void matmul_cond(const __half *A, const __half *B, float *C, int M,
                            int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < (K - k0 > TILE_WIDTH ? TILE_WIDTH : K - k0); ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Refused: the product stops one element short of K's end.
// DIAG: unfilled-copies.cu:[[@LINE+12]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: the statement at line [[@LINE+17]] breaks it
// DIAG-SAME: the product loop must run over the 16 elements of K that one iteration stages, 'k < 16', or stop at K's end: 'k < min(16, K - k0)'
__global__ void matmul_short(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH && k0 + k < K - 1; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Refused: a copy whose guard is not the element's bounds (it leaves out
// the last row of A), whose stale elements the stored results read.
// DIAG: unfilled-copies.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern
__global__ void matmul_guard(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row + 1 < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Refused: the product's stop compares an unsigned difference, which
// wraps ('k + k0 - K < 0' never holds: the kernel as written sums nothing).
// DIAG: unfilled-copies.cu:[[@LINE+11]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: or stop at K's end: 'k < min(16, K - k0)'
__global__ void matmul_wraps(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    if (row < M && k0 + tx < K)
      As[ty][tx] = A[row * K + k0 + tx];
    if (k0 + ty < K && col < N)
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
    for (unsigned k = 0; k < TILE_WIDTH && k + k0 - K < 0; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Refused: a tile narrower than the 16 x 16 elements each iteration
// stages, whose copies in the kernel as written run into the next row.
// DIAG: unfilled-copies.cu:[[@LINE+11]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: the tile 'As' has 16 x 8 elements, fewer than the 16 x 16 that one iteration stages and reads
__global__ void matmul_narrow(const __half *A, const __half *B, float *C, int M,
                              int N, int K) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH / 2];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += TILE_WIDTH) {
    As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : __half();
    Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void launch(const __half *A, const __half *B, float *C, int M, int N, int K) {
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((N + TILE_WIDTH - 1) / TILE_WIDTH, (M + TILE_WIDTH - 1) / TILE_WIDTH);
  matmul_kmax<<<grid, block>>>(A, B, C, M, N, K);
  matmul_and<<<grid, block>>>(A, B, C, M, N, K);
  matmul_stale<<<grid, block>>>(A, B, C, M, N, K);
  matmul_cond<<<grid, block>>>(A, B, C, M, N, K);
  matmul_short<<<grid, block>>>(A, B, C, M, N, K);
  matmul_guard<<<grid, block>>>(A, B, C, M, N, K);
  matmul_wraps<<<grid, block>>>(A, B, C, M, N, K);
  matmul_narrow<<<grid, block>>>(A, B, C, M, N, K);
}
