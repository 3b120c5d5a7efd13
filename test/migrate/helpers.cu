// Kernels structured into __device__ helper functions, the loop body and
// the epilogue calling them: the front end follows a helper's body in the
// caller's place, each integer parameter bound to its argument's value, each
// pointer parameter to the matrix position, local float array or __shared__
// tile its argument names, and each float parameter to the kernel's scale it
// passes on. The first kernel is the SGEMM tutorials' warptiling kernel
// (function templates in a namespace, float4 staging, C updated through
// float4s); the second a bf16 kernel whose helpers take two-dimensional
// tiles and accumulators, check bounds, call another helper and store C.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
// Without a pragma, --suggest finds both loops.
// RUN: sed 's/^#pragma tawa tile.*$//' %s > %t.bare.cu
// RUN: %tawa-rewrite %t.bare.cu --suggest -o %t3.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=SUGGEST --implicit-check-not=warning:
#include <cuda_bf16.h>
#include <cuda_runtime.h>

constexpr int WARPSIZE = 32;

namespace wt {
// Stages a BM x BK tile of A (transposed, through a float4) and a BK x BN
// tile of B.
template <const int BM, const int BN, const int BK, const int rowStrideA,
          const int rowStrideB>
__device__ void loadFromGmem(int N, int K, const float *A, const float *B,
                             float *As, float *Bs, int innerRowA,
                             int innerColA, int innerRowB, int innerColB) {
  for (unsigned offset = 0; offset + rowStrideA <= BM; offset += rowStrideA) {
    const float4 tmp = reinterpret_cast<const float4 *>(
        &A[(innerRowA + offset) * K + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * BM + innerRowA + offset] = tmp.x;
    As[(innerColA * 4 + 1) * BM + innerRowA + offset] = tmp.y;
    As[(innerColA * 4 + 2) * BM + innerRowA + offset] = tmp.z;
    As[(innerColA * 4 + 3) * BM + innerRowA + offset] = tmp.w;
  }
  for (unsigned offset = 0; offset + rowStrideB <= BK; offset += rowStrideB) {
    reinterpret_cast<float4 *>(
        &Bs[(innerRowB + offset) * BN + innerColB * 4])[0] =
        reinterpret_cast<const float4 *>(
            &B[(innerRowB + offset) * N + innerColB * 4])[0];
  }
}

// The warp's product over the staged tiles, WMITER x WNITER sub-tiles of
// TM x TN per thread.
template <const int BM, const int BN, const int BK, const int WM,
          const int WN, const int WMITER, const int WNITER, const int WSUBM,
          const int WSUBN, const int TM, const int TN>
__device__ void processFromSmem(float *regM, float *regN,
                                float *threadResults, const float *As,
                                const float *Bs, const unsigned warpRow,
                                const unsigned warpCol,
                                const unsigned threadRowInWarp,
                                const unsigned threadColInWarp) {
  for (unsigned dotIdx = 0; dotIdx < BK; ++dotIdx) {
    for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
      for (unsigned i = 0; i < TM; ++i)
        regM[wSubRowIdx * TM + i] =
            As[(dotIdx * BM) + warpRow * WM + wSubRowIdx * WSUBM +
               threadRowInWarp * TM + i];
    for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
      for (unsigned i = 0; i < TN; ++i)
        regN[wSubColIdx * TN + i] =
            Bs[(dotIdx * BN) + warpCol * WN + wSubColIdx * WSUBN +
               threadColInWarp * TN + i];
    for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
      for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
        for (unsigned resIdxM = 0; resIdxM < TM; ++resIdxM)
          for (unsigned resIdxN = 0; resIdxN < TN; ++resIdxN)
            threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) +
                          (wSubColIdx * TN) + resIdxN] +=
                regM[wSubRowIdx * TM + resIdxM] *
                regN[wSubColIdx * TN + resIdxN];
  }
}
} // namespace wt

// CHECK-LABEL: __global__ void __launch_bounds__(NUM_THREADS)
// CHECK-NEXT: sgemmWarptiling(
// CHECK-NOT: #pragma tawa
// CHECK: __global__ void sgemmWarptiling_128_128_16_64_64_4_8_4_128_tiled(
// CHECK: #pragma tawa tile precision(tf32)
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: if (tawa_block.x != 128 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || K % 16 != 0 ||
template <const int BM, const int BN, const int BK, const int WM,
          const int WN, const int WNITER, const int TM, const int TN,
          const int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS)
    sgemmWarptiling(int M, int N, int K, float alpha, float *A, float *B,
                    float beta, float *C) {
  const unsigned cRow = blockIdx.y;
  const unsigned cCol = blockIdx.x;
  const unsigned warpIdx = threadIdx.x / WARPSIZE;
  const unsigned warpCol = warpIdx % (BN / WN);
  const unsigned warpRow = warpIdx / (BN / WN);
  constexpr unsigned WMITER = (WM * WN) / (WARPSIZE * TM * TN * WNITER);
  constexpr unsigned WSUBM = WM / WMITER;
  constexpr unsigned WSUBN = WN / WNITER;
  const unsigned threadIdxInWarp = threadIdx.x % WARPSIZE;
  const unsigned threadColInWarp = threadIdxInWarp % (WSUBN / TN);
  const unsigned threadRowInWarp = threadIdxInWarp / (WSUBN / TN);
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;
  const unsigned innerRowA = threadIdx.x / (BK / 4);
  const unsigned innerColA = threadIdx.x % (BK / 4);
  constexpr unsigned rowStrideA = (NUM_THREADS * 4) / BK;
  const unsigned innerRowB = threadIdx.x / (BN / 4);
  const unsigned innerColB = threadIdx.x % (BN / 4);
  constexpr unsigned rowStrideB = NUM_THREADS / (BN / 4);
  float threadResults[WMITER * TM * WNITER * TN] = {0.0};
  float regM[WMITER * TM] = {0.0};
  float regN[WNITER * TN] = {0.0};
// SUGGEST: bare.cu:[[@LINE+2]]:3: warning: this loop of kernel 'sgemmWarptiling' is a hand-written register-blocked shared-memory GEMM that tawa-rewrite lifts; '#pragma tawa tile precision(3xtf32)' before it
#pragma tawa tile precision(tf32)
  for (unsigned bkIdx = 0; bkIdx < K; bkIdx += BK) {
    wt::loadFromGmem<BM, BN, BK, rowStrideA, rowStrideB>(
        N, K, A, B, As, Bs, innerRowA, innerColA, innerRowB, innerColB);
    __syncthreads();
    wt::processFromSmem<BM, BN, BK, WM, WN, WMITER, WNITER, WSUBM, WSUBN, TM,
                        TN>(regM, regN, threadResults, As, Bs, warpRow,
                            warpCol, threadRowInWarp, threadColInWarp);
    A += BK;
    B += BK * N;
    __syncthreads();
  }
  for (unsigned wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx) {
    for (unsigned wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx) {
      float *C_interim = C + (wSubRowIdx * WSUBM) * N + wSubColIdx * WSUBN;
      for (unsigned resIdxM = 0; resIdxM < TM; resIdxM += 1) {
        for (unsigned resIdxN = 0; resIdxN < TN; resIdxN += 4) {
          float4 tmp = reinterpret_cast<float4 *>(
              &C_interim[(threadRowInWarp * TM + resIdxM) * N +
                         threadColInWarp * TN + resIdxN])[0];
          const int i = (wSubRowIdx * TM + resIdxM) * (WNITER * TN) +
                        wSubColIdx * TN + resIdxN;
          tmp.x = alpha * threadResults[i + 0] + beta * tmp.x;
          tmp.y = alpha * threadResults[i + 1] + beta * tmp.y;
          tmp.z = alpha * threadResults[i + 2] + beta * tmp.z;
          tmp.w = alpha * threadResults[i + 3] + beta * tmp.w;
          reinterpret_cast<float4 *>(
              &C_interim[(threadRowInWarp * TM + resIdxM) * N +
                         threadColInWarp * TN + resIdxN])[0] = tmp;
        }
      }
    }
  }
}

void warptiling_sgemm(float *A, float *B, float *C, int M, int N, int K,
                      float alpha, float beta) {
  sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>
      <<<dim3(N / 128, M / 128), 128>>>(M, N, K, alpha, A, B, beta, C);
}

#define BM2 64
#define BN2 64
#define BK2 16
#define TM2 4
#define TN2 4

__device__ void stageA(const __nv_bfloat16 *A, __nv_bfloat16 (*As)[BK2],
                       int M, int K, int row0, int k0) {
  for (int i = threadIdx.x; i < BM2 * BK2; i += 256) {
    const int r = i / BK2, c = i % BK2;
    As[r][c] = row0 + r < M && k0 + c < K ? A[(row0 + r) * K + k0 + c]
                                          : __float2bfloat16_rn(0.0f);
  }
}

__device__ void stageTiles(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                           __nv_bfloat16 (*As)[BK2], __nv_bfloat16 (*Bs)[BN2],
                           int M, int N, int K, int row0, int col0, int k0) {
  stageA(A, As, M, K, row0, k0);
  for (int i = threadIdx.x; i < BK2 * BN2; i += 256) {
    const int r = i / BN2, c = i % BN2;
    if (k0 + r < K && col0 + c < N)
      Bs[r][c] = B[(k0 + r) * N + col0 + c];
    else
      Bs[r][c] = __float2bfloat16_rn(0.0f);
  }
  return;
}

__device__ void multiplyTiles(float (*acc)[TN2],
                              const __nv_bfloat16 (*As)[BK2],
                              const __nv_bfloat16 (*Bs)[BN2], int ty, int tx) {
  for (int k = 0; k < BK2; ++k)
    for (int i = 0; i < TM2; ++i)
      for (int j = 0; j < TN2; ++j)
        acc[i][j] += __bfloat162float(As[ty * TM2 + i][k]) *
                     __bfloat162float(Bs[k][tx * TN2 + j]);
}

__device__ void storeTile(float *C, float (*acc)[TN2], float scale, int M,
                          int N, int row, int col) {
  for (int i = 0; i < TM2; ++i)
    for (int j = 0; j < TN2; ++j)
      if (row + i < M && col + j < N)
        C[(row + i) * N + col + j] = scale * acc[i][j];
}

// CHECK-LABEL: __global__ void helper_gemm(
// CHECK-NOT: #pragma tawa
// CHECK: __global__ void helper_gemm_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16> B,
// CHECK-NEXT: tawa::Matrix<float> C, float alpha) {
// CHECK: tawa::store(C, m0, n0, alpha * acc);
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
__global__ void helper_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                            float *C, int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 As[BM2][BK2];
  __shared__ __nv_bfloat16 Bs[BK2][BN2];
  const int tx = threadIdx.x % (BN2 / TN2), ty = threadIdx.x / (BN2 / TN2);
  const int row0 = blockIdx.y * BM2, col0 = blockIdx.x * BN2;
  float acc[TM2][TN2] = {};
// SUGGEST: bare.cu:[[@LINE+2]]:3: warning: this loop of kernel 'helper_gemm' is a hand-written register-blocked shared-memory GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += BK2) {
    stageTiles(A, B, As, Bs, M, N, K, row0, col0, k0);
    __syncthreads();
    multiplyTiles(acc, As, Bs, ty, tx);
    __syncthreads();
  }
  storeTile(C, acc, alpha, M, N, row0 + ty * TM2, col0 + tx * TN2);
}

void helper_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C,
                   int M, int N, int K, float alpha) {
  helper_gemm<<<dim3((N + 63) / 64, (M + 63) / 64), 256>>>(A, B, C, M, N, K,
                                                           alpha);
}

// WS: __global__ void __launch_bounds__(384, 1)
// WS-NEXT: sgemmWarptiling_128_128_16_64_64_4_8_4_128_tiled(
// WS: __global__ void __launch_bounds__(384, 1) helper_gemm_tiled(
