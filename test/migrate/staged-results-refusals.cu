// Kernels that stage their results through shared memory after the loop
// and differ from ones that lift (staged-results.cu) by one defect each:
// each is refused at the statement that breaks the pattern and the file is
// left exactly as written.
// RUN: %tawa-rewrite %s --migrate -o %t.cu -- %cuda-stub 2>&1 | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: diff %s %t.cu
#include <mma.h>
using namespace nvcuda;
#define WMMA_PROLOGUE                                                          \
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;                  \
  const int row0 = blockIdx.y * 16, col0 = (blockIdx.x * 4 + warp) * 16;       \
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;         \
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;         \
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;                    \
  wmma::fill_fragment(acc, 0.0f);
#define WMMA_LOOP                                                              \
  for (int k = 0; k < K; k += 16) {                                            \
    wmma::load_matrix_sync(a, A + row0 * K + k, K);                            \
    wmma::load_matrix_sync(b, B + k * N + col0, N);                            \
    wmma::mma_sync(acc, a, b, acc);                                            \
  }

// No barrier between the fragment store and the reads: the lanes of a
// warp read elements other lanes store.
__global__ void no_barrier(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  for (int i = lane; i < 16 * 16; i += 32)
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][i];
}
// CHECK: note: kernel 'no_barrier' is left unchanged
// __syncwarp() orders the lanes of one warp only; each warp reads the
// fragment of the next.
__global__ void across_warps(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32)
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it
    C[(row0 + i / 16) * N + blockIdx.x * 64 + ((warp + 1) % 4) * 16 + i % 16] = Cs[(warp + 1) % 4][i];
}
// CHECK: note: kernel 'across_warps' is left unchanged
// The fragment is stored row-major and read back transposed.
__global__ void transposed(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = lane; i < 16 * 16; i += 32)
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: the accumulator stored at line {{[0-9]+}} does not gain A(row, t + k) * B(t + k, col) once for each k < 16 per iteration
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][(i % 16) * 16 + i / 16];
}
// CHECK: note: kernel 'transposed' is left unchanged
// A fragment store under a bounds check whose element reads are not: where
// the check fails they would read what the store did not write.
__global__ void guarded_store(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'Cs' that its store after the loop writes under a bounds check: expected the read in a store of C (not in a local) skipped wherever that check fails, the store under a check 'row < X' of a row (or column) at the checked one or after it for each 'u < X' of it (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  if (row0 < M)
    wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = lane; i < 16 * 16; i += 32)
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'Cs' that its store after the loop writes under a bounds check
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][i];
}
// CHECK: note: kernel 'guarded_store' is left unchanged
// The fragment fills half of each row of 32; the reads take the row as 16.
__global__ void unwritten(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[4][16 * 32];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'Cs' that no store after the loop writes (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  wmma::store_matrix_sync(Cs[warp], acc, 32, wmma::mem_row_major);
  __syncthreads();
  for (int i = lane; i < 16 * 16; i += 32)
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'Cs' that no store after the loop writes
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][i];
}
// CHECK: note: kernel 'unwritten' is left unchanged
// All four warps store their fragments at the same place.
__global__ void overlap(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ float Cs[16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: two stores after the loop write element 0 of 'Cs' with no barrier between them that orders the second after the first (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: two stores after the loop write element 0 of 'Cs' with no barrier between them that orders the second after the first
  wmma::store_matrix_sync(Cs, acc, 16, wmma::mem_row_major);
  __syncthreads();
  for (int i = lane; i < 16 * 16; i += 32)
    C[(row0 + i / 16) * N + col0 + i % 16] = Cs[i];
}
// CHECK: note: kernel 'overlap' is left unchanged

// Register-blocked results staged in 16 bits: rounded before the epilogue.
__global__ void half_results(const __half *A, const __half *B, float *C,
                             int M, int N, int K) {
  __shared__ __half As[16][16], Bs[16][16];
  __shared__ __half Cs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written shared-memory tiled GEMM, and the statement at line {{[0-9]+}} breaks it: the __shared__ array 'Cs' is not used in the loop: results staged through shared memory after the loop are read from a static __shared__ float array, written with 'wmma::store_matrix_sync(Cs + offset, acc, ld, wmma::mem_row_major)' or 'Cs[i][j] = acc[k]' and read after '__syncthreads();' [tawa-unsupported]
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  Cs[ty][tx] = __float2half_rn(acc);
  __syncthreads();
  C[row * N + col] = __half2float(Cs[tx][ty]);
}
// CHECK: note: kernel 'half_results' is left unchanged

// A scale applied before the staging.
__global__ void scaled_staging(const __half *A, const __half *B, float *C,
                               int M, int N, int K, float alpha) {
  __shared__ __half As[16][16], Bs[16][16];
  __shared__ float Cs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}expected an accumulator set to 0 before the loop put as it is into the __shared__ array 'Cs', 'Cs[i][j] = acc[k];'{{.*}}
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  Cs[ty][tx] = alpha * acc;
  __syncthreads();
  C[row * N + col] = Cs[ty][tx];
}
// CHECK: note: kernel 'scaled_staging' is left unchanged

// The value is read before the barrier, from another warp's fragment.
__global__ void read_before_barrier(const half *A, const half *B, float *C,
                                    int M, int N, int K) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it (matched furthest as a block of 128 threads) [tawa-unsupported]
  WMMA_LOOP
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:{{[0-9]+}}: note: reads an element of 'Cs'
  const float v = Cs[(warp + 1) % 4][lane];
  __syncthreads();
  C[(row0 + lane / 16) * N + col0 + lane % 16] = v;
}
// CHECK: note: kernel 'read_before_barrier' is left unchanged

// Each thread reads its element of the array before it writes it.
__global__ void read_then_write(const __half *A, const __half *B, float *C,
                                int M, int N, int K) {
  __shared__ __half As[16][16], Bs[16][16];
  __shared__ float Cs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: {{.*}}reads an element of 'Cs' that is not written before the read: by another thread with no '__syncthreads();' between (or '__syncwarp();' in one warp), or after it (matched furthest as a block of 16 x 16 threads) [tawa-unsupported]
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += __half2float(As[ty][k]) * __half2float(Bs[k][tx]);
    __syncthreads();
  }
  C[row * N + col] = Cs[ty][tx];
  Cs[ty][tx] = acc;
}
// CHECK: note: kernel 'read_then_write' is left unchanged
// A fragment scaled before it goes into the array of results, and the
// value read back scaled again.
__global__ void scaled_twice(const half *A, const half *B, float *C, int M, int N,
                             int K, float alpha) {
  __shared__ float Cs[4][16 * 16];
  WMMA_PROLOGUE
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: this loop does not match a liftable pattern: it is closest to a hand-written WMMA GEMM, and the statement at line {{[0-9]+}} breaks it: the fragment is scaled before its store into the array of results, and the value stored into C scales it again; expected one scale
  WMMA_LOOP
  for (int e = 0; e < acc.num_elements; ++e)
    acc.x[e] *= alpha;
  wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = lane; i < 16 * 16; i += 32)
    C[(row0 + i / 16) * N + col0 + i % 16] = alpha * Cs[warp][i];
}
// CHECK: note: kernel 'scaled_twice' is left unchanged

// A pointer into the array of results, set before the loop, written by a
// copy in the loop: only the code after the loop may use that array.
__global__ void scratch_staged_in_loop(const __nv_bfloat16 *A,
                                       const __nv_bfloat16 *B,
                                       __nv_bfloat16 *C, const float *extra,
                                       int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  __shared__ float Cs[64][64 + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  float *cp = &Cs[0][0];
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}'cp' points into the array of results 'Cs' and is used in the loop: only the code after the loop may use that array{{.*}} [tawa-unsupported]
  for (int t = 0; t < K; t += 16) {
    for (int i = threadIdx.x; i < 64 * 16; i += 256) {
      const int r = i / 16, c = i % 16;
      As[r][c] = row0 + r < M && t + c < K ? A[(row0 + r) * K + t + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    for (int i = threadIdx.x; i < 16 * 64; i += 256) {
      const int r = i / 64, c = i % 64;
      Bs[r][c] = t + r < K && col0 + c < N ? B[(t + r) * N + col0 + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    // CHECK: staged-results-refusals.cu:[[@LINE+1]]:5: note: 'cp' points into the array of results 'Cs' and is used in the loop
    cp[threadIdx.x] = extra[t + threadIdx.x];
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
      cp[(ty * 4 + i) * 65 + tx * 4 + j] = acc[i][j];
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 64; i += 256) {
    const int r = i / 64, c = i % 64;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2bfloat16_rn(Cs[r][c]);
  }
}
// CHECK: note: kernel 'scratch_staged_in_loop' is left unchanged

// The shared-memory address of the array of results, taken before the
// loop, written by an asynchronous copy in the loop.
__global__ void address_staged_in_loop(const __nv_bfloat16 *A,
                                       const __nv_bfloat16 *B,
                                       __nv_bfloat16 *C, const float *extra,
                                       int M, int N, int K) {
  __shared__ __nv_bfloat16 As[64][16];
  __shared__ __nv_bfloat16 Bs[16][64];
  __shared__ float Cs[64][64 + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  float acc[4][4] = {};
  const unsigned sa =
      static_cast<unsigned>(__cvta_generic_to_shared(&Cs[0][0]));
#pragma tawa tile
  // CHECK: staged-results-refusals.cu:[[@LINE+1]]:3: warning: {{.*}}'sa' points into the array of results 'Cs' and is used in the loop: only the code after the loop may use that array{{.*}} [tawa-unsupported]
  for (int t = 0; t < K; t += 16) {
    for (int i = threadIdx.x; i < 64 * 16; i += 256) {
      const int r = i / 16, c = i % 16;
      As[r][c] = row0 + r < M && t + c < K ? A[(row0 + r) * K + t + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    for (int i = threadIdx.x; i < 16 * 64; i += 256) {
      const int r = i / 64, c = i % 64;
      Bs[r][c] = t + r < K && col0 + c < N ? B[(t + r) * N + col0 + c]
                                           : __float2bfloat16_rn(0.0f);
    }
    // CHECK: staged-results-refusals.cu:[[@LINE+1]]:70: note: 'sa' points into the array of results 'Cs' and is used in the loop
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa),
                 "l"(extra + t));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
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
      Cs[ty * 4 + i][tx * 4 + j] = acc[i][j];
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 64; i += 256) {
    const int r = i / 64, c = i % 64;
    if (row0 + r < M && col0 + c < N)
      C[(row0 + r) * N + col0 + c] = __float2bfloat16_rn(Cs[r][c]);
  }
}
// CHECK: note: kernel 'address_staged_in_loop' is left unchanged
