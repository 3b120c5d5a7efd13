// Hand-written shared-memory GEMMs that are not the liftable form (or that
// convert a value in a way that changes it): each gets
// one verdict at its loop, naming the statement that breaks the pattern (with
// a note there), and is left exactly as written, with --migrate too.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

#define TILE 32
#define LAUNCH(k) k<<<dim3(4, 4), dim3(TILE, TILE)>>>(A, B, C, M, N, K)

using bf16 = __nv_bfloat16;
__device__ float fmaf(float, float, float);

// The classic kernel with one change each; CHANGE marks it.
#define PROLOGUE(T)                                                            \
  __shared__ T As[TILE][TILE];                                                 \
  __shared__ T Bs[TILE][TILE];                                                 \
  int tx = threadIdx.x, ty = threadIdx.y;                                      \
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;

__global__ void no_second_barrier(const bf16 *A, const bf16 *B, bf16 *C, int M,
                                  int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+1]] breaks it: expected the loop body: two staging copies, '__syncthreads();', the product loop, '__syncthreads();' (and optionally pointers advanced by one step per iteration, 'A += TILE;') [tawa-unsupported]
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: expected the loop body
// CHECK: note: kernel 'no_second_barrier' is left unchanged

__global__ void sgemm(const float *A, const float *B, float *C, int M, int N,
                      int K) {
  PROLOGUE(float)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the kernel computes in fp32 (an SGEMM); the tensor cores take bf16 or fp16 inputs, which would change its results. Add 'precision(3xtf32)' to the pragma for about fp32's accuracy (each operand split into two tf32 parts, three products per step), or 'precision(tf32)' where tf32's 10-bit mantissas are acceptable; otherwise convert the inputs to bf16 or fp16 yourself (docs/migration.md, 'Precision')
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: the kernel computes in fp32
// CHECK: note: kernel 'sgemm' is left unchanged

__global__ void off_by_one(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                           int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx + 1] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      // CHECK: refusals.cu:[[@LINE+1]]:14: note: the product does not read A[row][k] and B[k][col] of the staged tiles: with the staging copies' indices and bounds checks, no layout of A (M x K or K x M) and B (K x N or N x K) gives the element the store writes
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'off_by_one' is left unchanged

__global__ void wrong_guard(const bf16 *A, const bf16 *B, bf16 *C, int M, int N,
                            int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    // CHANGE: A's rows checked against N
    As[ty][tx] = row < N && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      // CHECK: refusals.cu:[[@LINE+1]]:14: note: the product does not read A[row][k] and B[k][col]
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'wrong_guard' is left unchanged

__global__ void halved_index(const bf16 *A, const bf16 *B, bf16 *C, int M,
                             int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    // CHECK: refusals.cu:[[@LINE+1]]:12: note: the tile's column index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses the operator '/'
    As[ty][tx / 2] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'halved_index' is left unchanged

__global__ void unguarded_store(const bf16 *A, const bf16 *B, bf16 *C, int M,
                                int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  // CHECK: refusals.cu:[[@LINE+1]]:3: note: the staging copies are bounds-checked, so the store must be too: expected 'if (row < M && col < N) C[row * N + col] = acc;'
  C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'unguarded_store' is left unchanged

// Staging copies that are not bounds-checked under a store that is: the
// kernel as written reads past the extents that the store respects.
__global__ void unguarded_staging(const bf16 *A, const bf16 *B, bf16 *C, int M,
                                  int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line [[@LINE+2]] breaks it: the store is bounds-checked, so the staging copies must be too
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: the store is bounds-checked
// CHECK: note: kernel 'unguarded_staging' is left unchanged

// A batch of A (blockIdx.z picks the matrix) with one C: every matrix of
// the batch would write the same C.
__global__ void batched_a_only(const bf16 *A, const bf16 *B, bf16 *C, int M,
                               int N, int K) {
  PROLOGUE(bf16)
  const bf16 *a = A + blockIdx.z * M * K;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: 'A' is indexed by blockIdx.z but C is not: every matrix of the batch would write the same C
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? a[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: 'A' is indexed by blockIdx.z
// CHECK: note: kernel 'batched_a_only' is left unchanged

// blockIdx.z squared in an index: not a batch of equally spaced matrices.
__global__ void batch_squared(const bf16 *A, const bf16 *B, bf16 *C, int M,
                              int N, int K) {
  PROLOGUE(bf16)
  const int z = blockIdx.z;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: blockIdx.z may enter an index only as 'blockIdx.z * stride' (a batch of matrices), the stride a product of integer parameters
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[z * z * M * K + row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[z * M * N + row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: blockIdx.z may enter
// CHECK: note: kernel 'batch_squared' is left unchanged

// A cast to a 16-bit integer in an index could truncate it.
__global__ void short_index(const bf16 *A, const bf16 *B, bf16 *C, int M,
                            int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the matrix index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses a cast to a type that is not an integer of 32 bits or more
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[(short)(row * K) + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: the matrix index is not a polynomial
// CHECK: note: kernel 'short_index' is left unchanged

__global__ void half_product(const bf16 *A, const bf16 *B, bf16 *C, int M,
                             int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    // CHECK: refusals.cu:[[@LINE+1]]:25: note: the product loop must run over the 32 elements of K that one iteration stages
    for (int k = 0; k < TILE / 2; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'half_product' is left unchanged

// An extent narrower than int (extents of 32 bits or more are converted).
__global__ void narrow_extent(const bf16 *A, const bf16 *B, bf16 *C, int M,
                              int N, unsigned short K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}: the extents and leading dimensions must be integer parameters of 32 bits or more, converted to tawa::Matrix's int where they fit; 'K' is 'unsigned short'
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
// CHECK: note: the extents and leading dimensions must be integer parameters
// CHECK: note: kernel 'narrow_extent' is left unchanged

// A conversion that changes the value: the stored accumulator truncated to
// an integer.
__global__ void truncated_store(const bf16 *A, const bf16 *B, float *C, int M,
                                int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  // CHECK: refusals.cu:[[@LINE+2]]:24: note: expected the stored value 'acc', 'alpha * acc', plus optionally 'beta * C[index]' (or 'beta * Cin[index]', a C input of bf16, fp16 or float) and a bias 'bias[col]' or 'bias[row]' (or 'bias ? bias[col] : 0.0f'), optionally under ReLU 'fmaxf(v, 0.0f)', GELU, SiLU, LeakyReLU, sigmoid or tanh in a form of docs/migration.md (alpha, beta float parameters), converted to C's type with rounding to nearest
  if (row < M && col < N)
    C[row * N + col] = (int)acc;
}
// CHECK: note: kernel 'truncated_store' is left unchanged

// A factor rounded to an integer before the product.
__global__ void rounded_factor(const bf16 *A, const bf16 *B, bf16 *C, int M,
                               int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      // CHECK: refusals.cu:[[@LINE+1]]:14: note: the product must multiply an element of each __shared__ tile
      acc += (int)__bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16_rn(acc);
}
// CHECK: note: kernel 'rounded_factor' is left unchanged

__global__ void launched_in_macro(const bf16 *A, const bf16 *B, bf16 *C, int M,
                                  int N, int K) {
  PROLOGUE(bf16)
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: refusals.cu:[[@LINE+1]]:3: warning: this loop is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts, but the statement at line {{[0-9]+}} stops its migration: this launch of 'launched_in_macro' cannot become a call of its migrated launcher (a host function): write it as 'k<<<...>>>(...)' in host code, outside a macro [tawa-unsupported]
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

void launch(const bf16 *A, const bf16 *B, bf16 *C, int M, int N, int K) {
  // CHECK: refusals.cu:[[@LINE+2]]:10: note: this launch of 'launched_in_macro' cannot become
  // CHECK: note: kernel 'launched_in_macro' is left unchanged
  LAUNCH(launched_in_macro);
}
