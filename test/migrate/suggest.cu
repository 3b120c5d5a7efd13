// --suggest reports each loop of a kernel without a pragma that tawa-rewrite
// lifts, as a [tawa-candidate] warning with the fix-it that inserts the
// pragma; -o writes the file with it, and --migrate then lifts the loop.
// Loops it does not lift, and annotated kernels, are not candidates.
// RUN: %tawa-rewrite %s --suggest -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s --check-prefix=OUT
// RUN: %tawa-rewrite %t.cu --migrate -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -c '^  candidate_migrated_launch(grid, block' %t2.cu | FileCheck %s --check-prefix=MIGRATED
#include <cuda_bf16.h>
#include <mma.h>

#define TILE 32
using bf16 = __nv_bfloat16;

#define GEMM_BODY                                                              \
  for (int t = 0; t < K; t += TILE) {                                          \
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();         \
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();       \
    __syncthreads();                                                           \
    for (int k = 0; k < TILE; ++k)                                             \
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);        \
    __syncthreads();                                                           \
  }

// OUT-LABEL: __global__ void candidate(
// OUT: float acc = 0;
// OUT-NEXT: #pragma tawa tile
// OUT-NEXT: for (int t = 0; t < K; t += TILE) {
__global__ void candidate(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                          int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
  // CHECK: suggest.cu:[[@LINE+1]]:3: warning: this loop of kernel 'candidate' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it lets 'tawa-rewrite --migrate' re-express it in the tile vocabulary (docs/migration.md) [tawa-candidate]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}

// A store without the bounds check its staging copies have: not the
// liftable form, so no candidate.
// OUT-LABEL: __global__ void not_liftable(
// OUT-NOT: #pragma
// OUT: C[row * N + col]
__global__ void not_liftable(const bf16 *A, const bf16 *B, bf16 *C, int M,
                             int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = __float2bfloat16_rn(acc);
}

// A WMMA GEMM, one fragment per warp: a candidate too.
// OUT-LABEL: __global__ void wmma_candidate(
// OUT: nvcuda::wmma::fill_fragment(acc, 0.0f);
// OUT-NEXT: #pragma tawa tile
__global__ void wmma_candidate(const half *A, const half *B, float *C, int K,
                               int ld) {
  const int row = blockIdx.y * 16, col = blockIdx.x * 16;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half,
                         nvcuda::wmma::row_major> a;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half,
                         nvcuda::wmma::row_major> b;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  // CHECK: suggest.cu:[[@LINE+1]]:3: warning: this loop of kernel 'wmma_candidate' is a hand-written WMMA GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it
  for (int k = 0; k < K; k += 16) {
    nvcuda::wmma::load_matrix_sync(a, A + row * ld + k, ld);
    nvcuda::wmma::load_matrix_sync(b, B + k * ld + col, ld);
    nvcuda::wmma::mma_sync(acc, a, b, acc);
  }
  nvcuda::wmma::store_matrix_sync(C + row * ld + col, acc, ld,
                                  nvcuda::wmma::mem_row_major);
}

// A loop written through a macro: its text cannot take a pragma of its own.
__global__ void through_macro(const bf16 *A, const bf16 *B, bf16 *C, int M,
                              int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
  GEMM_BODY
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}

// A double-buffered loop is a candidate too.
// OUT-LABEL: __global__ void buffered_candidate(
// OUT: __syncthreads();
// OUT-NEXT: #pragma tawa tile
// OUT-NEXT: for (int t = 0; t < K; t += TILE) {
__global__ void buffered_candidate(const bf16 *A, const bf16 *B, float *C,
                                   int M, int N, int K) {
  __shared__ bf16 As[2][TILE][TILE];
  __shared__ bf16 Bs[2][TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  As[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : bf16();
  Bs[0][ty][tx] = ty < K && col < N ? B[ty * N + col] : bf16();
  __syncthreads();
  // CHECK: suggest.cu:[[@LINE+1]]:3: warning: this loop of kernel 'buffered_candidate' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it
  for (int t = 0; t < K; t += TILE) {
    const int cur = (t / TILE) % 2;
    if (t + TILE < K) {
      As[1 - cur][ty][tx] =
          row < M && t + TILE + tx < K ? A[row * K + t + TILE + tx] : bf16();
      Bs[1 - cur][ty][tx] =
          t + TILE + ty < K && col < N ? B[(t + TILE + ty) * N + col] : bf16();
    }
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[cur][ty][k]) * __bfloat162float(Bs[cur][k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// MIGRATED: 2
void launch(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K) {
  dim3 grid(N / TILE, M / TILE), block(TILE, TILE);
  candidate<<<grid, block>>>(A, B, C, M, N, K);
  candidate<<<grid, block>>>(A, B, C, M, N, K);
}
