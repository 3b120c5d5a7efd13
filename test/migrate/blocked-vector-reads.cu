// Register-blocked SGEMMs whose product reads the tiles into registers as
// float4 vectors ('*reinterpret_cast<float4 *>(&fragA[i]) =
// *reinterpret_cast<const float4 *>(&As[kk][c])'), as vectorized SGEMM
// tutorials do: each of the four registers reads one element of the tile's
// row, as a scalar read would. Refused: a vector read that starts at no
// multiple of its size (the kernel as written faults there). (The outputs
// are checked without this file's own check lines, which they copy.)
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

void sgemm_vec4_launch(int M, int N, int K, float alpha, const float *A, const float *B,
                       float *C) {
  constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
  dim3 block((BM / TM) * (BN / TN));
  dim3 grid(N / BN, M / BM);
  sgemm_vec4<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, C);
  sgemm_vec4_shifted<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, C);
}
