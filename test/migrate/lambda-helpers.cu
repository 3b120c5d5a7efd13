// Staging and product code written as lambdas held in locals and called
// (`auto stage = [&](int t) {...}; stage(t);`): each call is followed as a
// __device__ helper's is, its parameters bound to the arguments and the
// captured variables read where the lambda is called. Each kernel is lifted.
// (The outputs are checked without this file's own check lines, which they
// copy.)
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t.cu | FileCheck %s
// RUN: %tawa-rewrite %s -o %t2.cu -- %cuda-stub 2>&1 | count 0
// RUN: grep -v '^ *// [A-Z-]*:' %t2.cu | FileCheck %s --check-prefix=WS
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// A classic 32 x 32 tiled kernel, bounds-checked, its copies and its
// product each a lambda capturing by reference (the product adds into the
// float accumulator it captures).
// CHECK-LABEL: __global__ void tiled_lambdas_tiled(
// CHECK: tawa::mma(acc, a, b);
// CHECK: tawa::store(C, m0, n0, acc);
// WS: __global__ void __launch_bounds__(384, 1) tiled_lambdas_tiled(
__global__ void tiled_lambdas(const __half *A, const __half *B, float *C,
                              int M, int N, int K) {
  __shared__ __half As[32][32];
  __shared__ __half Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  auto stage = [&](int t) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2half(0.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2half(0.0f);
  };
  auto multiply = [&]() {
    for (int k = 0; k < 32; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    multiply();
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Register blocking: 256 threads, 64 x 64 x 16 tiles, 4 x 4 per thread;
// the copies a lambda copying what it captures (indices and pointers that
// never change), the product one capturing the accumulators by reference.
// CHECK-LABEL: __global__ void blocked_lambdas_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// WS: __global__ void __launch_bounds__(384, 1) blocked_lambdas_tiled(
__global__ void blocked_lambdas(const __nv_bfloat16 *A,
                                const __nv_bfloat16 *B, float *C, int M,
                                int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  const int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  auto copy = [=](int k0) {
    for (int i = tid; i < 64 * 16; i += 256) {
      As[i / 16][i % 16] = A[(row0 + i / 16) * K + k0 + i % 16];
      Bs[i / 64][i % 64] = B[(k0 + i / 64) * N + col0 + i % 64];
    }
  };
  auto product = [&] {
    for (int k = 0; k < 16; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          acc[i][j] += __bfloat162float(As[tr * 4 + i][k]) *
                       __bfloat162float(Bs[k][tc * 4 + j]);
  };
#pragma tawa tile
  for (int k0 = 0; k0 < K; k0 += 16) {
    copy(k0);
    __syncthreads();
    product();
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(row0 + tr * 4 + i) * N + col0 + tc * 4 + j] = acc[i][j];
}

// WMMA over double-buffered tiles: 4 warps of 2 x 2 fragments, the copies
// of one buffer a lambda called for tile 0 before the loop and for the
// next tile into the other buffer in it (the buffer an argument).
// CHECK-LABEL: wmma_lambda_double_buffer_tiled(tawa::Matrix
// CHECK: tawa::store(C, m0, n0, alpha * acc);
// WS: __global__ void __launch_bounds__(384, 1) wmma_lambda_double_buffer_tiled(
__global__ void __launch_bounds__(128)
    wmma_lambda_double_buffer(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                              float *C, int M, int N, int K, float alpha) {
  __shared__ __nv_bfloat16 sA[2][64][40];
  __shared__ __nv_bfloat16 sB[2][32][72];
  const int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  auto load = [&](int buf, int k0) {
    for (int i = threadIdx.x; i < 64 * 32; i += 128)
      sA[buf][i / 32][i % 32] = A[(bm + i / 32) * K + k0 + i % 32];
    for (int i = threadIdx.x; i < 32 * 64; i += 128)
      sB[buf][i / 64][i % 64] = B[(k0 + i / 64) * N + bn + i % 64];
  };
  load(0, 0);
  __syncthreads();
  const int tiles = K / 32;
#pragma tawa tile
  for (int t = 0; t < tiles; ++t) {
    const int cur = t & 1;
    if (t + 1 < tiles)
      load(cur ^ 1, (t + 1) * 32);
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
                     wmma::row_major>
          fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
                     wmma::row_major>
          fb[2];
      for (int i = 0; i < 2; ++i)
        wmma::load_matrix_sync(fa[i], &sA[cur][wr * 32 + i * 16][kk], 40);
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], &sB[cur][kk][wc * 32 + j * 16], 72);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      for (int e = 0; e < acc[i][j].num_elements; ++e)
        acc[i][j].x[e] = alpha * acc[i][j].x[e];
      wmma::store_matrix_sync(C + (bm + wr * 32 + i * 16) * N + bn +
                                  wc * 32 + j * 16,
                              acc[i][j], N, wmma::mem_row_major);
    }
}

// The copies a lambda copying the thread's indices, which the product's
// lambda captures by reference (a capture by reference changes nothing).
// CHECK-LABEL: __global__ void copy_and_reference_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// WS: __global__ void __launch_bounds__(384, 1) copy_and_reference_tiled(
__global__ void copy_and_reference(const __half *A, const __half *B, float *C,
                                   int M, int N, int K) {
  __shared__ __half As[32][32];
  __shared__ __half Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  auto stage = [=](int t) {
    As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2half(0.0f);
    Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2half(0.0f);
  };
  auto multiply = [&]() {
    for (int k = 0; k < 32; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
  };
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    stage(t);
    __syncthreads();
    multiply();
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// A lambda declared in the loop's body, copying the loop's counter: each
// iteration makes its own copy, equal to the counter at the call.
// CHECK-LABEL: __global__ void copies_counter_in_loop_tiled(
// CHECK: tawa::store(C, m0, n0, acc);
// WS: __global__ void __launch_bounds__(384, 1) copies_counter_in_loop_tiled(
__global__ void copies_counter_in_loop(const __half *A, const __half *B,
                                       float *C, int M, int N, int K) {
  __shared__ __half As[32][32];
  __shared__ __half Bs[32][32];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += 32) {
    auto stage = [=]() {
      As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : __float2half(0.0f);
      Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : __float2half(0.0f);
    };
    stage();
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

void launch(const __half *A, const __half *B, float *C, int M, int N, int K) {
  tiled_lambdas<<<dim3(N / 32, M / 32), dim3(32, 32)>>>(A, B, C, M, N, K);
}
