// A '#pragma tawa tile' on the K loop of a hand-written kernel (no tile
// vocabulary in it) gets one verdict at the loop, naming the pattern it is
// closest to, with a note at each construct that shows it, instead of a
// warning per construct the tile vocabulary does not accept; the kernel is
// left as written. A loop that lifts (test/migrate/) is rewritten through
// its tile-vocabulary form, with no warning. --explain adds the warnings
// after the verdict.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=note:
// RUN: sed -n '/^__global__ void register_blocked(/,$p' %s > %t.orig
// RUN: sed -n '/^__global__ void register_blocked(/,$p' %t.cu | diff %t.orig -
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=LIFTED
// RUN: %tawa-rewrite %s --explain -o %t2.cu -- %cuda-stub > %t.explain 2> %t.err
// RUN: FileCheck %s --check-prefix=EXPLAIN < %t.explain
// RUN: FileCheck %s --check-prefix=DETAILS < %t.err
#include <cuda_bf16.h>

#define TILE 32

#include <mma.h>

using bf16 = __nv_bfloat16;
__device__ float fmaf(float, float, float);

// EXPLAIN-LABEL: kernel smem_tiled:
// EXPLAIN-NEXT: result: lifted: rewritten through its tile-vocabulary form (what --migrate writes), explained below
// LIFTED: __global__ void smem_tiled(const bf16 *A,
// LIFTED: __global__ void __launch_bounds__(384, 1) smem_tiled_tiled(
__global__ void smem_tiled(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                           int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}

__global__ void register_blocked(const float *A, const float *B, float *C,
                                 int N, int K) {
  __shared__ float As[8][128];
  __shared__ float Bs[8][128];
  float acc[8][8] = {};
  const float *a = A + blockIdx.y * 128 * K;
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line [[@LINE-5]] breaks it: the kernel computes in fp32 (an SGEMM); the tensor cores take bf16 or fp16 inputs, which would change its results. Add 'precision(3xtf32)' to the pragma for about fp32's accuracy (each operand split into two tf32 parts, three products per step), or 'precision(tf32)' where tf32's 10-bit mantissas are acceptable; otherwise convert the inputs to bf16 or fp16 yourself (docs/migration.md, 'Precision') [tawa-unsupported]
  // CHECK: legacy.cu:[[@LINE-6]]:20: note: the kernel computes in fp32
  for (int k0 = 0; k0 < K; k0 += 8) {
    // DETAILS: legacy.cu:[[@LINE-1]]:3: warning: this loop does not match a liftable pattern
    // DETAILS: warning: __shared__ variables are not supported in tile kernels
    // DETAILS: warning: statement not supported in a tile loop
    // CHECK: note: a staging copy from 'a' into __shared__ 'As'
    As[threadIdx.x % 8][threadIdx.x / 8] = a[(threadIdx.x / 8) * K + k0 + threadIdx.x % 8];
    // CHECK: note: a staging copy from 'B' into __shared__ 'Bs'
    Bs[threadIdx.x / 128][threadIdx.x % 128] = B[(k0 + threadIdx.x / 128) * N + blockIdx.x * 128 + threadIdx.x % 128];
    // CHECK: note: __syncthreads()
    __syncthreads();
    for (int k = 0; k < 8; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          // CHECK: note: a product accumulated in an inner loop, reading __shared__ 'As', 'Bs'
          acc[i][j] = fmaf(As[k][threadIdx.x / 16 * 8 + i], Bs[k][threadIdx.x % 16 * 8 + j], acc[i][j]);
    // CHECK: note: __syncthreads()
    __syncthreads();
  }
  C[threadIdx.x] = acc[0][0];
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'register_blocked' is left unchanged

__global__ void wmma_kernel(const bf16 *A, const bf16 *B, float *C, int K) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line [[@LINE+6]] breaks it: expected one 'wmma::load_matrix_sync(fragment, pointer, ld)' per operand, the pointer a matrix parameter plus a polynomial of the indices and ld an integer parameter or a named constant [tawa-unsupported]
  for (int k0 = 0; k0 < K; k0 += 16) {
    // CHECK: legacy.cu:[[@LINE+4]]:5: note: expected one 'wmma::load_matrix_sync
    // CHECK: note: wmma::load_matrix_sync: an operand fragment loaded
    wmma::load_matrix_sync(a, A + blockIdx.y * 16 * K + k0, K);
    // CHECK: note: wmma::load_matrix_sync: an operand fragment loaded
    wmma::load_matrix_sync(b, B + k0 * 64 + blockIdx.x * 16, 64);
    // CHECK: note: wmma::mma_sync: a fragment product
    wmma::mma_sync(c, a, b, c);
  }
  C[0] = 0;
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'wmma_kernel' is left unchanged

__global__ void naive(const float *A, const float *B, float *C, int N, int K) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is a hand-written GEMM reading its operands from global memory, and
  for (int k0 = 0; k0 < K; k0 += 4) {
    for (int k = k0; k < k0 + 4; ++k)
      // CHECK: note: a product accumulated in an inner loop, reading global memory
      acc += A[row * K + k] * B[k * N + col];
  }
  C[row * N + col] = acc;
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'naive' is left unchanged

// The naive kernel's product, once per iteration of the annotated loop.
__global__ void naive_flat(const float *A, const float *B, float *C, int N,
                           int K) {
  const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float acc = 0;
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is a hand-written GEMM reading its operands from global memory, and
  for (int k = 0; k < K; ++k)
    // CHECK: note: a product accumulated once per iteration, reading global memory
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'naive_flat' is left unchanged

// A warp's product through inline PTX mma.sync on register fragments.
__global__ void ptx_mma(const unsigned *A, const unsigned *B, float *C, int K) {
  __shared__ unsigned As[16][8];
  float c[4] = {};
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is a hand-written GEMM of PTX mma instructions on register fragments, and
  for (int k0 = 0; k0 < K; k0 += 16) {
    // CHECK: note: a staging copy from 'A' into __shared__ 'As'
    As[threadIdx.x / 8][threadIdx.x % 8] = A[k0 + threadIdx.x];
    const unsigned a = As[threadIdx.x / 4][threadIdx.x % 4], b = B[k0];
    // CHECK: note: a PTX matrix multiply-accumulate on register fragments
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a), "r"(b));
  }
  C[threadIdx.x] = c[0];
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'ptx_mma' is left unchanged

__global__ void no_product(float *x, int n) {
#pragma tawa tile
  // CHECK: legacy.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is not written in the tile vocabulary (no tawa::load or tawa::mma) and accumulates no product, so it is no GEMM loop [tawa-unsupported]
  for (int i = 0; i < n; i += 32)
    x[i + threadIdx.x] = 0;
}
// CHECK: legacy.cu:{{[0-9]+}}:17: note: kernel 'no_product' is left unchanged
