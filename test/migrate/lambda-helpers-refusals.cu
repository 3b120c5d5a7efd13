// Lambdas the front ends refuse to follow, each kernel left as written: one
// that changes an index it captures, two that copy a variable which changes
// after the copy is made (in the loop, or in its body after the lambda is
// declared there), a mutable one, a generic one, one copied to another
// variable, one called where it is written, one returning a value, one
// staging a shifted element, one that resets the float accumulator it
// captures, and one that holds a barrier of the form (the loop body must
// call '__syncthreads();' itself).
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>

#define HEAD                                                                   \
  __shared__ __half As[32][32];                                                \
  __shared__ __half Bs[32][32];                                                \
  const int tx = threadIdx.x, ty = threadIdx.y;                                \
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;            \
  float acc = 0.0f;
#define PRODUCT                                                                \
  for (int k = 0; k < 32; ++k)                                                 \
    acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
#define STORE C[row * N + col] = acc;
#define ARGS const __half *A, const __half *B, float *C, int M, int N, int K

// CHECK: lambda-helpers-refusals.cu:[[@LINE+11]]:3: warning: this loop does not match a liftable pattern: {{.*}}a lambda that changes 'k0', a variable of its caller: pass it as a parameter (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'changes_index' is left unchanged
__global__ void changes_index(ARGS) {
  HEAD
  int k0 = 0;
  auto stage = [&]() {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    k0 += 32;
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage();
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: {{.*}}a lambda that copies 'k0', which changes after the copy is made: capture it by reference (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'copies_changing' is left unchanged
__global__ void copies_changing(ARGS) {
  HEAD
  int k0 = 0;
  auto stage = [=]() {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage();
    __syncthreads();
    PRODUCT
    __syncthreads();
    k0 += 32;
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern: {{.*}}a lambda that copies 'k0', which changes after the copy is made: capture it by reference (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'copies_changing_in_loop' is left unchanged
__global__ void copies_changing_in_loop(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    int k0 = 0;
    auto stage = [=]() {
      As[ty][tx] = A[row * K + k0 + tx];
      Bs[ty][tx] = B[(k0 + ty) * N + col];
    };
    k0 = t;
    stage();
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: {{.*}}a 'mutable' lambda, which changes its copies (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'mutable_lambda' is left unchanged
__global__ void mutable_lambda(ARGS) {
  HEAD
  auto stage = [=](int t) mutable {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: {{.*}}a generic lambda (its parameters 'auto') (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'generic_lambda' is left unchanged
__global__ void generic_lambda(ARGS) {
  HEAD
  auto stage = [&](auto t) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: {{.*}}the lambda 'stage' is used other than by calling it (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'copied_lambda' is left unchanged
__global__ void copied_lambda(ARGS) {
  HEAD
  auto stage = [&](int t) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
  };
  auto again = stage;
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    again(t);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+5]]:3: warning: this loop does not match a liftable pattern: {{.*}}a lambda other than one held in a local variable and called ('auto load = [&](int stage, int k) {...};') (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'called_in_place' is left unchanged
__global__ void called_in_place(ARGS) {
  HEAD
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    [&] {
      As[ty][tx] = A[row * K + t + tx];
      Bs[ty][tx] = B[(t + ty) * N + col];
    }();
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+6]]:3: warning: this loop does not match a liftable pattern: {{.*}}a lambda that returns a value (no lifting front end follows it) [tawa-unsupported]
// CHECK: note: kernel 'returns_value' is left unchanged
__global__ void returns_value(ARGS) {
  HEAD
  auto at = [&](const __half *X, int i) { return X[i]; };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    As[ty][tx] = at(A, row * K + t + tx);
    Bs[ty][tx] = at(B, (t + ty) * N + col);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: {{.*}}the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 32 per iteration {{.*}} [tawa-unsupported]
// CHECK: note: kernel 'shifted_element' is left unchanged
__global__ void shifted_element(ARGS) {
  HEAD
  auto stage = [&](int t) {
    As[ty][tx] = A[row * K + t + tx + 1];
    Bs[ty][tx] = B[(t + ty) * N + col];
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    PRODUCT
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+13]]:3: warning: this loop does not match a liftable pattern: {{.*}}accumulates into 'acc' after setting it in the loop: {{.*}} (in the lambda at line [[@LINE+8]], called at line [[@LINE+16]]) {{.*}} [tawa-unsupported]
// CHECK: note: kernel 'resets_accumulator' is left unchanged
__global__ void resets_accumulator(ARGS) {
  HEAD
  auto stage = [&](int t) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
  };
  auto multiply = [&] {
    acc = 0.0f;
    PRODUCT
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    multiply();
    __syncthreads();
  }
  STORE
}

// CHECK: lambda-helpers-refusals.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: {{.*}} the statement at line [[@LINE+11]] breaks it: this call reaches a '__syncthreads();' inside a lambda or a function: the form's two barriers are read where the loop body calls '__syncthreads();' itself (between the staging copies and the product, and after the product); call it there [tawa-unsupported]
// CHECK: note: kernel 'barrier_in_lambda' is left unchanged
__global__ void barrier_in_lambda(ARGS) {
  HEAD
  auto stage = [&](int t) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    PRODUCT
    __syncthreads();
  }
  STORE
}
