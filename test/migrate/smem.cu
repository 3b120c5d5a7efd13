// --migrate lifts a hand-written shared-memory GEMM: the kernel stays as
// written without its pragma, its tile-vocabulary form and a launcher follow
// it, and its launches call the launcher. Kernels already in the tile
// vocabulary are left as they are. Rewriting the result makes the tiled
// kernel warp-specialized, with no warning. (The outputs are checked without
// this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// DIAG-NOT: {{warning|error}}:
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
#include <cuda_bf16.h>
#include <tawa/tile.h>

#define TILE 16

using bf16 = __nv_bfloat16;

// CHECK: #include <cuda_bf16.h>
// CHECK-NEXT: #include <tawa/tile.h>
// CHECK-NOT: #include

// CHECK-LABEL: __global__ void gemm_tn(
// CHECK: float acc = 0.0f;
// CHECK-NOT: #pragma tawa tile
// CHECK: for (int t = 0; t < K; t += TILE) {
__global__ void gemm_tn(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                        int K, int lda) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int arow = blockIdx.y * TILE + threadIdx.x; // A stored K x M
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.x][threadIdx.y] = t + threadIdx.y < K && arow < M
                                       ? A[(t + threadIdx.y) * lda + arow]
                                       : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: /// 'gemm_tn' in the tile vocabulary: C = A * B over the window of C that the
// CHECK: __global__ void gemm_tn_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: #pragma tawa tile
// CHECK-NEXT: for (int k0 = 0; k0 < A.rows; k0 += 64) {
// CHECK-NEXT: auto a = tawa::load<64, 128>(A, k0, m0);
// CHECK-NEXT: auto b = tawa::load<64, 256>(B, k0, n0);
// CHECK-NEXT: tawa::mma(acc, tawa::transpose(a), b);
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: static void gemm_tn_migrated_launch(dim3 tawa_grid, dim3 tawa_block,
// CHECK: const bool tawa_in_place =
// CHECK-NEXT: reinterpret_cast<unsigned long long>(A) % 16 == 0 &&
// CHECK-NEXT: (1LL * lda * sizeof(__nv_bfloat16)) % 16 == 0 &&
// CHECK-NEXT: reinterpret_cast<unsigned long long>(B) % 16 == 0 &&
// CHECK-NEXT: (1LL * N * sizeof(__nv_bfloat16)) % 16 == 0;
// CHECK-NEXT: const double tawa_flops = 2.0 * tawa_rows * tawa_cols * K;
// CHECK-NEXT: if (tawa_block.x != 16 || tawa_block.y != 16 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 ||
// CHECK-NEXT: tawa_flops < 16777216.0 || (tawa_flops < 268435456.0 && !tawa_in_place)) {
// CHECK-NEXT: gemm_tn<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(A, B, C, M, N,
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, K, M, lda},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N});

// Indices through blockDim, as most tutorials write them: the launcher runs
// the tiled form only for blocks of TILE x TILE threads, where blockDim is
// TILE.
// CHECK-LABEL: __global__ void gemm_blockdim(
__global__ void gemm_blockdim(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? A[row * K + t + threadIdx.x] : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K && col < N ? B[(t + threadIdx.y) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: __global__ void gemm_blockdim_tiled(
// CHECK: if (tawa_block.x != 16 || tawa_block.y != 16 || tawa_block.z != 1 ||

// The tile vocabulary already: left as it is.
// CHECK-LABEL: __global__ void tiled(
// CHECK: const int m0
// CHECK-NEXT: tawa::Accumulator<float, 128, 256> acc;
// CHECK-NEXT: #pragma tawa tile
__global__ void tiled(tawa::Matrix<const bf16> A, tawa::Matrix<const bf16> B,
                      tawa::Matrix<bf16> C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    auto a = tawa::load<128, 64>(A, m0, k0);
    auto b = tawa::load<256, 64>(B, n0, k0);
    tawa::mma(acc, a, tawa::transpose(b));
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK-LABEL: void run(
// CHECK: gemm_tn_migrated_launch(grid, dim3(TILE, TILE), 0, 0, A, B, C, M, N, K, M);
// CHECK: gemm_tn_migrated_launch(grid, dim3(TILE, TILE), 0, stream, A, B, C, M, N, K,
void run(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K,
         cudaStream_t stream) {
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_tn<<<grid, dim3(TILE, TILE)>>>(A, B, C, M, N, K, M);
  gemm_tn<<<grid, dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K, M);
}

// The second pass: the tiled kernel is rewritten and launched through its
// launcher; the original kernel, without its pragma, is left as written.
// REWRITTEN: __global__ void gemm_tn(const bf16 *A,
// REWRITTEN: __global__ void __launch_bounds__(384, 1)
// REWRITTEN: gemm_tn_tiled_launch(
