// --migrate lifts register-blocked kernels that stage the next iteration's
// tiles while multiplying the current ones: the first tiles staged before
// the loop, then a barrier; in the loop, the product over the tiles the
// iteration reads, and the copies of the next tiles, directly into buffer
// (i + 1) % 2 of double-buffered tiles `X[2][R][C]` (also read by WMMA
// fragment loads), or through registers
// loaded before the product and stored after it (past a barrier where the
// tile has one buffer); the body ends with a barrier. Taken back one step,
// the loop's copies are those of the plain form, and those before the loop
// are its copies for iteration 0. (The outputs are checked without this
// file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

// Double-buffered tiles staged directly: 256 threads, 64 x 64 x 16 tiles,
// a 4 x 4 micro-tile each; a tile counter, `t & 1` and `cur ^ 1`.
// CHECK-LABEL: __global__ void double_buffered(
// CHECK-NOT: #pragma tawa tile
__global__ void double_buffered(const __half *A, const __half *B, float *C,
                                int M, int N, int K) {
  __shared__ __half As[2][64][16];
  __shared__ __half Bs[2][16][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  for (int i = 0; i < 4; ++i) {
    const int e = tid + i * 256;
    As[0][e / 16][e % 16] = A[(row0 + e / 16) * K + e % 16];
    Bs[0][e / 64][e % 64] = B[(e / 64) * N + col0 + e % 64];
  }
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles) {
      for (int i = 0; i < 4; ++i) {
        const int e = tid + i * 256;
        As[cur ^ 1][e / 16][e % 16] =
            A[(row0 + e / 16) * K + (t + 1) * 16 + e % 16];
        Bs[cur ^ 1][e / 64][e % 64] =
            B[((t + 1) * 16 + e / 64) * N + col0 + e % 64];
      }
    }
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[cur][ty * 4 + i][k]) *
                       __half2float(Bs[cur][k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
// CHECK: __global__ void double_buffered_tiled(
// CHECK: 256 threads (one-dimensional)
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 ||{{$}}
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, (K / 16 * 16), K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, (K / 16 * 16), tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// One buffer, the next tiles prefetched into registers before the product
// and stored after a barrier; A staged transposed; an element counter.
// CHECK-LABEL: __global__ void register_prefetch(
// CHECK-NOT: #pragma tawa tile
__global__ void register_prefetch(const __half *A, const __half *B, float *C,
                                  int M, int N, int K) {
  __shared__ __half As[16][64];
  __shared__ __half Bs[16][64];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int aRow = tid / 4, aCol = (tid % 4) * 4;
  const int bRow = tid / 16, bCol = (tid % 16) * 4;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  __half ra[4], rb[4];
  for (int i = 0; i < 4; ++i) {
    ra[i] = A[(row0 + aRow) * K + aCol + i];
    rb[i] = B[bRow * N + col0 + bCol + i];
  }
  for (int i = 0; i < 4; ++i) {
    As[aCol + i][aRow] = ra[i];
    Bs[bRow][bCol + i] = rb[i];
  }
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    if (k0 + 16 < K) {
      for (int i = 0; i < 4; ++i) {
        ra[i] = A[(row0 + aRow) * K + k0 + 16 + aCol + i];
        rb[i] = B[(k0 + 16 + bRow) * N + col0 + bCol + i];
      }
    }
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __half2float(As[k][ty * 4 + i]) *
                       __half2float(Bs[k][tx * 4 + j]);
    __syncthreads();
    if (k0 + 16 < K) {
      for (int i = 0; i < 4; ++i) {
        As[aCol + i][aRow] = ra[i];
        Bs[bRow][bCol + i] = rb[i];
      }
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + ty * 4 + i) * N + col0 + tx * 4 + j] = acc[i][j];
}
// CHECK: __global__ void register_prefetch_tiled(
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, K, tawa_cols, N},

// Both: float4 registers (eight bf16 each), also for the first tiles,
// prefetched and stored into the other buffer before the barrier, buffers chosen by `(k0 / 32) % 2`
// through variables, 128 x 128 x 32 tiles, 8 x 8 per thread.
// CHECK-LABEL: __global__ void vector_prefetch_double(
// CHECK-NOT: #pragma tawa tile
__global__ void vector_prefetch_double(const __nv_bfloat16 *A,
                                       const __nv_bfloat16 *B,
                                       __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[2][128][32];
  __shared__ __nv_bfloat16 Bs[2][32][128];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  float acc[8][8] = {};
  float4 ra0, ra1, rb0, rb1;
  const int e0 = tid, e1 = tid + 256;
#define A_AT(E, K0) (&A[(row0 + (E) / 4) * K + (K0) + ((E) % 4) * 8])
#define B_AT(E, K0) (&B[((K0) + (E) / 16) * N + col0 + ((E) % 16) * 8])
#define AS(BUF, E) (&As[BUF][(E) / 4][((E) % 4) * 8])
#define BS(BUF, E) (&Bs[BUF][(E) / 16][((E) % 16) * 8])
  ra0 = *reinterpret_cast<const float4 *>(A_AT(e0, 0));
  ra1 = *reinterpret_cast<const float4 *>(A_AT(e1, 0));
  rb0 = *reinterpret_cast<const float4 *>(B_AT(e0, 0));
  rb1 = *reinterpret_cast<const float4 *>(B_AT(e1, 0));
  *reinterpret_cast<float4 *>(AS(0, e0)) = ra0;
  *reinterpret_cast<float4 *>(AS(0, e1)) = ra1;
  *reinterpret_cast<float4 *>(BS(0, e0)) = rb0;
  *reinterpret_cast<float4 *>(BS(0, e1)) = rb1;
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int cur = (k0 / 32) % 2, nxt = 1 - cur;
    if (k0 + 32 < K) {
      ra0 = *reinterpret_cast<const float4 *>(A_AT(e0, k0 + 32));
      ra1 = *reinterpret_cast<const float4 *>(A_AT(e1, k0 + 32));
      rb0 = *reinterpret_cast<const float4 *>(B_AT(e0, k0 + 32));
      rb1 = *reinterpret_cast<const float4 *>(B_AT(e1, k0 + 32));
    }
    for (int k = 0; k < 32; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          acc[i][j] += __bfloat162float(As[cur][ty * 8 + i][k]) *
                       __bfloat162float(Bs[cur][k][tx * 8 + j]);
    if (k0 + 32 < K) {
      *reinterpret_cast<float4 *>(AS(nxt, e0)) = ra0;
      *reinterpret_cast<float4 *>(AS(nxt, e1)) = ra1;
      *reinterpret_cast<float4 *>(BS(nxt, e0)) = rb0;
      *reinterpret_cast<float4 *>(BS(nxt, e1)) = rb1;
    }
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      C[(row0 + ty * 8 + i) * N + col0 + tx * 8 + j] =
          __float2bfloat16_rn(acc[i][j]);
}
// CHECK: vector_prefetch_double_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 32 != 0 ||

// Bounds-checked copies (any M, N, K): a 16 x 16 block, 2 x 2 per thread,
// registers set under if/else, the prefetch under `t < tiles - 1`, the
// product before it; the parameters written by a macro, which the
// launcher's signature spells out.
#define CHECKED_PARAMS                                                         \
  const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K
// CHECK-LABEL: __global__ void checked_prefetch(
// CHECK-NOT: #pragma tawa tile
__global__ void checked_prefetch(CHECKED_PARAMS) {
  __shared__ __nv_bfloat16 As[32][16];
  __shared__ __nv_bfloat16 Bs[16][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
  float acc[2][2] = {};
  __nv_bfloat16 ra[2], rb[2];
  for (int i = 0; i < 2; ++i) {
    const int r = row0 + ty * 2 + i, c = col0 + tx + i * 16;
    As[ty * 2 + i][tx] = r < M && tx < K ? A[r * K + tx] : __nv_bfloat16();
    Bs[ty][tx + i * 16] = ty < K && c < N ? B[ty * N + c] : __nv_bfloat16();
  }
  __syncthreads();
  const int tiles = (K + 15) / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          acc[i][j] += __bfloat162float(As[ty * 2 + i][k]) *
                       __bfloat162float(Bs[k][tx * 2 + j]);
    if (t < tiles - 1) {
      const int k1 = (t + 1) * 16;
      for (int i = 0; i < 2; ++i) {
        const int r = row0 + ty * 2 + i, c = col0 + tx + i * 16;
        if (r < M && k1 + tx < K)
          ra[i] = A[r * K + k1 + tx];
        else
          ra[i] = __nv_bfloat16();
        rb[i] = k1 + ty < K && c < N ? B[(k1 + ty) * N + c] : __nv_bfloat16();
      }
    }
    __syncthreads();
    for (int i = 0; i < 2; ++i) {
      As[ty * 2 + i][tx] = ra[i];
      Bs[ty][tx + i * 16] = rb[i];
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int r = row0 + ty * 2 + i, c = col0 + tx * 2 + j;
      if (r < M && c < N)
        C[r * N + c] = acc[i][j];
    }
}
// CHECK: __global__ void checked_prefetch_tiled(
// CHECK: 16 x 16 threads
// CHECK: static void checked_prefetch_migrated_launch(
// CHECK: cudaStream_t tawa_stream,
// CHECK-NEXT: const __nv_bfloat16 *A,
// CHECK-NEXT: const __nv_bfloat16 *B, float *C,
// CHECK-NEXT: int M, int N, int K) {
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, M, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, N, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

// Registers of the matrix's type filled by a float4 load, A written
// transposed from them element by element, B stored as a float4 from them;
// C stored as float4 copies of the accumulators.
#define FETCH_FLOAT4(p) (*reinterpret_cast<float4 *>(&(p)))
#define LDG_FLOAT4(p) (*reinterpret_cast<const float4 *>(&(p)))
// CHECK-LABEL: __global__ void register_arrays(
// CHECK-NOT: #pragma tawa tile
__global__ void register_arrays(const __half *A, const __half *B, float *C,
                                int M, int N, int K) {
  __shared__ __half As[2][16][128];
  __shared__ __half Bs[2][16][128];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  const int by = blockIdx.y * 128, bx = blockIdx.x * 128;
  const int aRow = tid / 2, aCol = (tid % 2) * 8;
  const int bRow = tid / 16, bCol = (tid % 16) * 8;
  __half ldgA[8], ldgB[8];
  float acc[8][8] = {};
  FETCH_FLOAT4(ldgA[0]) = LDG_FLOAT4(A[(by + aRow) * K + aCol]);
  FETCH_FLOAT4(Bs[0][bRow][bCol]) = LDG_FLOAT4(B[bRow * N + bx + bCol]);
  for (int i = 0; i < 8; ++i)
    As[0][aCol + i][aRow] = ldgA[i];
  __syncthreads();
  const int tiles = K / 16;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1, nxt = cur ^ 1;
    if (t + 1 < tiles) {
      FETCH_FLOAT4(ldgA[0]) = LDG_FLOAT4(A[(by + aRow) * K + (t + 1) * 16 + aCol]);
      FETCH_FLOAT4(ldgB[0]) = LDG_FLOAT4(B[((t + 1) * 16 + bRow) * N + bx + bCol]);
    }
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
          acc[i][j] += __half2float(As[cur][k][ty * 8 + i]) *
                       __half2float(Bs[cur][k][tx * 8 + j]);
    if (t + 1 < tiles) {
      for (int i = 0; i < 8; ++i)
        As[nxt][aCol + i][aRow] = ldgA[i];
      FETCH_FLOAT4(Bs[nxt][bRow][bCol]) = FETCH_FLOAT4(ldgB[0]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; j += 4)
      FETCH_FLOAT4(C[(by + ty * 8 + i) * N + bx + tx * 8 + j]) =
          FETCH_FLOAT4(acc[i][j]);
}
// CHECK: register_arrays_tiled(tawa::Matrix<const __half> A,
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||

// WMMA fragments loaded from double-buffered, padded tiles: 4 warps of
// 2 x 2 fragments, 64 x 64 x 32 tiles.
// CHECK-LABEL: __global__ void wmma_double_buffered(
// CHECK-NOT: #pragma tawa tile
__global__ void wmma_double_buffered(const __half *A, const __half *B,
                                     float *C, int M, int N, int K) {
  using namespace nvcuda;
  __shared__ __half As[2][64][40];
  __shared__ __half Bs[2][32][72];
  const int tid = threadIdx.x, warp = tid / 32;
  const int wm = warp / 2, wn = warp % 2;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  for (int e = tid; e < 64 * 32; e += 128) {
    As[0][e / 32][e % 32] = A[(row0 + e / 32) * K + e % 32];
    Bs[0][e / 64][e % 64] = B[(e / 64) * N + col0 + e % 64];
  }
  __syncthreads();
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int cur = (k0 / 32) & 1;
    if (k0 + 32 < K)
      for (int e = tid; e < 64 * 32; e += 128) {
        As[cur ^ 1][e / 32][e % 32] = A[(row0 + e / 32) * K + k0 + 32 + e % 32];
        Bs[cur ^ 1][e / 64][e % 64] = B[(k0 + 32 + e / 64) * N + col0 + e % 64];
      }
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], 40);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], 72);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (row0 + wm * 32 + i * 16) * N + col0 +
                                  wn * 32 + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}
// CHECK: wmma_double_buffered_tiled(tawa::Matrix<const __half> A,
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||

// DIAG-NOT: warning:

void launch_all(const __half *Ah, const __half *Bh, float *Cf,
                const __nv_bfloat16 *Ab, const __nv_bfloat16 *Bb,
                __nv_bfloat16 *Cb, int M, int N, int K) {
  double_buffered<<<dim3(N / 64, M / 64), 256>>>(Ah, Bh, Cf, M, N, K);
  register_prefetch<<<dim3(N / 64, M / 64), 256>>>(Ah, Bh, Cf, M, N, K);
  vector_prefetch_double<<<dim3(N / 128, M / 128), 256>>>(Ab, Bb, Cb, M, N,
                                                          K);
  checked_prefetch<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(16, 16)>>>(
      Ab, Bb, Cf, M, N, K);
  register_arrays<<<dim3(N / 128, M / 128), 256>>>(Ah, Bh, Cf, M, N, K);
  wmma_double_buffered<<<dim3(N / 64, M / 64), 128>>>(Ah, Bh, Cf, M, N, K);
}
