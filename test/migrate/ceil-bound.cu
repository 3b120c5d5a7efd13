// A tile loop bounded by the ceil of a floating quotient, as tutorials write
// it: 'ph < ceil(n / (float)TILE)' counts ceil(n / TILE) tiles where float(n)
// is n, so the launcher runs the tiled form for n up to 2^24 only; with a
// double quotient, for any int n. 'ceil(n / TILE)' of an integer division
// is a floor, most likely meant as the ceil, and is refused with the two
// forms it may have meant. (The outputs are checked without this file's own
// check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>
#define TILE_WIDTH 16
__global__ void in_float(const __half *M, const __half *N, float *P, int n) {
  __shared__ __half Ms[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Ns[TILE_WIDTH][TILE_WIDTH];
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float v = 0;
#pragma tawa tile
  for (int ph = 0; ph < ceilf(n / (float)TILE_WIDTH); ++ph) {
    Ms[threadIdx.y][threadIdx.x] = row < n && ph * TILE_WIDTH + threadIdx.x < n
                                       ? M[row * n + ph * TILE_WIDTH + threadIdx.x]
                                       : __half();
    Ns[threadIdx.y][threadIdx.x] = col < n && ph * TILE_WIDTH + threadIdx.y < n
                                       ? N[(ph * TILE_WIDTH + threadIdx.y) * n + col]
                                       : __half();
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      v += __half2float(Ms[threadIdx.y][k]) * __half2float(Ns[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < n && col < n)
    P[row * n + col] = v;
}
__global__ void in_double(const __half *M, const __half *N, float *P, int n) {
  __shared__ __half Ms[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Ns[TILE_WIDTH][TILE_WIDTH];
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float v = 0;
#pragma tawa tile
  for (int ph = 0; ph < ceil(1.0 * n / TILE_WIDTH); ++ph) {
    Ms[threadIdx.y][threadIdx.x] = row < n && ph * TILE_WIDTH + threadIdx.x < n
                                       ? M[row * n + ph * TILE_WIDTH + threadIdx.x]
                                       : __half();
    Ns[threadIdx.y][threadIdx.x] = col < n && ph * TILE_WIDTH + threadIdx.y < n
                                       ? N[(ph * TILE_WIDTH + threadIdx.y) * n + col]
                                       : __half();
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      v += __half2float(Ms[threadIdx.y][k]) * __half2float(Ns[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < n && col < n)
    P[row * n + col] = v;
}
// DIAG: ceil-bound.cu:[[@LINE+8]]:3: warning: {{.*}}breaks it: 'ceil(K / TILE)' of an integer division is K / TILE rounded down before ceil sees it: write '(K + TILE - 1) / TILE' to count a partial last tile, or 'K / TILE' for whole tiles only
__global__ void in_int(const __half *M, const __half *N, float *P, int n) {
  __shared__ __half Ms[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Ns[TILE_WIDTH][TILE_WIDTH];
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float v = 0;
#pragma tawa tile
  for (int ph = 0; ph < ceil(n / TILE_WIDTH); ++ph) {
    Ms[threadIdx.y][threadIdx.x] = row < n && ph * TILE_WIDTH + threadIdx.x < n
                                       ? M[row * n + ph * TILE_WIDTH + threadIdx.x]
                                       : __half();
    Ns[threadIdx.y][threadIdx.x] = col < n && ph * TILE_WIDTH + threadIdx.y < n
                                       ? N[(ph * TILE_WIDTH + threadIdx.y) * n + col]
                                       : __half();
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      v += __half2float(Ms[threadIdx.y][k]) * __half2float(Ns[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < n && col < n)
    P[row * n + col] = v;
}
// DIAG: note: kernel 'in_int' is left unchanged

void run(const __half *A, const __half *B, float *C, int n) {
  dim3 b(TILE_WIDTH, TILE_WIDTH);
  dim3 g((n + TILE_WIDTH - 1) / TILE_WIDTH, (n + TILE_WIDTH - 1) / TILE_WIDTH);
  in_float<<<g, b>>>(A, B, C, n);
  in_double<<<g, b>>>(A, B, C, n);
  in_int<<<g, b>>>(A, B, C, n);
}
// CHECK-LABEL: static void in_float_migrated_launch(
// CHECK: tawa_grid.z == 0 || n > 16777216 ||
// CHECK-LABEL: static void in_double_migrated_launch(
// CHECK-NOT: n > 16777216
// CHECK: in_double<<<
// CHECK-LABEL: void run(
// CHECK: in_float_migrated_launch(g, b, 0, 0, A, B, C, n);
// CHECK: in_double_migrated_launch(g, b, 0, 0, A, B, C, n);
// CHECK: in_int<<<g, b>>>(A, B, C, n);
