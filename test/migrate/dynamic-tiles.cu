// --migrate lifts tiles carved out of dynamic shared memory: pointers at
// constant offsets into one `extern __shared__` array (of the tiles'
// element type, or of bytes cast to it; local or at file scope), or into a
// tile declared before, in the classic and the register-blocked styles. The
// launches keep their shared-memory size for the kernel as written, which
// the launcher still runs where the tiled form does not apply. Rewriting the
// result makes the tiled kernels warp-specialized, with no warning. (The
// outputs are checked without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=REWRITTEN
// DIAG-NOT: {{warning|error}}:
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 16
#define BM 64
#define BN 64
#define BK 8
#define TM 8

using bf16 = __nv_bfloat16;

// CHECK-LABEL: __global__ void classic(
// CHECK-NOT: #pragma tawa tile
// CHECK: __global__ void classic_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: static void classic_migrated_launch(
// CHECK: classic<<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(A, B, C, M, N,
// REWRITTEN: struct classic_tiled_shared {
// REWRITTEN: inline cudaError_t classic_tiled_launch(
__global__ void classic(const bf16 *A, const bf16 *B, float *C, int M, int N,
                        int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = smem + TILE * TILE;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Bytes at file scope, cast to the tiles' type; B's tile first.
extern __shared__ unsigned char raw_smem[];

// CHECK-LABEL: __global__ void bytes(
// CHECK: __global__ void bytes_tiled(tawa::Matrix<const __half> A,
// REWRITTEN: struct bytes_tiled_shared {
// REWRITTEN: inline cudaError_t bytes_tiled_launch(
__global__ void bytes(const __half *A, const __half *B, __half *C, int M,
                      int N, int K) {
  __half *Bs = reinterpret_cast<__half *>(raw_smem);
  __half *As =
      reinterpret_cast<__half *>(raw_smem + TILE * TILE * sizeof(__half));
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : __half();
    Bs[ty * TILE + tx] =
        t + ty < K && col < N ? B[(t + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty * TILE + k]) * __half2float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2half_rn(acc);
}

// The register-blocked style, B's tile placed after A's through A's pointer.
// CHECK-LABEL: __global__ void blocked(
// CHECK: __global__ void blocked_tiled(tawa::Matrix<const __nv_bfloat16> A,
// REWRITTEN: struct blocked_tiled_shared {
// REWRITTEN: inline cudaError_t blocked_tiled_launch(
__global__ void blocked(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  const unsigned cRow = blockIdx.y, cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  extern __shared__ bf16 tiles[];
  bf16 *As = tiles;
  bf16 *Bs = As + BM * BK;
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const unsigned innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const unsigned innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float results[TM] = {0.0f};
#pragma tawa tile
  for (unsigned bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (unsigned k = 0; k < BK; ++k) {
      float b = __bfloat162float(Bs[k * BN + threadCol]);
      for (unsigned r = 0; r < TM; ++r)
        results[r] += __bfloat162float(As[(threadRow * TM + r) * BK + k]) * b;
    }
    __syncthreads();
  }
  for (unsigned r = 0; r < TM; ++r)
    C[(threadRow * TM + r) * N + threadCol] = results[r];
}

// CHECK-LABEL: void launch(
// CHECK: classic_migrated_launch(grid, block, 2 * TILE * TILE * sizeof(bf16), 0,
// CHECK: bytes_migrated_launch(grid, block, 2 * TILE * TILE * sizeof(__half),
// CHECK: blocked_migrated_launch(dim3(N / BN, M / BM), dim3(BM * BN / TM),
void launch(const bf16 *A, const bf16 *B, float *C, const __half *H,
            const __half *G, __half *D, int M, int N, int K) {
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  classic<<<grid, block, 2 * TILE * TILE * sizeof(bf16)>>>(A, B, C, M, N, K);
  bytes<<<grid, block, 2 * TILE * TILE * sizeof(__half)>>>(H, G, D, M, N, K);
  blocked<<<dim3(N / BN, M / BM), dim3(BM * BN / TM),
            (BM * BK + BK * BN) * sizeof(bf16)>>>(M, N, K, A, B, C);
}
