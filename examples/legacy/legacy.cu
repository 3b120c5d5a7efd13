#include "legacy.h"

#define TILE 32

// The classic kernel: each thread computes one element of C, each
// iteration stages a 32 x 32 tile of A and of B in shared memory.
__global__ void gemm_smem(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] =
        (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col]
                                         : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16(acc);
}

// Another style: B stored N x K (each block stages 32 rows of B), the loop
// counts tiles, if/else staging, fmaf, and C = alpha * A B^T + beta * C.
__global__ void gemm_smem_nt(const __half *A, const __half *B, float *C, int M,
                             int N, int K, float alpha, float beta) {
  __shared__ __half As[TILE][TILE + 1];
  __shared__ __half Bs[TILE][TILE + 1];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int brow = blockIdx.x * TILE + threadIdx.y;
  float sum = 0;
#pragma tawa tile
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    if (row < M && t * TILE + threadIdx.x < K)
      As[threadIdx.y][threadIdx.x] = A[row * K + t * TILE + threadIdx.x];
    else
      As[threadIdx.y][threadIdx.x] = __float2half(0.0f);
    if (brow < N && t * TILE + threadIdx.x < K)
      Bs[threadIdx.y][threadIdx.x] = B[brow * K + t * TILE + threadIdx.x];
    else
      Bs[threadIdx.y][threadIdx.x] = __float2half(0.0f);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      sum = fmaf(__half2float(As[threadIdx.y][k]),
                 __half2float(Bs[threadIdx.x][k]), sum);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = alpha * sum + beta * C[row * N + col];
}

// The textbook style: square matrices of one Width, 16 x 16 tiles, the loop
// counting tiles, if/else bounds checks.
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(const __half *Md, const __half *Nd, float *Pd,
                                int Width) {
  __shared__ __half Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ __half Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
#pragma tawa tile
  for (int m = 0; m < (Width + TILE_WIDTH - 1) / TILE_WIDTH; ++m) {
    if (Row < Width && m * TILE_WIDTH + tx < Width)
      Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    else
      Mds[ty][tx] = __float2half(0.0f);
    if (Col < Width && m * TILE_WIDTH + ty < Width)
      Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    else
      Nds[ty][tx] = __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += __half2float(Mds[ty][k]) * __half2float(Nds[k][tx]);
    __syncthreads();
  }
  if (Row < Width && Col < Width)
    Pd[Row * Width + Col] = Pvalue;
}

// The style written for sizes that are multiples of the tile: no bounds
// checks at all, the loop bound K / TILE, bf16 in and fp32 out.
__global__ void gemm_whole_tiles(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                 float *C, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0;
#pragma tawa tile
  for (int m = 0; m < K / TILE; ++m) {
    As[ty][tx] = A[row * K + m * TILE + tx];
    Bs[ty][tx] = B[(m * TILE + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// The tutorial style with the tile size a template argument: a
// one-dimensional block of BS * BS threads, the operand pointers moved to
// the block's tiles before the loop and along K in it, no bounds checks.
// tawa-rewrite lifts each instantiation a launch makes (here BS = 32).
template <int BS>
__global__ void gemm_template_tile(int M, int N, int K,
                                   const __nv_bfloat16 *A,
                                   const __nv_bfloat16 *B, float *C) {
  __shared__ __nv_bfloat16 As[BS * BS];
  __shared__ __nv_bfloat16 Bs[BS * BS];
  const int r = threadIdx.x / BS, c = threadIdx.x % BS;
  A += blockIdx.y * BS * K;
  B += blockIdx.x * BS;
  C += blockIdx.y * BS * N + blockIdx.x * BS;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += BS) {
    As[r * BS + c] = A[r * K + c];
    Bs[r * BS + c] = B[r * N + c];
    __syncthreads();
    A += BS;
    B += BS * N;
    for (int k = 0; k < BS; ++k)
      acc += __bfloat162float(As[r * BS + k]) * __bfloat162float(Bs[k * BS + c]);
    __syncthreads();
  }
  C[r * N + c] = acc;
}

// A batch of GEMMs: blockIdx.z picks the matrices, through pointers set
// before the loop; each operand's matrices are packed one after another.
__global__ void gemm_batched(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             __nv_bfloat16 *C, int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  A += (size_t)blockIdx.z * M * K;
  B += (size_t)blockIdx.z * K * N;
  C += (size_t)blockIdx.z * M * N;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] =
        (row < M && t + tx < K) ? A[row * K + t + tx] : __float2bfloat16(0.0f);
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col]
                                         : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = __float2bfloat16(acc);
}

// The style of many SGEMM tutorials, here on bf16 data: a one-dimensional
// block of TILE * TILE threads split into a row and a column by TILE,
// blockIdx.x walking the rows of C, one-dimensional tiles, pointers moved to
// the block's tiles before the loop and advanced by a tile per iteration,
// C = alpha * A B + beta * C, and no bounds checks (extents that are
// multiples of the tile).
__global__ void gemm_flat(int M, int N, int K, float alpha,
                          const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                          float beta, float *C) {
  const unsigned cRow = blockIdx.x, cCol = blockIdx.y;
  __shared__ __nv_bfloat16 As[TILE * TILE];
  __shared__ __nv_bfloat16 Bs[TILE * TILE];
  const unsigned threadCol = threadIdx.x % TILE;
  const unsigned threadRow = threadIdx.x / TILE;
  A += cRow * TILE * K;
  B += cCol * TILE;
  C += cRow * TILE * N + cCol * TILE;
  float tmp = 0.0f;
#pragma tawa tile
  for (int bk = 0; bk < K; bk += TILE) {
    As[threadRow * TILE + threadCol] = A[threadRow * K + threadCol];
    Bs[threadRow * TILE + threadCol] = B[threadRow * N + threadCol];
    __syncthreads();
    A += TILE;
    B += TILE * N;
    for (int i = 0; i < TILE; ++i)
      tmp += __bfloat162float(As[threadRow * TILE + i]) *
             __bfloat162float(Bs[i * TILE + threadCol]);
    __syncthreads();
  }
  C[threadRow * N + threadCol] =
      alpha * tmp + beta * C[threadRow * N + threadCol];
}

// A linear layer's GEMM: C = max(A B + bias, 0) with a bias per column of
// C, bf16 in and out, the bias added and ReLU applied in the store.
__global__ void gemm_bias_relu(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                               const __nv_bfloat16 *bias, __nv_bfloat16 *C,
                               int M, int N, int K) {
  __shared__ __nv_bfloat16 As[TILE][TILE];
  __shared__ __nv_bfloat16 Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] =
        row < M && t + tx < K ? A[row * K + t + tx] : __float2bfloat16(0.0f);
    Bs[ty][tx] =
        t + ty < K && col < N ? B[(t + ty) * N + col] : __float2bfloat16(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] =
        __float2bfloat16(fmaxf(acc + __bfloat162float(bias[col]), 0.0f));
}

// Double-buffered shared memory: the next tiles are staged into the other
// buffer while the product reads the current one, one barrier per
// iteration; fp16 in, fp32 out.
__global__ void gemm_double_buffered(const __half *A, const __half *B, float *C,
                                     int M, int N, int K) {
  __shared__ __half As[2][TILE][TILE];
  __shared__ __half Bs[2][TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  const int tiles = (K + TILE - 1) / TILE;
  float acc = 0.0f;
  As[0][ty][tx] = row < M && tx < K ? A[row * K + tx] : __float2half(0.0f);
  Bs[0][ty][tx] = ty < K && col < N ? B[ty * N + col] : __float2half(0.0f);
  __syncthreads();
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t % 2, nxt = 1 - cur;
    if (t + 1 < tiles) {
      const int k0 = (t + 1) * TILE;
      As[nxt][ty][tx] =
          row < M && k0 + tx < K ? A[row * K + k0 + tx] : __float2half(0.0f);
      Bs[nxt][ty][tx] =
          k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : __float2half(0.0f);
    }
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[cur][ty][k]) * __half2float(Bs[cur][k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// The SGEMM tutorials' register-blocked style, here on bf16 data: 256
// threads, each accumulating an 8 x 8 micro-tile of a 128 x 128 tile of C
// through register caches of A's column and B's row; the tiles staged by
// 16-byte vector copies; pointers advanced by a tile per iteration; no
// bounds checks (extents that are multiples of the tiles).
__global__ void gemm_blocked(int M, int N, int K, const __nv_bfloat16 *A,
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
          acc[i * 8 + j] +=
              __bfloat162float(regM[i]) * __bfloat162float(regN[j]);
    }
    __syncthreads();
    A += 32;
    B += 32 * N;
  }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      C[(threadRow * 8 + i) * N + threadCol * 8 + j] =
          __float2bfloat16(acc[i * 8 + j]);
}

// Register blocking with bounds checks: 16 x 16 threads, each a 4 x 4
// micro-tile strided by 16 rows and columns, A staged transposed into a
// two-dimensional tile, four copies of each tile per thread; fp16 in, fp32
// out.
__global__ void gemm_blocked_checked(const __half *A, const __half *B, float *C,
                                     int M, int N, int K) {
  __shared__ __half As[16][64];
  __shared__ __half Bs[16][64];
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
      As[k][m] = row0 + m < M && t * 16 + k < K
                     ? A[(row0 + m) * K + t * 16 + k]
                     : __float2half(0.0f);
      const int kb = e / 64, n = e % 64;
      if (t * 16 + kb < K && col0 + n < N)
        Bs[kb][n] = B[(t * 16 + kb) * N + col0 + n];
      else
        Bs[kb][n] = __float2half(0.0f);
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i)
        a[i] = __half2float(As[k][ty + 16 * i]);
      for (int j = 0; j < 4; ++j)
        b[j] = __half2float(Bs[k][tx + 16 * j]);
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
        C[r * N + c] = acc[i][j];
    }
}

// A WMMA GEMM with tiles staged in shared memory: 128 threads stage a
// 64 x 32 tile of A and a 32 x 64 tile of B per iteration, and each of the
// four warps multiplies 2 x 2 accumulator fragments of a 32 x 32 tile of C,
// for M and N multiples of 64 and K a multiple of 32.
__global__ void wmma_smem_kernel(const half *A, const half *B, float *C, int M,
                                 int N, int K) {
  using namespace nvcuda;
  __shared__ half As[64][32];
  __shared__ half Bs[32][64];
  const int warp = threadIdx.x / 32;
  const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    for (int e = threadIdx.x; e < 64 * 32; e += 128) {
      As[e / 32][e % 32] = A[(blockIdx.y * 64 + e / 32) * K + t + e % 32];
      Bs[e / 64][e % 64] = B[(t + e / 64) * N + blockIdx.x * 64 + e % 64];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(a[i], &As[wr + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(b[j], &Bs[kk][wc + j * 16], 64);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (blockIdx.y * 64 + wr + i * 16) * N +
                                  blockIdx.x * 64 + wc + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
}

// The CUDA samples' WMMA style: one 16 x 16 accumulator fragment per warp,
// warps along x walking the rows of C and threads along y its columns,
// fragments loaded straight from global memory, for M, N and K multiples of
// 16 (the fragment checks only its first row and column).
__global__ void wmma_gemm_kernel(const half *a, const half *b, float *c, int M,
                                 int N, int K) {
  int lda = K, ldb = N, ldc = N;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half,
                         nvcuda::wmma::row_major>
      a_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half,
                         nvcuda::wmma::row_major>
      b_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc_frag;
  nvcuda::wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += 16) {
    int aRow = warpM * 16, aCol = i;
    int bRow = i, bCol = warpN * 16;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      nvcuda::wmma::load_matrix_sync(a_frag, a + aRow * lda + aCol, lda);
      nvcuda::wmma::load_matrix_sync(b_frag, b + bRow * ldb + bCol, ldb);
      nvcuda::wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cRow = warpM * 16, cCol = warpN * 16;
  if (cRow < M && cCol < N)
    nvcuda::wmma::store_matrix_sync(c + cRow * ldc + cCol, acc_frag, ldc,
                                    nvcuda::wmma::mem_row_major);
}

// Extents fixed at compile time (legacy.h's FIXED_M, FIXED_N, FIXED_K), as
// tutorials write them: no extent parameters, bounds checks for the ragged
// edges.
__global__ void gemm_fixed_extents(const __half *A, const __half *B, float *C) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < FIXED_K; t += TILE) {
    As[ty][tx] = row < FIXED_M && t + tx < FIXED_K ? A[row * FIXED_K + t + tx]
                                                   : __float2half(0.0f);
    Bs[ty][tx] = t + ty < FIXED_K && col < FIXED_N ? B[(t + ty) * FIXED_N + col]
                                                   : __float2half(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < FIXED_M && col < FIXED_N)
    C[row * FIXED_N + col] = acc;
}

// The CUDA samples' simpleTensorCoreGEMM kernel: column-major A, B and C,
// one 16 x 16 tile of C per warp, C = alpha * A * B + beta * C through a C
// fragment.
__global__ void wmma_col_major_kernel(half *a, half *b, float *c, int M, int N,
                                      int K, float alpha, float beta) {
  int lda = M;
  int ldb = K;
  int ldc = M;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = (blockIdx.y * blockDim.y + threadIdx.y);
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half,
                         nvcuda::wmma::col_major>
      a_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, half,
                         nvcuda::wmma::col_major>
      b_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc_frag;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> c_frag;
  nvcuda::wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  for (int i = 0; i < K; i += 16) {
    int aRow = warpM * 16;
    int aCol = i;
    int bRow = i;
    int bCol = warpN * 16;
    if (aRow < M && aCol < K && bRow < K && bCol < N) {
      nvcuda::wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);
      nvcuda::wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
      nvcuda::wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cRow = warpM * 16;
  int cCol = warpN * 16;
  if (cRow < M && cCol < N) {
    nvcuda::wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc,
                                   nvcuda::wmma::mem_col_major);
    for (int i = 0; i < c_frag.num_elements; i++)
      c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
    nvcuda::wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc,
                                    nvcuda::wmma::mem_col_major);
  }
}

void smem_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
               int M, int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_smem<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

void smem_gemm_nt(const __half *A, const __half *B, float *C, int M, int N,
                  int K, float alpha, float beta, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_smem_nt<<<grid, block, 0, stream>>>(A, B, C, M, N, K, alpha, beta);
}

void square_matmul(const __half *M, const __half *N, float *P, int Width,
                   cudaStream_t stream) {
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  dim3 grid((Width + TILE_WIDTH - 1) / TILE_WIDTH,
            (Width + TILE_WIDTH - 1) / TILE_WIDTH);
  MatrixMulKernel<<<grid, block, 0, stream>>>(M, N, P, Width);
}

void whole_tiles_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                      int M, int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid(N / TILE, M / TILE);
  gemm_whole_tiles<<<grid, block, 0, stream>>>(A, B, C, N, K);
}

void template_tile_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                        float *C, int M, int N, int K, cudaStream_t stream) {
  gemm_template_tile<32>
      <<<dim3(N / 32, M / 32), 32 * 32, 0, stream>>>(M, N, K, A, B, C);
}

void batched_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K, int batches,
                  cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE, batches);
  gemm_batched<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

void wmma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K,
               cudaStream_t stream) {
  // 4 x 4 warps per block: 64 rows (blockDim.x / 32 warps of 16) by 64
  // columns (blockDim.y threads of 16).
  dim3 block(128, 4);
  dim3 grid((M + 63) / 64, (N + 63) / 64);
  wmma_gemm_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

void flat_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M,
               int N, int K, float alpha, float beta, cudaStream_t stream) {
  dim3 grid(M / TILE, N / TILE);
  gemm_flat<<<grid, TILE * TILE, 0, stream>>>(M, N, K, alpha, A, B, beta, C);
}

void bias_relu_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                    const __nv_bfloat16 *bias, __nv_bfloat16 *C, int M, int N,
                    int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_bias_relu<<<grid, block, 0, stream>>>(A, B, bias, C, M, N, K);
}

void double_buffered_gemm(const __half *A, const __half *B, float *C, int M,
                          int N, int K, cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  gemm_double_buffered<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

void blocked_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                  __nv_bfloat16 *C, int M, int N, int K, cudaStream_t stream) {
  dim3 grid(N / 128, M / 128);
  gemm_blocked<<<grid, 256, 0, stream>>>(M, N, K, A, B, C);
}

void blocked_checked_gemm(const __half *A, const __half *B, float *C, int M,
                          int N, int K, cudaStream_t stream) {
  dim3 block(16, 16);
  dim3 grid((N + 63) / 64, (M + 63) / 64);
  gemm_blocked_checked<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

void wmma_smem_gemm(const __half *A, const __half *B, float *C, int M, int N,
                    int K, cudaStream_t stream) {
  dim3 grid(N / 64, M / 64);
  wmma_smem_kernel<<<grid, 128, 0, stream>>>(A, B, C, M, N, K);
}

void fixed_extents_gemm(const __half *A, const __half *B, float *C,
                        cudaStream_t stream) {
  dim3 block(TILE, TILE);
  dim3 grid((FIXED_N + TILE - 1) / TILE, (FIXED_M + TILE - 1) / TILE);
  gemm_fixed_extents<<<grid, block, 0, stream>>>(A, B, C);
}

void wmma_col_major_gemm(half *A, half *B, float *C, int M, int N, int K,
                         float alpha, float beta, cudaStream_t stream) {
  // 4 x 4 warps per block, as the sample launches it.
  dim3 block(128, 4);
  dim3 grid((M + (16 * block.x / 32 - 1)) / (16 * block.x / 32),
            (N + 16 * block.y - 1) / (16 * block.y));
  wmma_col_major_kernel<<<grid, block, 0, stream>>>(A, B, C, M, N, K, alpha,
                                                    beta);
}
