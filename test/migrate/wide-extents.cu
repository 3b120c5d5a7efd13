// Extents of integer types other than int, 32 bits or more (unsigned,
// size_t): the tiled form's launch converts them to tawa::Matrix's int
// (`int(K)`), and the launcher runs it only where each holds a value in
// [1, INT_MAX] (lib/Migrate.cpp, narrowedRanges); the kernel's unsigned
// arithmetic is exact there, below the launcher's 2^31 wrap check. (The
// outputs are checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>
__global__ void gemm_unsigned(const __half *A, const __half *B, float *C,
                              unsigned M, unsigned N, unsigned K) {
  __shared__ __half As[16][16], Bs[16][16];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (unsigned t = 0; t < K; t += 16) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2half_rn(0.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
__global__ void gemm_size_t(const __half *A, const __half *B, float *C,
                            size_t M, size_t N, size_t K) {
  __shared__ __half As[16][16], Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const size_t row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (size_t t = 0; t < K; t += 16) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2half_rn(0.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2half_rn(0.0f);
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK-LABEL: static void gemm_unsigned_migrated_launch(
// CHECK: int(M) < tawa_rows_covered ? int(M) : int(tawa_rows_covered);
// CHECK: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || M < 1 ||
// CHECK-NEXT: M > 2147483647 || N < 1 || N > 2147483647 || K < 1 || K > 2147483647 ||
// CHECK: if (1LL * int(M) * int(K) > 2147483647LL ||
// CHECK: tawa::Matrix<const __half>{A, int(M), int(K), int(K)},
// CHECK-NEXT: tawa::Matrix<const __half>{B, int(K), int(N), int(N)},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, int(N)});
// CHECK-LABEL: static void gemm_size_t_migrated_launch(
// CHECK: M > 2147483647 || N < 1 || N > 2147483647 || K < 1 || K > 2147483647 ||
// CHECK: tawa::Matrix<const __half>{A, int(M), int(K), int(K)},
// DIAG-NOT: warning
