// --migrate lifts kernels written for fixed extents, named by macros,
// const variables or enumerators instead of parameters: the proof takes each
// name as a symbol, so it holds for every value, and the launcher writes the
// value the kernel uses (the name could mean another value there). A name
// the kernel needs the value of (an array extent, an inner loop's bound, a
// divisor) stays a value. A kernel that reads text under a __CUDA_ARCH__
// conditional is refused: the host compilation read here is not the
// device's. (The outputs are checked without this file's own check lines,
// which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG2 --implicit-check-not=warning: --implicit-check-not=error:
// RUN: %tawa-rewrite %s -o %t3.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t3.cu | FileCheck %s --check-prefix=ONEPASS
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

typedef __nv_bfloat16 bf16;

#define TILE 32
#define M_DIM 2048
#define N_DIM 1024
#define K_DIM (512 + 512)

// The tutorials' form: macros for the extents, no bounds checks.
// CHECK-LABEL: __global__ void macro_extents(
// CHECK-NOT: #pragma tawa tile
__global__ void macro_extents(const bf16 *A, const bf16 *B, bf16 *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K_DIM; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_DIM + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = __float2bfloat16_rn(acc);
}
// CHECK: __global__ void macro_extents_tiled(
// CHECK: where K_DIM (1024) is a multiple of 32;
// CHECK: The
// CHECK-NEXT: kernel's named constants, written as their values here: K_DIM = 1024, N_DIM
// CHECK-NEXT: = 1024.
// CHECK: (1LL * 1024 * sizeof(__nv_bfloat16)) % 16 == 0 &&
// CHECK: (1LL * 1024 * sizeof(__nv_bfloat16)) % 16 == 0;
// CHECK: const double tawa_flops = 2.0 * tawa_rows * tawa_cols * 1024;
// CHECK: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || 1024 % 32 != 0 ||
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, 1024, 1024},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, 1024, tawa_cols, 1024},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, 1024});

namespace shape {
constexpr int M = 4000, N = 3000, K = 2000;
} // namespace shape

// constexpr extents of a namespace, bounds checks, a tile counter.
// CHECK-LABEL: __global__ void constexpr_extents(
__global__ void constexpr_extents(const __half *A, const __half *B, float *C) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < (shape::K + TILE - 1) / TILE; ++t) {
    As[ty][tx] = row < shape::M && t * TILE + tx < shape::K
                     ? A[row * shape::K + t * TILE + tx]
                     : __half();
    Bs[ty][tx] = t * TILE + ty < shape::K && col < shape::N
                     ? B[(t * TILE + ty) * shape::N + col]
                     : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < shape::M && col < shape::N)
    C[row * shape::N + col] = acc;
}
// CHECK: const int tawa_rows =
// CHECK-NEXT: 4000 < tawa_rows_covered ? 4000 : int(tawa_rows_covered);
// CHECK: const int tawa_cols =
// CHECK-NEXT: 3000 < tawa_cols_covered ? 3000 : int(tawa_cols_covered);
// CHECK: tawa::Matrix<const __half>{A, 4000, 2000, 2000},
// CHECK-NEXT: tawa::Matrix<const __half>{B, 2000, 3000, 3000},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, 3000});

// A square kernel with its extent a const of its own: the launcher, after
// the kernel, names the value.
// CHECK-LABEL: __global__ void local_extent(
__global__ void local_extent(const bf16 *A, const bf16 *B, float *C) {
  const int n = 1024;
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * n + col] = acc;
}
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, 1024, 1024},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, 1024, tawa_cols, 1024},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, 1024});

// Enumerators: an enum's constants as the extents, and one as the tile.
enum Sizes { kTile = 32, kRows = 512, kCols = 768, kDepth = 256 };
// CHECK-LABEL: __global__ void enum_extents(
__global__ void enum_extents(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[kTile][kTile];
  __shared__ bf16 Bs[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < kDepth; t += kTile) {
    As[threadIdx.y][threadIdx.x] = A[row * kDepth + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * kCols + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * kCols + col] = acc;
}
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, 256, 256},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, 256, tawa_cols, 768},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, 768});

// Register-blocked, 4 x 4 micro-tiles of 16 x 16 threads, the extents
// macros and the block tile BM a macro the kernel needs the value of.
#define BM 64
#define BK 16
#define TM 4
// CHECK-LABEL: __global__ void blocked_macro_extents(
__global__ void blocked_macro_extents(const bf16 *A, const bf16 *B,
                                      bf16 *C) {
  __shared__ bf16 As[BM][BK];
  __shared__ bf16 Bs[BK][BM];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BM;
  float acc[TM][TM] = {};
#pragma tawa tile
  for (int t = 0; t < K_DIM; t += BK) {
    for (int i = 0; i < TM; ++i) {
      As[ty + 16 * i][tx] = A[(row0 + ty + 16 * i) * K_DIM + t + tx];
      Bs[ty][tx + 16 * i] = B[(t + ty) * N_DIM + col0 + tx + 16 * i];
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TM; ++j)
          acc[i][j] += __bfloat162float(As[ty * TM + i][k]) *
                       __bfloat162float(Bs[k][tx * TM + j]);
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TM; ++j)
      C[(row0 + ty * TM + i) * N_DIM + col0 + tx * TM + j] =
          __float2bfloat16_rn(acc[i][j]);
}
// CHECK: __global__ void blocked_macro_extents_tiled(
// CHECK: block is
// CHECK-NEXT: /// 16 x 16 threads
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, 1024, 1024},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, 1024, tawa_cols, 1024},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, 1024});

// WMMA, one fragment per warp, the extents and leading dimensions macros.
// CHECK-LABEL: __global__ void wmma_macro_extents(
__global__ void wmma_macro_extents(const half *a, const half *b, float *c) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K_DIM; i += 16) {
    wmma::load_matrix_sync(a_frag, a + warpM * 16 * K_DIM + i, K_DIM);
    wmma::load_matrix_sync(b_frag, b + i * N_DIM + warpN * 16, N_DIM);
    wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
  }
  wmma::store_matrix_sync(c + warpM * 16 * N_DIM + warpN * 16, acc_frag,
                          N_DIM, wmma::mem_row_major);
}
// CHECK: __global__ void wmma_macro_extents_tiled(
// CHECK: 1024 % 16 != 0
// CHECK: tawa::Matrix<const __half>{a, tawa_rows, 1024, 1024},
// CHECK-NEXT: tawa::Matrix<const __half>{b, 1024, tawa_cols, 1024},
// CHECK-NEXT: tawa::Matrix<float>{c, tawa_rows, tawa_cols, 1024});

// Refused: K's value decides an array's extent, so it is no symbol, and
// the loop bound is then no extent.
#define K_SMALL 64
// CHECK-LABEL: __global__ void extent_in_a_type(
__global__ void extent_in_a_type(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  __shared__ float Scratch[K_SMALL];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: expected 'for (int t = 0; t < K; t += TILE)', 'for (int t = 0; t < (K + TILE - 1) / TILE; ++t)' or 'for (int t = 0; t < K / TILE; ++t)' (whole tiles only, a partial last one dropped), K an integer parameter or a named constant
#pragma tawa tile
  for (int t = 0; t < K_SMALL; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_SMALL + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  Scratch[threadIdx.x] = acc;
  C[row * N_DIM + col] = acc;
}

// Refused: a __constant__ extent is device memory, which the launcher
// cannot read (and no front end follows a variable of static storage).
__constant__ int devK = 1024;
// CHECK-LABEL: __global__ void device_extent(
__global__ void device_extent(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the variable 'devK' has static storage
#pragma tawa tile
  for (int t = 0; t < devK; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * devK + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}

// Refused: an extent of 0 is no tawa::Matrix extent.
#define K_ZERO 0
// CHECK-LABEL: __global__ void zero_extent(
__global__ void zero_extent(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the extents and leading dimensions must be positive 'int' values, as tawa::Matrix's are; 'K_ZERO' is 0
#pragma tawa tile
  for (int t = 0; t < K_ZERO; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_ZERO + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}

// Refused: two names of one value are two symbols, and the staging of A
// checks its column against N_DIM, not against K_DIM, the loop's bound.
// CHECK-LABEL: __global__ void wrong_named_bound(
__global__ void wrong_named_bound(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: this loop does not match a liftable pattern
#pragma tawa tile
  for (int t = 0; t < K_DIM; t += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M_DIM && t + threadIdx.x < N_DIM ? A[row * K_DIM + t + threadIdx.x]
                                               : bf16();
    Bs[threadIdx.y][threadIdx.x] =
        t + threadIdx.y < K_DIM && col < N_DIM ? B[(t + threadIdx.y) * N_DIM + col]
                                               : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M_DIM && col < N_DIM)
    C[row * N_DIM + col] = acc;
}


namespace other {
constexpr int K = 1024;
}
constexpr int K = 512;
// A using-declaration of the kernel's: K is other::K, 1024, in the kernel
// and ::K, 512, after it. The launcher writes 1024.
// CHECK-LABEL: __global__ void shadowed_extent(
__global__ void shadowed_extent(const bf16 *A, const bf16 *B, float *C) {
  using other::K;
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, 1024, 1024},

// A macro redefined inside the kernel after its last use, and one that
// expands to __LINE__: the launcher writes the values the kernel used.
#define K_REDEFINED 1024
#define K_LINE __LINE__
// CHECK-LABEL: __global__ void redefined_extent(
__global__ void redefined_extent(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K_LINE; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_REDEFINED + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
#undef K_REDEFINED
#define K_REDEFINED 512
}
// K_LINE is the line of the loop that uses it.
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, [[#@LINE-14]], 1024},

// Refused: the extent's definition differs for the device, whose
// compilation runs the kernel.
#ifdef __CUDA_ARCH__
#define K_ARCH 1024
#else
#define K_ARCH 512
#endif
// CHECK-LABEL: __global__ void arch_extent(
__global__ void arch_extent(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the kernel uses the macro 'K_ARCH', defined inside the conditional at line [[#@LINE-12]], which reads __CUDA_ARCH__: tawa-rewrite reads the host compilation, and the device compilation that runs the kernel may see other text there
#pragma tawa tile
  for (int t = 0; t < K_ARCH; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_ARCH + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}

// Refused: the host sees K_HOST's first definition, the device another,
// in a region the host compilation skips.
#define K_HOST 512
#ifdef __CUDA_ARCH__
#undef K_HOST
#define K_HOST 1024
#endif
// CHECK-LABEL: __global__ void arch_redefined(
__global__ void arch_redefined(const bf16 *A, const bf16 *B, float *C) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the kernel uses the macro 'K_HOST', which the device compilation defines otherwise under the conditional at line [[#@LINE-11]], which reads __CUDA_ARCH__
#pragma tawa tile
  for (int t = 0; t < K_HOST; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K_HOST + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}

// Refused: the kernel's own text differs for the device.
// CHECK-LABEL: __global__ void arch_body(
__global__ void arch_body(const bf16 *A, const bf16 *B, float *C, int K) {
  __shared__ bf16 As[TILE][TILE];
  __shared__ bf16 Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  // DIAG: named-extents.cu:[[@LINE+2]]:3: warning: {{.*}}breaks it: the kernel's text overlaps the conditional at line [[#@LINE+7]], which reads __CUDA_ARCH__
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * K + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N_DIM + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
#if __CUDA_ARCH__ >= 900
      acc += __bfloat162float(As[threadIdx.y][k]);
#else
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
#endif
    __syncthreads();
  }
  C[row * N_DIM + col] = acc;
}

// The migrated file rewrites: only the refused loops are reported again.
// DIAG2-COUNT-7: warning: this loop does not match a liftable pattern

// Without --migrate, the lifted loops are migrated and rewritten in one run,
// and only the refused ones are reported, once each.
// DEFAULT-COUNT-7: named-extents.cu:{{[0-9]+}}:3: warning: this loop does not match
// ONEPASS: __global__ void __launch_bounds__(384, 1) macro_extents_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) constexpr_extents_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) local_extent_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) enum_extents_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) blocked_macro_extents_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) wmma_macro_extents_tiled(
// ONEPASS: __global__ void __launch_bounds__(384, 1) shadowed_extent_tiled(

void launch(const bf16 *A, const bf16 *B, bf16 *C, float *F, const half *a,
            const half *b) {
  macro_extents<<<dim3(N_DIM / TILE, M_DIM / TILE), dim3(TILE, TILE)>>>(A, B,
                                                                       C);
  blocked_macro_extents<<<dim3(N_DIM / BM, M_DIM / BM), dim3(16, 16)>>>(A, B,
                                                                       C);
  wmma_macro_extents<<<dim3(M_DIM / 64, N_DIM / 16), dim3(128, 1)>>>(a, b, F);
}
