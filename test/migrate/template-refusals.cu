// A kernel template is refused where one of its launched instantiations does
// not lift: the verdict is on that instantiation, named at its launch, and
// the file is left as written. --suggest proposes the pragma for a template
// whose every launched instantiation lifts.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
// RUN: %tawa-rewrite %s --suggest -o %t2.cu -- %cuda-stub 2>&1 | FileCheck %s --check-prefix=SUGGEST --implicit-check-not=error:
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=OUT
#include <cuda_runtime.h>

// CHECK: template-refusals.cu:[[@LINE+11]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: {{.*}} [tawa-unsupported]
// CHECK: template-refusals.cu:[[@LINE+26]]:3: note: instantiation 'typed<double>' launched here; the verdict is on it, its template arguments taken as constants
// CHECK: template-refusals.cu:[[@LINE+2]]:17: note: kernel 'typed' is left unchanged
template <typename T>
__global__ void typed(const T *A, const T *B, T *C, int M, int N, int K) {
  __shared__ T As[32][32];
  __shared__ T Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  T acc = 0;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += 32) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : T(0);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : T(0);
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void run(int M, int N, int K, const float *A, const float *B, float *C,
         const double *X, const double *Y, double *Z) {
  const dim3 grid((N + 31) / 32, (M + 31) / 32), block(32, 32);
  typed<<<grid, block>>>(A, B, C, M, N, K);
  typed<<<grid, block>>>(X, Y, Z, M, N, K);
}

// Without a pragma: every launched instantiation lifts under precision(tf32).
// OUT-LABEL: __global__ void candidate(
// OUT: #pragma tawa tile precision(tf32)
// OUT-NEXT: for (int t = 0; t < K; t += BS) {
template <int BS>
__global__ void candidate(const float *A, const float *B, float *C, int M,
                          int N, int K) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
  // SUGGEST: template-refusals.cu:[[@LINE+1]]:3: warning: this loop of kernel 'candidate' is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts; '#pragma tawa tile precision(3xtf32)' before it
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void run_candidate(int M, int N, int K, const float *A, const float *B,
                   float *C) {
  candidate<16><<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(
      A, B, C, M, N, K);
}

// An explicit specialization has its own body, which the pragma does not
// annotate: its launch instantiates nothing to lift.
// CHECK: template-refusals.cu:[[@LINE+2]]:17: warning: kernel template 'special' is not launched in this file: tawa-rewrite lifts each instantiation that a launch of the file makes ('special<...><<<...>>>(...)'), with its template arguments as constants [tawa-unsupported]
template <int BS>
__global__ void special(const float *A, const float *B, float *C, int M, int N,
                        int K) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'special' is left unchanged
template <>
__global__ void special<64>(const float *A, const float *B, float *C, int M,
                            int N, int K) {}

void run_special(int M, int N, int K, const float *A, const float *B,
                 float *C) {
  special<64><<<dim3(N / 64, M / 64), dim3(64, 64)>>>(A, B, C, M, N, K);
}

// Every instantiation lifts, but a launch inside a macro cannot become a call
// of its launcher: the verdict says the loop lifts and what stops the
// migration.
#define LAUNCH(k, ...) k<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(__VA_ARGS__)
// CHECK: template-refusals.cu:[[@LINE+10]]:3: warning: this loop is a hand-written shared-memory tiled GEMM that tawa-rewrite lifts, but the statement at line [[@LINE+26]] stops its migration: this launch of 'in_macro<16>' cannot become a call of its migrated launcher (a host function)
template <int BS>
__global__ void in_macro(const float *A, const float *B, float *C, int M, int N,
                         int K) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: instantiations such as 'in_macro<16>' launched here, each lifted with its template arguments taken as constants
// CHECK: note: kernel 'in_macro' is left unchanged

void run_in_macro(int M, int N, int K, const float *A, const float *B,
                  float *C) {
  LAUNCH(in_macro<16>, A, B, C, M, N, K);
}

// Launched only from a function template that the file does not instantiate:
// no launch fixes the template's arguments.
// CHECK: template-refusals.cu:[[@LINE+2]]:17: warning: kernel template 'from_template' is launched only from function templates that the file does not instantiate: tawa-rewrite lifts each instantiation of the kernel that a launch of the file makes, with constant template arguments ('from_template<...><<<...>>>(...)', in a function or an instantiated function template) [tawa-unsupported]
template <int BS>
__global__ void from_template(const float *A, const float *B, float *C, int M,
                              int N, int K) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: template-refusals.cu:[[@LINE+5]]:3: note: launched here, in a function template
// CHECK: note: kernel 'from_template' is left unchanged

template <int BS>
void run_from_template(int M, int N, int K, const float *A, const float *B, float *C) {
  from_template<BS><<<dim3(N / BS, M / BS), dim3(BS, BS)>>>(A, B, C, M, N, K);
}

// Launched from an instantiated function template, a kernel template declared
// before its definition: its launchers are one per instantiation, named after
// the arguments (the declarations may split the parameters' names and default
// arguments), which the function template's one launch text cannot call.
// CHECK: template-refusals.cu:[[@LINE+5]]:17: warning: kernel template 'declared_twice' is launched from a function template, whose one launch text stands for all of its instantiations: that launch can call one launcher template, which a kernel template declared more than once, over a parameter pack or with an unnamed parameter does not get; launch it with constant template arguments from a function that is not a template [tawa-unsupported]
template <int BS>
__global__ void declared_twice(const float *A, const float *B, float *C, int M,
                               int N, int K);
template <int BS>
__global__ void declared_twice(const float *A, const float *B, float *C, int M,
                               int N, int K) {
  __shared__ float As[BS][BS];
  __shared__ float Bs[BS][BS];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
  float acc = 0.0f;
#pragma tawa tile precision(tf32)
  for (int t = 0; t < K; t += BS) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < BS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: launched here, in a function template
// CHECK: note: kernel 'declared_twice' is left unchanged
template <int BS>
void run_declared_twice(int M, int N, int K, const float *A, const float *B,
                        float *C) {
  declared_twice<BS><<<dim3(N / BS, M / BS), dim3(BS, BS)>>>(A, B, C, M, N, K);
}
void run_declared_twice_16(int M, int N, int K, const float *A, const float *B,
                           float *C) {
  run_declared_twice<16>(M, N, K, A, B, C);
}
