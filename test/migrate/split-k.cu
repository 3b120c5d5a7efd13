// --migrate lifts split-K loops: blockIdx.z picks a slice of `chunk`
// elements of K, 'for (int k0 = blockIdx.z * chunk; k0 < min(blockIdx.z *
// chunk + chunk, K); k0 += TILE)', and each layer adds its partial sum into
// C with atomicAdd. The layers' slices are disjoint and together cover the
// first min(grid.z * chunk, K) elements of K, so the tiled form sums that
// K extent once per element and adds the sum into C. Where chunk is no
// multiple of TILE (a tile would cross into the next slice, and the loop's
// checks against the slice's end are not K's), chunk < 1, or grid.z * chunk
// does not fit an int, the launcher runs the kernel as written (the refusals
// are in split-k-refusals.cu). (The outputs are checked without this file's
// own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 32

// The split-K kernel of the tutorials: the slice's end in a local, the
// copies checked against it.
// CHECK-LABEL: __global__ void split_k(
__global__ void split_k(const __half *A, const __half *B, float *C, int M,
                        int N, int K, int chunk) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[ty][tx] = row < M && k0 + tx < kEnd ? A[row * K + k0 + tx] : __half();
    Bs[ty][tx] = k0 + ty < kEnd && col < N ? B[(k0 + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: __global__ void split_k_tiled(
// CHECK: tawa::store(C, m0, n0, tawa::load<128, 256>(C, m0, n0) + acc);
// CHECK: /// The grid's layers sum slices of chunk elements of K (split-K), adding
// CHECK-NEXT: /// each into C: the tiled form sums their union, the first
// CHECK-NEXT: /// min(grid.z * chunk, K) elements, once, and adds that into C.
// CHECK-NEXT: static void split_k_migrated_launch(
// CHECK: const long long tawa_split_end = 1LL * tawa_grid.z * chunk;
// CHECK-NEXT: const int tawa_split_k = chunk < 1 {{ *}}? 0
// CHECK-NEXT: : tawa_split_end < K ? int(tawa_split_end)
// CHECK-NEXT: : K;
// CHECK: tawa_split_end > 2147483647LL || chunk % 32 != 0
// CHECK-NOT: tawa_grid.z != 1
// CHECK: split_k_tiled<<<dim3(tawa::ceil_div(tawa_cols, {{[0-9]+}}),
// CHECK-NEXT: tawa::ceil_div(tawa_rows, {{[0-9]+}})),
// CHECK: tawa::Matrix<const __half>{A, M, tawa_split_k, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, tawa_split_k, N, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});
// REWRITTEN-LABEL: static void split_k_migrated_launch(
// REWRITTEN: split_k_tiled_launch(

// The end written inline, std-style ternary, the copies checked against K,
// alpha times the sum, bf16 operands.
// CHECK-LABEL: __global__ void split_k_inline(
__global__ void split_k_inline(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               float *C, int M, int N, int K, int kChunk,
                               float alpha) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = blockIdx.z * kChunk;
       k0 < (blockIdx.z * kChunk + kChunk < K ? blockIdx.z * kChunk + kChunk : K);
       k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < K
        ? A[row * K + k0 + threadIdx.x] : __nv_bfloat16();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < K && col < N
        ? B[(k0 + threadIdx.y) * N + col] : __nv_bfloat16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], alpha * acc);
}
// CHECK: __global__ void split_k_inline_tiled(
// CHECK: tawa::store(C, m0, n0, tawa::load<128, 256>(C, m0, n0) + alpha * acc);
// CHECK: const long long tawa_split_end = 1LL * tawa_grid.z * kChunk;
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, tawa_split_k, K},

// atomicAdd with one layer: C[i] += acc, as written out.
// CHECK-LABEL: __global__ void atomic_one_layer(
__global__ void atomic_one_layer(const __half *A, const __half *B, float *C,
                                 int M, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: __global__ void atomic_one_layer_tiled(
// CHECK: tawa::store(C, m0, n0, tawa::load<128, 256>(C, m0, n0) + acc);
// CHECK: static void atomic_one_layer_migrated_launch(
// CHECK: tawa_grid.z != 1

// A register-blocked weight-gradient kernel split over K: each layer adds
// its slice's products into dW with atomicAdd.
// CHECK-LABEL: __global__ void blocked_split_k(
__global__ void blocked_split_k(float *dW, const __nv_bfloat16 *X,
                                const __nv_bfloat16 *dY, int M, int N, int K,
                                int chunk) {
  __shared__ __nv_bfloat16 As[16][64];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  const int threadCol = tid % 64, threadRow = tid / 64;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc[8] = {};
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += 16) {
    for (int e = tid; e < 16 * 64; e += 512) {
      const int k = e / 64, m = e % 64;
      As[k][m] = k0 + k < kEnd && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                              : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < 16 * 64; e += 512) {
      const int k = e / 64, n = e % 64;
      Bs[k][n] = k0 + k < kEnd && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                              : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < 8; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * 8 + i]) * b;
    }
    __syncthreads();
  }
  const int col = n0 + threadCol;
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + threadRow * 8 + i;
    if (row < M && col < N)
      atomicAdd(&dW[row * N + col], acc[i]);
  }
}
// CHECK: __global__ void blocked_split_k_tiled(
// CHECK: tawa::store(dW, m0, n0, tawa::load<128, 256>(dW, m0, n0) + acc);
// CHECK: static void blocked_split_k_migrated_launch(
// CHECK: const long long tawa_split_end = 1LL * tawa_grid.z * chunk;
// CHECK: tawa_split_end > 2147483647LL || chunk % 16 != 0
// CHECK-NOT: tawa_grid.z != 1
// CHECK: blocked_split_k_tiled<<<
// REWRITTEN-LABEL: static void blocked_split_k_migrated_launch(
// REWRITTEN: blocked_split_k_tiled_launch(

// The slice computed in the kernel from the grid's depth: the launcher
// computes it as the kernel does, from tawa_grid, before it sums the
// slices' union; where gridDim.z is 0 it computes nothing.
// CHECK-LABEL: __global__ void split_k_grid(
__global__ void split_k_grid(const __half *A, const __half *B, float *C,
                             int M, int N, int K) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const int chunk = (K + gridDim.z - 1) / gridDim.z;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[ty][tx] = row < M && k0 + tx < kEnd ? A[row * K + k0 + tx] : __half();
    Bs[ty][tx] = k0 + ty < kEnd && col < N ? B[(k0 + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: __global__ void split_k_grid_tiled(
// CHECK: static void split_k_grid_migrated_launch(
// CHECK: // 'chunk', as the kernel computes it.
// CHECK-NEXT: const int tawa_chunk =
// CHECK-NEXT: tawa_grid.z == 0
// CHECK-NEXT: ? 0
// CHECK-NEXT: : static_cast<int>(((K + tawa_grid.z) - 1u) / tawa_grid.z);
// CHECK-NEXT: const long long tawa_split_end = 1LL * tawa_grid.z * tawa_chunk;
// CHECK: tawa_split_end > 2147483647LL || tawa_chunk % 32 != 0 ||
// CHECK: tawa::Matrix<const __half>{A, M, tawa_split_k, K},
// REWRITTEN-LABEL: static void split_k_grid_migrated_launch(
// REWRITTEN: split_k_grid_tiled_launch(

// Register-blocked, the slice a whole number of tiles: the tiles of K
// shared out among the layers through a local of its own.
// CHECK-LABEL: __global__ void blocked_split_k_grid(
__global__ void blocked_split_k_grid(float *dW, const __nv_bfloat16 *X,
                                     const __nv_bfloat16 *dY, int M, int N,
                                     int K) {
  __shared__ __nv_bfloat16 As[16][64];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  const int threadCol = tid % 64, threadRow = tid / 64;
  const int splits = gridDim.z;
  const int tilesPerSplit = (K / 16 + splits - 1) / splits;
  const int kBegin = blockIdx.z * tilesPerSplit * 16;
  const int kEnd = min(kBegin + tilesPerSplit * 16, K);
  float acc[8] = {};
#pragma tawa tile
  for (int k0 = kBegin; k0 < kEnd; k0 += 16) {
    for (int e = tid; e < 16 * 64; e += 512) {
      const int k = e / 64, m = e % 64;
      As[k][m] = k0 + k < kEnd && m0 + m < M ? X[(k0 + k) * M + m0 + m]
                                              : __float2bfloat16_rn(0.f);
    }
    for (int e = tid; e < 16 * 64; e += 512) {
      const int k = e / 64, n = e % 64;
      Bs[k][n] = k0 + k < kEnd && n0 + n < N ? dY[(k0 + k) * N + n0 + n]
                                              : __float2bfloat16_rn(0.f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      const float b = __bfloat162float(Bs[k][threadCol]);
      for (int i = 0; i < 8; ++i)
        acc[i] += __bfloat162float(As[k][threadRow * 8 + i]) * b;
    }
    __syncthreads();
  }
  const int col = n0 + threadCol;
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + threadRow * 8 + i;
    if (row < M && col < N)
      atomicAdd(&dW[row * N + col], acc[i]);
  }
}
// CHECK: __global__ void blocked_split_k_grid_tiled(
// CHECK: static void blocked_split_k_grid_migrated_launch(
// CHECK: // 'splits', as the kernel computes it.
// CHECK-NEXT: const int tawa_splits = static_cast<int>(tawa_grid.z);
// CHECK-NEXT: // 'tilesPerSplit', as the kernel computes it.
// CHECK-NEXT: const int tawa_tilesPerSplit =
// CHECK-NEXT: tawa_splits < 1
// CHECK-NEXT: ? 0
// CHECK-NEXT: : static_cast<int>((((K / 16) + tawa_splits) - 1) / tawa_splits);
// CHECK-NEXT: const long long tawa_split_end =
// CHECK-NEXT: 1LL * tawa_grid.z * (16 * tawa_tilesPerSplit);
// CHECK: tawa_splits < 1
// REWRITTEN-LABEL: static void blocked_split_k_grid_migrated_launch(
// REWRITTEN: blocked_split_k_grid_tiled_launch(

// DIAG-NOT: warning
// DIAG2-NOT: warning
