// A K loop of walking offsets, as in the CUDA samples' matrixMul: 'a' walks
// a row of A by TILE elements, 'b' a column of B by TILE rows, the loop runs
// while 'a <= aEnd' (aEnd = aBegin + K - 1) or 'a < aBegin + K', and the
// __shared__ tiles are declared in the loop body. Each variable is its start
// plus its step times the iterations done; --migrate lifts the loop as it
// does 'for (int t = 0; t < K; t += TILE)'.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
// Without a pragma, --suggest finds the loop.
// RUN: sed 's/^#pragma tawa tile.*$//' %s > %t.bare.cu
// RUN: %tawa-rewrite %t.bare.cu --suggest -o %t3.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=SUGGEST
#include <cuda_bf16.h>
#include <cuda_runtime.h>

// The CUDA samples' kernel (fp32, so precision(tf32)), instantiated twice.
// CHECK-LABEL: template <int BLOCK_SIZE>
// CHECK: __global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA,
// CHECK-NOT: #pragma tawa
// CHECK: for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
// SUGGEST: bare.cu:[[@LINE+14]]:3: warning: this loop of kernel 'MatrixMulCUDA' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile precision(3xtf32)' before it
template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, float *A, float *B, int wA, int wB) {
  int bx = blockIdx.x;
  int by = blockIdx.y;
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
#pragma tawa tile precision(tf32)
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      Csub += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}
// CHECK: __global__ void MatrixMulCUDA_16_tiled(tawa::Matrix<const float> A,
// CHECK-NEXT: tawa::Matrix<const float> B,
// CHECK-NEXT: tawa::Matrix<float> C) {
// CHECK: #pragma tawa tile precision(tf32)
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
// CHECK-NEXT: auto a = tawa::load<128, 32>(A, m0, k0);
// CHECK-NEXT: auto b = tawa::load<32, 256>(B, k0, n0);
// CHECK: template <int BLOCK_SIZE>
// CHECK-NEXT: static void MatrixMulCUDA_migrated_launch(
// CHECK: template <>
// CHECK-NEXT: void MatrixMulCUDA_migrated_launch<16>(
// CHECK: tawa_block.x != 16 || tawa_block.y != 16 || tawa_block.z != 1 ||
// CHECK-NEXT: tawa_rows <= 0 || tawa_cols <= 0 || tawa_grid.z == 0 || wA % 16 != 0 ||
// CHECK: MatrixMulCUDA<16>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(C, A, B, wA, wB);
// CHECK: tawa::Matrix<const float>{A, tawa_rows, wA, wA},
// CHECK-NEXT: tawa::Matrix<const float>{B, wA, tawa_cols, wB},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, wB});
// CHECK: __global__ void MatrixMulCUDA_32_tiled(
// CHECK: template <>
// CHECK-NEXT: void MatrixMulCUDA_migrated_launch<32>(
// CHECK: wA % 32 != 0

// bf16, the variables declared B first, the loop bound 'a < aBegin + K' on
// the second, the store after an index declaration.
// CHECK-LABEL: __global__ void walk_bf16(
// SUGGEST: bare.cu:[[@LINE+6]]:3: warning: this loop of kernel 'walk_bf16' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it
__global__ void walk_bf16(__nv_bfloat16 *C, const __nv_bfloat16 *A,
                          const __nv_bfloat16 *B, int K, int N) {
  const int aBegin = K * 32 * blockIdx.y;
  float acc = 0.0f;
#pragma tawa tile
  for (int b = 32 * blockIdx.x, a = aBegin; a < aBegin + K;
       b += 32 * N, a += 32) {
    __shared__ __nv_bfloat16 As[32][32];
    __shared__ __nv_bfloat16 Bs[32][32];
    As[threadIdx.y][threadIdx.x] = A[a + K * threadIdx.y + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[b + N * threadIdx.y + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += __bfloat162float(As[threadIdx.y][k]) *
             __bfloat162float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  const int c = N * 32 * blockIdx.y + 32 * blockIdx.x;
  C[c + N * threadIdx.y + threadIdx.x] = __float2bfloat16_rn(acc);
}
// CHECK: __global__ void walk_bf16_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: for (int k0 = 0; k0 < A.cols; k0 += 64) {
// CHECK: K % 32 != 0
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<__nv_bfloat16>{C, tawa_rows, tawa_cols, N});

// A register-blocked kernel (4 x 4 accumulators per thread, 256 threads,
// loops of staging copies) whose K loop walks offsets: the register-blocked
// front end binds the walking variables for each thread it follows.
// CHECK-LABEL: __global__ void walk_blocked(
// SUGGEST: bare.cu:[[@LINE+11]]:3: warning: this loop of kernel 'walk_blocked' is a hand-written register-blocked shared-memory GEMM that tawa-rewrite lifts; '#pragma tawa tile' before it
__global__ void walk_blocked(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                             float *C, int K, int N) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int aBegin = K * 64 * blockIdx.y;
  const int aEnd = aBegin + K - 1;
  const int bBegin = 64 * blockIdx.x;
  float acc[4][4] = {};
#pragma tawa tile
  for (int a = aBegin, b = bBegin; a <= aEnd; a += 16, b += 16 * N) {
    for (int i = threadIdx.x; i < 64 * 16; i += 256)
      As[i / 16][i % 16] = A[a + (i / 16) * K + i % 16];
    for (int i = threadIdx.x; i < 16 * 64; i += 256)
      Bs[i / 64][i % 64] = B[b + (i / 64) * N + i % 64];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[ty * 4 + i][k]) *
                       __bfloat162float(Bs[k][tx * 4 + j]);
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(blockIdx.y * 64 + ty * 4 + i) * N + blockIdx.x * 64 + tx * 4 + j] =
          acc[i][j];
}
// CHECK: __global__ void walk_blocked_tiled(tawa::Matrix<const __nv_bfloat16> A,
// CHECK: tawa::store(C, m0, n0, acc);
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK: K % 16 != 0
// CHECK: tawa::Matrix<const __nv_bfloat16>{A, tawa_rows, K, K},
// CHECK-NEXT: tawa::Matrix<const __nv_bfloat16>{B, K, tawa_cols, N},
// CHECK-NEXT: tawa::Matrix<float>{C, tawa_rows, tawa_cols, N});

void matrix_multiply(int block_size, float *d_A, float *d_B, float *d_C,
                     dim3 dimsA, dim3 dimsB, cudaStream_t stream) {
  dim3 threads(block_size, block_size);
  dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
  if (block_size == 16)
    MatrixMulCUDA<16><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x,
                                                     dimsB.x);
  else
    MatrixMulCUDA<32><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x,
                                                     dimsB.x);
}
// CHECK-LABEL: void matrix_multiply(
// CHECK: MatrixMulCUDA_migrated_launch<16>(grid, threads, 0, stream, d_C, d_A, d_B,
// CHECK: MatrixMulCUDA_migrated_launch<32>(grid, threads, 0, stream, d_C, d_A, d_B,

void walk(__nv_bfloat16 *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B,
          int M, int N, int K, cudaStream_t stream) {
  walk_bf16<<<dim3(N / 32, M / 32), dim3(32, 32), 0, stream>>>(C, A, B, K, N);
}
// CHECK-LABEL: void walk(
// CHECK: walk_bf16_migrated_launch(dim3(N / 32, M / 32), dim3(32, 32), 0, stream, C,

void walk_blocked_launch(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                         float *C, int M, int N, int K) {
  walk_blocked<<<dim3(N / 64, M / 64), 256>>>(A, B, C, K, N);
}
// CHECK-LABEL: void walk_blocked_launch(
// CHECK: walk_blocked_migrated_launch(dim3(N / 64, M / 64), 256, 0, 0, A, B, C, K,

// The rewrite makes the warp-specialized kernels of the migrated file.
// WS: __global__ void __launch_bounds__(384, 1) MatrixMulCUDA_16_tiled(
// WS: __global__ void __launch_bounds__(384, 1) walk_bf16_tiled(
// WS: __global__ void __launch_bounds__(384, 1) walk_blocked_tiled(
