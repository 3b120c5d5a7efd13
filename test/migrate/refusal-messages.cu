// The rest of the lifting front end's refusals, one kernel each: the
// verdict at the loop names the statement and the form expected there, and
// the file is left exactly as written, with --migrate too.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 32

using bf16 = __nv_bfloat16;

#define TILES(T)                                                               \
  __shared__ T As[TILE][TILE];                                                 \
  __shared__ T Bs[TILE][TILE];
#define INDICES                                                                \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
#define PRODUCT                                                                \
  __syncthreads();                                                             \
  for (int k = 0; k < TILE; ++k)                                               \
    acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);          \
  __syncthreads();
#define STORE                                                                  \
  if (row < M && col < N)                                                      \
    C[row * N + col] = acc;

__global__ void acc_starts_at_one(const bf16 *A, const bf16 *B, float *C,
                                  int M, int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 1.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator must start at 0 (the tile vocabulary's accumulators do) [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'acc_starts_at_one' is left unchanged

__global__ void index_changed(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the index variable 'row' is changed after its declaration [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  row += 1;
  STORE
}
// CHECK: note: kernel 'index_changed' is left unchanged

__global__ void staged_twice(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: a second staging copy of the tile 'As' [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    As[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'staged_twice' is left unchanged

__global__ void staged_by_row(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the staging copy must write element {{\[}}threadIdx.y]{{\[}}threadIdx.x] or {{\[}}threadIdx.x]{{\[}}threadIdx.y] of the tile, one per thread of a TILE x TILE block [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][ty] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'staged_by_row' is left unchanged

__global__ void mixed_inputs(const bf16 *A, const __half *B, float *C, int M,
                             int N, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: A and B must have one element type, __nv_bfloat16 or __half [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'mixed_inputs' is left unchanged

__global__ void int_output(const bf16 *A, const bf16 *B, int *C, int M, int N,
                           int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: C must point to __nv_bfloat16, __half or float [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'int_output' is left unchanged

__global__ void outside_reads_one(const bf16 *A, const bf16 *B, float *C,
                                  int M, int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: elements outside the matrix must read as 0 [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx]
                                         : __float2bfloat16_rn(1.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'outside_reads_one' is left unchanged

__global__ void guard_or(const bf16 *A, const bf16 *B, float *C, int M, int N,
                         int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: expected a bounds check 'row < M && col < K' (or 'row <= M - 1' of a signed row, or 'k + 8 <= K') of integer parameters or named constants, or products of int parameters ('row < N * H * W') [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M || t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'guard_or' is left unchanged

__global__ void bound_plus_two(const bf16 *A, const bf16 *B, float *C, int M,
                               int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected 'for (int t = 0; t < K; t += TILE)', 'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)' or 'for (int t = 0; t < K / TILE; ++t)' (whole tiles only, a partial last one dropped), K an integer parameter or a named constant
  for (int m = 0; m < (K - 1) / TILE + 2; ++m) {
    As[ty][tx] = row < M && m * TILE + tx < K ? A[row * K + m * TILE + tx] : bf16();
    Bs[ty][tx] = m * TILE + ty < K && col < N ? B[(m * TILE + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'bound_plus_two' is left unchanged

__global__ void body_index_changed(const bf16 *A, const bf16 *B, float *C,
                                   int M, int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the index variable 'a' is changed after its declaration
  for (int t = 0; t < K; t += TILE) {
    int a = t + tx;
    As[ty][tx] = row < M && a < K ? A[row * K + a++] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'body_index_changed' is left unchanged

__global__ void index_read_from_memory(const bf16 *A, const bf16 *B, float *C,
                                       const int *perm, int M, int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the matrix index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses a value read from memory (an array element) [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + perm[t + tx]] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'index_read_from_memory' is left unchanged

__global__ void scale_declared_first(const bf16 *A, const bf16 *B, float *C,
                                     int M, int N, int K) {
  TILES(bf16)
  INDICES
  const float scale = 1.0f / (float)(threadIdx.x + 1);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected before the loop only integer index declarations, the __shared__ tiles and the float accumulator set to 0; 'scale' is another float value (a scale of the store is a float parameter, 'alpha * acc', or a float computed from the kernel's scalar parameters alone, 'const float scale = 1.0f / sqrtf((float)K);') [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  if (row < M && col < N)
    C[row * N + col] = scale * acc;
}
// CHECK: note: kernel 'scale_declared_first' is left unchanged

// Products rounded to 16 bits before the sum: wgmma would not round them.
__global__ void product_in_bf16(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the product is computed in the tiles' 16-bit type before it is added (a __half or __nv_bfloat16 '*', or __hmul): wgmma multiplies exactly, so the result would change; expected each factor converted to float first, '__half2float(As[i][k]) * __half2float(Bs[k][j])' (or __bfloat162float) [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k] * Bs[k][tx]);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'product_in_bf16' is left unchanged

__global__ void product_by_hmul(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the product is computed in the tiles' 16-bit type before it is added
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(__hmul(As[ty][k], Bs[k][tx]));
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'product_by_hmul' is left unchanged

__global__ void double_accumulator(const bf16 *A, const bf16 *B, float *C,
                                   int M, int N, int K) {
  TILES(bf16)
  INDICES
  // CHECK: refusal-messages.cu:[[@LINE+3]]:3: warning: {{.*}}breaks it: the accumulator 'acc' is double: wgmma accumulates in float, so the sums would change; expected 'float acc = 0.0f;' [tawa-unsupported]
  double acc = 0.0;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    PRODUCT
  }
  STORE
}
// CHECK: note: kernel 'double_accumulator' is left unchanged

// A tile written after the product, before the second barrier: the verdict
// is at the write.
__global__ void write_after_product(const bf16 *A, const bf16 *B, float *C,
                                    int M, int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}the statement at line [[@LINE+7]] breaks it: expected '__syncthreads();' after the product loop, before the next iteration overwrites the tiles [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    Bs[ty][tx] = bf16();
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'write_after_product' is left unchanged

// A register-blocked loop with one barrier, after its product.
#define BM 64
#define BN 64
#define BK 8
#define TM 8
__global__ void one_barrier(const bf16 *A, const bf16 *B, float *C, int M,
                            int N, int K) {
  __shared__ bf16 As[BM * BK], Bs[BK * BN];
  const int threadCol = threadIdx.x % BN, threadRow = threadIdx.x / BN;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
  const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
  float res[TM] = {0.0f};
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}register-blocked shared-memory GEMM, and the statement at line [[@LINE+12]] breaks it: the loop body has one '__syncthreads();' where the form has two: one between the staging copies and the product, one after the product, before the next iteration overwrites the tiles
  for (int bk = 0; bk < K; bk += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    A += BK;
    B += BK * N;
    for (int d = 0; d < BK; ++d) {
      float b = __bfloat162float(Bs[d * BN + threadCol]);
      for (int r = 0; r < TM; ++r)
        res[r] += __bfloat162float(As[(threadRow * TM + r) * BK + d]) * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r)
    C[(threadRow * TM + r) * N + threadCol] = res[r];
}
// CHECK: note: kernel 'one_barrier' is left unchanged

// A kernel template is lifted for each instantiation that a launch of the
// file makes (migrate/templates.cu); this one is never launched.
// CHECK: refusal-messages.cu:[[@LINE+2]]:17: warning: kernel template 'templated' is not launched in this file: tawa-rewrite lifts each instantiation that a launch of the file makes ('templated<...><<<...>>>(...)'), with its template arguments as constants [tawa-unsupported]
template <int TS>
__global__ void templated(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  __shared__ bf16 As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TS; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'templated' is left unchanged

// Tiles in dynamic shared memory indexed through the extern array itself:
// the verdict names the shared-memory form and the pointers expected, not a
// product from global memory.
// CHECK: refusal-messages.cu:[[@LINE+8]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tiles in dynamic shared memory ('extern __shared__ T smem[];') must be pointers into it at constant offsets, each indexed as a tile of its own: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void dynamic_tiles(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  extern __shared__ bf16 smem[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    smem[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    smem[TILE * TILE + ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(smem[ty * TILE + k]) *
             __bfloat162float(smem[TILE * TILE + k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'dynamic_tiles' is left unchanged

// Tiles sized by the launch: the verdict names the step and asks for a
// constant tile.
// CHECK: refusal-messages.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile loop's step (or its tile count's divisor) is the launch's block size: the tiles must have a size known at compile time, TILE in 't += TILE' or '(K + TILE - 1) / TILE' a constant (a #define, a constexpr or a template parameter) that the launch's block matches [tawa-unsupported]
__global__ void launch_sized(const bf16 *A, const bf16 *B, float *C, int M,
                             int N, int K) {
  extern __shared__ bf16 smem[];
  const int T = blockDim.x;
  bf16 *As = smem, *Bs = smem + T * T;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += T) {
    As[ty * T + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * T + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += __bfloat162float(As[ty * T + k]) * __bfloat162float(Bs[k * T + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'launch_sized' is left unchanged

// The same with a tile counter, and rows and columns of blockDim: the
// divisor of its bound is named.
// CHECK: refusal-messages.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile loop's step (or its tile count's divisor) is the launch's block size
__global__ void launch_sized_count(const bf16 *A, const bf16 *B, float *C,
                                   int M, int N, int K) {
  __shared__ bf16 As[32][32], Bs[32][32];
  int T = blockDim.x;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * blockDim.y + ty, col = blockIdx.x * blockDim.x + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < (K + T - 1) / T; ++t) {
    As[ty][tx] = row < M && t * T + tx < K ? A[row * K + t * T + tx] : bf16();
    Bs[ty][tx] = t * T + ty < K && col < N ? B[(t * T + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < T; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'launch_sized_count' is left unchanged

// The CUDA C++ Programming Guide's shared-memory kernel: matrices passed as
// a struct of width, height, stride and elements, cut into sub-matrices by
// helpers. The verdict names the struct and asks for pointer and extent
// parameters.
typedef struct {
  int width;
  int height;
  int stride;
  __half *elements;
} Matrix;
__device__ Matrix GetSubMatrix(Matrix A, int row, int col) {
  Matrix Asub;
  Asub.width = 16;
  Asub.height = 16;
  Asub.stride = A.stride;
  Asub.elements = &A.elements[A.stride * 16 * row + 16 * col];
  return Asub;
}
__global__ void guide_struct(Matrix A, Matrix B, Matrix C) {
  Matrix Csub = GetSubMatrix(C, blockIdx.y, blockIdx.x);
  float Cvalue = 0;
  int row = threadIdx.y, col = threadIdx.x;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'A' is a struct ('Matrix') holding a pointer: the front ends read each matrix from a pointer parameter of the kernel and its extents from integer parameters or constants; pass the struct's pointer and extents as parameters (no lifting front end follows it) [tawa-unsupported]
  for (int m = 0; m < A.width / 16; ++m) {
    Matrix Asub = GetSubMatrix(A, blockIdx.y, m);
    Matrix Bsub = GetSubMatrix(B, m, blockIdx.x);
    __shared__ __half As[16][16];
    __shared__ __half Bs[16][16];
    As[row][col] = Asub.elements[row * Asub.stride + col];
    Bs[row][col] = Bsub.elements[row * Bsub.stride + col];
    __syncthreads();
    for (int e = 0; e < 16; ++e)
      Cvalue += __half2float(As[row][e]) * __half2float(Bs[e][col]);
    __syncthreads();
  }
  Csub.elements[row * Csub.stride + col] = __float2half_rn(Cvalue);
}
// CHECK: note: kernel 'guide_struct' is left unchanged

// The pragma on a loop nested in another (a convolution's channel loop
// inside its loop over the taps): the verdict names the outer loop.
__global__ void nested_pragma(const bf16 *A, const bf16 *B, float *C, int M,
                              int N, int K) {
  TILES(bf16)
  INDICES
  float acc = 0.0f;
  for (int r = 0; r < 1; ++r) {
#pragma tawa tile
    // CHECK: refusal-messages.cu:[[@LINE+1]]:5: warning: {{.*}}the annotated loop must be a statement of the kernel body, and this one is nested in the loop at line [[@LINE-2]]: put '#pragma tawa tile' on the outermost loop of the reduction
    for (int t = 0; t < K; t += TILE) {
      As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
      Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
      PRODUCT
    }
  }
  STORE
}
// CHECK: note: kernel 'nested_pragma' is left unchanged

// PMPP's thread coarsening: each iteration stages A's tile once, then B's
// tile and the product once per output column block, its barriers inside
// that inner loop, here with a coarsening factor passed at run time (a loop
// of constant bounds is unrolled into rounds, test/migrate/coarsened.cu).
#define COARSE 4
__global__ void coarsened(const __half *A, const __half *B, float *C,
                          int width, int coarse) {
  TILES(__half)
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int colStart = blockIdx.x * TILE * COARSE + tx;
  float acc[COARSE];
  for (int c = 0; c < COARSE; ++c)
    acc[c] = 0.0f;
#pragma tawa tile
  // CHECK: refusal-messages.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: expected a loop body that stages and multiplies tiles several times per iteration as rounds of staging copies, '__syncthreads();', the product, '__syncthreads();', the rounds made by loops 'for (int c = a; c < b; c += s)' of integer constants (thread coarsening), with no pointer advanced inside them
  for (int ph = 0; ph < width / TILE; ++ph) {
    As[ty][tx] = A[row * width + ph * TILE + tx];
    for (int c = 0; c < coarse; ++c) {
      int col = colStart + c * TILE;
      Bs[ty][tx] = B[(ph * TILE + ty) * width + col];
      __syncthreads();
      for (int k = 0; k < TILE; ++k)
        acc[c] += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
      __syncthreads();
    }
  }
  for (int c = 0; c < COARSE; ++c)
    C[row * width + colStart + c * TILE] = acc[c];
}
// CHECK: note: kernel 'coarsened' is left unchanged
