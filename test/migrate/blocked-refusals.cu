// Register-blocked kernels that differ from one that lifts ('control' in
// blocked.cu) by one defect each: every one is refused at the statement
// that breaks it, and the file is left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

typedef __nv_bfloat16 bf16;

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

__global__ void wrong_k(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += A_OF(i, k) * B_OF((k + 1) % BK, j);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'wrong_k' is left unchanged

__global__ void diagonal(int M, int N, int K, const bf16 *A, const bf16 *B,
                         float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += A_OF(i, k) * B_OF(k, i);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'diagonal' is left unchanged

__global__ void swapped_store(int M, int N, int K, const bf16 *A,
                              const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
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
      C[(threadRow * TM + i) * N + threadCol * TN + j] = acc[j * TN + i];
}
// CHECK: note: kernel 'swapped_store' is left unchanged

__global__ void holes(int M, int N, int K, const bf16 *A, const bf16 *B,
                      float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'As' that no staging copy of the iteration writes (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(16)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'holes' is left unchanged

__global__ void one_barrier(int M, int N, int K, const bf16 *A, const bf16 *B,
                            float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the loop body has one '__syncthreads();' where the form has two: one between the staging copies and the product, one after the product, before the next iteration overwrites the tiles [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'one_barrier' is left unchanged

__global__ void reset_in_loop(int M, int N, int K, const bf16 *A,
                              const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: accumulates into 'acc' after setting it in the loop: the accumulator must carry its value from one iteration to the next (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int i = 0; i < TM * TN; ++i)
      acc[i] = 0.0f;
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'reset_in_loop' is left unchanged

__global__ void overlapping_rows(int M, int N, int K, const bf16 *A,
                                 const bf16 *B, float *C) {
  SETUP
  const int half = threadRow / 2;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: two stores write the same element of C (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] +=
              __bfloat162float(As[(half * TM + i) * BK + k]) * B_OF(k, j);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(half * TM + i) * N + threadCol * TN + j] = acc[i * TN + j];
}
// CHECK: note: kernel 'overlapping_rows' is left unchanged

__global__ void uninitialized(int M, int N, int K, const bf16 *A,
                              const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN];
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator 'acc' must be set to 0 before the loop (the tile vocabulary's accumulators start at 0) (matched furthest as a block of 64 threads) [tawa-unsupported]
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
// CHECK: note: kernel 'uninitialized' is left unchanged

__global__ void late_staging(int M, int N, int K, const bf16 *A,
                             const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the __shared__ tiles may be written only before the first barrier of the loop body (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    __syncthreads();
    STAGE_B
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'late_staging' is left unchanged

__global__ void short_product(int M, int N, int K, const bf16 *A,
                              const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK - 1; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += A_OF(i, k) * B_OF(k, j);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'short_product' is left unchanged

__global__ void checked_staging_only(int M, int N, int K, const bf16 *A,
                                     const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the staging copies are bounds-checked, so the stores must be too (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + innerColA] =
          blockIdx.y * BM + innerRowA + o < M && t + innerColA < K
              ? A[(innerRowA + o) * K + innerColA]
              : bf16();
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'checked_staging_only' is left unchanged

__global__ void product_from_global(int M, int N, int K, const bf16 *A,
                                    const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected a zero, an element of a __shared__ tile or a local holding one (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] +=
              A_OF(i, k) * __bfloat162float(B[k * N + threadCol * TN + j]);
    __syncthreads();
    ADVANCE
  }
  STORE
}
// CHECK: note: kernel 'product_from_global' is left unchanged

__global__ void stale_register(int M, int N, int K, const bf16 *A,
                               const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k) {
      if (k == 0)
        for (int i = 0; i < TM; ++i)
          regM[i] = A_OF(i, k);
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += regM[i] * B_OF(k, j);
    }
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'stale_register' is left unchanged

__global__ void register_from_last_iteration(int M, int N, int K,
                                             const bf16 *A, const bf16 *B,
                                             float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
  float regM[TM] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: reads 'regM' before it is set in this iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += regM[i] * B_OF(k, j);
      for (int i = 0; i < TM; ++i)
        regM[i] = A_OF(i, k);
    }
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'register_from_last_iteration' is left unchanged

__global__ void index_of_t(int M, int N, int K, const bf16 *A, const bf16 *B,
                           float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the index of the __shared__ tile 'As' must be a constant inside its extents for each thread of the block: it uses the operator '%' (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += A_OF(i, (k + t) % BK) * B_OF(k, j);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'index_of_t' is left unchanged

__global__ void fp32_tiles(int M, int N, int K, const float *A,
                           const float *B, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the kernel computes in fp32 (an SGEMM); the tensor cores take bf16 or fp16 inputs, which would change its results. Add 'precision(3xtf32)' to the pragma for about fp32's accuracy (each operand split into two tf32 parts, three products per step), or 'precision(tf32)' where tf32's 10-bit mantissas are acceptable; otherwise convert the inputs to bf16 or fp16 yourself (docs/migration.md, 'Precision') [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    As[threadIdx.x] = A[t + threadIdx.x];
    Bs[threadIdx.x] = B[t + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < BK; ++k)
      acc[0] += As[k] * Bs[k];
    __syncthreads();
  }
  C[threadIdx.x] = acc[0];
}
// CHECK: note: kernel 'fp32_tiles' is left unchanged

// Loops far longer than any tile: refused after a bounded number of
// statements instead of followed for minutes.
__global__ void endless_staging(int M, int N, int K, const bf16 *A,
                                const bf16 *B, float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the kernel's loops run too long to follow: more than 4000000 statements for the blocks tried, one iteration each (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int a = 0; a < 60000; ++a)
      for (int b = 0; b < 60000; ++b)
        ;
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'endless_staging' is left unchanged

// An unsigned index below 0 for one thread: C's value wraps around, which
// the integer arithmetic followed does not model.
__global__ void unsigned_wrap(int M, int N, int K, const bf16 *A,
                              const bf16 *B, float *C) {
  SETUP
  const unsigned before = threadIdx.x - 1u;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the value of 'before' does not fit its type for some thread (C's arithmetic wraps around) (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + (before + 1) % BK] =
          A[(innerRowA + o) * K + innerColA];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'unsigned_wrap' is left unchanged

// A float local of the epilogue whose initializer reads an index that
// changes before the store: it holds the accumulator of the element before
// (acc[i - 1] stored at row i), not the one stored.
__global__ void stale_local(int M, int N, int K, const bf16 *A, const bf16 *B,
                            float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: copies an accumulator; expected accumulators updated in place, 'acc[i] += x * y' (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  int prev = 0;
  for (int i = 0; i < TM; ++i) {
    float v = acc[prev * TN];
    prev = i;
    C[(threadRow * TM + i) * N + threadCol * TN] = v;
  }
}
// CHECK: note: kernel 'stale_local' is left unchanged

// A pointer to a row of a two-dimensional tile advanced again: (As + r) + c
// points at row r + c, not at As[r][c], so copies of different threads
// land on the same row.
__global__ void row_pointer_sum(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  __shared__ bf16 As[72][16];
  __shared__ bf16 Bs[16][64];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
#pragma tawa tile
  // CHECK: blocked-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: two staging copies write the same element of 'As' in one iteration (matched furthest as a block of {{[0-9]+}} threads) [tawa-unsupported]
  for (int t = 0; t < K; t += 16) {
    {
      const int r = threadIdx.x / 2, c = (threadIdx.x % 2) * 8;
      if (threadIdx.x < 128)
        *reinterpret_cast<float4 *>((As + r) + c) =
            *reinterpret_cast<const float4 *>(&A[(row0 + r) * K + t + c]);
    }
    {
      const int r = (threadIdx.x % 128) / 8, c = (threadIdx.x % 8) * 8;
      if (threadIdx.x >= 128)
        *reinterpret_cast<float4 *>(&Bs[r][c]) =
            *reinterpret_cast<const float4 *>(&B[(t + r) * N + col0 + c]);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) *
                       __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
// CHECK: note: kernel 'row_pointer_sum' is left unchanged
