// Vector pointers: `const float4 *` pointers into A and B, set before the
// loop by a cast of a row pointer, indexed directly (`A4[r * K / 4 + c]`: an
// index counts float4s, four floats each) and advanced by whole float4s
// (`B4 += BK * N / 4`), and C updated through `reinterpret_cast<float4
// *>(&C[i * N])[j]`, a cast indexed past its first vector. A division whose
// divisor divides every coefficient of the dividend (r * K / 4 for r a
// multiple of 4) is exact in C and so a polynomial; `K / 4` is not.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
// RUN: sed 's/B4 += BK \* N \/ 4;/B4 += BK * (N \/ 4);/' %s > %t.floor.cu
// RUN: %tawa-rewrite %t.floor.cu --migrate -o %t3.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=FLOOR
// RUN: diff %t.floor.cu %t3.cu
#include <cuda_runtime.h>

// CHECK-LABEL: __global__ void sgemm_rows4(
// CHECK: __global__ void sgemm_rows4_64_64_8_8_8_tiled(tawa::Matrix<const float> A,
// CHECK: tawa::store(C, m0, n0, alpha * acc + beta * tawa::load<128, 256>(C, m0, n0));
// CHECK: if (tawa_block.x != 64 || tawa_block.y != 1 || tawa_block.z != 1 ||
// FLOOR: floor.cu:[[@LINE+17]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written register-blocked shared-memory GEMM, and the statement at line {{[0-9]+}} breaks it: the pointer's step is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses the operator '/'
template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm_rows4(int M, int N, int K, float alpha, const float *A,
                            const float *B, float beta, float *C) {
  __shared__ float As[BK * BM];
  __shared__ float Bs[BK * BN];
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);
  const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
  const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
  const float4 *A4 =
      reinterpret_cast<const float4 *>(A + (blockIdx.y * BM + innerRowA) * K);
  const float4 *B4 =
      reinterpret_cast<const float4 *>(B + innerRowB * N + blockIdx.x * BN);
  C += (blockIdx.y * BM + threadRow * TM) * N + blockIdx.x * BN + threadCol * TN;
  float acc[TM * TN] = {0.0f};
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BK) {
    for (int r = 0; r < BM; r += BM / 2) {
      const float4 a = A4[r * K / 4 + innerColA];
      As[(innerColA * 4 + 0) * BM + innerRowA + r] = a.x;
      As[(innerColA * 4 + 1) * BM + innerRowA + r] = a.y;
      As[(innerColA * 4 + 2) * BM + innerRowA + r] = a.z;
      As[(innerColA * 4 + 3) * BM + innerRowA + r] = a.w;
    }
    for (int r = 0; r < BK; r += BK / 2)
      reinterpret_cast<float4 *>(Bs)[(innerRowB + r) * (BN / 4) + innerColB] =
          B4[r * N / 4 + innerColB];
    __syncthreads();
    A4 += BK / 4;
    B4 += BK * N / 4;
    for (int k = 0; k < BK; ++k)
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += As[k * BM + threadRow * TM + i] * Bs[k * BN + threadCol * TN + j];
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN / 4; ++j) {
      float4 c = reinterpret_cast<float4 *>(&C[i * N])[j];
      c.x = alpha * acc[i * TN + j * 4 + 0] + beta * c.x;
      c.y = alpha * acc[i * TN + j * 4 + 1] + beta * c.y;
      c.z = alpha * acc[i * TN + j * 4 + 2] + beta * c.z;
      c.w = alpha * acc[i * TN + j * 4 + 3] + beta * c.w;
      reinterpret_cast<float4 *>(&C[i * N])[j] = c;
    }
}
void rows4(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {
  sgemm_rows4<64, 64, 8, 8, 8><<<dim3(N / 64, M / 64), 64>>>(M, N, K, alpha, A, B, beta, C);
}
// WS: __global__ void __launch_bounds__(384, 1) sgemm_rows4_64_64_8_8_8_tiled(
