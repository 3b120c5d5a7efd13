// Kernels that differ from blocked.cu's 'control' by one change each after
// which they no longer compute C = A * B (or not what the integer
// arithmetic followed says): side effects in initializers, static storage,
// narrow integers, unsigned wrap-around and overflow, conversions that are
// no copies, user functions and conversions named like CUDA's, loop headers
// that do not count K. Each is refused, and the file is left as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>
typedef __nv_bfloat16 bf16;
#define BM 32
#define BN 32
#define BK 8
#define TM 4
#define TN 4
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

// 25. a lambda that stages the tiles from its copies of A and B, made
//     before the loop advances them (every iteration stages the first tiles)
__global__ void lambda_stage(int M, int N, int K, const bf16 *A, const bf16 *B,
                             float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
  auto stage = [=]() {
    STAGE_A(8)
    STAGE_B
  };
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: a lambda that copies 'A', which changes after the copy is made: capture it by reference (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    stage();
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'lambda_stage' is left unchanged

// 24. an int declaration whose initializer is no polynomial is skipped in the
//     prologue (made opaque) -- with its side effects
__device__ int poison(float *p) { p[0] = 1.0f; return 0; }
__global__ void opaque_init(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
  int unused = poison(acc);           // acc[0] = 1.0f, unseen by the tool
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the initializer of 'unused' has side effects (no lifting front end follows it) [tawa-unsupported]
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
// CHECK: note: kernel 'opaque_init' is left unchanged
// 24b. same with a comma expression, no function
__global__ void opaque_comma(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
  int unused = (acc[0] = 1.0f, A += 1, 0);
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the initializer of 'unused' has side effects (no lifting front end follows it) [tawa-unsupported]
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
// CHECK: note: kernel 'opaque_comma' is left unchanged

// 25. if with an init-statement: branch() never runs the init
__global__ void if_init(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: an 'if' with an init-statement or a condition variable (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    if (acc[0] = 0.0f; 0 < 1) {}      // resets acc[0] every iteration, unseen
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'if_init' is left unchanged
// 26. fake zero in ReLU: fmaxf(v, OneR(0)) clamps at 1
struct OneR {
  int v;
  __device__ OneR(int x) : v(x) {}
  __device__ operator float() const { return 1.0f; }
};
__global__ void fake_relu(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected the stored value 'acc', 'alpha * acc', plus optionally 'beta * C[index]' (or 'beta * Cin[index]', a C input of bf16, fp16 or float) and a bias 'bias[col]' or 'bias[row]' (or 'bias ? bias[col] : 0.0f'), optionally under ReLU 'fmaxf(v, 0.0f)', GELU, SiLU, LeakyReLU, sigmoid or tanh in a form of docs/migration.md (alpha, beta float parameters), converted to C's type with rounding to nearest (matched furthest as a block of 64 threads) [tawa-unsupported]
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
      C[(threadRow * TM + i) * N + threadCol * TN + j] = fmaxf(acc[i * TN + j], OneR(0));
}
// CHECK: note: kernel 'fake_relu' is left unchanged

// 20. tile-count bound in a narrow variable: 256 tiles wrap to 0
__global__ void narrow_bound(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  const unsigned char tiles = (K + BK - 1) / BK;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the integer variable 'tiles' is narrower than 32 bits; its values would wrap where the index arithmetic followed does not (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < tiles; ++t) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'narrow_bound' is left unchanged

// 1. narrowing conversion in an index variable's declaration
__global__ void narrow_uchar(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  const unsigned char sh = threadIdx.x + 256;   // real: threadIdx.x; tool: +256
  const int cA = sh - 256;                      // real: tid-256; tool: tid
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the integer variable 'sh' is narrower than 32 bits; its values would wrap where the index arithmetic followed does not (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + cA % BK] = A[(innerRowA + o) * K + cA % BK];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'narrow_uchar' is left unchanged
// 2. bool
__global__ void narrow_bool(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  const bool b = threadIdx.x + 1;   // real 1, tool tid+1
  const int cA = b - 1;             // real 0, tool tid
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the bool variable 'b' must be set once, to a truth value such as a bounds check ('bool ok = row < M && k < K;'), and not changed after (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + cA % BK] = A[(innerRowA + o) * K + cA % BK];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'narrow_bool' is left unchanged
// 3. unsigned wrap hidden from constantOf by blockDim
__global__ void wrap_blockdim(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  const int z = (threadIdx.x - blockDim.x) / 1024u;   // tool 0; real ~4194303
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the value of 'z' does not fit its type for some thread (C's arithmetic wraps around) (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + innerColA + z] = A[(innerRowA + o) * K + innerColA];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'wrap_blockdim' is left unchanged
// 4. branch condition, unsigned compare hidden by blockDim
__global__ void wrap_branch(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected, before the first barrier, staging copies 'tile[i] = r < R && c < C ? matrix[index] : 0' (or unchecked, or 16-byte vector copies), in loops of constant bounds (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    if (threadIdx.x - blockDim.x < 1024u) {   // tool: true; real: false
      STAGE_A(8)
    }
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'wrap_branch' is left unchanged
// 10. upward unsigned wrap
__global__ void wrap_up(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  const unsigned w = threadIdx.x * 65536u * 65536u + threadIdx.x; // real tid
  const int cA = (w / 65536u / 65536u) % BK;   // real 0; tool tid % 8
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the value of 'w' does not fit its type for some thread (C's arithmetic wraps around) (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + cA] = A[(innerRowA + o) * K + cA];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'wrap_up' is left unchanged

// 5. int -> float value conversion instead of a bit copy
__global__ void vec_convert(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected a vector copy '*reinterpret_cast<float4 *>(&tile[i]) = *reinterpret_cast<const float4 *>(&matrix[j])' of consecutive elements, without a bounds check (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int v = threadIdx.x; v < 128; v += 64) {
      const int r = v / 4, c = (v % 4) * 2;
      *reinterpret_cast<float *>(&As[r * BK + c]) =
          *reinterpret_cast<const int *>(&A[r * K + c]);
    }
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'vec_convert' is left unchanged
// 6. a 4-byte type whose operator= swaps its halves
struct Swap2 {
  unsigned short a, b;
  __device__ Swap2 &operator=(const Swap2 &o) { a = o.b; b = o.a; return *this; }
};
__global__ void vec_swap(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected, before the first barrier, staging copies 'tile[i] = r < R && c < C ? matrix[index] : 0' (or unchecked, or 16-byte vector copies), in loops of constant bounds (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int v = threadIdx.x; v < 128; v += 64) {
      const int r = v / 4, c = (v % 4) * 2;
      *reinterpret_cast<Swap2 *>(&As[r * BK + c]) =
          *reinterpret_cast<const Swap2 *>(&A[r * K + c]);
    }
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'vec_swap' is left unchanged
// 7a. static accumulator: one global array shared by every thread
__global__ void static_acc(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  static float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the local variable 'acc' is static: one variable shared by every thread and launch (no lifting front end follows it) [tawa-unsupported]
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
// CHECK: note: kernel 'static_acc' is left unchanged
// 7b. static int modified in the prologue
__global__ void static_int(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  static int z = 0;
  z += 1;                         // tool: 1; real: racy global counter
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the local variable 'z' is static: one variable shared by every thread and launch (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + innerColA + z - 1] = A[(innerRowA + o) * K + innerColA];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'static_int' is left unchanged
// 8. loop increment that does not advance the counter
__global__ void inc_other(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  int other = 0;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected 'for (int t = 0; t < K; t += TILE)' or 'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)' [tawa-unsupported]
  for (int t = 0; t < K; other += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'inc_other' is left unchanged

// 21. a __device__ global int taken for a per-thread local
__device__ int gCol;
__global__ void global_int(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the variable 'gCol' has static storage: shared by every thread and launch (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    gCol = threadIdx.x % BK;        // every thread of every block writes one global
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + gCol] = A[(innerRowA + o) * K + gCol];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'global_int' is left unchanged

// 12. a "zero" that is not zero: isZero strips every conversion
struct One {
  int v;
  __device__ One(int x) : v(x) {}
  __device__ operator float() const { return 1.0f; }
};
__global__ void fake_zero(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {One(0)};      // acc[0] starts at 1.0f
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected a zero, an element of a __shared__ tile or a local holding one (matched furthest as a block of 1024 threads) [tawa-unsupported]
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
// CHECK: note: kernel 'fake_zero' is left unchanged
// 13. vector staging through 'tile + i' of a two-dimensional tile:
//     As + i advances i ROWS, the tool takes i elements
__global__ void rowptr(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  __shared__ bf16 As[BM][BK];
  __shared__ bf16 Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
  A += blockIdx.y * BM * K;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * N + blockIdx.x * BN;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected a vector copy '*reinterpret_cast<float4 *>(&tile[i]) = *reinterpret_cast<const float4 *>(&matrix[j])' of consecutive elements, without a bounds check (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    if (threadIdx.x < BM)
      *reinterpret_cast<float4 *>(As + threadIdx.x * BK) =
          *reinterpret_cast<const float4 *>(&A[threadIdx.x * K]);
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += __bfloat162float(As[threadRow * TM + i][k]) * B_OF(k, j);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'rowptr' is left unchanged
// 14. static register cache in the product: one copy shared by all threads
__global__ void static_reg(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the local variable 'regM' is static: one variable shared by every thread and launch (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k) {
      static float regM[TM];
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
// CHECK: note: kernel 'static_reg' is left unchanged
// 15. a function named fmaf that is not fma
namespace my {
__device__ float fmaf(float a, float b, float c) { return c - a * b; }
__global__ void fake_fmaf(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: 'fmaf' is the kernel's own function, not the CUDA one of that name (no lifting front end follows it) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] = fmaf(A_OF(i, k), B_OF(k, j), acc[i * TN + j]);
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'fake_fmaf' is left unchanged
}

__device__ int max(int, int);
// 9. ReLU through an int max: truncates the accumulator
__global__ void relu_int(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: 'max' is the kernel's own function, not the CUDA one of that name (no lifting front end follows it) [tawa-unsupported]
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
      C[(threadRow * TM + i) * N + threadCol * TN + j] = max(acc[i * TN + j], 0);
}
// CHECK: note: kernel 'relu_int' is left unchanged
// 11. loop step wider than int: G.Tile = int(step)
__global__ void wide_step(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: expected 'for (int t = 0; t < K; t += TILE)' or 'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)' [tawa-unsupported]
  for (long long t = 0; t < K; t += 4294967304LL) {   // 2^32 + 8: one iteration
    STAGE_A(8)
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'wide_step' is left unchanged

// 16. unsigned literal read with getSExtValue: 4294967295u taken as -1
__global__ void ulit(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  A += 4294967295u;       // real: A + 4294967295; tool: A - 1
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 8 per iteration (matched furthest as a block of 64 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + innerColA] = A[(innerRowA + o) * K + innerColA + 1];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'ulit' is left unchanged

// 18. explicit narrowing cast, per-thread constant (constantOf ignores width)
__global__ void cast_uchar(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the index of the __shared__ tile 'As' must be a constant inside its extents for each thread of the block: it uses a value its type cannot hold (C's arithmetic wraps around) (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + (unsigned char)(innerColA + 256) - 256] =
          A[(innerRowA + o) * K + innerColA];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'cast_uchar' is left unchanged
// 19. (int) of a 64-bit value in a matrix index (eval treats int casts as exact)
__global__ void cast_int64(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the matrix index is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses a conversion to a narrower integer type (matched furthest as a block of 1024 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += BK) {
    for (int o = 0; o < BM; o += 8)
      As[(innerRowA + o) * BK + innerColA] =
          A[(int)((innerRowA + o) * K + innerColA + 4294967296LL) - 4294967296LL];
    STAGE_B
    __syncthreads();
    ADVANCE
    PRODUCT
    __syncthreads();
  }
  STORE
}
// CHECK: note: kernel 'cast_int64' is left unchanged

namespace my {
// 22. a local no-op named __syncthreads
__device__ void __syncthreads() {}
__global__ void fake_barrier(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: '__syncthreads' is the kernel's own function, not the CUDA one of that name (no lifting front end follows it) [tawa-unsupported]
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
// CHECK: note: kernel 'fake_barrier' is left unchanged
}
namespace my2 {
// 23. a variable named threadIdx
struct Fake { unsigned x, y, z; };
__device__ const Fake threadIdx = {0, 0, 0};
__global__ void fake_tid(int M, int N, int K, const bf16 *A, const bf16 *B,
                        float *C) {
  SETUP
  float acc[TM * TN] = {0.0f};
#pragma tawa tile
  // CHECK: blocked-holes.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: 'threadIdx' is the kernel's own, not the CUDA one of that name (no lifting front end follows it) [tawa-unsupported]
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
// CHECK: note: kernel 'fake_tid' is left unchanged
}
