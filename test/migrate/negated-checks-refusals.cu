// Negated bounds checks ('negated-checks.cu') that do not negate the check
// the copy needs: `&&` for `||` in the negation, zero fills of the elements
// inside the matrix, a source size that reads the elements outside, and a
// source that is the matrix's base where the copy reads. Each is refused
// and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | grep -c 'warning: this loop does not match a liftable pattern' | FileCheck %s --check-prefix=COUNT
// RUN: diff %s %t.cu
// COUNT: {{^}}6{{$}}
#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <stdint.h>

#define TILE 16

__global__ void and_instead_of_or(const __half *A, const __half *B, float *C,
                               int M, int N, int K) {
  __shared__ __half As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = (row >= M && t + tx >= K) ? __half() : A[row * K + t + tx];
    if (t + ty >= K || col >= N)
      Bs[ty][tx] = __half();
    else
      Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// CHECK: negated-checks-refusals.cu:[[@LINE-14]]:57: note: elements outside the matrix must read as 0

// 32 x 32 x 16 tiles, 64 threads, 4 x 4 per thread.
#define HEAD                                                                   \
  __shared__ __align__(16) __half As[32][16];                                  \
  __shared__ __align__(16) __half Bs[16][32];                                  \
  const int tid = threadIdx.x, tx = tid % 8, ty = tid / 8;                     \
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;                    \
  float acc[4][4] = {};
#define PRODUCT                                                                \
  for (int k = 0; k < 16; ++k)                                                 \
    for (int i = 0; i < 4; ++i)                                                \
      for (int j = 0; j < 4; ++j)                                              \
        acc[i][j] += __half2float(As[ty * 4 + i][k]) *                         \
                     __half2float(Bs[k][tx * 4 + j]);
#define STORE                                                                  \
  for (int i = 0; i < 4; ++i)                                                  \
    for (int j = 0; j < 4; ++j) {                                              \
      const int r = row0 + ty * 4 + i, c = col0 + tx * 4 + j;                  \
      if (r < M && c < N)                                                      \
        C[r * N + c] = acc[i][j];                                              \
    }
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K

__global__ void fills_inside(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aOut = ar >= M || ak >= K;
    const bool bIn = bk < K && bc < N;
    __pipeline_memcpy_async(&As[tid / 2][tid % 2 * 8],
                            aOut ? A : &A[ar * K + ak], 16, aOut ? 0 : 16);
    __pipeline_memcpy_async(&Bs[tid / 4][tid % 4 * 8],
                            !bIn ? B : &B[bk * N + bc], 16, 16 * !bIn);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: negated-checks-refusals.cu:[[@LINE-12]]:5: note: expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)' (4, 8 or 16 bytes of consecutive elements, filled with zeros outside a bounds check as '..., 16, ok ? 0 : 16)' or not at all) among the staging copies, then '__pipeline_commit();' and '__pipeline_wait_prior(0);' before the barrier that follows them

__global__ void fills_inside_product(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aOut = ar >= M || ak >= K;
    const bool bIn = bk < K && bc < N;
    __pipeline_memcpy_async(&As[tid / 2][tid % 2 * 8],
                            aOut ? A : &A[ar * K + ak], 16, aOut ? 16 : 0);
    __pipeline_memcpy_async(&Bs[tid / 4][tid % 4 * 8],
                            !bIn ? B : &B[bk * N + bc], 16, 16 * bIn);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: negated-checks-refusals.cu:[[@LINE-10]]:5: note: expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)' (4, 8 or 16 bytes of consecutive elements, filled with zeros outside a bounds check as '..., 16, ok ? 0 : 16)' or not at all) among the staging copies, then '__pipeline_commit();' and '__pipeline_wait_prior(0);' before the barrier that follows them

__global__ void reads_outside(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aIn = ar < M && ak < K;
    const bool bOut = bk >= K || bc >= N;
    const uint32_t sa = __cvta_generic_to_shared(&As[tid / 2][tid % 2 * 8]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[tid / 4][tid % 4 * 8]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                 "l"(aIn ? &A[ar * K + ak] : A), "r"(!aIn * 16));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bOut ? B : &B[bk * N + bc]), "r"(bOut ? 0 : 16));
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: negated-checks-refusals.cu:[[@LINE-11]]:5: note: expected 'cp.async.cg.shared.global [%0], [%1], 16;' with inputs "r"(<the shared address of a tile element>) and "l"(&matrix[j]) (and a source size "r"(ok ? 16 : 0) after the 16 for a copy under a bounds check) among the staging copies, then 'cp.async.commit_group;' and 'cp.async.wait_group 0;' (or 'cp.async.wait_all;') before the barrier that follows them; each copy alone in an asm statement without outputs, commits and waits alone or together without operands

__global__ void source_swapped(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aIn = ar < M && ak < K;
    const bool bOut = bk >= K || bc >= N;
    const uint32_t sa = __cvta_generic_to_shared(&As[tid / 2][tid % 2 * 8]);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[tid / 4][tid % 4 * 8]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sa),
                 "l"(aIn ? &A[ar * K + ak] : A), "r"(aIn * 16));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bOut ? &B[bk * N + bc] : B), "r"(bOut ? 0 : 16));
    asm volatile("cp.async.wait_all;\n" ::: "memory");
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: negated-checks-refusals.cu:[[@LINE-2]]:3: note: the accumulator stored at line 148 does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration

// A zero fill of `16 - 8 * ok` (8 bytes where ok holds) and a source size
// of `ok << 3` (8 of the 16 bytes): both fill part of an element range that
// the check says is inside the matrix.
__global__ void partial_sizes(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
    const int ar = row0 + tid / 2, ak = t * 16 + tid % 2 * 8;
    const int bk = t * 16 + tid / 4, bc = col0 + tid % 4 * 8;
    const bool aIn = ar < M && ak < K;
    const bool bIn = bk < K && bc < N;
    __pipeline_memcpy_async(&As[tid / 2][tid % 2 * 8],
                            aIn ? &A[ar * K + ak] : A, 16, 16 - 8 * aIn);
    const uint32_t sb = __cvta_generic_to_shared(&Bs[tid / 4][tid % 4 * 8]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(sb),
                 "l"(bIn ? &B[bk * N + bc] : B), "r"(bIn << 3));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: negated-checks-refusals.cu:[[@LINE-13]]:5: note: expected '__pipeline_memcpy_async(&tile[i], &matrix[j], 16)'
