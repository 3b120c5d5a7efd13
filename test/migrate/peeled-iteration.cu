// A double-buffered tile loop counted from 1: the code before the loop
// stages tile 0, iteration t stages tile t while it multiplies tile t - 1,
// and the code after the loop multiplies the last tile. It is read as the
// loop from 0 whose last iteration stands after it without its copies
// (lib/PeeledIteration.h): the statements after the loop must repeat the
// body's for the counter equal to the loop's bound. Where they read the
// last buffer by its number (`s_a[1]`), they hold where the tile count is
// even, and the launcher runs the kernel as written for any other K. The
// refusals are in peeled-iteration-refusals.cu. (The outputs are checked
// without this file's own check lines, which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#define OFFSET(row, col, ld) ((row) * (ld) + (col))
#define FLOAT4(v) (reinterpret_cast<float4 *>(&(v))[0])

// The last buffer named by the loop's bound: any K that is a multiple of BK
// (the kernel has no bounds checks).
// CHECK-LABEL: __global__ void from_one_tiled(
// CHECK: tawa::mma(acc, a_, b_);
// CHECK: tawa::store(c, m0, n0, acc);
// CHECK-LABEL: static void from_one_migrated_launch(
// CHECK-NOT: K % 16
// CHECK: K % 8 != 0
// CHECK-NOT: K % 16
// CHECK: from_one_tiled<<<
__global__ void from_one(const __nv_bfloat16 *__restrict__ a,
                         const __nv_bfloat16 *__restrict__ b,
                         __nv_bfloat16 *__restrict__ c, const int M,
                         const int N, const int K) {
  const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * blockDim.x + tx;
  __shared__ __nv_bfloat16 s_a[2][BK][BM];
  __shared__ __nv_bfloat16 s_b[2][BK][BN];
  float r_c[TM][TN] = {0.0f};
  int load_a_smem_m = tid >> 1;
  int load_a_smem_k = (tid & 1) << 2;
  int load_b_smem_k = tid >> 5;
  int load_b_smem_n = (tid & 31) << 2;
  int load_a_gmem_m = by * BM + load_a_smem_m;
  int load_b_gmem_n = bx * BN + load_b_smem_n;
  {
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_smem_k, K);
    int load_b_gmem_addr = OFFSET(load_b_smem_k, load_b_gmem_n, N);
    for (int i = 0; i < 4; i++)
      s_a[0][load_a_smem_k + i][load_a_smem_m] = a[load_a_gmem_addr + i];
    for (int i = 0; i < 4; i++)
      s_b[0][load_b_smem_k][load_b_smem_n + i] = b[load_b_gmem_addr + i];
  }
  __syncthreads();
#pragma tawa tile
  for (int bk = 1; bk < (K + BK - 1) / BK; bk++) {
    int smem_sel = (bk - 1) & 1;
    int smem_sel_next = bk & 1;
    int load_a_gmem_k = bk * BK + load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = bk * BK + load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    __nv_bfloat16 r_load_a[4], r_load_b[4];
    for (int i = 0; i < 4; i++)
      r_load_a[i] = a[load_a_gmem_addr + i];
    for (int i = 0; i < 4; i++)
      r_load_b[i] = b[load_b_gmem_addr + i];
#pragma unroll
    for (int tk = 0; tk < BK; tk++)
#pragma unroll
      for (int tm = 0; tm < TM; tm++)
#pragma unroll
        for (int tn = 0; tn < TN; tn++)
          r_c[tm][tn] += __bfloat162float(s_a[smem_sel][tk][ty * TM + tm]) *
                         __bfloat162float(s_b[smem_sel][tk][tx * TN + tn]);
    for (int i = 0; i < 4; i++)
      s_a[smem_sel_next][load_a_smem_k + i][load_a_smem_m] = r_load_a[i];
    for (int i = 0; i < 4; i++)
      s_b[smem_sel_next][load_b_smem_k][load_b_smem_n + i] = r_load_b[i];
    __syncthreads();
  }
  int smem_sel = ((K + BK - 1) / BK - 1) & 1;
#pragma unroll
  for (int tk = 0; tk < BK; tk++)
#pragma unroll
    for (int tm = 0; tm < TM; tm++)
#pragma unroll
      for (int tn = 0; tn < TN; tn++)
        r_c[tm][tn] += __bfloat162float(s_a[smem_sel][tk][ty * TM + tm]) *
                       __bfloat162float(s_b[smem_sel][tk][tx * TN + tn]);
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++)
      c[OFFSET(by * BM + ty * TM + i, bx * BN + tx * TN + j, N)] =
          __float2bfloat16_rn(r_c[i][j]);
}

// The common tutorial form: vector loads into registers, fragments loaded
// from the tiles, and the last tiles read from buffer 1, which holds them
// where the tile count is even: the launcher requires K % 16 == 0. The
// code after the loop drops the body's '#pragma unroll' hints, which change
// no value.
// CHECK-LABEL: __global__ void buffer_one_tiled(
// CHECK: tawa::mma(acc, a_, b_);
// CHECK: where K is a multiple of 16;
// CHECK-LABEL: static void buffer_one_migrated_launch(
// CHECK-NOT: K % 8
// CHECK: K % 16 != 0
// CHECK: buffer_one_tiled<<<
__global__ void buffer_one(const __half *__restrict__ a,
                           const __half *__restrict__ b, float *__restrict__ c,
                           const int M, const int N, const int K) {
  const int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * blockDim.x + tx;
  __shared__ __half s_a[2][BK][BM];
  __shared__ __half s_b[2][BK][BN];
  __half r_load_a[4];
  __half r_load_b[4];
  float r_comp_a[TM];
  float r_comp_b[TN];
  float r_c[TM][TN] = {0.0};
  int load_a_smem_m = tid >> 1;
  int load_a_smem_k = (tid & 1) << 2;
  int load_b_smem_k = tid >> 5;
  int load_b_smem_n = (tid & 31) << 2;
  int load_a_gmem_m = by * BM + load_a_smem_m;
  int load_b_gmem_n = bx * BN + load_b_smem_n;
  {
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_smem_k, K);
    int load_b_gmem_addr = OFFSET(load_b_smem_k, load_b_gmem_n, N);
    for (int i = 0; i < 4; i++) {
      r_load_a[i] = a[load_a_gmem_addr + i];
      r_load_b[i] = b[load_b_gmem_addr + i];
    }
    for (int i = 0; i < 4; i++)
      s_a[0][load_a_smem_k + i][load_a_smem_m] = r_load_a[i];
    for (int i = 0; i < 4; i++)
      s_b[0][load_b_smem_k][load_b_smem_n + i] = r_load_b[i];
  }
  __syncthreads();
#pragma tawa tile
  for (int bk = 1; bk < (K + BK - 1) / BK; bk++) {
    int smem_sel = (bk - 1) & 1;
    int smem_sel_next = bk & 1;
    int load_a_gmem_k = bk * BK + load_a_smem_k;
    int load_a_gmem_addr = OFFSET(load_a_gmem_m, load_a_gmem_k, K);
    int load_b_gmem_k = bk * BK + load_b_smem_k;
    int load_b_gmem_addr = OFFSET(load_b_gmem_k, load_b_gmem_n, N);
    for (int i = 0; i < 4; i++) {
      r_load_a[i] = a[load_a_gmem_addr + i];
      r_load_b[i] = b[load_b_gmem_addr + i];
    }
#pragma unroll
    for (int tk = 0; tk < BK; tk++) {
      for (int i = 0; i < TM; i++)
        r_comp_a[i] = __half2float(s_a[smem_sel][tk][ty * TM + i]);
      for (int j = 0; j < TN; j++)
        r_comp_b[j] = __half2float(s_b[smem_sel][tk][tx * TN + j]);
#pragma unroll
      for (int tm = 0; tm < TM; tm++)
#pragma unroll
        for (int tn = 0; tn < TN; tn++)
          r_c[tm][tn] = fmaf(r_comp_a[tm], r_comp_b[tn], r_c[tm][tn]);
    }
    for (int i = 0; i < 4; i++)
      s_a[smem_sel_next][load_a_smem_k + i][load_a_smem_m] = r_load_a[i];
    for (int i = 0; i < 4; i++)
      s_b[smem_sel_next][load_b_smem_k][load_b_smem_n + i] = r_load_b[i];
    __syncthreads();
  }
  for (int tk = 0; tk < BK; tk++) {
    for (int i = 0; i < TM; i++)
      r_comp_a[i] = __half2float(s_a[1][tk][ty * TM + i]);
    for (int j = 0; j < TN; j++)
      r_comp_b[j] = __half2float(s_b[1][tk][tx * TN + j]);
    for (int tm = 0; tm < TM; tm++)
      for (int tn = 0; tn < TN; tn++)
        r_c[tm][tn] = fmaf(r_comp_a[tm], r_comp_b[tn], r_c[tm][tn]);
  }
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j += 4)
      FLOAT4(c[OFFSET(by * BM + ty * TM + i, bx * BN + tx * TN + j, N)]) =
          FLOAT4(r_c[i][j]);
}

// Buffer indices flipped at the end of the body: after the loop, the one
// read holds the last tiles' buffer, as at the start of the last iteration.
// CHECK-LABEL: __global__ void toggled_tiled(
// CHECK: tawa::mma(acc, a, b);
// CHECK-LABEL: static void toggled_migrated_launch(
// CHECK-NOT: K % 32
// CHECK: toggled_tiled<<<
__global__ void toggled(int M, int N, int K, const __nv_bfloat16 *A,
                        const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  const int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4, NT = 256;
  __shared__ __nv_bfloat16 As[2][BM][BK];
  __shared__ __nv_bfloat16 Bs[2][BK][BN];
  const int tid = threadIdx.x, ty = tid / 16, tx = tid % 16;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  for (int i = tid; i < BM * BK; i += NT)
    As[0][i / BK][i % BK] = m0 + i / BK < M && i % BK < K
                                ? A[(m0 + i / BK) * K + i % BK]
                                : __float2bfloat16_rn(0.0f);
  for (int i = tid; i < BK * BN; i += NT)
    Bs[0][i / BN][i % BN] = i / BN < K && n0 + i % BN < N
                                ? B[(i / BN) * N + n0 + i % BN]
                                : __float2bfloat16_rn(0.0f);
  __syncthreads();
  int read = 0, write = 1;
#pragma tawa tile
  for (int t = 1; t < (K + BK - 1) / BK; ++t) {
    const int k0 = t * BK;
    for (int i = tid; i < BM * BK; i += NT)
      As[write][i / BK][i % BK] = m0 + i / BK < M && k0 + i % BK < K
                                      ? A[(m0 + i / BK) * K + k0 + i % BK]
                                      : __float2bfloat16_rn(0.0f);
    for (int i = tid; i < BK * BN; i += NT)
      Bs[write][i / BN][i % BN] = k0 + i / BN < K && n0 + i % BN < N
                                      ? B[(k0 + i / BN) * N + n0 + i % BN]
                                      : __float2bfloat16_rn(0.0f);
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += __bfloat162float(As[read][ty * TM + i][k]) *
                       __bfloat162float(Bs[read][k][tx * TN + j]);
    __syncthreads();
    read ^= 1;
    write ^= 1;
  }
  for (int k = 0; k < BK; ++k)
    for (int i = 0; i < TM; ++i)
      for (int j = 0; j < TN; ++j)
        acc[i][j] += __bfloat162float(As[read][ty * TM + i][k]) *
                     __bfloat162float(Bs[read][k][tx * TN + j]);
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      if (m0 + ty * TM + i < M && n0 + tx * TN + j < N)
        C[(m0 + ty * TM + i) * N + n0 + tx * TN + j] =
            __float2bfloat16_rn(acc[i][j]);
}

// One element per thread, a single buffer per tile reloaded through
// registers past a second barrier: the code after the loop multiplies the
// tiles the last iteration stored.
// CHECK-LABEL: __global__ void single_buffer_tiled(
// CHECK: tawa::mma(acc, a, b);
// CHECK-LABEL: static void single_buffer_migrated_launch(
// CHECK: single_buffer_tiled<<<
__global__ void single_buffer(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                         int K) {
  __shared__ __nv_bfloat16 As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  const int tiles = (K + 16 - 1) / 16;
  __nv_bfloat16 ra = row < M && tx < K ? A[row * K + tx] : __nv_bfloat16();
  __nv_bfloat16 rb = ty < K && col < N ? B[ty * N + col] : __nv_bfloat16();
  As[ty][tx] = ra;
  Bs[ty][tx] = rb;
  __syncthreads();
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 1; t < tiles; ++t) {
    ra = row < M && t * 16 + tx < K ? A[row * K + t * 16 + tx] : __nv_bfloat16();
    rb = t * 16 + ty < K && col < N ? B[(t * 16 + ty) * N + col] : __nv_bfloat16();
    for (int k = 0; k < 16; ++k)
      acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
    __syncthreads();
    As[ty][tx] = ra;
    Bs[ty][tx] = rb;
    __syncthreads();
  }
  for (int k = 0; k < 16; ++k)
    acc += __bfloat162float(As[ty][k]) * __bfloat162float(Bs[k][tx]);
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// WMMA fragments loaded from the tiles, and the last iteration after the
// loop written inside a block of its own, taken whole. The loop's bound
// K / 32 drops a partial tile: the tiled form sums the first K / 32 * 32
// elements of K alike, for any K.
// CHECK-LABEL: __global__ void wmma_from1_tiled(
// CHECK: tawa::mma(acc, a, b);
// CHECK-LABEL: static void wmma_from1_migrated_launch(
// CHECK-NOT: K % 32
// CHECK: wmma_from1_tiled<<<
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, (K / 32 * 32), K},
// CHECK-NEXT: tawa::Matrix<const __half>{B, (K / 32 * 32), tawa_cols, N},
__global__ void wmma_from1(const __half *A, const __half *B, float *C, int M, int N, int K) {
  __shared__ __half As[2][64][32];
  __shared__ __half Bs[2][32][64];
  const int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
  const int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j) nvcuda::wmma::fill_fragment(acc[i][j], 0.0f);
  for (int i = threadIdx.x; i < 64 * 32; i += 128) As[0][i / 32][i % 32] = A[(m0 + i / 32) * K + i % 32];
  for (int i = threadIdx.x; i < 32 * 64; i += 128) Bs[0][i / 64][i % 64] = B[(i / 64) * N + n0 + i % 64];
  __syncthreads();
#pragma tawa tile
  for (int t = 1; t < K / 32; ++t) {
    const int cur = (t - 1) & 1, nxt = t & 1;
    for (int i = threadIdx.x; i < 64 * 32; i += 128) As[nxt][i / 32][i % 32] = A[(m0 + i / 32) * K + t * 32 + i % 32];
    for (int i = threadIdx.x; i < 32 * 64; i += 128) Bs[nxt][i / 64][i % 64] = B[(t * 32 + i / 64) * N + n0 + i % 64];
    for (int kk = 0; kk < 32; kk += 16) {
      nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> a[2];
      nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) nvcuda::wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j) nvcuda::wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], 64);
      for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j) nvcuda::wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  {
    const int cur = (K / 32 - 1) & 1;
    for (int kk = 0; kk < 32; kk += 16) {
      nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, __half, nvcuda::wmma::row_major> a[2];
      nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, 16, 16, 16, __half, nvcuda::wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) nvcuda::wmma::load_matrix_sync(a[i], &As[cur][wm * 32 + i * 16][kk], 32);
      for (int j = 0; j < 2; ++j) nvcuda::wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn * 32 + j * 16], 64);
      for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j) nvcuda::wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
  }
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j)
    nvcuda::wmma::store_matrix_sync(&C[(m0 + wm * 32 + i * 16) * N + n0 + wn * 32 + j * 16], acc[i][j], N, nvcuda::wmma::mem_row_major);
}
