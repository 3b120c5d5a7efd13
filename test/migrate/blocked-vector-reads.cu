// Register-blocked SGEMMs whose product reads the tiles into registers as
// float4 vectors ('*reinterpret_cast<float4 *>(&fragA[i]) =
// *reinterpret_cast<const float4 *>(&As[kk][c])'), as vectorized SGEMM
// tutorials do: each of the four registers reads one element of the tile's
// row, as a scalar read would; also into float4 temporaries, 'float4 a4 =
// *reinterpret_cast<const float4 *>(&As[k][c]);', whose members are read
// directly or copied into a float array by a list. Refused: a vector read
// that starts at no multiple of its size (the kernel as written faults
// there). (The outputs are checked without this file's own check lines,
// which they copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_runtime.h>

// CHECK-LABEL: __global__ void sgemm_vec4_64_64_16_4_4_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_vec4(int M, int N, int K, float alpha, const float *__restrict__ A,
               const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN);
  const int tCol = tid % (BN / TN);

  // each thread loads one float4 of A (BM x BK) and one of B (BK x BN)
  const int aRow = tid / (BK / 4);
  const int aCol = (tid % (BK / 4)) * 4;
  const int bRow = tid / (BN / 4);
  const int bCol = (tid % (BN / 4)) * 4;

  const float *Ablk = A + blockIdx.y * BM * K;
  const float *Bblk = B + blockIdx.x * BN;
  float *Cblk = C + blockIdx.y * BM * N + blockIdx.x * BN;

  float acc[TM][TN] = {};
  float fragA[TM], fragB[TN];

#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 va = *reinterpret_cast<const float4 *>(&Ablk[aRow * K + k0 + aCol]);
    As[aCol + 0][aRow] = va.x;
    As[aCol + 1][aRow] = va.y;
    As[aCol + 2][aRow] = va.z;
    As[aCol + 3][aRow] = va.w;
    *reinterpret_cast<float4 *>(&Bs[bRow][bCol]) =
        *reinterpret_cast<const float4 *>(&Bblk[(k0 + bRow) * N + bCol]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4 *>(&fragA[i]) =
            *reinterpret_cast<const float4 *>(&As[kk][tRow * TM + i]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4 *>(&fragB[j]) =
            *reinterpret_cast<const float4 *>(&Bs[kk][tCol * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += fragA[i] * fragB[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4)
      *reinterpret_cast<float4 *>(&Cblk[(tRow * TM + i) * N + tCol * TN + j]) =
          *reinterpret_cast<float4 *>(&acc[i][j]);
}

// DIAG: blocked-vector-reads.cu:[[@LINE+27]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: expected registers read as a vector of consecutive elements of one row of a tile of their type, starting at a multiple of the vector
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    sgemm_vec4_shifted(int M, int N, int K, float alpha, const float *__restrict__ A,
               const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int tRow = tid / (BN / TN);
  const int tCol = tid % (BN / TN);

  // each thread loads one float4 of A (BM x BK) and one of B (BK x BN)
  const int aRow = tid / (BK / 4);
  const int aCol = (tid % (BK / 4)) * 4;
  const int bRow = tid / (BN / 4);
  const int bCol = (tid % (BN / 4)) * 4;

  const float *Ablk = A + blockIdx.y * BM * K;
  const float *Bblk = B + blockIdx.x * BN;
  float *Cblk = C + blockIdx.y * BM * N + blockIdx.x * BN;

  float acc[TM][TN] = {};
  float fragA[TM], fragB[TN];

#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += BK) {
    float4 va = *reinterpret_cast<const float4 *>(&Ablk[aRow * K + k0 + aCol]);
    As[aCol + 0][aRow] = va.x;
    As[aCol + 1][aRow] = va.y;
    As[aCol + 2][aRow] = va.z;
    As[aCol + 3][aRow] = va.w;
    *reinterpret_cast<float4 *>(&Bs[bRow][bCol]) =
        *reinterpret_cast<const float4 *>(&Bblk[(k0 + bRow) * N + bCol]);
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
      for (int i = 0; i < TM; i += 4)
        *reinterpret_cast<float4 *>(&fragA[i]) =
            *reinterpret_cast<const float4 *>(&As[kk][tRow * TM + i + 2]);
#pragma unroll
      for (int j = 0; j < TN; j += 4)
        *reinterpret_cast<float4 *>(&fragB[j]) =
            *reinterpret_cast<const float4 *>(&Bs[kk][tCol * TN + j]);
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += fragA[i] * fragB[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; j += 4)
      *reinterpret_cast<float4 *>(&Cblk[(tRow * TM + i) * N + tCol * TN + j]) =
          *reinterpret_cast<float4 *>(&acc[i][j]);
}

// 64 x 64 x 16 float tiles staged with float4 copies by 16 x 16 threads, A
// transposed (PAD columns of A's tile unused, its rows SHIFT on), a 4 x 4
// micro-tile c per thread stored with float4 stores.
#define VEC4_ARGS                                                              \
  int M, int N, int K, const float *__restrict__ A,                            \
      const float *__restrict__ B, float *__restrict__ C
#define VEC4_HEAD(PAD)                                                         \
  __shared__ float As[16][64 + PAD];                                           \
  __shared__ float Bs[16][64];                                                 \
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;            \
  const int aRow = tid / 4, aCol = (tid % 4) * 4;                              \
  const int bRow = tid / 16, bCol = (tid % 16) * 4;                            \
  const float *Ablk = A + blockIdx.y * 64 * K;                                 \
  const float *Bblk = B + blockIdx.x * 64;                                     \
  float c[4][4] = {};
#define VEC4_STAGE(SHIFT)                                                      \
  float4 va = *reinterpret_cast<const float4 *>(&Ablk[aRow * K + k0 + aCol]);  \
  As[aCol + 0][aRow + SHIFT] = va.x;                                           \
  As[aCol + 1][aRow + SHIFT] = va.y;                                           \
  As[aCol + 2][aRow + SHIFT] = va.z;                                           \
  As[aCol + 3][aRow + SHIFT] = va.w;                                           \
  *reinterpret_cast<float4 *>(&Bs[bRow][bCol]) =                               \
      *reinterpret_cast<const float4 *>(&Bblk[(k0 + bRow) * N + bCol]);        \
  __syncthreads();
#define VEC4_STORE                                                             \
  float *Cblk = C + (blockIdx.y * 64 + ty * 4) * N + blockIdx.x * 64 + tx * 4; \
  for (int i = 0; i < 4; ++i)                                                  \
    *reinterpret_cast<float4 *>(&Cblk[i * N]) =                                \
        make_float4(c[i][0], c[i][1], c[i][2], c[i][3]);

// The tiles read into float4 temporaries in the product, copied into float
// arrays by lists.
// CHECK-LABEL: __global__ void vec4_lists_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void vec4_lists(VEC4_ARGS) {
  VEC4_HEAD(0)
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += 16) {
    VEC4_STAGE(0)
    for (int k = 0; k < 16; ++k) {
      float4 a4 = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
      float4 b4 = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
      float a[4] = {a4.x, a4.y, a4.z, a4.w};
      float b[4] = {b4.x, b4.y, b4.z, b4.w};
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          c[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  VEC4_STORE
}

// One temporary's members read directly.
// CHECK-LABEL: __global__ void vec4_members_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
__global__ void vec4_members(VEC4_ARGS) {
  VEC4_HEAD(0)
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += 16) {
    VEC4_STAGE(0)
    for (int k = 0; k < 16; ++k) {
      float4 a4 = *reinterpret_cast<const float4 *>(&As[k][ty * 4]);
      const float4 b4 = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
      float a[4] = {a4.x, a4.y, a4.z, a4.w};
      for (int i = 0; i < 4; ++i) {
        c[i][0] += a[i] * b4.x;
        c[i][1] += a[i] * b4.y;
        c[i][2] += a[i] * b4.z;
        c[i][3] += a[i] * b4.w;
      }
    }
    __syncthreads();
  }
  VEC4_STORE
}

// A float4 temporary read from a tile at no multiple of four elements.
// DIAG: blocked-vector-reads.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern
// DIAG-SAME: expected registers read as a vector of consecutive elements of one row of a tile of their type, starting at a multiple of the vector
__global__ void vec4_shifted(VEC4_ARGS) {
  VEC4_HEAD(4)
#pragma tawa tile precision(tf32)
  for (int k0 = 0; k0 < K; k0 += 16) {
    VEC4_STAGE(1)
    for (int k = 0; k < 16; ++k) {
      float4 a4 = *reinterpret_cast<const float4 *>(&As[k][ty * 4 + 1]);
      float4 b4 = *reinterpret_cast<const float4 *>(&Bs[k][tx * 4]);
      float a[4] = {a4.x, a4.y, a4.z, a4.w};
      float b[4] = {b4.x, b4.y, b4.z, b4.w};
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          c[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  VEC4_STORE
}

void sgemm_vec4_launch(int M, int N, int K, float alpha, const float *A, const float *B,
                       float *C) {
  constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid(N / BN, M / BM);
  sgemm_vec4<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, C);
  sgemm_vec4_shifted<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, C);
  vec4_lists<<<grid, dim3(16, 16)>>>(M, N, K, A, B, C);
  vec4_members<<<grid, dim3(16, 16)>>>(M, N, K, A, B, C);
  vec4_shifted<<<grid, dim3(16, 16)>>>(M, N, K, A, B, C);
}
