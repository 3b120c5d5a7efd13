// Tiles in dynamic shared memory that are not read as tiles
// (test/migrate/dynamic-tiles.cu lifts those that are), one kernel each:
// tiles that overlap or start together, a tile pointer changed, the extern
// array used directly besides, a second extern array (which starts where the
// first does), an offset that is no constant or no multiple of the element's
// size, and a helper that uses the array (at file scope here). The verdict at the loop names the
// declaration and the form expected, and the file is left exactly as
// written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <cuda_bf16.h>

#define TILE 16

using bf16 = __nv_bfloat16;

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile 'As' has TILE * TILE = 256 elements, but the next tile starts 128 elements after it [tawa-unsupported]
__global__ void overlap(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = smem + TILE * TILE / 2;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'overlap' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'Bs' starts at the same element as 'As': a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void same_start(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = &smem[0];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'same_start' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the tile pointer 'As' is changed in the kernel: a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void changed(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = smem + TILE * TILE;
  As += blockIdx.z;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'changed' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'smem' is used other than through the tile pointers: a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void direct_use(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = smem + TILE * TILE;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc + __bfloat162float(smem[0]);
}
// CHECK: note: kernel 'direct_use' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+10]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'Bs' points into a second extern __shared__ array, which starts where the first does: a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void second_array(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  extern __shared__ bf16 more[];
  bf16 *As = smem, *Bs = more;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'second_array' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'Bs' is no pointer to a constant offset into 'smem': a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void runtime_offset(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ bf16 smem[];
  bf16 *As = smem, *Bs = smem + blockDim.x * blockDim.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'runtime_offset' is left unchanged

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+9]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: 'Bs' starts 513 bytes into the array, which is no multiple of its element's size: a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void odd_bytes(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  extern __shared__ char bytes[];
  bf16 *As = (bf16 *)bytes, *Bs = (bf16 *)(bytes + 2 * TILE * TILE + 1);
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
// CHECK: note: kernel 'odd_bytes' is left unchanged

extern __shared__ bf16 file_smem[];
__device__ float first_staged() { return __bfloat162float(file_smem[0]); }

// CHECK: dynamic-tiles-refusals.cu:[[@LINE+8]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the __device__ function 'first_staged' uses 'file_smem': a tile in dynamic shared memory is a pointer at a constant offset into the extern array or a tile before it, declared before the loop and never changed: 'T *As = smem, *Bs = As + TILE * TILE;' [tawa-unsupported]
__global__ void helper_use(const bf16 *A, const bf16 *B, float *C, int M, int N,
                          int K) {
  bf16 *As = file_smem, *Bs = file_smem + TILE * TILE;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
#pragma tawa tile
  for (int t = 0; t < K; t += TILE) {
    As[ty * TILE + tx] = row < M && t + tx < K ? A[row * K + t + tx] : bf16();
    Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : bf16();
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += __bfloat162float(As[ty * TILE + k]) *
             __bfloat162float(Bs[k * TILE + tx]);
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc + first_staged();
}
// CHECK: note: kernel 'helper_use' is left unchanged
