// --migrate lifts K loops that count whole tiles with a floor division,
// 't < K / TILE' (or a local set to it): the kernel sums the first
// K / TILE * TILE elements of K only, and reads none past them, so its
// staging copies need no check against K. The launcher gives the tiled
// form that K extent, '(K / TILE * TILE)', for any K (below TILE it is 0,
// and the launch of no flops runs the kernel as written). Work after the
// loop that adds the elements the loop drops is refused. (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 32
using bf16 = __nv_bfloat16;

// Bounds checks on rows, columns and K.
// CHECK-LABEL: __global__ void checked(
__global__ void checked(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                        int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = row < M && t * TILE + tx < K ? A[row * K + t * TILE + tx] : bf16();
    Bs[ty][tx] = t * TILE + ty < K && col < N ? B[(t * TILE + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: __global__ void checked_tiled(
// CHECK: /// The kernel's K loop runs K / 32 whole tiles, dropping a partial last one:
// CHECK-NEXT: /// the tiled form sums the same K / 32 * 32 products per element.
// CHECK-NEXT: static void checked_migrated_launch(
// CHECK: const double tawa_flops = 2.0 * tawa_rows * tawa_cols * (K / 32 * 32);
// CHECK-NOT: K % 32
// CHECK: checked_tiled<<<
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, (K / 32 * 32), K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, (K / 32 * 32), N, N},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N});

// Rows and columns checked, K not (the loop stays inside it); fp16.
// CHECK-LABEL: __global__ void rows_checked(
__global__ void rows_checked(const __half *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ __half sA[TILE][TILE];
  __shared__ __half sB[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;
#pragma tawa tile
  for (int kk = 0; kk < K / TILE; ++kk) {
    sA[threadIdx.y][threadIdx.x] =
        row < M ? A[row * K + kk * TILE + threadIdx.x] : __float2half(0.f);
    sB[threadIdx.y][threadIdx.x] =
        col < N ? B[(kk * TILE + threadIdx.y) * N + col] : __float2half(0.f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(sA[threadIdx.y][k]) * __half2float(sB[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: __global__ void rows_checked_tiled(
// CHECK: static void rows_checked_migrated_launch(
// CHECK-NOT: K % 32
// CHECK: tawa::Matrix<const __half>{A, M, (K / 32 * 32), K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, (K / 32 * 32), N, N},

// Register-blocked (a 64 x 64 window, 4 x 4 per thread), the count of
// tiles a local.
// CHECK-LABEL: __global__ void blocked(
__global__ void blocked(const bf16 *A, const bf16 *B, float *C, int M, int N,
                        int K) {
  __shared__ bf16 As[64][16];
  __shared__ bf16 Bs[16][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    for (int i = 0; i < 4; ++i) {
      const int e = tid + i * 256;
      const int r = row0 + e / 16, c = col0 + e % 64;
      As[e / 16][e % 16] = r < M ? A[r * K + t * 16 + e % 16] : bf16();
      Bs[e / 64][e % 64] = c < N ? B[(t * 16 + e / 64) * N + c] : bf16();
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) *
                       __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
// CHECK: __global__ void blocked_tiled(
// CHECK: static void blocked_migrated_launch(
// CHECK-NOT: K % 16
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, (K / 16 * 16), K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, (K / 16 * 16), N, N},

// The elements the loop drops, added after it: refused.
__global__ void remainder_after(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  // DIAG: floor-bound.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+9]] breaks it: expected one store after the loop
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = row < M ? A[row * K + t * TILE + tx] : bf16();
    Bs[ty][tx] = col < N ? B[(t * TILE + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  for (int k = K / TILE * TILE; k < K; ++k)
    acc += __bfloat162float(A[row * K + k]) * __bfloat162float(B[k * N + col]);
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// DIAG: note: kernel 'remainder_after' is left unchanged
// DIAG2: warning: {{.*}}breaks it: expected one store after the loop
// DIAG2: note: kernel 'remainder_after' is left unchanged
// CHECK-LABEL: __global__ void remainder_after(
// CHECK: #pragma tawa tile
// CHECK-NEXT: for (int t = 0; t < K / TILE; ++t) {

// A check of K against another bound: refused.
__global__ void other_bound(const bf16 *A, const bf16 *B, float *C, int M,
                            int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  // DIAG: floor-bound.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected a bounds check 'row < M && col < K'
  // DIAG: floor-bound.cu:[[@LINE+2]]:
  for (int t = 0; t < K / TILE; ++t) {
    As[ty][tx] = row < M && t * TILE + tx < K - 1 ? A[row * K + t * TILE + tx] : bf16();
    Bs[ty][tx] = col < N ? B[(t * TILE + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// DIAG: note: kernel 'other_bound' is left unchanged
// DIAG2: warning: {{.*}}breaks it: expected a bounds check
// DIAG2: note: kernel 'other_bound' is left unchanged

void run(const bf16 *A, const bf16 *B, bf16 *C, float *D, const __half *H,
         int M, int N, int K) {
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  checked<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K);
  rows_checked<<<grid, dim3(TILE, TILE)>>>(H, H, D, M, N, K);
  blocked<<<dim3((N + 63) / 64, (M + 63) / 64), 256>>>(A, B, D, M, N, K);
  remainder_after<<<grid, dim3(TILE, TILE)>>>(A, B, D, M, N, K);
  other_bound<<<grid, dim3(TILE, TILE)>>>(A, B, D, M, N, K);
}
// CHECK-LABEL: void run(
// CHECK: checked_migrated_launch(grid, dim3(TILE, TILE), 0, 0, A, B, C, M, N, K);
// CHECK: rows_checked_migrated_launch(grid, dim3(TILE, TILE), 0, 0, H, H, D, M, N, K);
// CHECK: blocked_migrated_launch(dim3((N + 63) / 64, (M + 63) / 64), 256, 0, 0, A, B,
// CHECK: remainder_after<<<grid, dim3(TILE, TILE)>>>(A, B, D, M, N, K);
