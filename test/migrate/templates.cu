// Kernel templates: each instantiation that a launch of the file makes is
// lifted with its template arguments as constants, and --migrate gives each
// its own tiled kernel, named after the arguments, and launcher, an explicit
// specialization of one function template over the template's parameters
// that each launch calls with the template arguments it was written with;
// the launcher's fallback launches the instantiation as written. The
// template itself stays.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %t.cu -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
// Without --migrate, one run migrates and rewrites: the same kernels.
// RUN: %tawa-rewrite %s -o %t3.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t3.cu | FileCheck %s --check-prefix=WS
// RUN: grep -v '^ *// [A-Z-]*:' %t3.cu | FileCheck %s --check-prefix=ONEPASS
// The comments name the pragma of the file as the user has it.
// ONEPASS: /// tiled_32_tiled, warp-specialized by tawa-rewrite from `#pragma tawa tile` at
// ONEPASS-NEXT: /// templates.cu:37, lifted into the tile vocabulary
#include <cuda_runtime.h>

// A tile-size template in the manner of SGEMM tutorials: a one-dimensional
// block, pointers advanced along K, two instantiations.
// CHECK-LABEL: template <int BS>
// CHECK: __global__ void tiled(int M, int N, int K, const float *A,
// CHECK-NOT: #pragma tawa
// CHECK: for (int t = 0; t < K; t += BS) {
template <int BS>
__global__ void tiled(int M, int N, int K, const float *A, const float *B,
                      float *C) {
  __shared__ float As[BS * BS];
  __shared__ float Bs[BS * BS];
  const int r = threadIdx.x / BS, c = threadIdx.x % BS;
  A += blockIdx.y * BS * K;
  B += blockIdx.x * BS;
  C += blockIdx.y * BS * N + blockIdx.x * BS;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[r * BS + c] = A[r * K + c];
    Bs[r * BS + c] = B[r * N + c];
    __syncthreads();
    A += BS;
    B += BS * N;
    for (int k = 0; k < BS; ++k)
      acc += As[r * BS + k] * Bs[k * BS + c];
    __syncthreads();
  }
  C[r * N + c] = acc;
}
// CHECK: /// 'tiled<32>' in the tile vocabulary: C = A * B over the window of C
// CHECK: __global__ void tiled_32_tiled(tawa::Matrix<const float> A,
// CHECK: #pragma tawa tile precision(tf32)
// CHECK-NEXT: for (int k0 = 0; k0 < A.cols; k0 += 32) {
// CHECK: /// The launchers of the instantiations of 'tiled' that the file launches, one
// CHECK: template <int BS>
// CHECK-NEXT: static void tiled_migrated_launch(dim3 tawa_grid, dim3 tawa_block,
// CHECK-NEXT: size_t tawa_shared, cudaStream_t tawa_stream,
// CHECK-NEXT: int M, int N, int K, const float *A,
// CHECK-NEXT: const float *B, float *C) {
// CHECK-NEXT: tiled<BS>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(M, N, K, A, B, C);
// CHECK-NEXT: }
// CHECK: template <>
// CHECK-NEXT: void tiled_migrated_launch<32>(dim3 tawa_grid, dim3 tawa_block,
// CHECK: float *C) {
// CHECK: if (tawa_block.x != 1024 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK: tiled<32>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(M, N, K, A, B, C);
// CHECK: __global__ void tiled_16_tiled(
// CHECK-NOT: static void tiled_migrated_launch(
// CHECK: template <>
// CHECK-NEXT: void tiled_migrated_launch<16>(
// CHECK: if (tawa_block.x != 256 || tawa_block.y != 1 || tawa_block.z != 1 ||
// CHECK: tiled<16>

// An element-type template (an SGEMM here), launched with the type deduced
// and named.
// CHECK-LABEL: template <typename T>
// CHECK: __global__ void typed(
template <typename T>
__global__ void typed(const T *A, const T *B, T *C, int M, int N, int K) {
  __shared__ T As[32][32];
  __shared__ T Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += 32) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : T(0.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : T(0.0f);
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += float(As[ty][k]) * float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = T(acc);
}
// CHECK: __global__ void typed_float_tiled(tawa::Matrix<const float> A,
// CHECK: template <typename T>
// CHECK-NEXT: static void typed_migrated_launch(dim3 tawa_grid, dim3 tawa_block,
// CHECK-NEXT: size_t tawa_shared, cudaStream_t tawa_stream,
// CHECK-NEXT: const T *A, const T *B, T *C, int M, int N,
// CHECK-NEXT: int K) {
// CHECK-NEXT: typed<T>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(A, B, C, M, N, K);
// CHECK: template <>
// CHECK-NEXT: void typed_migrated_launch<float>(
// CHECK: const float *A, const float *B, float *C,
// CHECK-NEXT: int M, int N, int K) {
// CHECK: typed<float>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(A, B, C, M, N, K);

// CHECK-LABEL: void run(
void run(int M, int N, int K, const float *A, const float *B, float *C,
         cudaStream_t s) {
  // CHECK: tiled_migrated_launch<32>(dim3((N + 31) / 32, (M + 31) / 32), 1024, 0, s, M,
  tiled<32><<<dim3((N + 31) / 32, (M + 31) / 32), 1024, 0, s>>>(M, N, K, A, B, C);
  // CHECK: tiled_migrated_launch<16>(dim3((N + 15) / 16, (M + 15) / 16), 256, 0, 0, M, N,
  tiled<16><<<dim3((N + 15) / 16, (M + 15) / 16), 256>>>(M, N, K, A, B, C);
  // CHECK: tiled_migrated_launch<32>(dim3((N + 31) / 32, (M + 31) / 32), 1024, 0, 0, M,
  tiled<32><<<dim3((N + 31) / 32, (M + 31) / 32), 1024>>>(M, N, K, A, B, C);
  // The type deduced, as the launch deduced it.
  // CHECK: typed_migrated_launch(dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32), 0, 0,
  // CHECK-NEXT: A, B, C, M, N, K);
  typed<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(A, B, C, M, N, K);
  // CHECK: typed_migrated_launch<float>(
  typed<float><<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(A, B, C, M, N, K);
}

// WS: inline cudaError_t tiled_32_tiled_launch(
// WS: void tiled_migrated_launch<32>(
// WS: inline cudaError_t tiled_16_tiled_launch(
// WS: void tiled_migrated_launch<16>(
// WS: inline cudaError_t typed_float_tiled_launch(
// WS: void typed_migrated_launch<float>(

// A template declared before its definition keeps a launcher per
// instantiation, named after its arguments (its declarations may split the
// parameters' names and default arguments).
template <int BS>
__global__ void declared(int M, int N, int K, const float *A, const float *B,
                         float *C);
template <int BS>
__global__ void declared(int M, int N, int K, const float *A, const float *B,
                         float *C) {
  __shared__ float As[BS * BS];
  __shared__ float Bs[BS * BS];
  const int r = threadIdx.x / BS, c = threadIdx.x % BS;
  A += blockIdx.y * BS * K;
  B += blockIdx.x * BS;
  C += blockIdx.y * BS * N + blockIdx.x * BS;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[r * BS + c] = A[r * K + c];
    Bs[r * BS + c] = B[r * N + c];
    __syncthreads();
    A += BS;
    B += BS * N;
    for (int k = 0; k < BS; ++k)
      acc += As[r * BS + k] * Bs[k * BS + c];
    __syncthreads();
  }
  C[r * N + c] = acc;
}
// CHECK-NOT: declared_migrated_launch
// CHECK: static void declared_32_migrated_launch(
// CHECK-LABEL: void run_declared(
void run_declared(int M, int N, int K, const float *A, const float *B,
                  float *C) {
  // CHECK: declared_32_migrated_launch(dim3((N + 31) / 32, (M + 31) / 32), 1024, 0, 0,
  declared<32><<<dim3((N + 31) / 32, (M + 31) / 32), 1024>>>(M, N, K, A, B, C);
}

// Launched from a function template, as libraries dispatch on tile sizes: the
// launch's one text, which each instantiation of the function template makes
// with its own arguments (an implicit instantiation, an explicit one), calls
// the launcher template with the arguments as written. The launcher
// template's own definition launches the kernel as written: an instantiation
// that is not lifted (an explicit specialization of the kernel, with a body
// of its own) runs through it.
// CHECK-LABEL: __global__ void dispatched(
template <int BS>
__global__ void dispatched(int M, int N, int K, const float *A, const float *B,
                           float *C) {
  __shared__ float As[BS * BS];
  __shared__ float Bs[BS * BS];
  const int r = threadIdx.x / BS, c = threadIdx.x % BS;
  A += blockIdx.y * BS * K;
  B += blockIdx.x * BS;
  C += blockIdx.y * BS * N + blockIdx.x * BS;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[r * BS + c] = A[r * K + c];
    Bs[r * BS + c] = B[r * N + c];
    __syncthreads();
    A += BS;
    B += BS * N;
    for (int k = 0; k < BS; ++k)
      acc += As[r * BS + k] * Bs[k * BS + c];
    __syncthreads();
  }
  C[r * N + c] = acc;
}
// CHECK: __global__ void dispatched_32_tiled(
// CHECK: template <int BS>
// CHECK-NEXT: static void
// CHECK-NEXT: dispatched_migrated_launch(dim3 tawa_grid, dim3 tawa_block, size_t tawa_shared,
// CHECK-NEXT: cudaStream_t tawa_stream, int M, int N, int K,
// CHECK-NEXT: const float *A, const float *B, float *C) {
// CHECK-NEXT: dispatched<BS>
// CHECK-NEXT: <<<tawa_grid, tawa_block, tawa_shared, tawa_stream>>>(M, N, K, A, B, C);
// CHECK-NEXT: }
// CHECK: void dispatched_migrated_launch<32>(
// CHECK: __global__ void dispatched_16_tiled(
// CHECK: void dispatched_migrated_launch<16>(
// CHECK-NOT: dispatched_8
// CHECK-NOT: dispatched_migrated_launch<8>
template <>
__global__ void dispatched<8>(int M, int N, int K, const float *A,
                              const float *B, float *C) {
  const int row = blockIdx.y * 8 + threadIdx.x / 8;
  const int col = blockIdx.x * 8 + threadIdx.x % 8;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// CHECK-LABEL: void run_dispatched(
template <int BS>
void run_dispatched(int M, int N, int K, const float *A, const float *B,
                    float *C, cudaStream_t s) {
  // CHECK: dispatched_migrated_launch<BS>(dim3(N / BS, M / BS), BS * BS, 0, s, M, N, K,
  // CHECK-NEXT: A, B, C);
  dispatched<BS><<<dim3(N / BS, M / BS), BS * BS, 0, s>>>(M, N, K, A, B, C);
}
template void run_dispatched<32>(int M, int N, int K, const float *A,
                                 const float *B, float *C, cudaStream_t s);
void run_all(int M, int N, int K, const float *A, const float *B, float *C) {
  run_dispatched<16>(M, N, K, A, B, C, 0);
  run_dispatched<8>(M, N, K, A, B, C, 0);
}
// WS: void dispatched_migrated_launch<32>(
// WS: void dispatched_migrated_launch<16>(
