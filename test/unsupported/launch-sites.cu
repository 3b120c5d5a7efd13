// Kernels whose text or launches cannot be edited in place are left
// unchanged, launches included: a launch inside a macro, through a pointer or
// from device code, a kernel used other than in a launch (its address, an
// API launch), a kernel declared before its definition (here or in a
// header), a kernel declared through a macro, a pragma that is not a line of
// its own.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub -fgpu-rdc 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: diff %s %t.cu
#include "Inputs/launch-sites.cuh"

using bf16 = __nv_bfloat16;
using In = tawa::Matrix<const bf16>;
using Out = tawa::Matrix<bf16>;

#define TILE_LOOP_BODY                                                         \
  auto a = tawa::load<128, 64>(A, m0, k0);                                     \
  auto b = tawa::load<256, 64>(B, n0, k0);                                     \
  tawa::mma(acc, a, tawa::transpose(b));

__global__ void in_macro(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void args_in_macro(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void through_pointer(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void from_device(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

#define LAUNCH(kernel, grid) kernel<<<grid, 128>>>(A, B, C)
#define ARGS A, B, C

void run(In A, In B, Out C) {
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: a launch of 'in_macro' inside a macro cannot be rewritten; the rewritten kernel takes other parameters, so write the launch outside the macro, where it becomes a call of 'in_macro_launch' [tawa-unsupported]
  LAUNCH(in_macro, dim3(2, 2));
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: a launch of 'args_in_macro' inside a macro cannot be rewritten; {{.*}} [tawa-unsupported]
  args_in_macro<<<dim3(2, 2), 128>>>(ARGS);
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: a launch of 'through_pointer' that does not name it cannot be rewritten; write 'through_pointer<<<...>>>(...)' [tawa-unsupported]
  (*through_pointer)<<<1, 128>>>(A, B, C);
}

// What a launch from device code calls (the stand-in runtime lacks them).
extern "C" __device__ void *cudaGetParameterBuffer(size_t, size_t);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *, void *, dim3, dim3,
                                                   unsigned, cudaStream_t);

__global__ void parent(In A, In B, Out C) {
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: a launch of 'from_device' from device code cannot be rewritten; the launcher is a host function [tawa-unsupported]
  from_device<<<1, 128>>>(A, B, C);
}

__global__ void address_taken(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void api_launch(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

void run_uses(In A, In B, Out C) {
  // CHECK: launch-sites.cu:[[@LINE+1]]:34: warning: kernel 'address_taken' is used other than in a '<<<...>>>' launch; the rewritten kernel takes other parameters, so this use would reach it with the old ones: launch it with '<<<...>>>', which becomes a call of 'address_taken_launch' [tawa-unsupported]
  void (*kernel)(In, In, Out) = &address_taken;
  kernel<<<1, 128>>>(A, B, C);
  void *args[] = {&A, &B, &C};
  // CHECK: launch-sites.cu:[[@LINE+1]]:34: warning: kernel 'api_launch' is used other than in a '<<<...>>>' launch; {{.*}} [tawa-unsupported]
  cudaLaunchKernel((const void *)api_launch, dim3(1), dim3(128), args, 0, 0);
}

__global__ void declared_first(In A, In B, Out C);

void run_early(In A, In B, Out C) { declared_first<<<1, 128>>>(A, B, C); }

// CHECK: launch-sites.cu:[[@LINE+2]]:17: warning: kernel 'declared_first' is declared before its definition; the rewritten kernel takes other parameters and its launcher is declared with the definition only: remove the earlier declaration [tawa-unsupported]
// CHECK: launch-sites.cu:[[@LINE-5]]:17: note: the earlier declaration of 'declared_first' is here
__global__ void declared_first(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

// CHECK: launch-sites.cu:[[@LINE+2]]:17: warning: kernel 'declared_in_header' is declared before its definition; {{.*}} [tawa-unsupported]
// CHECK: launch-sites.cuh:5:17: note: the earlier declaration of 'declared_in_header' is here
__global__ void declared_in_header(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

#define KERNEL(name) __global__ void name(In A, In B, Out C)
// CHECK: launch-sites.cu:[[@LINE+1]]:8: warning: kernel 'from_macro' is declared through a macro; the rewriter edits the kernel's own text and cannot rewrite a macro [tawa-unsupported]
KERNEL(from_macro) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
#pragma tawa tile
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

__global__ void pragma_operator(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: '#pragma tawa tile' must stand on its own line; a '_Pragma' operator or a pragma after other code on its line is not rewritten [tawa-unsupported]
  _Pragma("tawa tile") for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}

#define TILE _Pragma("tawa tile")
__global__ void pragma_macro(In A, In B, Out C) {
  const int m0 = blockIdx.y * 128, n0 = blockIdx.x * 256;
  tawa::Accumulator<float, 128, 256> acc;
  // CHECK: launch-sites.cu:[[@LINE+1]]:3: warning: '#pragma tawa tile' must stand on its own line; {{.*}} [tawa-unsupported]
  TILE
  for (int k0 = 0; k0 < A.cols; k0 += 64) {
    TILE_LOOP_BODY
  }
  tawa::store(C, m0, n0, acc);
}
