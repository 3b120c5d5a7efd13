// --migrate lifts register-blocked shared-memory GEMMs: each thread
// accumulates a micro-tile of C, the block stages its tiles in loops of
// copies (scalar or 16-byte vectors). The front end follows the block's
// threads one by one through an iteration (include/tawa/BlockedLift.h).
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
#include <cuda_bf16.h>
#include <cuda_fp16.h>

typedef __nv_bfloat16 bf16;

// The SGEMM tutorials' two-dimensional blocktiling on bf16 data: 64
// threads, each an 8 x 8 micro-tile, register caches of A's column and B's
// row, pointers advanced in the loop, alpha and beta.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8
// CHECK-LABEL: __global__ void sgemm_2d(
// CHECK-NOT: #pragma tawa tile
__global__ void sgemm_2d(int M, int N, int K, float alpha, const bf16 *A,
                         const bf16 *B, float beta, bf16 *C) {
  const int cRow = blockIdx.y, cCol = blockIdx.x;
  const int numThreads = (BM * BN) / (TM * TN);
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  __shared__ bf16 As[BM * BK];
  __shared__ bf16 Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
  const int strideA = numThreads / BK;
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  const int strideB = numThreads / BN;
  float threadResults[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
  float regN[TN] = {0.0f};
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    for (int loadOffset = 0; loadOffset < BM; loadOffset += strideA)
      As[(innerRowA + loadOffset) * BK + innerColA] =
          A[(innerRowA + loadOffset) * K + innerColA];
    for (int loadOffset = 0; loadOffset < BK; loadOffset += strideB)
      Bs[(innerRowB + loadOffset) * BN + innerColB] =
          B[(innerRowB + loadOffset) * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = __bfloat162float(As[(threadRow * TM + i) * BK + dotIdx]);
      for (int i = 0; i < TN; ++i)
        regN[i] = __bfloat162float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
          threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
    }
    __syncthreads();
  }
  for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
    for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
      C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN] =
          __float2bfloat16_rn(alpha * threadResults[resIdxM * TN + resIdxN] +
                           beta * __bfloat162float(C[(threadRow * TM + resIdxM) * N + threadCol * TN + resIdxN]));
}
#undef BM
#undef BN
#undef BK
#undef TM
#undef TN
// CHECK: sgemm_2d_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: 64 threads (one-dimensional)
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.y * 64,
// CHECK-NEXT: tawa_cols_covered = 1LL * tawa_grid.x * 64;
// CHECK: if (tawa_block.x != 64 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 8 != 0 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N}, alpha, beta);

// CHECK-LABEL: __global__ void blocktile_1d(
// 1-D blocktiling: 512 threads, 8 rows of C per thread.
__global__ void blocktile_1d(int M, int N, int K, const __half *A,
                             const __half *B, float *C) {
  const int BM = 64, BN = 64, BK = 8, TM = 8;
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;
  __shared__ __half As[64 * 8];
  __shared__ __half Bs[8 * 64];
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float threadResults[TM] = {0.0f};
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = __half2float(Bs[dotIdx * BN + threadCol]);
      for (int resIdx = 0; resIdx < TM; ++resIdx)
        threadResults[resIdx] +=
            __half2float(As[(threadRow * TM + resIdx) * BK + dotIdx]) * tmpB;
    }
    __syncthreads();
  }
  for (int resIdx = 0; resIdx < TM; ++resIdx)
    C[(threadRow * TM + resIdx) * N + threadCol] = threadResults[resIdx];
}
// CHECK: 512 threads (one-dimensional)
// CHECK: if (tawa_block.x != 512 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// CHECK-LABEL: __global__ void blocked_2d_checked(
// 16 x 16 threads, 4 x 4 strided micro-tiles, A staged transposed into a
// 2-D tile, bounds checks, a bias per column and ReLU.
__global__ void blocked_2d_checked(const __nv_bfloat16 *A,
                                   const __nv_bfloat16 *B, float *C,
                                   const float *bias, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[16][64];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * 16 + tx;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
#pragma tawa tile
  for (int t = 0; t < (K + 15) / 16; ++t) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int e = tid + i * 256;
      const int m = e / 16, k = e % 16;
      As[k][m] = row0 + m < M && t * 16 + k < K ? A[(row0 + m) * K + t * 16 + k]
                                               : __float2bfloat16_rn(0.0f);
      const int kb = e / 64, n = e % 64;
      if (t * 16 + kb < K && col0 + n < N)
        Bs[kb][n] = B[(t * 16 + kb) * N + col0 + n];
      else
        Bs[kb][n] = __float2bfloat16_rn(0.0f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i)
        a[i] = __bfloat162float(As[k][ty + 16 * i]);
      for (int j = 0; j < 4; ++j)
        b[j] = __bfloat162float(Bs[k][tx + 16 * j]);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int r = row0 + ty + 16 * i, c = col0 + tx + 16 * j;
      if (r < M && c < N)
        C[r * N + c] = fmaxf(acc[i][j] + bias[c], 0.0f);
    }
}
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc + tawa::load<1, 256>(bias, 0, n0)));
// CHECK: 16 x 16 threads
// CHECK: if (tawa_block.x != 16 || tawa_block.y != 16 || tawa_block.z != 1 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<const float>{bias, 1, tawa_cols, tawa_cols});

// CHECK-LABEL: __global__ void blocked_vectorized(
// 16-byte vector staging: 256 threads, 128 x 128 x 32 tiles, 8 x 8 per
// thread.
__global__ void blocked_vectorized(int M, int N, int K,
                                   const __nv_bfloat16 *A,
                                   const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  __shared__ __nv_bfloat16 As[128 * 32];
  __shared__ __nv_bfloat16 Bs[32 * 128];
  const int threadRow = threadIdx.x / 16, threadCol = threadIdx.x % 16;
  A += blockIdx.y * 128 * K;
  B += blockIdx.x * 128;
  C += blockIdx.y * 128 * N + blockIdx.x * 128;
  float acc[64] = {0.0f};
  __nv_bfloat16 regM[8], regN[8];
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    for (int v = threadIdx.x; v < 128 * 32 / 8; v += 256) {
      const int r = v / 4, c = (v % 4) * 8;
      *reinterpret_cast<float4 *>(&As[r * 32 + c]) =
          *reinterpret_cast<const float4 *>(&A[r * K + c]);
      const int rb = v / 16, cb = (v % 16) * 8;
      *reinterpret_cast<float4 *>(&Bs[rb * 128 + cb]) =
          *reinterpret_cast<const float4 *>(&B[rb * N + cb]);
    }
    __syncthreads();
    for (int k = 0; k < 32; ++k) {
      for (int i = 0; i < 8; ++i)
        regM[i] = As[(threadRow * 8 + i) * 32 + k];
      for (int j = 0; j < 8; ++j)
        regN[j] = Bs[k * 128 + threadCol * 8 + j];
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          acc[i * 8 + j] += __bfloat162float(regM[i]) * __bfloat162float(regN[j]);
    }
    __syncthreads();
    A += 32;
    B += 32 * N;
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      C[(threadRow * 8 + i) * N + threadCol * 8 + j] =
          __float2bfloat16_rn(acc[i * 8 + j]);
}
// CHECK: 256 threads (one-dimensional)
// CHECK: const long long tawa_rows_covered = 1LL * tawa_grid.y * 128,
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 32 != 0 ||

// The classic kernel with a padded one-dimensional tile, which the
// one-element-per-thread front end does not read: followed thread by thread,
// it lifts too.
#define TILE 32
// CHECK-LABEL: __global__ void padded_flat_tile(
__global__ void padded_flat_tile(const bf16 *A, const bf16 *B, float *C, int M,
                                 int N, int K) {
  __shared__ bf16 As[TILE * (TILE + 1)];
  __shared__ bf16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * (TILE + 1) + tx] =
        row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * (TILE + 1) + k]) *
             __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: 32 x 32 threads
// CHECK: if (tawa_block.x != 32 || tawa_block.y != 32 || tawa_block.z != 1 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K},

// The kernel that each of blocked-refusals.cu's differs from by one defect.
#undef TILE
#define BM 32
#define BN 32
#define BK 8
#define TM 4
#define TN 4
// 64 threads, a 4 x 4 micro-tile each.
#define SETUP                                                                  \
  __shared__ bf16 As[BM * BK];                                                 \
  __shared__ bf16 Bs[BK * BN];                                                 \
  const int threadCol = threadIdx.x % (BN / TN);                               \
  const int threadRow = threadIdx.x / (BN / TN);                               \
  const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;        \
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;        \
  A += blockIdx.y * BM * K;                                                    \
  B += blockIdx.x * BN;                                                        \
  C += blockIdx.y * BM * N + blockIdx.x * BN;
#define STAGE_A(STRIDE)                                                        \
  for (int o = 0; o < BM; o += STRIDE)                                         \
    As[(innerRowA + o) * BK + innerColA] = A[(innerRowA + o) * K + innerColA];
#define STAGE_B                                                                \
  for (int o = 0; o < BK; o += 2)                                              \
    Bs[(innerRowB + o) * BN + innerColB] = B[(innerRowB + o) * N + innerColB];
#define ADVANCE                                                                \
  A += BK;                                                                     \
  B += BK * N;
#define A_OF(I, K_) __bfloat162float(As[(threadRow * TM + (I)) * BK + (K_)])
#define B_OF(K_, J) __bfloat162float(Bs[(K_) * BN + threadCol * TN + (J)])
#define PRODUCT                                                                \
  for (int k = 0; k < BK; ++k)                                                 \
    for (int i = 0; i < TM; ++i)                                               \
      for (int j = 0; j < TN; ++j)                                             \
        acc[i * TN + j] += A_OF(i, k) * B_OF(k, j);
#define STORE                                                                  \
  for (int i = 0; i < TM; ++i)                                                 \
    for (int j = 0; j < TN; ++j)                                               \
      C[(threadRow * TM + i) * N + threadCol * TN + j] = acc[i * TN + j];

// CHECK-LABEL: __global__ void control(
__global__ void control(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: if (tawa_block.x != 64 || tawa_block.y != 1 || tawa_block.z != 1 ||

// A scale computed before the loop from the kernel's parameters alone: the
// tiled form declares it the same way.
// CHECK-LABEL: __global__ void scaled(
// CHECK: __global__ void scaled_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16> B,
// CHECK-NEXT: tawa::Matrix<float> C, int K) {
// CHECK: const float scale = 1.0f / sqrtf((float)K);
// CHECK: tawa::store(C, m0, n0, scale * acc);
__global__ void scaled(int M, int N, int K, const bf16 *A, const bf16 *B,
                       float *C) {
  SETUP
  const float scale = 1.0f / sqrtf((float)K);
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(threadRow * TM + i) * N + threadCol * TN + j] = scale * acc[i * TN + j];
}

// A float local of the epilogue, set once from the accumulator and a bias,
// then stored under ReLU: read as its initializer.
// CHECK-LABEL: __global__ void local_bias_relu(
// CHECK: tawa::store(C, m0, n0, tawa::relu(acc + tawa::load<1, 256>(bias, 0, n0)));
__global__ void local_bias_relu(int M, int N, int K, const bf16 *A,
                                const bf16 *B, const float *bias, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) {
      float v = acc[i * TN + j] + bias[blockIdx.x * BN + threadCol * TN + j];
      C[(threadRow * TM + i) * N + threadCol * TN + j] = fmaxf(v, 0.0f);
    }
}

// DIAG-NOT: warning
// DIAG2-NOT: warning
