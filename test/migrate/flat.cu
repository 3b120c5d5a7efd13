// --migrate lifts the one-dimensional style of SGEMM tutorials (on 16-bit
// data): a block of TILE * TILE threads split by TILE into a row and a
// column, one-dimensional tiles, blockIdx.x walking the rows of C, and
// pointers advanced in the loop by one tile per iteration. (The outputs are
// checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define BLOCKSIZE 32
#define T 16

// CHECK-LABEL: __global__ void sgemm_shared_mem_block(
// CHECK-NOT: #pragma tawa tile
__global__ void sgemm_shared_mem_block(int M, int N, int K, float alpha,
                                       const __nv_bfloat16 *A,
                                       const __nv_bfloat16 *B, float beta,
                                       float *C) {
  const unsigned cRow = blockIdx.x;
  const unsigned cCol = blockIdx.y;
  __shared__ __nv_bfloat16 As[BLOCKSIZE * BLOCKSIZE];
  __shared__ __nv_bfloat16 Bs[BLOCKSIZE * BLOCKSIZE];
  const unsigned threadCol = threadIdx.x % BLOCKSIZE;
  const unsigned threadRow = threadIdx.x / BLOCKSIZE;
  A += cRow * BLOCKSIZE * K;
  B += cCol * BLOCKSIZE;
  C += cRow * BLOCKSIZE * N + cCol * BLOCKSIZE;
  float tmp = 0.0;
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
    As[threadRow * BLOCKSIZE + threadCol] = A[threadRow * K + threadCol];
    Bs[threadRow * BLOCKSIZE + threadCol] = B[threadRow * N + threadCol];
    __syncthreads();
    A += BLOCKSIZE;
    B += BLOCKSIZE * N;
    for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx)
      tmp += __bfloat162float(As[threadRow * BLOCKSIZE + dotIdx]) *
             __bfloat162float(Bs[dotIdx * BLOCKSIZE + threadCol]);
    __syncthreads();
  }
  C[threadRow * N + threadCol] =
      alpha * tmp + beta * C[threadRow * N + threadCol];
}
// CHECK: __global__ void
// CHECK-NEXT: sgemm_shared_mem_block_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: /// `sgemm_shared_mem_block<<<tawa_grid, tawa_block, tawa_shared,
// CHECK-NEXT: /// tawa_stream>>>(...)` would: its tile-vocabulary form where the block is
// CHECK-NEXT: /// 1024 threads (one-dimensional) (the thread mapping tawa-rewrite proved),
// CHECK-NEXT: /// computing the rows of C below tawa_grid.x * 32 and the columns below
// CHECK-NEXT: /// tawa_grid.y * 32, which those blocks compute whole (the kernel has no
// CHECK-NEXT: /// bounds checks), where K is a multiple of 32;
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.x * 32,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.y * 32;
// CHECK: if (tawa_block.x != 1024 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 32 != 0 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N}, alpha, beta);

// One-dimensional tiles in a two-dimensional block, the loop counting
// tiles, and a local pointer advanced between the staging copies.
// CHECK-LABEL: __global__ void tiles1d(
__global__ void tiles1d(const __half *A, const __half *B, __half *C, int M,
                        int N, int K) {
  __shared__ __half As[T * T], Bs[T * T];
  const int row = blockIdx.y * T + threadIdx.y,
            col = blockIdx.x * T + threadIdx.x;
  const __half *a = A + row * K + threadIdx.x;
  float acc = 0;
#pragma tawa tile
  for (int t = 0; t < (K + T - 1) / T; ++t) {
    As[threadIdx.y * T + threadIdx.x] =
        row < M && t * T + threadIdx.x < K ? a[0] : __float2half_rn(0.0f);
    a += T;
    Bs[threadIdx.y * T + threadIdx.x] = t * T + threadIdx.y < K && col < N
                                            ? B[(t * T + threadIdx.y) * N + col]
                                            : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += __half2float(As[threadIdx.y * T + k]) *
             __half2float(Bs[k * T + threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half_rn(acc);
}
// CHECK: tawa::Matrix<const __half>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, K, N, N},

// DIAG-NOT: warning
// DIAG2-NOT: warning
