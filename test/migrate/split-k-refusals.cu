// Split-K loops the shared-memory front end refuses, each left byte-identical:
// a partial sum stored without atomicAdd (the layers race for C), one with a
// bias that every layer would add, slices that overlap, and blockIdx.z in an
// index as well as in the slice; and a WMMA split-K loop, which that front
// end does not lift.
// RUN: %tawa-rewrite %s -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

#define TILE 32

// A partial sum stored without atomicAdd: the layers race for C.
__global__ void split_k_plain_store(const __half *A, const __half *B, float *C,
                                    int M, int N, int K, int chunk) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: a split-K loop's partial sums must be added into C with 'atomicAdd(&C[i], acc)' (or alpha * acc): each layer of the grid adds the sum of its slice of K; a store, a bias, an activation or C's old value would be applied once per layer
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < kEnd ? A[row * K + k0 + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < kEnd && col < N ? B[(k0 + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] += acc;
}
// CHECK: note: kernel 'split_k_plain_store' is left unchanged

// A bias added by every layer.
__global__ void split_k_bias(const __half *A, const __half *B, const float *bias,
                             float *C, int M, int N, int K, int chunk) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: a split-K loop's partial sums must be added into C with 'atomicAdd(&C[i], acc)'
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < kEnd ? A[row * K + k0 + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < kEnd && col < N ? B[(k0 + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc + bias[col]);
}
// CHECK: note: kernel 'split_k_bias' is left unchanged

// A slice's end that is not its start plus the chunk: the slices overlap.
__global__ void split_k_overlap(const __half *A, const __half *B, float *C,
                                int M, int N, int K, int chunk) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + 2 * chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the loop walks a slice of K that blockIdx.z picks (split-K), expected its end to be 'min(start + chunk, K)'
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < kEnd ? A[row * K + k0 + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < kEnd && col < N ? B[(k0 + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: note: kernel 'split_k_overlap' is left unchanged

// blockIdx.z also picks a matrix of a batch.
__global__ void split_k_batched(const __half *A, const __half *B, float *C,
                                int M, int N, int K, int chunk) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: blockIdx.z picks the slice of K of a split-K loop; it may enter no index of A, B or C
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < kEnd ? A[blockIdx.z * M * K + row * K + k0 + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < kEnd && col < N ? B[(k0 + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: note: kernel 'split_k_batched' is left unchanged

// A WMMA split-K loop, each layer's fragment stored to a workspace slab.
__global__ void wmma_split_k(const half *a, const half *b, float *work, int M,
                             int N, int K, int chunk) {
  const int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  const int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}closest to a hand-written WMMA GEMM, and the statement at line [[@LINE-6]] breaks it: its value is not a polynomial {{.*}}a call of 'min'
  for (int k0 = kBegin; k0 < kEnd; k0 += 16) {
    wmma::load_matrix_sync(a_frag, a + warpM * 16 * K + k0, K);
    wmma::load_matrix_sync(b_frag, b + k0 * N + warpN * 16, N);
    wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
  }
  wmma::store_matrix_sync(work + blockIdx.z * M * N + warpM * 16 * N +
                              warpN * 16,
                          acc_frag, N, wmma::mem_row_major);
}
// CHECK: note: kernel 'wmma_split_k' is left unchanged

// A slice computed from what differs between threads, or read from memory,
// is no value the launcher can compute.
__global__ void split_k_thread_chunk(const __half *A, const __half *B,
                                     float *C, int M, int N, int K,
                                     const int *chunks) {
  __shared__ __half As[TILE][TILE];
  __shared__ __half Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  const int chunk = chunks[blockIdx.x] / gridDim.z;
  const int kBegin = blockIdx.z * chunk;
  const int kEnd = min(kBegin + chunk, K);
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: split-k-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}breaks it: the loop's start is not a polynomial of threadIdx, blockIdx, the loop variables and integer parameters: it uses 'kBegin', whose value uses 'chunk'
  for (int k0 = kBegin; k0 < kEnd; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] = row < M && k0 + threadIdx.x < kEnd ? A[row * K + k0 + threadIdx.x] : __half();
    Bs[threadIdx.y][threadIdx.x] = k0 + threadIdx.y < kEnd && col < N ? B[(k0 + threadIdx.y) * N + col] : __half();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __half2float(As[threadIdx.y][k]) * __half2float(Bs[k][threadIdx.x]);
    __syncthreads();
  }
  if (row < M && col < N)
    atomicAdd(&C[row * N + col], acc);
}
// CHECK: note: kernel 'split_k_thread_chunk' is left unchanged
