// A register-blocked GEMM on 16-bit data whose A copy loads eight __half
// through one float4 and writes them transposed into its tile through a
// pointer to the vector's elements ('const __half *h =
// reinterpret_cast<const __half *>(&tmp);', h[e] element e of what tmp was
// loaded with). It lifts; an element read from the wrong place of the
// vector, or past its end, is refused.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=DIAG --implicit-check-not=warning: --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
#include <cuda_fp16.h>

// CHECK-LABEL: __global__ void
// CHECK: hgemmVectorizeT_128_128_16_8_8_tiled(tawa::Matrix<const __half> A,
// CHECK: tawa::Matrix<const __half>{A, tawa_rows, K, K},
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    hgemmVectorizeT(int M, int N, int K, const __half *A, const __half *B, float *C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;
  __shared__ __half As[BK * BM];
  __shared__ __half Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 8);
  const int innerColA = threadIdx.x % (BK / 8);
  const int innerRowB = threadIdx.x / (BN / 8);
  const int innerColB = threadIdx.x % (BN / 8);
  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    float4 tmp = reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 8])[0];
    const __half *h = reinterpret_cast<const __half *>(&tmp);
#pragma unroll
    for (int e = 0; e < 8; ++e)
      As[(innerColA * 8 + e) * BM + innerRowA] = h[e];
    for (int off = 0; off < BK; off += (BM * BN) / (TM * TN) / (BN / 8))
      reinterpret_cast<float4 *>(&Bs[(innerRowB + off) * BN + innerColB * 8])[0] =
          reinterpret_cast<const float4 *>(&B[(innerRowB + off) * N + innerColB * 8])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = __half2float(As[dotIdx * BM + threadRow * TM + i]);
      for (int i = 0; i < TN; ++i)
        regN[i] = __half2float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
          threadResults[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(threadRow * TM + m) * N + threadCol * TN + n] = threadResults[m * TN + n];
}

// DIAG: warning: {{.*}}breaks it: the accumulator stored at line {{[0-9]+}} does not gain
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    reversedView(int M, int N, int K, const __half *A, const __half *B, float *C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;
  __shared__ __half As[BK * BM];
  __shared__ __half Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 8);
  const int innerColA = threadIdx.x % (BK / 8);
  const int innerRowB = threadIdx.x / (BN / 8);
  const int innerColB = threadIdx.x % (BN / 8);
  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    float4 tmp = reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 8])[0];
    const __half *h = reinterpret_cast<const __half *>(&tmp);
#pragma unroll
    for (int e = 0; e < 8; ++e)
      As[(innerColA * 8 + e) * BM + innerRowA] = h[7 - e];
    for (int off = 0; off < BK; off += (BM * BN) / (TM * TN) / (BN / 8))
      reinterpret_cast<float4 *>(&Bs[(innerRowB + off) * BN + innerColB * 8])[0] =
          reinterpret_cast<const float4 *>(&B[(innerRowB + off) * N + innerColB * 8])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = __half2float(As[dotIdx * BM + threadRow * TM + i]);
      for (int i = 0; i < TN; ++i)
        regN[i] = __half2float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
          threadResults[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(threadRow * TM + m) * N + threadCol * TN + n] = threadResults[m * TN + n];
}
// DIAG: note: kernel 'reversedView' is left unchanged

// DIAG: warning: {{.*}}breaks it: expected, before the first barrier, staging copies
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    pastTheVector(int M, int N, int K, const __half *A, const __half *B, float *C) {
  const int cRow = blockIdx.y;
  const int cCol = blockIdx.x;
  __shared__ __half As[BK * BM];
  __shared__ __half Bs[BK * BN];
  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 8);
  const int innerColA = threadIdx.x % (BK / 8);
  const int innerRowB = threadIdx.x / (BN / 8);
  const int innerColB = threadIdx.x % (BN / 8);
  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];
#pragma tawa tile
  for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
    float4 tmp = reinterpret_cast<const float4 *>(&A[innerRowA * K + innerColA * 8])[0];
    const __half *h = reinterpret_cast<const __half *>(&tmp);
#pragma unroll
    for (int e = 0; e < 8; ++e)
      As[(innerColA * 8 + e) * BM + innerRowA] = h[e + 1];
    for (int off = 0; off < BK; off += (BM * BN) / (TM * TN) / (BN / 8))
      reinterpret_cast<float4 *>(&Bs[(innerRowB + off) * BN + innerColB * 8])[0] =
          reinterpret_cast<const float4 *>(&B[(innerRowB + off) * N + innerColB * 8])[0];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (int i = 0; i < TM; ++i)
        regM[i] = __half2float(As[dotIdx * BM + threadRow * TM + i]);
      for (int i = 0; i < TN; ++i)
        regN[i] = __half2float(Bs[dotIdx * BN + threadCol * TN + i]);
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
          threadResults[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n)
      C[(threadRow * TM + m) * N + threadCol * TN + n] = threadResults[m * TN + n];
}
// DIAG: note: kernel 'pastTheVector' is left unchanged

void runHgemmVectorizeT(int M, int N, int K, const __half *A, const __half *B, float *C) {
  constexpr int BM = 128, BN = 128, BK = 16, TM = 8, TN = 8;
  dim3 grid(N / BN, M / BM);
  dim3 block((BM * BN) / (TM * TN));
  hgemmVectorizeT<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, A, B, C);
  reversedView<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, A, B, C);
  pastTheVector<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, A, B, C);
}
