// --migrate lifts shared-memory GEMMs over a batch of matrices: blockIdx.z
// picks the matrix, through `blockIdx.z * stride` in an index or a pointer
// set before the loop (`p + i`, `p += i`). The tiled form reads and writes
// matrix blockIdx.z of tawa::Matrix batches; a matrix without a blockIdx.z
// term is shared by the whole batch. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
#include <cuda_bf16.h>

#define TILE 32
using bf16 = __nv_bfloat16;

// The batch term in the indices, M x K by K x N matrices packed one after
// the other.
// CHECK-LABEL: __global__ void bmm_index(
__global__ void bmm_index(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                          int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int b = blockIdx.z;
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && t + threadIdx.x < K
                                       ? A[b * M * K + row * K + t + threadIdx.x]
                                       : bf16();
    Bs[threadIdx.y][threadIdx.x] = t + threadIdx.y < K && col < N
                                       ? B[b * K * N + (t + threadIdx.y) * N + col]
                                       : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[b * M * N + row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: /// 'bmm_index' in the tile vocabulary: C = A * B, for each matrix blockIdx.z of
// CHECK: const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256, z = blockIdx.z;
// CHECK: auto a = tawa::load<128, 64>(A.batch(z), m0, k0);
// CHECK-NEXT: auto b = tawa::load<64, 256>(B.batch(z), k0, n0);
// CHECK: tawa::store(C.batch(z), m0, n0, acc);
// CHECK: (1LL * M * K * sizeof(__nv_bfloat16)) % 16 == 0 &&
// CHECK: (1LL * N * K * sizeof(__nv_bfloat16)) % 16 == 0;
// CHECK: tawa::ceil_div(tawa_rows, 128), tawa_grid.z),
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K, int(tawa_grid.z),
// CHECK-NEXT: 1LL * M * K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N, int(tawa_grid.z),
// CHECK-NEXT: 1LL * N * K},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N, int(tawa_grid.z),
// CHECK-NEXT: 1LL * M * N});

// Strided batches through pointers set before the loop, B shared by the
// whole batch (stored N x K), alpha and beta.
// CHECK-LABEL: __global__ void bmm_pointers(
__global__ void bmm_pointers(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K, int strideA, int strideC,
                             float alpha, float beta) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE + 1];
  const bf16 *a = A + blockIdx.z * strideA;
  C += blockIdx.z * strideC;
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int brow = blockIdx.x * TILE + threadIdx.y;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && t + threadIdx.x < K ? a[row * K + t + threadIdx.x] : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        brow < N && t + threadIdx.x < K ? B[brow * K + t + threadIdx.x] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[threadIdx.x][k]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
// CHECK: auto a = tawa::load<128, 64>(A.batch(z), m0, k0);
// CHECK-NEXT: auto b = tawa::load<256, 64>(B, n0, k0);
// CHECK: tawa::store(C.batch(z), m0, n0,
// CHECK-NEXT: alpha * acc + beta * tawa::load<128, 256>(C.batch(z), m0, n0));
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K, int(tawa_grid.z),
// CHECK-NEXT: 1LL * strideA},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, N, K, K},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N, int(tawa_grid.z),
// CHECK-NEXT: 1LL * strideC},

// DIAG-NOT: {{warning|error}}:
// DIAG2-NOT: {{warning|error}}:
// REWRITTEN: bmm_index_tiled_launch(
// REWRITTEN: bmm_pointers_tiled_launch(
