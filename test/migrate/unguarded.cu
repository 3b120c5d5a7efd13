// --migrate lifts the shared-memory GEMM written for extents that are
// multiples of the tile (no bounds check on the staging copies or the
// store, the loop bound K / TILE allowed): the launcher runs the tiled form
// over the whole window of C the grid covers, and only where K is a multiple
// of TILE, which is where the kernel as written reads K whole; for a bound
// K / TILE, for any K, over the first K / TILE * TILE elements of K, which
// is what the kernel as written sums. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
#include <cuda_fp16.h>

#define TILE_WIDTH 16

// The CUDA C Programming Guide's shared-memory matrix product, in fp16.
// CHECK-LABEL: __global__ void MatMulKernel(
// CHECK-NOT: #pragma tawa tile
// CHECK: for (int m = 0; m < Width / TILE_WIDTH; ++m) {
__global__ void MatMulKernel(const __half *Md, const __half *Nd, float *Pd,
                             int Width) {
  __shared__ __half Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
#pragma tawa tile
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
    __syncthreads();
  }
  Pd[Row * Width + Col] = Pvalue;
}
// CHECK: __global__ void MatMulKernel_tiled(tawa::Matrix<const __half> Md,
// CHECK-NEXT: tawa::Matrix<const __half> Nd,
// CHECK-NEXT: tawa::Matrix<float> Pd) {
// CHECK: for (int k0 = 0; k0 < Md.cols; k0 += 64) {
// CHECK-NEXT: auto a = tawa::load<128, 64>(Md, m0, k0);
// CHECK-NEXT: auto b = tawa::load<64, 256>(Nd, k0, n0);
// CHECK-NEXT: tawa::mma(acc, a, b);
// CHECK: tawa::store(Pd, m0, n0, acc);
// CHECK: /// the rows of C below tawa_grid.y * 16 and the columns below tawa_grid.x * 16,
// CHECK-NEXT: /// which those blocks compute whole (the kernel has no bounds checks);
// CHECK: /// The kernel's K loop runs Width / 16 whole tiles, dropping a partial last
// CHECK-NEXT: /// one: the tiled form sums the same Width / 16 * 16 products per element.
// CHECK: const int tawa_rows =
// CHECK-NEXT: tawa_rows_covered < 2147483647LL ? int(tawa_rows_covered) : 0;
// CHECK-NEXT: const int tawa_cols =
// CHECK-NEXT: tawa_cols_covered < 2147483647LL ? int(tawa_cols_covered) : 0;
// CHECK: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 ||
// CHECK-NEXT: tawa_flops < 16777216.0 || (tawa_flops < 268435456.0 && !tawa_in_place)) {
// CHECK-NEXT: MatMulKernel<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(
// CHECK-NEXT: Md, Nd, Pd, Width);
// CHECK: tawa::Matrix<const __half>{Md, tawa_rows, (Width / 16 * 16), Width},
// CHECK-NEXT: tawa::Matrix<const __half>{Nd, (Width / 16 * 16), tawa_cols, Width},
// CHECK-NEXT: tawa::Matrix<float>{Pd, tawa_rows, tawa_cols, Width});

// An element loop counter, B stored N x K, A's leading dimension a
// parameter, alpha: lifted the same way.
// CHECK-LABEL: __global__ void gemm_nt(
__global__ void gemm_nt(const __half *A, const __half *B, __half *C, int K,
                        int lda, int ldb, int ldc, float alpha) {
  __shared__ __half As[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Bs[TILE_WIDTH][TILE_WIDTH];
  const int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  const int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  const int brow = blockIdx.x * TILE_WIDTH + threadIdx.y;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE_WIDTH) {
    As[threadIdx.y][threadIdx.x] = A[row * lda + t + threadIdx.x];
    Bs[threadIdx.x][threadIdx.y] = B[brow * ldb + t + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      acc += __half2float(As[threadIdx.y][k]) *
             __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * ldc + col] = __float2half_rn(alpha * acc);
}
// CHECK: __global__ void gemm_nt_tiled(
// CHECK: auto b = tawa::load<256, 64>(B, n0, k0);
// CHECK-NEXT: tawa::mma(acc, a, tawa::transpose(b));
// CHECK: tawa::store(C, m0, n0, alpha * acc);
// CHECK: tawa_grid.z == 0 || K % 16 != 0 ||
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, K, lda},
// CHECK-NEXT: tawa::Matrix<const __half>{B, tawa_cols, K, ldb},
// CHECK-NEXT: tawa::Matrix<__half>{C, tawa_rows, tawa_cols, ldc}, alpha);

// CHECK-LABEL: void run(
// CHECK: MatMulKernel_migrated_launch(dim3(W / TILE_WIDTH, W / TILE_WIDTH),
// CHECK-NEXT: dim3(TILE_WIDTH, TILE_WIDTH), 0, 0, M, N, P, W);
void run(const __half *M, const __half *N, float *P, int W) {
  MatMulKernel<<<dim3(W / TILE_WIDTH, W / TILE_WIDTH),
                 dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, W);
}

// DIAG-NOT: {{warning|error}}:
// DIAG2-NOT: {{warning|error}}:
// REWRITTEN: __global__ void MatMulKernel(const __half *Md,
// REWRITTEN: MatMulKernel_tiled_launch(
// REWRITTEN: gemm_nt_tiled_launch(
