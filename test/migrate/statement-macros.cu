// --migrate reads the statement macros of hand-written kernels: a macro
// written as `do { ... } while (0)` (so that `STAGE(...);` is one
// statement) runs its body once, as the body alone would. The staging
// copies, barriers and WMMA calls such macros hold are read as if written
// in place, in the shared-memory, register-blocked and WMMA front ends.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// DIAG-NOT: {{warning|error}}:
#include <cuda_bf16.h>
#include <mma.h>

#define TILE 16
using bf16 = __nv_bfloat16;

#define STAGE(dst, src, r, c, rows, cols, ld)                                  \
  do {                                                                         \
    (dst)[threadIdx.y][threadIdx.x] =                                          \
        (r) < (rows) && (c) < (cols) ? (src)[(r) * (ld) + (c)] : bf16();       \
  } while (0)
#define SYNC()                                                                 \
  do {                                                                         \
    __syncthreads();                                                           \
  } while (false)

// A classic 16 x 16 tiled kernel whose copies and barriers are macros.
// CHECK-LABEL: __global__ void gemm_macros(
// CHECK-NOT: #pragma tawa tile
// CHECK: __global__ void gemm_macros_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: tawa::mma(acc, a, b);
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: static void gemm_macros_migrated_launch(
__global__ void gemm_macros(const bf16 *A, const bf16 *B, float *C, int M,
                            int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    STAGE(As, A, row, t + threadIdx.x, M, K, K);
    STAGE(Bs, B, t + threadIdx.y, col, K, N, N);
    SYNC();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    SYNC();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A register-blocked kernel whose macro holds both staging loops, several
// statements in one `do`.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8
#define LOAD_TILES(As, Bs, A, B)                                               \
  do {                                                                         \
    for (int off = 0; off < BM; off += strideA)                                \
      As[(innerRowA + off) * BK + innerColA] =                                 \
          A[(innerRowA + off) * K + innerColA];                                \
    for (int off = 0; off < BK; off += strideB)                                \
      Bs[(innerRowB + off) * BN + innerColB] =                                 \
          B[(innerRowB + off) * N + innerColB];                                \
  } while (0)
// CHECK-LABEL: __global__ void blocked_macros(
// CHECK: __global__ void blocked_macros_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: static void blocked_macros_migrated_launch(
__global__ void blocked_macros(int M, int N, int K, const bf16 *A,
                               const bf16 *B, float *C) {
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ bf16 As[BM * BK];
  __shared__ bf16 Bs[BK * BN];
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int strideA = 64 / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  const int strideB = 64 / BN;
  float results[TM * TN] = {0.0f};
#pragma tawa tile
  for (int bk = 0; bk < K; bk += BK) {
    LOAD_TILES(As, Bs, A, B);
    SYNC();
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          results[i * TN + j] += __bfloat162float(As[(threadRow * TM + i) * BK + d]) *
                                 __bfloat162float(Bs[d * BN + threadCol * TN + j]);
    SYNC();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(threadRow * TM + i) * N + threadCol * TN + j] = results[i * TN + j];
}

// WMMA calls behind macros.
using namespace nvcuda;
#define LOAD_FRAG(frag, ptr, ld)                                               \
  do {                                                                         \
    wmma::load_matrix_sync(frag, ptr, ld);                                     \
  } while (0)
// CHECK-LABEL: __global__ void wmma_macros(
// CHECK: __global__ void wmma_macros_tiled(tawa::Matrix<const __half> a,
// CHECK: tawa::store(c, m0, n0, acc);
// CHECK: static void wmma_macros_migrated_launch(
__global__ void wmma_macros(const half *a, const half *b, float *c, int M,
                            int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += 16) {
    if (warpM * 16 < M && i < K && warpN * 16 < N) {
      LOAD_FRAG(a_frag, a + warpM * 16 * K + i, K);
      LOAD_FRAG(b_frag, b + i * N + warpN * 16, N);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  if (warpM * 16 < M && warpN * 16 < N)
    wmma::store_matrix_sync(c + warpM * 16 * N + warpN * 16, acc_frag, N,
                            wmma::mem_row_major);
}

// CHECK-LABEL: void run(
// CHECK: gemm_macros_migrated_launch(dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16),
// CHECK: blocked_macros_migrated_launch(dim3(N / 64, M / 64), 64, 0, 0, M, N, K, A, B,
// CHECK: wmma_macros_migrated_launch(dim3(M / 64, N / 16), dim3(128, 1), 0, 0, a, b, c,
void run(const bf16 *A, const bf16 *B, float *C, const half *a,
         const half *b, float *c, int M, int N, int K) {
  gemm_macros<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
  blocked_macros<<<dim3(N / 64, M / 64), 64>>>(M, N, K, A, B, C);
  wmma_macros<<<dim3(M / 64, N / 16), dim3(128, 1)>>>(a, b, c, M, N, K);
}
